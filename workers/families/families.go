// Package families is the registration point of the benchmark's
// question-type families: it lists each family package's declaration and
// builds the registry, the answer projections and the answer schemas from
// them.
package families

import (
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/deforestation"
	"github.com/geodisaster/engine/workers/multihazard"
)

// All returns the declaration of every family, in specification order.
func All() []workers.FamilyDef {
	return []workers.FamilyDef{
		deforestation.Def(),
		multihazard.Def(),
	}
}

// NewRegistry returns a registry with every family's variants.
func NewRegistry() (*workers.Registry, error) { return workers.NewRegistry(All()) }
