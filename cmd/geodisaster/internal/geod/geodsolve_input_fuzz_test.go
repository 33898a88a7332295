package geod

import (
	"strings"
	"testing"
)

// FuzzGeodLine feeds arbitrary input lines to GeodSolve's input parser and
// solver, in the direct and inverse forms: no panic, and a line that
// solves prints at least the three fields of its form.
func FuzzGeodLine(f *testing.F) {
	for _, s := range []string{
		"40.64 -73.78 1.36 103.99", "40:38:23N 073:46:44W 45 1e6", "0 0 0 0",
		"33.5 -118.25 -45W 250000", "45d30'15.5\"N 15d15'E 30 1000", "nan inf -inf 1",
		"90 0 -90 0", "1e400 0 0 0", "+-1 2 3 4", "N45 E15 45 10", "12 34 400 1234.5",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, line string, inverse bool) {
		o, err := parseGeodArgs(nil)
		if err != nil {
			t.Fatal(err)
		}
		o.inverse = inverse
		out, err := solveLine(line, o)
		if err != nil {
			return
		}
		if n := len(strings.Fields(out)); n < 3 {
			t.Errorf("%q: solved to %q (%d fields)", line, out, n)
		}
	})
}
