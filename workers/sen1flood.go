package workers

// Sen1Floods11 family (spec question types 39-43).

func sen1FloodVariants() []Variant { return nil }
