// Package schemas embeds the JSON Schemas (draft 2020-12) of the final
// answers of the benchmark's question types, one file per type named
// <question_type>.json. The runtime publishes an answer only when it
// validates against its type's schema.
package schemas

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.json
var files embed.FS

// Get returns the schema document of a question type.
func Get(questionType string) ([]byte, error) {
	b, err := files.ReadFile(questionType + ".json")
	if err != nil {
		return nil, fmt.Errorf("no answer schema for question type %q", questionType)
	}
	return b, nil
}

// Types returns the question types that have a schema, sorted.
func Types() []string {
	ents, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range ents {
		if name, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
