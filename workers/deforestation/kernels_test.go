package deforestation

import (
	"math"
	"slices"
	"testing"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// kernelBand builds a band of type dt holding vals (each representable in
// dt).
func kernelBand(t *testing.T, dt raster.DataType, vals []float64) *raster.Band {
	t.Helper()
	b, err := raster.NewBand(len(vals), 1, dt)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vals {
		b.Set(i, v)
	}
	return b
}

// kernelTypes are the sample types the typed kernels take directly (uint8,
// uint16, float32) and through a float32 conversion (the others).
var kernelTypes = []raster.DataType{raster.Uint8, raster.Uint16, raster.Int16, raster.Float32, raster.Float64}

// TestTypedKernelsMatchAtReference: for each sample type, the typed
// gathers and counts give what reading every sample through Band.At and
// applying the per-pixel rule gives, in the same order.
func TestTypedKernelsMatchAtReference(t *testing.T) {
	vals := []float64{0, 1, 255, 7, 0, 25, 255, 3, 100, 1}
	info := workers.RasterInfo{NoData: 7, HasNoData: true}
	nd := nodataOf(info)
	for _, dt := range kernelTypes {
		b := kernelBand(t, dt, vals)
		var scratch []float32
		v := viewOf(b, &scratch)
		if v.len() != len(vals) {
			t.Fatalf("%v: view has %d samples, want %d", dt, v.len(), len(vals))
		}

		var wantValid []float32
		wantHansen, wantPositive := 0, 0
		var wantCodes [26][]int
		for i := range vals {
			x := float32(b.At(i))
			if nd.valid(x) {
				wantValid = append(wantValid, x)
			}
			if hansenOK(x, nd) {
				wantHansen++
				if x > 0 {
					wantPositive++
				}
				if x >= 1 && x <= 25 {
					wantCodes[int(x)] = append(wantCodes[int(x)], i)
				}
			}
		}

		if got := gatherBand(nil, v, nd); !slices.Equal(got, wantValid) {
			t.Errorf("%v: gatherBand %v, want %v", dt, got, wantValid)
		}
		valid, positive := bandHansenCounts(v, nd)
		if valid != wantHansen || positive != wantPositive {
			t.Errorf("%v: hansenCounts %d, %d; want %d, %d", dt, valid, positive, wantHansen, wantPositive)
		}

		// 100 is not a loss-year code: the check must refuse it.
		if _, _, err := bandLossYearCells(b, info, "lossyear.tif"); err == nil {
			t.Errorf("%v: lossyear code 100 accepted", dt)
		}
		codes := slices.Clone(vals)
		codes[8] = 0
		byCode, n, err := bandLossYearCells(kernelBand(t, dt, codes), info, "lossyear.tif")
		if err != nil {
			t.Fatalf("%v: %v", dt, err)
		}
		if n != wantHansen || !slices.EqualFunc(byCode[:], wantCodes[:], slices.Equal[[]int]) {
			t.Errorf("%v: lossYearCells %v (%d valid), want %v (%d)", dt, byCode, n, wantCodes, wantHansen)
		}
	}
}

// TestCanopyValuesStopsAtFirstBadValue: tree cover keeps finite values in
// 0..100 that are neither 255 nor the nodata, and reports the first value
// outside the range.
func TestCanopyValuesStopsAtFirstBadValue(t *testing.T) {
	info := workers.RasterInfo{NoData: 9, HasNoData: true}
	got, bad, _ := canopyValues(nil, []float64{0, 50, 255, 9, math.NaN(), 100}, info)
	if bad != -1 || !slices.Equal(got, []float32{0, 50, 100}) {
		t.Errorf("canopyValues %v bad %d", got, bad)
	}
	_, bad, badV := canopyValues(nil, []float64{10, 101, -1}, info)
	if bad != 1 || badV != 101 {
		t.Errorf("bad value at %d (%v), want 1 (101)", bad, badV)
	}
}
