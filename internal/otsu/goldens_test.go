package otsu

import (
	"math"
	"testing"

	"github.com/geodisaster/engine/internal/golden"
)

// algorithmGoldens holds the Otsu thresholds of raster/testdata's
// native-stack goldens (conformance/raster/gen_sen1flood.py).
type algorithmGoldens struct {
	Otsu []struct {
		Name      string    `json:"name"`
		Values    []float64 `json:"values"`
		Threshold float64   `json:"threshold"`
	} `json:"otsu"`
}

func loadAlgorithmGoldens(t *testing.T) *algorithmGoldens {
	t.Helper()
	var g algorithmGoldens
	golden.Load(t, "../../raster/testdata/sen1flood_algorithms.json", &g)
	return &g
}

func TestOtsuMatchesScikitImage(t *testing.T) {
	g := loadAlgorithmGoldens(t)
	if len(g.Otsu) < 10 {
		t.Fatalf("only %d Otsu goldens", len(g.Otsu))
	}
	for _, c := range g.Otsu {
		x := make([]float32, len(c.Values))
		for i, v := range c.Values {
			x[i] = float32(v)
		}
		got, err := Threshold(x, 256)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if math.Float32bits(got) != math.Float32bits(float32(c.Threshold)) {
			t.Errorf("%s: threshold %v (bits %08x), scikit-image %v (bits %08x)", c.Name, got, math.Float32bits(got), float32(c.Threshold), math.Float32bits(float32(c.Threshold)))
		}
	}
}

func TestOtsuErrors(t *testing.T) {
	if _, err := Threshold(nil, 256); err == nil {
		t.Errorf("empty input: %v", err)
	}
	if _, err := Threshold([]float32{1, float32(math.NaN())}, 256); err == nil {
		t.Error("NaN accepted")
	}
	if _, err := Threshold([]float32{1, float32(math.Inf(1))}, 256); err == nil {
		t.Error("+Inf accepted")
	}
	if _, err := Threshold([]float32{1, 2}, 0); err == nil {
		t.Error("zero bins accepted")
	}
}

func TestOtsuBoundaries(t *testing.T) {
	// A constant input returns itself (scikit-image's early return).
	if v, _ := Threshold([]float32{-3, -3, -3}, 256); v != -3 {
		t.Errorf("constant: %v", v)
	}
	// Two well-separated values: the threshold is the first bin centre
	// (every split between the modes has the same variance; the first wins).
	v, err := Threshold([]float32{0, 0, 256, 256}, 256)
	if err != nil || v != 0.5 {
		t.Errorf("two modes: %v %v", v, err)
	}
}
