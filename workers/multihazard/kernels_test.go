package multihazard

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"
)

// TestTypedLoadsMatchFloat64Reference: the typed mask and continuous loads
// give what a float64 conversion of the band followed by the per-pixel
// rules gives, for each sample type the fixtures write.
func TestTypedLoadsMatchFloat64Reference(t *testing.T) {
	vals := []float64{0, 1, 255, 1, 0, 1, 255, 0, 1}
	for _, dt := range []raster.DataType{raster.Uint8, raster.Uint16, raster.Float32} {
		env := workertest.NewEnv()
		s := &workers.Scene{Handle: "hazard_1"}
		s.Files = append(s.Files, env.PutTIFF(t, workers.FileCard{Path: "h/m.tif"}, 3, 3, dt, 4326, workertest.GeoT, workertest.NoData(255), vals))
		m, err := loadBinaryMask(env, s, "m.tif")
		if err != nil {
			t.Fatal(dt, err)
		}
		c, err := loadContinuous(env, s, "m.tif")
		if err != nil {
			t.Fatal(dt, err)
		}
		var ones, valid []int
		value := func(i int) float64 {
			if dt == raster.Float32 {
				return float64(c.F32[i])
			}
			return c.F64[i]
		}
		for i, v := range vals {
			ok := v != 255
			if m.OK[i] != ok || c.OK[i] != ok || m.IsSet[i] != (ok && v > 0) || value(i) != v {
				t.Fatalf("%v pixel %d: mask ok %v set %v, continuous ok %v value %v", dt, i, m.OK[i], m.IsSet[i], c.OK[i], value(i))
			}
			if ok {
				valid = append(valid, i)
				if v > 0 {
					ones = append(ones, i)
				}
			}
		}
		if m.Valid != len(valid) || len(m.Ones) != len(ones) || c.NValid != len(valid) {
			t.Fatalf("%v: counts %d %d %d", dt, m.Valid, len(m.Ones), c.NValid)
		}
	}
	env := workertest.NewEnv()
	s := &workers.Scene{Handle: "hazard_1"}
	s.Files = append(s.Files, env.PutTIFF(t, workers.FileCard{Path: "h/m.tif"}, 3, 1, raster.Float32, 4326, workertest.GeoT, nil, []float64{0, math.NaN(), 0.5}))
	if _, err := loadBinaryMask(env, s, "m.tif"); err == nil || !strings.Contains(err.Error(), "pixel 2 has value 0.5") {
		t.Errorf("non-binary value: %v", err)
	}
}

// TestContinuousKernelsMatchIndexLists: the typed kernels over the valid
// pixels give what the per-pixel rules over a valid-index list give.
func TestContinuousKernelsMatchIndexLists(t *testing.T) {
	n := 997
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = math.Sin(float64(i)*0.7) * 3
		switch {
		case i%13 == 0:
			vals[i] = -9999
		case i%29 == 0:
			vals[i] = math.NaN()
		}
	}
	lower, upper := []float64{-3, -1, 0.5}, []float64{-1, 0.5, 3.01}
	for _, dt := range []raster.DataType{raster.Float32, raster.Float64, raster.Int16} {
		env := workertest.NewEnv()
		s := &workers.Scene{Handle: "hazard_1"}
		s.Files = append(s.Files, env.PutTIFF(t, workers.FileCard{Path: "h/v.tif"}, n, 1, dt, 4326, workertest.GeoT, workertest.NoData(-9999), vals))
		c, err := loadContinuous(env, s, "v.tif")
		if err != nil {
			t.Fatal(dt, err)
		}
		f64 := c.Band.Float64s()
		var valid []int
		for i, v := range f64 {
			if !math.IsNaN(v) && v != -9999 {
				valid = append(valid, i)
			}
		}
		gather := func(idx []int) (f32 []float32, f64s []float64) {
			for _, i := range idx {
				if dt == raster.Float32 {
					f32 = append(f32, c.F32[i])
				} else {
					f64s = append(f64s, f64[i])
				}
			}
			return f32, f64s
		}
		mean := func(idx []int) float64 {
			if f32, f64s := gather(idx); dt == raster.Float32 {
				return float64(numpy.MeanFloat32(f32))
			} else {
				return numpy.MeanFloat64(f64s)
			}
		}
		if got, want := c.validMean(), mean(valid); got != want {
			t.Errorf("%v: validMean %v, want %v", dt, got, want)
		}
		members := make([][]int, 3)
		for _, i := range valid {
			for b := range lower {
				if v := f64[i]; v >= c.asDtype(lower[b]) && v < c.asDtype(upper[b]) {
					members[b] = append(members[b], i)
					break
				}
			}
		}
		lo, up := make([]float64, 3), make([]float64, 3)
		for b := range lo {
			lo[b], up[b] = c.asDtype(lower[b]), c.asDtype(upper[b])
		}
		got, nsel, bad, _ := c.classify(nil, lo, up)
		if nsel != len(valid) || bad >= 0 {
			t.Fatalf("%v: classify %d pixels, bad %d", dt, nsel, bad)
		}
		var g gatherBuf
		for b := range members {
			if !slices.Equal(got[b], members[b]) {
				t.Fatalf("%v: bin %d members differ", dt, b)
			}
			if len(members[b]) > 0 && c.meanAt(got[b], &g) != mean(members[b]) {
				t.Fatalf("%v: bin %d mean differs", dt, b)
			}
		}
		idx := []int{5, 13, 2, 29, 400, 7, 8, 9, 10, 11, 12}
		wantBad := -1
		for _, i := range idx {
			if v := f64[i]; !math.IsNaN(v) && v != -9999 && !(v >= lo[0] && v < up[0]) && !(v >= lo[1] && v < up[1]) {
				wantBad = i
				break
			}
		}
		if _, _, bad, badV := c.classify(idx, lo[:2], up[:2]); bad != wantBad || (bad >= 0 && badV != f64[bad]) {
			t.Fatalf("%v: first unclassified %d %v, want %d", dt, bad, badV, wantBad)
		}
		var wantSum []int
		for _, i := range idx {
			if !math.IsNaN(f64[i]) && f64[i] != -9999 {
				wantSum = append(wantSum, i)
			}
		}
		f32, f64s := gather(wantSum)
		want := numpy.SumFloat64(f64s)
		if dt == raster.Float32 {
			want = float64(numpy.SumFloat32(f32))
		}
		if got := c.sumValidAt(idx); got != want {
			t.Errorf("%v: sumValidAt %v, want %v", dt, got, want)
		}
		set, cnt := c.validBelow(c.asDtype(0.25))
		k := 0
		for i := range set {
			want := c.OK[i] && f64[i] < c.asDtype(0.25)
			if set[i] != want {
				t.Fatalf("%v: validBelow pixel %d", dt, i)
			}
			if want {
				k++
			}
		}
		if k != cnt {
			t.Fatalf("%v: validBelow count %d, want %d", dt, cnt, k)
		}
		wantOut := -1
		for _, i := range valid {
			if f64[i] < -1.5 || f64[i] > 1.5 {
				wantOut = i
				break
			}
		}
		if i, v := c.firstValidOutside(-1.5, 1.5); i != wantOut || (i >= 0 && f64[i] != v) {
			t.Fatalf("%v: firstValidOutside %d %v, want %d", dt, i, v, wantOut)
		}
		if vs := c.validFloat64s(); len(vs) != len(valid) || vs[3] != f64[valid[3]] {
			t.Fatalf("%v: validFloat64s", dt)
		}
	}
}

// TestCodedCellsUint8MatchesGeneric: the uint8 mask kernel gives the
// generic kernel's mask, counts and first bad pixel.
func TestCodedCellsUint8MatchesGeneric(t *testing.T) {
	s := make([]uint8, 500)
	for i := range s {
		s[i] = uint8(i * 7 % 5)
		if i%37 == 0 {
			s[i] = 255
		}
	}
	for _, nd := range []float64{255, 0, math.Copysign(0, -1), 2, 2.5, -1, 300, math.NaN()} {
		for _, hasND := range []bool{false, true} {
			for _, maxCode := range []int{1, 2, 4, 255} {
				var a, b HazardMask
				ba, va := codedCells(&a, s, nd, hasND, maxCode)
				bb, vb := codedCellsUint8(&b, s, nd, hasND, maxCode)
				if ba != bb || va != vb {
					t.Fatalf("nd %v %v max %d: bad %d %v, generic %d %v", nd, hasND, maxCode, bb, vb, ba, va)
				}
				if ba < 0 && (a.Valid != b.Valid || !slices.Equal(a.Ones, b.Ones) || !slices.Equal(a.OK, b.OK) || !slices.Equal(a.IsSet, b.IsSet)) {
					t.Fatalf("nd %v %v max %d: masks differ", nd, hasND, maxCode)
				}
			}
		}
	}
}
