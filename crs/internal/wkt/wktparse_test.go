package wkt

import (
	"strings"
	"testing"
)

// TestParseTree reads the WKT syntax: brackets or parentheses, doubled
// quotes inside strings, numbers, enumeration words, nested nodes and
// the EPSG identifier of a node; malformed text is an error.
func TestParseTree(t *testing.T) {
	tr, err := parseWKTTree(` geogcs ( "My ""quoted"" name", DATUM["D",SPHEROID["S",6378137,298.257223563]],
		PRIMEM["Greenwich",0], UNIT["degree",0.0174532925199433], AXIS["Lat",NORTH], AUTHORITY["EPSG","4326"] ) `)
	if err != nil {
		t.Fatal(err)
	}
	if tr.kw != "GEOGCS" || tr.name() != `My "quoted" name` {
		t.Errorf("keyword %q name %q", tr.kw, tr.name())
	}
	if sp := tr.child("DATUM").child("SPHEROID"); sp == nil {
		t.Error("no SPHEROID in DATUM")
	} else if a, ok := sp.number(0); !ok || a != 6378137 {
		t.Errorf("semi-major axis %v %v", a, ok)
	}
	if ax := tr.child("AXIS"); ax == nil || len(ax.args) != 2 || !ax.args[1].isWord || ax.args[1].str != "NORTH" {
		t.Errorf("AXIS %+v", ax)
	}
	if got := tr.epsgID(); got != 4326 {
		t.Errorf("EPSG ID %d", got)
	}
	if !IsKeyword("geogcrs") || IsKeyword("POINT") {
		t.Error("IsKeyword")
	}
	for _, bad := range []string{
		``, `GEOGCS`, `GEOGCS["a"`, `GEOGCS["a"] x`, `GEOGCS["a)`, `GEOGCS["a",]`, `GEOGCS["a" "b"]`,
		`GEOGCS("a"]`, strings.Repeat("A[", 100) + strings.Repeat("]", 100),
	} {
		if _, err := parseWKTTree(bad); err == nil {
			t.Errorf("%.40q: no error", bad)
		}
	}
}

// TestCodeByNameIsDeterministic: a method name EPSG gives two codes (a
// deprecated one and its successor) resolves to the same code on every
// call, whatever the map's iteration order; names match up to case and
// punctuation.
func TestCodeByNameIsDeterministic(t *testing.T) {
	names := map[int]string{9842: "Equidistant Cylindrical", 1028: "Equidistant Cylindrical",
		1029: "Equidistant Cylindrical (Spherical)", 9823: "Equidistant Cylindrical (Spherical)", 9807: "Transverse Mercator"}
	for range 100 {
		if c := codeByName(names, "equidistant_cylindrical"); c != 1028 {
			t.Fatalf("Equidistant Cylindrical: %d, want 1028", c)
		}
		if c := codeByName(names, "Equidistant Cylindrical (Spherical)"); c != 1029 {
			t.Fatalf("Equidistant Cylindrical (Spherical): %d, want 1029", c)
		}
	}
	if c := codeByName(names, "Mercator"); c != 0 {
		t.Errorf("Mercator: %d, want 0", c)
	}
}
