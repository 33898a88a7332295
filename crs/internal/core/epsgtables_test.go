package core

import (
	"bytes"
	"compress/zlib"
	"strings"
	"testing"
)

func zlibText(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestParseRegistry reads a small table in the generator's format and
// refuses corrupt ones with the line at fault (crs's tests parse the
// embedded table itself).
func TestParseRegistry(t *testing.T) {
	good := "F\tgeodisaster-epsg-1\tPROJ 9.1.1\tEPSG v10.076\n" +
		"U\t9001\tmetre\tlength\t1\n" +
		"U\t9102\tdegree\tangle\t0.0174532925199433\n" +
		"U\t9110\tsexagesimal DMS\tangle\t\n" +
		"E\t7030\tWGS 84\t6378137\t9001\t298.257223563\t\n"
	r, err := ParseRegistry(zlibText(t, good), len(good))
	if err != nil {
		t.Fatal(err)
	}
	if r.source != "PROJ 9.1.1, EPSG v10.076" || r.Units[9001].Factor != 1 || r.Ellipsoids[7030].Name != "WGS 84" {
		t.Errorf("parsed %q %+v %+v", r.source, r.Units[9001], r.Ellipsoids[7030])
	}
	if r.Units[9110].Factor != r.Units[9102].Factor {
		t.Errorf("sexagesimal unit factor %v, want degree's", r.Units[9110].Factor)
	}
	for _, c := range []struct{ text, want string }{
		{"U\t9001\tmetre\tlength\t1\n", "missing header"},
		{"F\tother-format\n", "unknown format"},
		{good + "Z\t1\n", "line 6: unknown record kind"},
		{good + "U\t9001\tmetre\tlength\n", "line 6: 4 fields, want 5"},
		{good + "U\tx\tmetre\tlength\t1\n", "line 6: bad integer"},
		{good + "E\t7001\tAiry\tNaN\t9001\t299\t\n", "line 6: bad number"},
	} {
		if _, err := ParseRegistry(zlibText(t, c.text), len(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
	if _, err := ParseRegistry([]byte("not zlib"), 8); err == nil {
		t.Error("not zlib: no error")
	}
}
