package episode

import (
	"bytes"
	"embed"
	"fmt"
	"sort"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// RowType names a kind of row and its JSON Schema.
type RowType string

// The row types, each with its JSON Schema in schemas/ (documented in
// docs/episodes.md).
const (
	SingleAgentEpisodeRow RowType = "single_agent_episode"
	MultiAgentEpisodeRow  RowType = "multi_agent_episode"
	TurnRow               RowType = "sft_turn"
)

// RowTypes lists every row type.
func RowTypes() []RowType {
	return []RowType{SingleAgentEpisodeRow, MultiAgentEpisodeRow, TurnRow}
}

//go:embed schemas/*.schema.json
var schemaFS embed.FS

const schemaBase = "https://geodisaster.invalid/schemas/episode/"

// Schema returns the JSON Schema document of a row type.
func Schema(t RowType) ([]byte, error) {
	b, err := schemaFS.ReadFile("schemas/" + string(t) + ".schema.json")
	if err != nil {
		return nil, fmt.Errorf("no schema for row type %q", t)
	}
	return b, nil
}

// Validator checks rows against their JSON Schemas. It is safe for
// concurrent use.
type Validator struct {
	schemas map[RowType]*jsonschema.Schema
}

// NewValidator compiles the embedded schemas.
func NewValidator() (*Validator, error) {
	c := jsonschema.NewCompiler()
	entries, err := schemaFS.ReadDir("schemas")
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	for _, name := range names {
		b, err := schemaFS.ReadFile("schemas/" + name)
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("episode schema %s: %w", name, err)
		}
		if err := c.AddResource(schemaBase+name, doc); err != nil {
			return nil, fmt.Errorf("episode schema %s: %w", name, err)
		}
	}
	v := &Validator{schemas: map[RowType]*jsonschema.Schema{}}
	for _, t := range RowTypes() {
		s, err := c.Compile(schemaBase + string(t) + ".schema.json")
		if err != nil {
			return nil, fmt.Errorf("episode schema %s: %w", t, err)
		}
		v.schemas[t] = s
	}
	return v, nil
}

// ValidationError reports a row that does not satisfy its schema.
type ValidationError struct {
	Type RowType
	Err  error
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("row is not a valid %s: %v", e.Type, e.Err)
}

func (e *ValidationError) Unwrap() error { return e.Err }

// Validate checks one row, as the JSON text written to its file.
func (v *Validator) Validate(t RowType, row []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(row))
	if err != nil {
		return &ValidationError{Type: t, Err: fmt.Errorf("not JSON: %w", err)}
	}
	return v.validateInstance(t, inst)
}

// validateInstance checks a row given as a decoded JSON value.
func (v *Validator) validateInstance(t RowType, inst any) error {
	s, ok := v.schemas[t]
	if !ok {
		return fmt.Errorf("no schema for row type %q", t)
	}
	if err := s.Validate(inst); err != nil {
		return &ValidationError{Type: t, Err: err}
	}
	return nil
}
