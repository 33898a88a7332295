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

		f32 := make([]float32, len(vals))
		for i := range vals {
			f32[i] = float32(b.At(i))
		}
		wm, gm := make([]bool, len(vals)), make([]bool, len(vals))
		wIdx, wValid, wBad, _ := annualLoss(f32, nd, wm)
		gIdx, gValid, gBad, _ := bandAnnualLoss(v, nd, gm)
		if !slices.Equal(gIdx, wIdx) || gValid != wValid || gBad != wBad || !slices.Equal(gm, wm) {
			t.Errorf("%v: annualLoss %v %d %d, want %v %d %d", dt, gIdx, gValid, gBad, wIdx, wValid, wBad)
		}

		// 100 is not a loss-year code: the check must refuse it.
		if _, _, err := bandLossYearCells(b, info, "lossyear.tif"); err == nil {
			t.Errorf("%v: lossyear code 100 accepted", dt)
		} else if _, _, want := lossYearCells(f32, info, "lossyear.tif"); want == nil || err.Error() != want.Error() {
			t.Errorf("%v: lossyear error %q, want %q", dt, err, want)
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

// indexReference is the per-pixel index rule read through Band.At: NDVI
// and NBR in float32 where B8 and the other band are valid and the value
// is finite, in row-major order, over the AOI and over the region's mask.
func indexReference(b8, b4, b12 *raster.Band, ndN, ndA, ndB nodata32, region []bool) (aoi, reg indexValues) {
	for i := 0; i < b8.Width*b8.Height; i++ {
		x := float32(b8.At(i))
		if !ndN.valid(x) {
			continue
		}
		in := region != nil && region[i]
		for k, c := range []struct {
			b  *raster.Band
			nd nodata32
		}{{b4, ndA}, {b12, ndB}} {
			y := float32(c.b.At(i))
			if !c.nd.valid(y) {
				continue
			}
			d := (x - y) / (x + y)
			if math.IsNaN(float64(d)) || math.IsInf(float64(d), 0) {
				continue
			}
			if k == 0 {
				aoi.ndvi = append(aoi.ndvi, d)
				if in {
					reg.ndvi = append(reg.ndvi, d)
				}
			} else {
				aoi.nbr = append(aoi.nbr, d)
				if in {
					reg.nbr = append(reg.nbr, d)
				}
			}
		}
	}
	return aoi, reg
}

// TestIndexStackMatchesReference: the integer and float32 index kernels,
// over the AOI and at the region's indices, keep the values the per-pixel
// rule keeps, in its order, for every sample type and mix of types, with
// nodata, zero sums, NaN and infinities in the bands.
func TestIndexStackMatchesReference(t *testing.T) {
	const n = 4000
	vals := func(seed uint32, dt raster.DataType) []float64 {
		out := benchValues(n, seed, 0, 60, 0)
		for i := range out {
			out[i] = math.Floor(out[i])
			switch {
			case i%31 == 5:
				out[i] = 0
			case i%53 == 7:
				out[i] = 7
			case (dt == raster.Float32 || dt == raster.Float64) && i%41 == 3:
				out[i] = []float64{math.NaN(), math.Inf(1), math.Inf(-1), -3.5}[i%4]
			}
		}
		return out
	}
	region := make([]bool, n)
	var idx []int
	for i := range region {
		if i%7 == 2 || i%11 == 0 {
			region[i] = true
			idx = append(idx, i)
		}
	}
	nds := []workers.RasterInfo{{}, {NoData: 0, HasNoData: true}, {NoData: 7, HasNoData: true}, {NoData: -9999, HasNoData: true}, {NoData: 7.5, HasNoData: true}, {NoData: math.NaN(), HasNoData: true}}
	mixes := [][3]raster.DataType{
		{raster.Uint16, raster.Uint16, raster.Uint16}, {raster.Uint8, raster.Uint8, raster.Uint8},
		{raster.Float32, raster.Float32, raster.Float32}, {raster.Int16, raster.Int16, raster.Int16},
		{raster.Uint16, raster.Uint8, raster.Uint16}, {raster.Float64, raster.Uint16, raster.Float32},
	}
	for _, mix := range mixes {
		b8, b4, b12 := kernelBand(t, mix[0], vals(1, mix[0])), kernelBand(t, mix[1], vals(2, mix[1])), kernelBand(t, mix[2], vals(3, mix[2]))
		for k, info := range nds {
			ndN, ndA, ndB := nodataOf(info), nodataOf(nds[(k+1)%len(nds)]), nodataOf(nds[(k+2)%len(nds)])
			wantAOI, wantReg := indexReference(b8, b4, b12, ndN, ndA, ndB, region)
			var sc opticalScratch
			var s8, s4, s12 []float32
			v8, v4, v12 := viewOf(b8, &s8), viewOf(b4, &s4), viewOf(b12, &s12)
			var aoi, reg indexValues
			indexStack(v8, v4, v12, ndN, ndA, ndB, idx, &aoi, &reg, &sc)
			for _, c := range []struct {
				name      string
				got, want []float32
			}{{"aoi ndvi", aoi.ndvi, wantAOI.ndvi}, {"aoi nbr", aoi.nbr, wantAOI.nbr}, {"region ndvi", reg.ndvi, wantReg.ndvi}, {"region nbr", reg.nbr, wantReg.nbr}} {
				if len(c.want) == 0 {
					t.Fatalf("%v nodata %v: %s: the reference keeps nothing", mix, info, c.name)
				}
				if !slices.Equal(c.got, c.want) {
					t.Errorf("%v nodata %v: %s: %d values, want %d (or they differ)", mix, info, c.name, len(c.got), len(c.want))
				}
			}
		}
	}
}

// TestGatherFinite32: without a nodata, a float32 band's gather keeps
// exactly its finite samples (subnormals, zeros and the largest finite
// values included), in order.
func TestGatherFinite32(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	s := []float32{1, nan, -inf, 0, float32(math.Copysign(0, -1)), math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, inf, -2.5, math.Float32frombits(0x7fc00001), math.Float32frombits(0xff800001)}
	var want []float32
	for _, x := range s {
		if !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) {
			want = append(want, x)
		}
	}
	got := gatherBand(make([]float32, 1), bandView{f32: s}, nodata32{})
	if !slices.Equal(got, want) || len(got) != 7 {
		t.Errorf("gather %v, want %v", got, want)
	}
}

// TestCanopyUint8MatchesCanopyValues: the integer tree-cover gather keeps
// and rejects what the float64 rule does, for nodata none, 255, in range,
// above 100, fractional, negative and NaN.
func TestCanopyUint8MatchesCanopyValues(t *testing.T) {
	s := make([]uint8, 0, 512)
	for i := range 256 {
		s = append(s, uint8(i%101), uint8(i))
	}
	for _, nd := range []workers.RasterInfo{{}, {NoData: 255, HasNoData: true}, {NoData: 37, HasNoData: true}, {NoData: 0, HasNoData: true},
		{NoData: 120, HasNoData: true}, {NoData: 37.5, HasNoData: true}, {NoData: -1, HasNoData: true}, {NoData: math.NaN(), HasNoData: true}} {
		for _, in := range [][]uint8{s[:202], s} {
			want, wbad, wv := canopyValues(nil, in, nd)
			got, bad, v := canopyUint8(make([]float32, 0, len(in)), in, nd)
			if !slices.Equal(got, want) || bad != wbad || v != wv {
				t.Errorf("nodata %v, %d samples: %d values, bad %d (%v); want %d, %d (%v)", nd, len(in), len(got), bad, v, len(want), wbad, wv)
			}
		}
	}
}
