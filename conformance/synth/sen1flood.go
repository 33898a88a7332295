package synth

// Generators of the sen1flood family's records.
func sen1FloodGens() map[string]typeGen { return map[string]typeGen{} }
