"""Oracle answers of the xbd family."""

ANSWERS = {}
