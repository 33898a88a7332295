package regions

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestTraceOutlinesEqualsPolygonize checks that outlines traced from the
// mask and grouped by its labelling equal Polygonize of that labelling,
// on random 0/1/255 masks of many shapes and densities (a quarter of them
// wider than one 64-pixel word, as TraceOutlines works on 64-pixel words).
func TestTraceOutlinesEqualsPolygonize(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for trial := 0; trial < 600; trial++ {
		w, h := 1+rng.IntN(40), 1+rng.IntN(30)
		if trial%4 == 0 {
			w = 60 + rng.IntN(140)
		}
		density := rng.Float64()
		mask := make([]uint8, w*h)
		for i := range mask {
			switch r := rng.Float64(); {
			case r < density:
				mask[i] = 1
			case r < density+0.1:
				mask[i] = 255
			}
		}
		labels, n, err := LabelValue(mask, 1, w, h, Connect8)
		if err != nil {
			t.Fatal(err)
		}
		want, o := polygonizeAndTrace(t, mask, labels, w, h, n)
		got, err := o.Polygons(labels, n)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%dx%d density %.2f: outlines differ from Polygonize", w, h, density)
		}
		rl, err := LabelRuns(mask, 1, w, h)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := o.PolygonsAt(rl.At, rl.Count()); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%dx%d density %.2f: outlines grouped by RunLabels.At differ from Polygonize (%v)", w, h, density, err)
		}
	}
	if _, err := TraceOutlines(make([]uint8, 5), 1, 2, 2); err == nil {
		t.Error("wrong mask size accepted")
	}
	o, _ := TraceOutlines([]uint8{1, 0, 0, 1}, 1, 2, 2)
	if _, err := o.Polygons([]int32{1}, 1); err == nil {
		t.Error("labels of a smaller grid accepted")
	}
}

// polygonizeAndTrace returns Polygonize of labels, the n-component
// 8-connected labelling of mask's pixels equal to 1, and the outlines
// traced from mask itself.
func polygonizeAndTrace(t testing.TB, mask []uint8, labels []int32, w, h, n int) ([]PixelPolygon, *Outlines) {
	t.Helper()
	polys, err := Polygonize(labels, w, h, n)
	if err != nil {
		t.Fatal(err)
	}
	o, err := TraceOutlines(mask, 1, w, h)
	if err != nil {
		t.Fatal(err)
	}
	return polys, o
}
