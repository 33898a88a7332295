package sen1flood

import (
	"math/rand/v2"

	"testing"
)

// TestKnownWaterCountsEqualScan checks sen1CountKnownWater's
// word-at-a-time path against a pixel scan, with nodata and bad values
// placed anywhere and with 0 or 1 declared as nodata.
func TestKnownWaterCountsEqualScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(300)
		mask, _ := randomFloodMask(rng, n, 1, false)
		d := make([]uint8, n)
		for i := range d {
			switch r := rng.Float64(); {
			case r < 0.4:
				d[i] = 1
			case r < 0.42:
				d[i] = 255
			case r < 0.425 && trial%3 == 0:
				d[i] = 7 // bad
			}
		}
		var class [256]uint8
		for v := range class {
			class[v] = sen1JRCBad
		}
		class[0], class[1], class[255] = sen1JRCDry, sen1JRCWater, sen1JRCNoData
		if trial%5 == 1 {
			class[1] = sen1JRCNoData // nodata declared as 1
		}
		var got, want FloodComparison
		gi, gok := sen1CountKnownWater(&got, d, mask, &class)
		wi, wok := -1, true
		for i, v := range d {
			c := class[v]
			if c == sen1JRCBad {
				wi, wok = i, false
				break
			}
			if c == sen1JRCWater {
				want.KnownWater++
			}
			if mask[i] == MaskFlood {
				if c == sen1JRCWater {
					want.Overlap++
				} else {
					want.Outside++
				}
			}
		}
		if gok != wok || (!wok && gi != wi) {
			t.Fatalf("n %d: bad value at %d %v, want %d %v", n, gi, gok, wi, wok)
		}
		if wok && (got.KnownWater != want.KnownWater || got.Overlap != want.Overlap || got.Outside != want.Outside) {
			t.Fatalf("n %d: %d/%d/%d, want %d/%d/%d", n, got.KnownWater, got.Overlap, got.Outside, want.KnownWater, want.Overlap, want.Outside)
		}
	}
}
