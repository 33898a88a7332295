package runtime

// Answer projections of the routing family.
func routingProjectors() map[string]Projector { return map[string]Projector{} }
