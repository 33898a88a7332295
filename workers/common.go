package workers

// kernelFamilies holds the variants of the families not yet in their own
// package.
func kernelFamilies() [][]Variant {
	return [][]Variant{xbdVariants(), routingVariants(), sen1FloodVariants()}
}
