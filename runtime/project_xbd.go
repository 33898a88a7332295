package runtime

// Answer projections of the xbd family.
func xbdProjectors() map[string]Projector { return map[string]Projector{} }
