package workers

import (
	"fmt"
	"io/fs"
)

// FamilyDef declares one question-type family to the kernel: the variants
// of its workers, the answer projection of each of its question types and
// their answer schemas. Each family package exports one (its Def
// function); package workers/families lists them.
type FamilyDef struct {
	// Name is the family's name.
	Name Family
	// Variants returns the family's tool variants.
	Variants func() []Variant
	// Projectors maps each of the family's question types to its answer
	// projection.
	Projectors map[string]Projector
	// Schemas holds <question_type>.json, the JSON Schema (draft 2020-12)
	// of each of the family's question types' final answer.
	Schemas fs.FS
}

// NewFamilyDef declares a family whose answer schemas are the files
// schemas/<question_type>.json of files (the family's embedded schemas
// directory).
func NewFamilyDef(name Family, variants func() []Variant, projectors map[string]Projector, files fs.FS) FamilyDef {
	// fs.Sub of a constant, valid directory name cannot fail.
	schemas, _ := fs.Sub(files, "schemas")
	return FamilyDef{Name: name, Variants: variants, Projectors: projectors, Schemas: schemas}
}

// View is the read-only session state an answer projection sees.
type View interface {
	// Latest returns the most recent result handle of a kind, or nil.
	Latest(kind string) *Handle
	// Completed reports whether TaskComplete(status=TASK_COMPLETE) was
	// called.
	Completed() bool
}

// Projector builds a question type's final answer from worker evidence in
// a session. It returns (nil, nil) while the evidence is not yet complete
// and an error when the evidence contradicts the answer contract. It never
// reads files and never sees gold.
type Projector func(v View) (any, error)

// LatestPayload returns the newest result handle of kind in v and its
// payload as T. The handle is nil while v has none; the error names the
// handle when its payload is not a T (what describes T, "a flood report").
func LatestPayload[T any](v View, kind, what string) (*Handle, T, error) {
	var zero T
	h := v.Latest(kind)
	if h == nil {
		return nil, zero, nil
	}
	p, ok := h.Result.Payload.(T)
	if !ok {
		return nil, zero, fmt.Errorf("%s is not %s", h.Name, what)
	}
	return h, p, nil
}

// FinalPayload is LatestPayload once the task is complete: before
// TaskComplete(status=TASK_COMPLETE) it returns a nil handle.
func FinalPayload[T any](v View, kind, what string) (*Handle, T, error) {
	if !v.Completed() {
		var zero T
		return nil, zero, nil
	}
	return LatestPayload[T](v, kind, what)
}
