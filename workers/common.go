package workers

// commonVariants holds variants shared by several families.
func commonVariants() []Variant { return nil }
