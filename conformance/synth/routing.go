package synth

// Generators of the routing family's records.
func routingGens() map[string]typeGen { return map[string]typeGen{} }
