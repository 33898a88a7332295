package sen1flood

import (
	"embed"
	"io/fs"

	"github.com/geodisaster/engine/workers"
)

// schemaFiles holds the answer schema of each of the family's question
// types, schemas/<question_type>.json.
//
//go:embed schemas/*.json
var schemaFiles embed.FS

// Def declares the Sen1Floods11 family (question types 39-43).
func Def() workers.FamilyDef {
	// fs.Sub of a constant, valid directory name cannot fail.
	schemas, _ := fs.Sub(schemaFiles, "schemas")
	return workers.FamilyDef{Name: workers.Sen1Flood, Variants: sen1FloodVariants, Projectors: sen1FloodProjectors(), Schemas: schemas}
}
