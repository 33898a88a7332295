package crs

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/geodisaster/engine/crs/internal/core"
	"github.com/geodisaster/engine/crs/internal/proj"
	"github.com/geodisaster/engine/internal/golden"
)

// crsGoldens mirrors conformance/geodesy/crs_goldens.json, written by
// conformance/geodesy/gen_crs.py with pyproj.Transformer (always_xy).
type crsGoldens struct {
	Proj  string `json:"proj"`
	Cases []struct {
		From, To string
		Points   [][4]float64
	} `json:"cases"`
}

func loadCRSGoldens(t testing.TB) crsGoldens {
	t.Helper()
	var g crsGoldens
	golden.Load(t, "../conformance/geodesy/crs_goldens.json", &g)
	return g
}

// isNative reports whether the code path is one the engine has always
// implemented (WGS84 geographic, Web Mercator, UTM, aeqd), held to the
// native tolerances below.
func isNative(s string) bool {
	return s == "EPSG:4326" || s == "EPSG:3857" || strings.HasPrefix(s, "aeqd:") ||
		strings.HasPrefix(s, "EPSG:326") || strings.HasPrefix(s, "EPSG:327")
}

// gridShifted reports whether c is on a datum whose shift to WGS 84 PROJ
// takes from a grid of Debian's proj-data (gridShiftedDatums; here DHDN,
// BETA2007.gsb), which the engine does not use.
func gridShifted(c CRS) bool {
	d, ok := c.(core.OnDatum)
	return ok && gridShiftedDatums[d.Geodetic().Code]
}

// helmertShifted reports whether c is on a datum with a non-null Helmert
// shift to WGS 84 (OSGB36, MGI, DHDN...).
func helmertShifted(c CRS) bool {
	d, ok := c.(core.OnDatum)
	if !ok {
		return false
	}
	g := d.Geodetic()
	return !g.IsWGS84() && len(g.Shifts) > 0 && !g.Shifts[0].H.IsNull()
}

// errorMetres converts the difference between two outputs of CRS c into
// metres (degrees are scaled at the point's latitude).
func errorMetres(c CRS, x, y, wx, wy float64) float64 {
	if c.Geographic() {
		dx := proj.Wrap180(x-wx) * 111320 * math.Cos(wy*proj.DegToRad)
		dy := (y - wy) * 110574
		return math.Hypot(dx, dy)
	}
	return math.Hypot(x-wx, y-wy) * c.Unit().Metres
}

func TestTransformGoldens(t *testing.T) {
	g := loadCRSGoldens(t)
	worst := map[string]float64{}
	var maxDeg float64
	n := 0
	for _, c := range g.Cases {
		if os.Getenv("NATIVE_ONLY") != "" && !(isNative(c.From) && isNative(c.To)) {
			continue
		}
		from, err := Parse(c.From)
		if err != nil {
			t.Fatalf("%s: %v", c.From, err)
		}
		to, err := Parse(c.To)
		if err != nil {
			t.Fatalf("%s: %v", c.To, err)
		}
		native := isNative(c.From) && isNative(c.To)
		kind := "native"
		tol := 1e-3 // metres: the 1 mm requirement
		if !native {
			kind = "other"
			if gridShifted(from) || gridShifted(to) {
				kind = "other+grid"
				tol = 5
			}
		}
		for _, p := range c.Points {
			x, y, err := Transform(from, to, p[0], p[1])
			if err != nil {
				t.Errorf("%s->%s (%v, %v): %v", c.From, c.To, p[0], p[1], err)
				continue
			}
			n++
			d := errorMetres(to, x, y, p[2], p[3])
			if d > tol {
				t.Errorf("%s->%s (%v, %v): got (%v, %v) want (%v, %v): %.3g m", c.From, c.To, p[0], p[1], x, y, p[2], p[3], d)
			}
			key := kind
			if to.Geographic() {
				key += " inverse"
				if native {
					dd := math.Max(math.Abs(proj.Wrap180(x-p[2])), math.Abs(y-p[3]))
					if dd > 1e-8 {
						t.Errorf("%s->%s (%v, %v): %g degrees off", c.From, c.To, p[0], p[1], dd)
					}
					maxDeg = math.Max(maxDeg, dd)
				}
			} else {
				key += " forward"
			}
			worst[key] = math.Max(worst[key], d)
			if os.Getenv("VERBOSE_WORST") != "" && d > 1e-7 {
				t.Logf("%s->%s %v: %.3g m", c.From, c.To, p, d)
			}
		}
	}
	t.Logf("%d points against PROJ %s; worst errors (m): %v; native inverse max %.3g deg", n, g.Proj, worst, maxDeg)
}
