package families

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schema returns the answer schema document (JSON Schema draft 2020-12)
// of a question type, from its family's package.
func Schema(questionType string) ([]byte, error) {
	for _, f := range All() {
		if _, ok := f.Projectors[questionType]; !ok {
			continue
		}
		b, err := fs.ReadFile(f.Schemas, questionType+".json")
		if err != nil {
			return nil, fmt.Errorf("%w %q: %w", ErrNoSchema, questionType, err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("%w %q", ErrNoSchema, questionType)
}

// ErrNoSchema is the error (wrapped) of Schema and CompiledSchema for a
// question type without an answer schema.
var ErrNoSchema = errors.New("no answer schema for question type")

// SchemaTypes returns the question types that have an answer schema,
// sorted.
func SchemaTypes() []string {
	var out []string
	for _, f := range All() {
		for t := range f.Projectors {
			if _, err := fs.Stat(f.Schemas, t+".json"); err == nil {
				out = append(out, t)
			}
		}
	}
	sort.Strings(out)
	return out
}

// CompileSchemas compiles every family's answer schemas, keyed by
// question type. Callers that validate answers (the runtime's publication
// gate, reports, REAL-mode checks) share this one compilation path and
// its result, which callers must not modify.
func CompileSchemas() (map[string]*jsonschema.Schema, error) {
	out := map[string]*jsonschema.Schema{}
	for _, t := range SchemaTypes() {
		s, err := CompiledSchema(t)
		if err != nil {
			return nil, err
		}
		out[t] = s
	}
	return out, nil
}

// CompiledSchema returns the compiled answer schema of one question type.
// Each type's schema is compiled once per process, on first use: a replay
// of one family compiles that family's schemas only (compiling all 43 was
// about half of a one-record replay's CPU). The result is read-only.
func CompiledSchema(questionType string) (*jsonschema.Schema, error) {
	return processSchemas.compiled(questionType)
}

// processSchemas is the process's schema cache. It is not mutable state
// visible to callers: every call for a type returns the same compiled
// schema, whichever call compiled it.
var processSchemas = newSchemaCache()

// schemaCache compiles schemas with one compiler (so the draft 2020-12
// metaschema is compiled once) and keeps each type's result, errors
// included.
type schemaCache struct {
	mu       sync.Mutex
	compiler *jsonschema.Compiler
	done     map[string]compiledSchema
}

type compiledSchema struct {
	s   *jsonschema.Schema
	err error
}

func newSchemaCache() *schemaCache {
	return &schemaCache{compiler: jsonschema.NewCompiler(), done: map[string]compiledSchema{}}
}

func (c *schemaCache) compiled(t string) (*jsonschema.Schema, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.done[t]; ok {
		return r.s, r.err
	}
	s, err := c.compile(t)
	c.done[t] = compiledSchema{s, err}
	return s, err
}

func (c *schemaCache) compile(t string) (*jsonschema.Schema, error) {
	doc, err := Schema(t)
	if err != nil {
		return nil, err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("answer schema %s: %w", t, err)
	}
	url := "mem:///" + t + ".json"
	if err := c.compiler.AddResource(url, v); err != nil {
		return nil, fmt.Errorf("answer schema %s: %w", t, err)
	}
	s, err := c.compiler.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("answer schema %s: %w", t, err)
	}
	return s, nil
}
