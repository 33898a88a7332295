package synth

// Generators of the xbd family's records.
func xbdGens() map[string]typeGen { return map[string]typeGen{} }
