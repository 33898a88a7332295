package vector

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/paulmach/orb"
)

type shapelyCase struct {
	WKT      string     `json:"wkt"`
	Area     float64    `json:"area"`
	Centroid [2]float64 `json:"centroid"`
	Clips    []struct {
		Box  [4]float64 `json:"box"`
		Area float64    `json:"area"`
	} `json:"clips"`
}

// TestPolygonShapelyGoldens pins area and centroid bit for bit, and
// rectangle-clipped areas to 1e-9 relative, against Shapely/GEOS
// (testdata/gen_polygon_shapely.py).
func TestPolygonShapelyGoldens(t *testing.T) {
	b, err := os.ReadFile("testdata/polygon_shapely.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []shapelyCase `json:"cases"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < 100 {
		t.Fatalf("only %d cases", len(doc.Cases))
	}
	for i, c := range doc.Cases {
		mp, err := ParsePolygonalWKT(c.WKT)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if a := MultiPolygonArea(mp); a != c.Area {
			t.Errorf("case %d: area %v, shapely %v (%s)", i, a, c.Area, c.WKT)
		}
		ct, ok := Centroid(mp)
		if !ok || ct[0] != c.Centroid[0] || ct[1] != c.Centroid[1] {
			t.Errorf("case %d: centroid %v, shapely %v", i, ct, c.Centroid)
		}
		for _, cl := range c.Clips {
			bd := orb.Bound{Min: orb.Point{cl.Box[0], cl.Box[1]}, Max: orb.Point{cl.Box[2], cl.Box[3]}}
			got := ClippedArea(mp, bd)
			if math.Abs(got-cl.Area) > 1e-9*math.Max(1, cl.Area) {
				t.Errorf("case %d box %v: clipped area %v, shapely %v", i, cl.Box, got, cl.Area)
			}
		}
	}
}

func TestRingSignedAreaOrientation(t *testing.T) {
	// Counter-clockwise in a y-up frame: negative, as GEOS defines it.
	ccw := orb.Ring{{0, 0}, {4, 0}, {4, 3}, {0, 3}, {0, 0}}
	if a := RingSignedArea(ccw); a != -12 {
		t.Fatalf("ccw signed area %v, want -12", a)
	}
	cw := orb.Ring{{0, 0}, {0, 3}, {4, 3}, {4, 0}, {0, 0}}
	if a := RingSignedArea(cw); a != 12 {
		t.Fatalf("cw signed area %v, want 12", a)
	}
	if a := RingSignedArea(orb.Ring{{0, 0}, {1, 1}}); a != 0 {
		t.Fatalf("degenerate ring area %v", a)
	}
}

func TestPolygonAreaHoleAndCentroid(t *testing.T) {
	p := orb.Polygon{
		{{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 0}},
		{{2, 2}, {2, 4}, {4, 4}, {4, 2}, {2, 2}},
	}
	if a := PolygonArea(p); a != 96 {
		t.Fatalf("area %v, want 96", a)
	}
	c, ok := Centroid(orb.MultiPolygon{p})
	// (100*(5,5) - 4*(3,3)) / 96
	want := orb.Point{(500.0 - 12) / 96, (500.0 - 12) / 96}
	if !ok || math.Abs(c[0]-want[0]) > 1e-12 || math.Abs(c[1]-want[1]) > 1e-12 {
		t.Fatalf("centroid %v, want %v", c, want)
	}
	if _, ok := Centroid(orb.MultiPolygon{{{{0, 0}, {1, 1}, {2, 2}, {0, 0}}}}); ok {
		t.Fatal("a zero-area polygon has no area centroid")
	}
}

func TestPolygonContains(t *testing.T) {
	p := orb.Polygon{
		{{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 0}},
		{{2, 2}, {2, 4}, {4, 4}, {4, 2}, {2, 2}},
	}
	for _, c := range []struct {
		pt   orb.Point
		want bool
	}{{orb.Point{1, 1}, true}, {orb.Point{3, 3}, false}, {orb.Point{11, 5}, false}, {orb.Point{9.5, 9.5}, true}} {
		if got := PolygonContains(p, c.pt); got != c.want {
			t.Errorf("contains %v = %v, want %v", c.pt, got, c.want)
		}
	}
}
