package release

import (
	"strings"

	"github.com/geodisaster/engine/workers"
)

// digestObjects calls fn for every JSON object in v (as encoding/json
// decodes into an any), at any depth, whose "sha256" member is a string
// of 64 characters, with that digest in lower case. Objects are visited
// depth first, an object before its members, members in key order.
func digestObjects(v any, fn func(obj map[string]any, sum string)) {
	switch x := v.(type) {
	case map[string]any:
		if s, _ := x["sha256"].(string); len(s) == 64 {
			fn(x, strings.ToLower(s))
		}
		for _, k := range workers.SortedKeys(x) {
			digestObjects(x[k], fn)
		}
	case []any:
		for _, e := range x {
			digestObjects(e, fn)
		}
	}
}
