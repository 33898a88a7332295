"""Oracle answers of the sen1flood family."""

ANSWERS = {}
