package workers

// xBD building-damage family (spec question types 29-35).

func xbdVariants() []Variant { return nil }
