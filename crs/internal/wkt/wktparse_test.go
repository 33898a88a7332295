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
