package sen1flood

import (
	"math"
	"strings"
	"testing"
)

func TestPredictFloodRule(t *testing.T) {
	info := testInfo(4, 2)
	nan := float32(math.NaN())
	vv := []float32{-20, -8, -9999, -21, nan, -7, -19, -9}
	vh := []float32{-25, -15, -20, -9999, -26, -14, -24, -16}
	m, err := PredictFlood(vv, vh, info)
	if err != nil {
		t.Fatal(err)
	}
	// Valid: 0, 1, 5, 6, 7 (pixel 2 VV nodata, 3 VH nodata, 4 NaN).
	want := []uint8{1, 0, 255, 255, 255, 0, 1, 0}
	for i := range want {
		if m.Mask[i] != want[i] {
			t.Fatalf("mask %v, want %v (threshold %v)", m.Mask, want, m.Threshold)
		}
	}
	if m.Valid != 5 || m.Flood != 2 {
		t.Errorf("valid %d flood %d", m.Valid, m.Flood)
	}
	// A score equal to the threshold is flood: a constant chip floods all.
	c, err := PredictFlood([]float32{-12, -12}, []float32{-12, -12}, testInfo(2, 1))
	if err != nil || c.Flood != 2 || c.Threshold != -12 {
		t.Errorf("constant chip: %+v %v", c, err)
	}
	if _, err := PredictFlood([]float32{-9999, nan}, []float32{1, 1}, testInfo(2, 1)); err == nil || !strings.Contains(err.Error(), "all-nodata") {
		t.Errorf("all-nodata chip: %v", err)
	}
	if _, err := PredictFlood([]float32{1}, []float32{1, 2}, testInfo(2, 1)); err == nil {
		t.Error("short band accepted")
	}
}
