package workers

import (
	"math"
	"strings"
	"testing"

	"github.com/geodisaster/engine/crs"
)

func TestNewGridAreasRefusesUndescribedGrids(t *testing.T) {
	for _, c := range []struct {
		name string
		info RasterInfo
		want string
	}{
		{"no transform", RasterInfo{Width: 2, Height: 2, EPSG: 4326}, "no geotransform"},
		{"no CRS", RasterInfo{Width: 2, Height: 2, HasTransform: true, Transform: crs.Affine{10, 0, 0, 0, -10, 0}}, "no identifiable CRS"},
		{"unknown EPSG", RasterInfo{Width: 2, Height: 2, HasTransform: true, EPSG: 1, Transform: crs.Affine{10, 0, 0, 0, -10, 0}}, ""},
	} {
		g, err := NewGridAreas(c.info)
		if err == nil || g != nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v %v, want an error containing %q", c.name, g, err, c.want)
		}
	}
}

// TestGridAreasProjected: a 10 m UTM grid has 100 m² cells, and a sum is
// the count times that area (an empty selection sums to 0).
func TestGridAreasProjected(t *testing.T) {
	g, err := NewGridAreas(RasterInfo{Width: 3, Height: 2, EPSG: 32633, HasTransform: true, Transform: crs.Affine{10, 0, 500000, 0, -10, 8800000}})
	if err != nil {
		t.Fatal(err)
	}
	if g.Method != "affine_determinant" || g.RowArea != nil || g.PixelArea != 100 {
		t.Fatalf("UTM grid areas %+v", g)
	}
	if a := g.Cell(5); a != 100 {
		t.Errorf("cell 5: %v m²", a)
	}
	if s := g.Sum([]int{0, 2, 5}); s != 300 {
		t.Errorf("three cells: %v m²", s)
	}
	if s := g.Sum(nil); s != 0 {
		t.Errorf("no cells: %v m²", s)
	}
}

// TestGridAreasGeographic: on a WGS84 grid every cell of a row has the
// row's ellipsoidal area, rows nearer the pole are smaller, each agrees to
// 1e-12 with the closed-form WGS84 zone area b²·Δλ/2·(q(φ1) − q(φ2))
// (q the authalic function; 1565847440.929 m² for the first row, as
// Python's float arithmetic evaluates the same formula), and a sum adds the
// selected cells' row areas.
func TestGridAreasGeographic(t *testing.T) {
	const w, h = 4, 3
	tr := crs.Affine{0.5, 0, 10, 0, -0.5, 60} // 0.5° cells, rows from 60 N
	g, err := NewGridAreas(RasterInfo{Width: w, Height: h, EPSG: 4326, HasTransform: true, Transform: tr})
	if err != nil {
		t.Fatal(err)
	}
	if g.Method != "wgs84_ellipsoidal_cell_area" || len(g.RowArea) != h {
		t.Fatalf("geographic grid areas %+v", g)
	}
	const a, f = 6378137.0, 1 / 298.257223563
	b, e := a*(1-f), math.Sqrt(f*(2-f))
	rad := math.Pi / 180
	q := func(lat float64) float64 {
		s := math.Sin(lat * rad)
		return s/(1-e*e*s*s) + math.Log((1+e*s)/(1-e*s))/(2*e)
	}
	for row := range h {
		lat1, lat2 := 60-0.5*float64(row), 60-0.5*float64(row+1)
		zone := b * b * 0.5 * rad / 2 * (q(lat1) - q(lat2))
		if got := g.RowArea[row]; math.Abs(got-zone) > 1e-12*zone {
			t.Errorf("row %d: %v m², zone formula %v m²", row, got, zone)
		}
		if row > 0 && !(g.RowArea[row] > g.RowArea[row-1]) {
			t.Errorf("row %d (further from the pole) is not larger than row %d", row, row-1)
		}
		for col := range w {
			if a := g.Cell(row*w + col); a != g.RowArea[row] {
				t.Errorf("cell (%d,%d): %v, row area %v", row, col, a, g.RowArea[row])
			}
		}
	}
	if s := g.Sum([]int{0, 5, 11}); s != g.RowArea[0]+g.RowArea[1]+g.RowArea[2] {
		t.Errorf("one cell per row: %v", s)
	}
	if s := g.Sum(nil); s != 0 {
		t.Errorf("no cells: %v m²", s)
	}
}
