"""Oracle answers of the routing family."""

ANSWERS = {}
