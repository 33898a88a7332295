package workers

// Flood-safe routing family (spec question types 36-38).

func routingVariants() []Variant { return nil }
