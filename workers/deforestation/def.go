package deforestation

import "github.com/geodisaster/engine/workers"

// Def declares the deforestation family (question types 1-8).
func Def() workers.FamilyDef {
	return workers.FamilyDef{Name: workers.Deforestation, Variants: deforestationVariants}
}
