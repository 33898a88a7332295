// Package golden reads the committed goldens of the native reference
// stack (JSON files written by the generators of conformance/) for the
// tests that compare with them. Tests only.
package golden

import (
	"encoding/json"
	"os"
	"testing"
)

// Load decodes the JSON golden file at path into v. A missing or
// malformed file fails tb: a golden the test depends on is never
// optional.
func Load(tb testing.TB, path string, v any) {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
}
