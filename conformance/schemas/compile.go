package schemas

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Compile compiles every embedded answer schema, keyed by question type.
// Callers that validate answers (the runtime's publication gate, reports,
// REAL-mode checks) share this one compilation path, and its result: the
// schemas are compiled once per process (about 70 ms of a replay's start,
// paid a second time by its report), and the map and schemas must not be
// modified.
func Compile() (map[string]*jsonschema.Schema, error) { return compiled() }

var compiled = sync.OnceValues(compileAll)

func compileAll() (map[string]*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	out := map[string]*jsonschema.Schema{}
	for _, t := range Types() {
		doc, err := Get(t)
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
