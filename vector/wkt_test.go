package vector

import (
	"errors"
	"testing"

	"github.com/paulmach/orb"
)

func TestParsePolygonalWKT(t *testing.T) {
	mp, err := ParsePolygonalWKT("POLYGON ((614.9148934193719 1023.999999999999, 620 1020, 610 1010, 614.9148934193719 1023.999999999999))")
	if err != nil {
		t.Fatal(err)
	}
	if len(mp) != 1 || len(mp[0]) != 1 || len(mp[0][0]) != 4 || mp[0][0][0] != (orb.Point{614.9148934193719, 1023.999999999999}) {
		t.Fatalf("parsed %v", mp)
	}
	mp, err = ParsePolygonalWKT(" multipolygon Z (((0 0 1, 1 0 1, 1 1 1, 0 0 1)), ((5 5 0, 6 5 0, 6 6 0, 5 5 0), (5.2 5.1 0, 5.8 5.7 0, 5.8 5.1 0, 5.2 5.1 0))) ")
	if err != nil {
		t.Fatal(err)
	}
	if len(mp) != 2 || len(mp[1]) != 2 || mp[1][1][1] != (orb.Point{5.8, 5.7}) {
		t.Fatalf("parsed %v", mp)
	}
	mp, err = ParsePolygonalWKT("POLYGON EMPTY")
	if err != nil || len(mp) != 0 {
		t.Fatalf("EMPTY: %v %v", mp, err)
	}
	p := orb.Polygon{{{0, 0}, {2.5, 0}, {2.5, 1e-7}, {0, 0}}}
	back, err := ParsePolygonalWKT(PolygonWKT(p))
	if err != nil || len(back) != 1 || len(back[0][0]) != 4 || back[0][0][2] != p[0][2] {
		t.Fatalf("round trip %q: %v %v", PolygonWKT(p), back, err)
	}
}

func TestParsePolygonalWKTErrors(t *testing.T) {
	for _, s := range []string{
		"",
		"POINT (1 2)",
		"POLYGON ((0 0, 1 0, 1 1))",
		"POLYGON ((0 0, 1 0, 1 1, 0 1))",
		"POLYGON ((0 0, 1 0, 1 1, 0 0)",
		"POLYGON ((0 0, 1 x, 1 1, 0 0))",
		"POLYGON ((0 0, 1 0, 1 1, 0 0)) trailing",
	} {
		_, err := ParsePolygonalWKT(s)
		var we *WKTError
		if !errors.As(err, &we) {
			t.Errorf("%q: error %v, want a *WKTError", s, err)
		}
	}
}

// FuzzParsePolygonalWKT checks that the parser never panics and that what
// it accepts is closed rings of at least four points.
func FuzzParsePolygonalWKT(f *testing.F) {
	f.Add("POLYGON ((0 0, 1 0, 1 1, 0 0))")
	f.Add("MULTIPOLYGON Z (((0 0 1, 1 0 1, 1 1 1, 0 0 1)), ((5 5, 6 5, 6 6, 5 5)))")
	f.Fuzz(func(t *testing.T, s string) {
		mp, err := ParsePolygonalWKT(s)
		if err != nil {
			return
		}
		for _, poly := range mp {
			for _, r := range poly {
				if len(r) < 4 || r[0] != r[len(r)-1] {
					t.Fatalf("%q: accepted ring %v", s, r)
				}
			}
		}
	})
}
