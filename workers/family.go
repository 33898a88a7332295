package workers

import "io/fs"

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
