package runtime

// Answer projections of the sen1flood family.
func sen1FloodProjectors() map[string]Projector { return map[string]Projector{} }
