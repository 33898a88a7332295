package sen1flood

import (
	"math"
	"testing"
)

// TestSen1GreyMatchesRound compares the render's grey mapping with
// math.Round over [-26, 1] dB at a fine step, every float32 near the
// rounding boundaries and the special values.
func TestSen1GreyMatchesRound(t *testing.T) {
	ref := func(v float32) uint8 {
		f := float64(v)
		if math.IsNaN(f) {
			return 0
		}
		g := math.Round(float64((f - sen1MinDB) / (sen1MaxDB - sen1MinDB) * 255))
		return uint8(max(0, min(255, g)))
	}
	check := func(v float32) {
		if got, want := sen1Grey(v, false), ref(v); got != want {
			t.Fatalf("sen1Grey(%v) = %d, math.Round gives %d", v, got, want)
		}
	}
	for v := -26.0; v <= 1; v += 1e-4 {
		check(float32(v))
	}
	for k := 0; k <= 255; k++ {
		v := float32((float64(k)+0.5)/255*25 - 25)
		for i := 0; i < 200; i++ {
			v = math.Nextafter32(v, -30)
		}
		for i := 0; i < 400; i++ {
			check(v)
			v = math.Nextafter32(v, 30)
		}
	}
	for _, v := range []float64{math.Inf(1), math.Inf(-1), math.NaN(), -9999, 1e30, -1e30, 0, math.Copysign(0, -1)} {
		check(float32(v))
	}
	if sen1Grey(0, true) != 0 {
		t.Error("nodata is not black")
	}
}
