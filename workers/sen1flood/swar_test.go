package sen1flood

import (
	"math/rand/v2"

	"testing"

	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/raster/regions"
	"github.com/geodisaster/engine/workers"
)

// randomFloodMask returns a w x h mask of 0/1/255 values (and, with odd,
// a few other byte values, which FloodGrid must count as valid non-flood)
// and its flood count.
func randomFloodMask(rng *rand.Rand, w, h int, odd bool) ([]uint8, int) {
	mask := make([]uint8, w*h)
	flood := 0
	p := rng.Float64()
	for i := range mask {
		switch r := rng.Float64(); {
		case r < p:
			mask[i] = MaskFlood
			flood++
		case r < p+0.1:
			mask[i] = MaskNoData
		case odd && r < p+0.15:
			mask[i] = uint8(2 + rng.IntN(250))
		}
	}
	return mask, flood
}

// TestFloodGridCountsEqualScan checks FloodGrid's word-at-a-time counts
// against a pixel scan on random masks of many widths.
func TestFloodGridCountsEqualScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		w, h := 4+rng.IntN(70), 4+rng.IntN(40)
		mask, flood := randomFloodMask(rng, w, h, trial%2 == 1)
		cells := FloodGrid(mask, w, h, flood)
		var want [16]FloodCell
		for r := 0; r < h; r++ {
			for c := 0; c < w; c++ {
				cell := &want[sen1CellIndex(r, h)*4+sen1CellIndex(c, w)]
				if v := mask[r*w+c]; v != MaskNoData {
					cell.Valid++
					if v == MaskFlood {
						cell.Flood++
					}
				}
			}
		}
		for i := range cells {
			if cells[i].Valid != want[i].Valid || cells[i].Flood != want[i].Flood {
				t.Fatalf("%dx%d cell %d: %d/%d, want %d/%d", w, h, i, cells[i].Flood, cells[i].Valid, want[i].Flood, want[i].Valid)
			}
		}
	}
}

// TestFloodAreaEqualsAppendedSum checks sen1FloodArea's per-row
// gathering against appending each flood pixel's row area, also when the
// mask holds more or fewer flood pixels than its count says.
func TestFloodAreaEqualsAppendedSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 100; trial++ {
		w, h := 1+rng.IntN(60), 1+rng.IntN(60)
		mask, flood := randomFloodMask(rng, w, h, false)
		areas := make([]float64, h)
		for r := range areas {
			areas[r] = 1000 + rng.Float64()*50
		}
		var want []float64
		for i, v := range mask {
			if v == MaskFlood {
				want = append(want, areas[i/w])
			}
		}
		for _, claimed := range []int{flood, flood / 2, flood + 3} {
			m := &FloodMask{Info: workers.RasterInfo{Width: w, Height: h}, Mask: mask, Flood: claimed, Areas: &workers.GridAreas{RowArea: areas}}
			if got, exp := sen1FloodArea(m), numpy.SumFloat64(want); got != exp {
				t.Fatalf("%dx%d claimed %d of %d: %v, want %v", w, h, claimed, flood, got, exp)
			}
		}
	}
}

// TestRenderRowLayersEqualScan checks the render's word-at-a-time
// prediction and boundary layers against the boundary definition on
// labels (a labelled pixel on the chip edge or with a 4-neighbour of
// another label).
func TestRenderRowLayersEqualScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 300; trial++ {
		w, h := 1+rng.IntN(40), 1+rng.IntN(12)
		mask, _ := randomFloodMask(rng, w, h, false)
		labels, _, err := regions.LabelValue(mask, MaskFlood, w, h, regions.Connect8)
		if err != nil {
			t.Fatal(err)
		}
		j := &sen1RenderJob{w: w, h: h, mask: mask, pred: trial%3 != 0, bound: trial%4 != 1}
		layers := make([]uint8, w)
		for r := 0; r < h; r++ {
			j.rowLayers(layers, r)
			for c := 0; c < w; c++ {
				var want uint8
				if l := labels[r*w+c]; l != 0 {
					if j.pred {
						want |= sen1PaintPred
					}
					if j.bound && (r == 0 || r == h-1 || c == 0 || c == w-1 ||
						labels[r*w+c-1] != l || labels[r*w+c+1] != l || labels[(r-1)*w+c] != l || labels[(r+1)*w+c] != l) {
						want |= sen1PaintBound
					}
				}
				if layers[c] != want {
					t.Fatalf("%dx%d pixel (%d,%d): layers %b, want %b", w, h, c, r, layers[c], want)
				}
			}
		}
	}
}
