package geodesy

import (
	"errors"
	"math"
	"testing"

	"github.com/geodisaster/engine/crs"
)

func TestCellAreasSumToBlock(t *testing.T) {
	cases := []struct {
		name string
		t    crs.Affine
		h    int
	}{
		{"north-up 10m-ish", crs.Affine{0.0001, 0, 12.5, 0, -0.0001, 45.3}, 512},
		{"south-up", crs.Affine{0.00025, 0, -60, 0, 0.00025, -10}, 300},
		{"global 1deg", crs.Affine{1, 0, -180, 0, -1, 90}, 180},
		{"pole cap", crs.Affine{0.5, 0, 0, 0, 0.01, 89}, 100},
		{"equator", crs.Affine{1.0 / 3600, 0, 100, 0, -1.0 / 3600, 0.1}, 720},
	}
	e := WGS84()
	for _, c := range cases {
		areas, err := CellAreas(c.t, c.h)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var sum float64
		for _, a := range areas {
			if !(a > 0) {
				t.Fatalf("%s: non-positive cell area %v", c.name, a)
			}
			sum += a
		}
		y0, y1 := c.t[5], float64(c.t[4]*float64(c.h))+c.t[5]
		if y0 > y1 {
			y0, y1 = y1, y0
		}
		block, err := e.QuadrangleArea(y0, y1, 0, math.Abs(c.t[0]))
		if err != nil {
			t.Fatal(err)
		}
		if rel := math.Abs(sum-block) / block; rel > 1e-9 {
			t.Errorf("%s: sum %v block %v rel %g", c.name, sum, block, rel)
		} else {
			t.Logf("%s: rows sum to block within %.2g relative", c.name, rel)
		}
	}
}

func TestCellAreasGlobalTotal(t *testing.T) {
	areas, err := CellAreas(crs.Affine{0.25, 0, -180, 0, -0.25, 90}, 720)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, a := range areas {
		sum += a * 1440
	}
	total := WGS84().TotalArea()
	// GeographicLib: the WGS84 ellipsoid's area is 510065621724088.5 m².
	if rel := math.Abs(total-510065621724088.5) / total; rel > 1e-14 {
		t.Errorf("total area %v", total)
	}
	if rel := math.Abs(sum-total) / total; rel > 1e-12 {
		t.Errorf("global sum %v want %v", sum, total)
	}
}

func TestCellAreasGeodesicClose(t *testing.T) {
	tr := crs.Affine{0.0001, 0, 12.5, 0, -0.0001, 45.3}
	q, err := CellAreas(tr, 10)
	if err != nil {
		t.Fatal(err)
	}
	g, err := CellAreasGeodesic(tr, 10)
	if err != nil {
		t.Fatal(err)
	}
	for i := range q {
		// For 11 m cells the geodesic and parallel edges differ by ~1e-9 relative.
		if rel := math.Abs(q[i]-g[i]) / q[i]; rel > 1e-7 {
			t.Errorf("row %d: quadrangle %v geodesic %v", i, q[i], g[i])
		}
	}
}

func TestBadInput(t *testing.T) {
	e := WGS84()
	nan := math.NaN()
	errs := []error{}
	add := func(err error) { errs = append(errs, err) }
	_, err := e.QuadrangleArea(-91, 0, 0, 1)
	add(err)
	_, err = e.QuadrangleArea(0, 90.5, 0, 1)
	add(err)
	_, err = e.QuadrangleArea(nan, 1, 0, 1)
	add(err)
	_, err = e.QuadrangleArea(2, 1, 0, 1)
	add(err)
	_, err = e.QuadrangleArea(0, 1, 0, math.Inf(1))
	add(err)
	_, err = e.QuadrangleArea(0, 1, 0, 400)
	add(err)
	_, err = CellAreas(crs.Affine{1, 0.1, 0, 0, -1, 0}, 3)
	add(err)
	_, err = CellAreas(crs.Affine{1, 0, 0, 0, -1, 91}, 3)
	add(err)
	_, err = CellAreas(crs.Affine{1, 0, 0, 0, -1, 0}, 91)
	add(err)
	_, err = CellAreas(crs.Affine{1, 0, 0, 0, nan, 0}, 3)
	add(err)
	_, err = CellAreas(crs.Affine{0, 0, 0, 0, -1, 0}, 3)
	add(err)
	_, _, _, err = e.Inverse(91, 0, 0, 0)
	add(err)
	_, _, _, err = e.Inverse(0, nan, 0, 0)
	add(err)
	_, _, _, err = e.Direct(0, 0, nan, 1)
	add(err)
	_, err = e.PolygonArea([]float64{0, 1}, []float64{0})
	add(err)
	_, err = Ellipsoid{}.QuadrangleArea(0, 1, 0, 1)
	add(err)
	for i, err := range errs {
		if err == nil {
			t.Errorf("case %d: no error", i)
		} else if !errors.Is(err, ErrInvalidInput) {
			t.Errorf("case %d: %v does not wrap ErrInvalidInput", i, err)
		}
	}
	// Clamped overshoot from rounding is accepted.
	if _, err := CellAreas(crs.Affine{0.1, 0, 0, 0, -0.1, 90 + 1e-12}, 1800); err != nil {
		t.Errorf("rounding overshoot rejected: %v", err)
	}
}

func TestQuadrangleAntimeridian(t *testing.T) {
	e := WGS84()
	a, _ := e.QuadrangleArea(0, 1, 170, -170)
	b, _ := e.QuadrangleArea(0, 1, 0, 20)
	if a != b {
		t.Errorf("antimeridian cell %v want %v", a, b)
	}
	z, _ := e.QuadrangleArea(5, 5, 0, 1)
	if z != 0 {
		t.Errorf("zero-height cell %v", z)
	}
}

func TestSphere(t *testing.T) {
	s := Ellipsoid{A: 6371000, F: 0}
	a, err := s.QuadrangleArea(-90, 90, -180, 180)
	if err != nil {
		t.Fatal(err)
	}
	want := 4 * math.Pi * 6371000 * 6371000
	if math.Abs(a-want)/want > 1e-15 {
		t.Errorf("sphere area %v want %v", a, want)
	}
}

func TestNonWGS84Geodesic(t *testing.T) {
	s := Ellipsoid{A: 6371000, F: 0}
	d, _, _, err := s.Inverse(0, 0, 0, 90)
	if err != nil {
		t.Fatal(err)
	}
	if want := 6371000 * math.Pi / 2; math.Abs(d-want) > 1e-6 {
		t.Errorf("sphere quarter %v want %v", d, want)
	}
}
