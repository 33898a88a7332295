package htmlreport

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/scoring"
)

// valueAt returns the value at a scorer JSON path ("$", "$.a.b", "$.a[2]",
// `$["a key"]`) in raw JSON, as compact shortened JSON, or "(absent)".
func valueAt(doc []byte, path string) string {
	v, err := scoring.DecodeJSON(doc)
	if err != nil {
		return "(not JSON)"
	}
	x, ok := walk(v, path)
	if !ok {
		return "(absent)"
	}
	b, err := json.Marshal(x)
	if err != nil {
		return "(unprintable)"
	}
	return shorten(string(b))
}

// walk follows path through decoded JSON.
func walk(v any, path string) (any, bool) {
	rest, ok := strings.CutPrefix(path, "$")
	if !ok {
		return nil, false
	}
	for rest != "" {
		switch rest[0] {
		case '.':
			i := 1
			for i < len(rest) && rest[i] != '.' && rest[i] != '[' {
				i++
			}
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[rest[1:i]]; !ok {
				return nil, false
			}
			rest = rest[i:]
		case '[':
			end := closing(rest)
			if end < 0 {
				return nil, false
			}
			inner := rest[1:end]
			rest = rest[end+1:]
			if strings.HasPrefix(inner, `"`) {
				key, err := strconv.Unquote(inner)
				m, ok := v.(map[string]any)
				if err != nil || !ok {
					return nil, false
				}
				if v, ok = m[key]; !ok {
					return nil, false
				}
				continue
			}
			n, err := strconv.Atoi(inner)
			a, ok := v.([]any)
			if err != nil || !ok || n < 0 || n >= len(a) {
				return nil, false
			}
			v = a[n]
		default:
			return nil, false
		}
	}
	return v, true
}

// closing finds the ']' ending the bracket segment at s[0], skipping a
// quoted key's escapes.
func closing(s string) int {
	inStr := false
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case !inStr && c == ']':
			return i
		}
	}
	return -1
}
