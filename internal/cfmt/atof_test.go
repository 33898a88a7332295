package cfmt

import (
	"math"
	"testing"
)

// TestAtofM checks CPLAtofM's readings: the longest number at the start,
// a comma as decimal separator, and 0 when no number starts the text.
// raster's nodata tests compare the whole parser with GDAL 3.6 itself.
func TestAtofM(t *testing.T) {
	for s, want := range map[string]float64{
		"2.5":     2.5,
		"2,5":     2.5,
		"-3.4e38": -3.4e38,
		"12abc":   12,
		"  7":     7,
		"abc":     0,
		"":        0,
	} {
		if got := AtofM(s); got != want {
			t.Errorf("AtofM(%q) = %v, want %v", s, got, want)
		}
	}
	if !math.IsInf(AtofM("inf"), 1) || !math.IsNaN(AtofM("nan")) {
		t.Error("inf or nan not read")
	}
}
