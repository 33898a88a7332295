package crs

import (
	"math"
	"testing"

	"github.com/geodisaster/engine/internal/golden"
)

// TestPixelGoldens compares PixelXY and RowCol bit for bit with rasterio
// (conformance/geodesy/gen_pixel.py).
func TestPixelGoldens(t *testing.T) {
	var g struct {
		Cases []struct {
			Transform [6]float64
			XY        [][5]any
			RowCol    [][4]float64
		}
	}
	golden.Load(t, "../conformance/geodesy/pixel_goldens.json", &g)
	offsets := map[string]PixelOffset{"center": Center, "ul": UpperLeft, "ur": UpperRight, "ll": LowerLeft, "lr": LowerRight}
	n := 0
	for _, c := range g.Cases {
		tr := Affine(c.Transform)
		for _, p := range c.XY {
			row, col := int(p[0].(float64)), int(p[1].(float64))
			x, y := tr.PixelXY(row, col, offsets[p[2].(string)])
			if x != p[3].(float64) || y != p[4].(float64) {
				t.Errorf("%v xy(%d, %d, %s) = %v, %v want %v, %v", tr, row, col, p[2], x, y, p[3], p[4])
			}
			n++
		}
		for _, p := range c.RowCol {
			row, col, err := tr.RowCol(p[0], p[1])
			if err != nil {
				t.Fatal(err)
			}
			if row != int(p[2]) || col != int(p[3]) {
				t.Errorf("%v rowcol(%v, %v) = %d, %d want %v, %v", tr, p[0], p[1], row, col, p[2], p[3])
			}
			n++
		}
	}
	t.Logf("%d pixel mappings identical to rasterio", n)
	if _, _, err := (Affine{}).RowCol(1, 1); err == nil {
		t.Error("singular transform accepted")
	}
	if _, _, err := (Affine{1, 0, 0, 0, -1, 0}).RowCol(math.NaN(), 1); err == nil {
		t.Error("NaN accepted")
	}
}
