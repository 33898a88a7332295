package core

import (
	"errors"
	"strings"
	"testing"
)

// TestParseRegistry reads a small table in the generator's format and
// refuses corrupt ones with the line at fault (crs's TestRegistryParses
// parses the embedded table itself).
func TestParseRegistry(t *testing.T) {
	good := "F\tgeodisaster-epsg-1\tPROJ 9.1.1\tEPSG v10.076\n" +
		"U\t9001\tmetre\tlength\t1\n" +
		"U\t9102\tdegree\tangle\t0.0174532925199433\n" +
		"U\t9110\tsexagesimal DMS\tangle\t\n" +
		"E\t7030\tWGS 84\t6378137\t9001\t298.257223563\t\n"
	r, err := ParseRegistry(good)
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
		{good + "\nU\t9002\tfoot\tlength\t0.3048\n", "line 6: unknown record kind"},
		{good + "P\t2000\n", "line 6: 2 fields, want 8"},
		{good + "P\tx\tname\t4326\t4400\t16031\t0\t\n", "line 6: bad integer"},
		{good + "H\t1055\tname\t9603\n", "line 6: 4 fields, want 10"},
		{good + "P\t2001\ta\t4326\t4400\t16031\t0\t\nP\t2000\tb\t4326\t4400\t16031\t0\t\n", "line 7: code 2000 after 2001"},
	} {
		if _, err := ParseRegistry(c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
	if _, err := ParseRegistry(""); err == nil {
		t.Error("empty table: no error")
	}
}

// TestRegistryLazyCorrupt checks that a corrupt record of a table parsed
// on lookup is an error of the lookups that meet it and of ParseAll, with
// the line at fault, and never a panic.
func TestRegistryLazyCorrupt(t *testing.T) {
	text := "F\tgeodisaster-epsg-1\tPROJ 9.1.1\tEPSG v10.076\n" +
		"U\t9001\tmetre\tlength\t1\n" +
		"U\t9122\tdegree\tangle\t0.0174532925199433\n" +
		"E\t7030\tWGS 84\t6378137\t9001\t298.257223563\t\n" +
		"D\t6326\tWorld Geodetic System 1984\t7030\t8901\t\t\t\t\n" +
		"C\t6422\tellipsoidal\tGeodetic latitude|Lat|north|9122;Geodetic longitude|Lon|east|9122\n" +
		"A\t1262\tWorld\tWorld.\t-90,-180,90,180\n" +
		"A\t1263\tBad\tBad.\t-90,-180,90\n" +
		"G\t4326\tWGS 84\t6326\t6422\tgeographic 2D\t0\t1262:1024\n" +
		"G\t4327\tBroken\t6326\t6422\tgeographic 2D\t0\t1262\n"
	r, err := ParseRegistry(text)
	if err != nil {
		t.Fatal(err)
	}
	if r.Err() != nil {
		t.Fatalf("Err before any lookup: %v", r.Err())
	}
	if c, err := r.FromEPSG(4326); err != nil || c.EPSG() != 4326 {
		t.Fatalf("EPSG:4326: %v, %v", c, err)
	}
	if e, ok := r.Extent(1262); !ok || e.Name != "World" {
		t.Errorf("extent 1262: %+v %v", e, ok)
	}
	if r.Err() != nil {
		t.Fatalf("Err after sound lookups: %v", r.Err())
	}
	if _, err := r.FromEPSG(4327); err == nil || !strings.Contains(err.Error(), "line 10: usage") {
		t.Errorf("EPSG:4327: %v, want line 10's error", err)
	}
	if r.Geog(4327) != nil || r.Err() == nil {
		t.Errorf("corrupt record found, or no Err: %v", r.Err())
	}
	if err := r.ParseAll(); err == nil || !strings.Contains(err.Error(), "line 8: bbox") {
		t.Errorf("ParseAll: %v, want line 8's error", err)
	}
	if _, err := r.FromEPSG(9999); err == nil || errors.Is(err, ErrUnknownCRS) {
		t.Errorf("unknown code on a corrupt table: %v, want the table's error", err)
	}
	// Lookups in the zero registry (crs's stand-in for a corrupt table)
	// find nothing.
	var z Registry
	if z.Geog(4326) != nil || z.Proj(32633) != nil || z.Datum(6326) != nil || z.Conv(16031) != nil ||
		z.Helmerts(4326) != nil || len(z.GeogCodes()) != 0 || z.ParseAll() != nil || z.Err() != nil {
		t.Error("zero registry finds something")
	}
	if _, ok := z.Extent(1262); ok {
		t.Error("zero registry finds an extent")
	}
}
