package families

import (
	"bytes"
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
			return nil, fmt.Errorf("no answer schema for question type %q: %w", questionType, err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("no answer schema for question type %q", questionType)
}

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
func CompileSchemas() (map[string]*jsonschema.Schema, error) { return compiledSchemas() }

// compiledSchemas compiles the schemas once per process: a replay's
// publication gate and its HTML report both need them (about 70 ms each
// of a one-record replay's fixed cost when compiled twice). The result is
// read-only.
var compiledSchemas = sync.OnceValues(compileSchemas)

func compileSchemas() (map[string]*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	out := map[string]*jsonschema.Schema{}
	for _, t := range SchemaTypes() {
		doc, err := Schema(t)
		if err != nil {
			return nil, err
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
		if err != nil {
			return nil, fmt.Errorf("answer schema %s: %w", t, err)
		}
		url := "mem:///" + t + ".json"
		if err := c.AddResource(url, v); err != nil {
			return nil, fmt.Errorf("answer schema %s: %w", t, err)
		}
		s, err := c.Compile(url)
		if err != nil {
			return nil, fmt.Errorf("answer schema %s: %w", t, err)
		}
		out[t] = s
	}
	return out, nil
}
