package xbd

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

// Def declares the xBD family (question types 29-35).
func Def() workers.FamilyDef {
	// fs.Sub of a constant, valid directory name cannot fail.
	schemas, _ := fs.Sub(schemaFiles, "schemas")
	return workers.FamilyDef{Name: workers.XBD, Variants: xbdVariants, Projectors: xbdProjectors(), Schemas: schemas}
}
