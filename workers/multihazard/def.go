package multihazard

import "github.com/geodisaster/engine/workers"

// Def declares the multi-hazard family (question types 9-28).
func Def() workers.FamilyDef {
	return workers.FamilyDef{Name: workers.MultiHazard, Variants: multiHazardVariants}
}
