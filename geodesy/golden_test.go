package geodesy

import (
	"math"
	"testing"

	"github.com/geodisaster/engine/internal/golden"
)

// goldens mirrors conformance/geodesy/geodesy_goldens.json, written by
// conformance/geodesy/gen_geodesy.py from pyproj.Geod (PROJ 9.1's copy of
// GeographicLib's geodesic routines) and mpmath.
type goldens struct {
	Proj     string       `json:"proj"`
	Inverse  [][7]float64 `json:"inverse"`
	Direct   [][7]float64 `json:"direct"`
	Polygons []struct {
		Lats, Lons []float64
		Area       float64
		Perimeter  float64
	} `json:"polygons"`
	Quadrangles [][4]float64 `json:"quadrangles"`
	TotalArea   float64      `json:"total_area_m2"`
}

func loadGoldens(t testing.TB) goldens {
	t.Helper()
	var g goldens
	golden.Load(t, "../conformance/geodesy/geodesy_goldens.json", &g)
	return g
}

// angleDiff returns |a-b| modulo 360 in degrees.
func angleDiff(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 360)
	return math.Min(d, 360-d)
}

func TestInverseGoldens(t *testing.T) {
	g := loadGoldens(t)
	e := WGS84()
	var maxS float64
	for _, c := range g.Inverse {
		s12, azi1, azi2, err := e.Inverse(c[0], c[1], c[2], c[3])
		if err != nil {
			t.Fatalf("%v: %v", c[:4], err)
		}
		if d := math.Abs(s12 - c[4]); d > 1e-6 {
			t.Errorf("%v: s12 %v want %v (diff %g m)", c[:4], s12, c[4], d)
		} else if d > maxS {
			maxS = d
		}
		// Azimuths at a pole or of a zero-length line are conventions; the
		// goldens include them and GeographicLib's choices must match.
		if d := angleDiff(azi1, c[5]); d > 1e-9 {
			t.Errorf("%v: azi1 %v want %v", c[:4], azi1, c[5])
		}
		if d := angleDiff(azi2, c[6]); d > 1e-9 {
			t.Errorf("%v: azi2 %v want %v", c[:4], azi2, c[6])
		}
	}
	t.Logf("%d inverse cases against PROJ %s: max |Δs12| = %.3g m", len(g.Inverse), g.Proj, maxS)
}

func TestDirectGoldens(t *testing.T) {
	g := loadGoldens(t)
	e := WGS84()
	var maxPos float64
	for _, c := range g.Direct {
		lat2, lon2, azi2, err := e.Direct(c[0], c[1], c[2], c[3])
		if err != nil {
			t.Fatalf("%v: %v", c[:4], err)
		}
		// Convert angular error to metres at the destination.
		dlat := math.Abs(lat2-c[4]) * 111e3
		dlon := angleDiff(lon2, c[5]) * 111e3 * math.Cos(c[4]*math.Pi/180)
		if d := math.Hypot(dlat, dlon); d > 1e-6 {
			t.Errorf("%v: (%v, %v) want (%v, %v), %g m apart", c[:4], lat2, lon2, c[4], c[5], d)
		} else if d > maxPos {
			maxPos = d
		}
		if math.Abs(c[4]) < 89.99 {
			if d := angleDiff(azi2, c[6]); d > 1e-9 {
				t.Errorf("%v: azi2 %v want %v", c[:4], azi2, c[6])
			}
		}
	}
	t.Logf("%d direct cases: max position error %.3g m", len(g.Direct), maxPos)
}

func TestPolygonGoldens(t *testing.T) {
	g := loadGoldens(t)
	e := WGS84()
	for _, p := range g.Polygons {
		a, err := e.PolygonAreaSigned(p.Lats, p.Lons)
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(a - p.Area); d > 1e-9*math.Abs(p.Area)+1e-3 {
			t.Errorf("polygon %v %v: area %v want %v", p.Lats, p.Lons, a, p.Area)
		}
	}
}

func TestQuadrangleGoldens(t *testing.T) {
	g := loadGoldens(t)
	e := WGS84()
	var maxRel float64
	for _, c := range g.Quadrangles {
		a, err := e.QuadrangleArea(c[0], c[1], 0, c[2])
		if err != nil {
			t.Fatal(err)
		}
		rel := math.Abs(a-c[3]) / c[3]
		if c[3] == 0 {
			rel = math.Abs(a)
		}
		if rel > 1e-12 {
			t.Errorf("quadrangle %v: %v want %v (rel %g)", c[:3], a, c[3], rel)
		}
		maxRel = math.Max(maxRel, rel)
	}
	if rel := math.Abs(e.TotalArea()-g.TotalArea) / g.TotalArea; rel > 1e-15 {
		t.Errorf("total area %v want %v", e.TotalArea(), g.TotalArea)
	}
	t.Logf("%d quadrangles against mpmath: max relative error %.3g", len(g.Quadrangles), maxRel)
}
