package regions

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestRunLabelsEqualLabelValue checks LabelRuns against LabelValue with
// 8-connectivity (the count, each pixel's label, each component's size)
// and its Fill against LabelValue's labels and a scan of them for the
// grouping, on random masks (a third of them wider than one 64-pixel
// word, some a multiple of it, as the run labelling works on 64-pixel
// words), reusing one Grouping throughout.
func TestRunLabelsEqualLabelValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var g Grouping
	for trial := 0; trial < 600; trial++ {
		w, h := 1+rng.IntN(50), 1+rng.IntN(40)
		switch trial % 6 {
		case 1:
			w = 60 + rng.IntN(150)
		case 4:
			w = 64 * (1 + rng.IntN(3))
		}
		p := rng.Float64()
		mask := make([]uint8, w*h)
		for i := range mask {
			if rng.Float64() < p {
				mask[i] = 1
			} else if rng.Float64() < 0.2 {
				mask[i] = 255
			}
		}
		want, n, rl := labelRunsChecked(t, mask, w, h)
		if rl.At(-1) != 0 || rl.At(w*h) != 0 {
			t.Fatalf("%dx%d: a label outside the grid", w, h)
		}
		if got := rl.Fill(&g); !slices.Equal(got, want) {
			t.Fatalf("%dx%d: Fill's labels differ from LabelValue", w, h)
		}
		if len(g.Start) != n+1 || g.Start[0] != 0 {
			t.Fatalf("start %v for %d components", g.Start, n)
		}
		next := append([]int32(nil), g.Start[:n]...)
		for r := 0; r < h; r++ {
			for c := 0; c < w; c++ {
				l := want[r*w+c]
				if l == 0 {
					continue
				}
				i := next[l-1]
				if i >= g.Start[l] || g.Rows[i] != int32(r) || g.Cols[i] != int32(c) {
					t.Fatalf("%dx%d: component %d's pixels differ at (%d,%d)", w, h, l, r, c)
				}
				next[l-1]++
			}
		}
		for k := 1; k <= n; k++ {
			if next[k-1] != g.Start[k] || g.Pixels(k) != rl.Pixels(k) {
				t.Fatalf("%dx%d: component %d has %d pixels, grouping %d", w, h, k, rl.Pixels(k), g.Pixels(k))
			}
		}
	}
	rl, err := LabelRuns(nil, 1, 0, 0)
	if err != nil || rl.Count() != 0 || len(rl.Fill(&g)) != 0 || len(g.Start) != 1 {
		t.Errorf("empty mask: %v %v", err, g.Start)
	}
	if _, err := LabelRuns(make([]uint8, 5), 1, 2, 2); err == nil {
		t.Error("wrong mask size accepted")
	}
}

// labelRunsChecked labels mask (value 1, 8-connected) with LabelValue and
// with LabelRuns and fails t unless the run labelling has the same count
// and gives every pixel the same label before Fill.
func labelRunsChecked(t *testing.T, mask []uint8, w, h int) ([]int32, int, *RunLabels) {
	t.Helper()
	want, n, err := LabelValue(mask, 1, w, h, Connect8)
	if err != nil {
		t.Fatal(err)
	}
	rl, err := LabelRuns(mask, 1, w, h)
	if err != nil || rl.Count() != n {
		t.Fatalf("%dx%d: LabelRuns: %v, %d components, want %d", w, h, err, rl.Count(), n)
	}
	for i, l := range want {
		if rl.At(i) != l {
			t.Fatalf("%dx%d: At(%d) = %d, label %d", w, h, i, rl.At(i), l)
		}
	}
	return want, n, rl
}

// FuzzLabelRuns checks the run labelling and the traced outlines against
// the pixel labelling and Polygonize on arbitrary masks: the first byte
// picks the width, the others are pixels (their value modulo 3 selects 0,
// 1 or 255).
func FuzzLabelRuns(f *testing.F) {
	f.Add([]byte{3, 1, 0, 1, 0, 1, 0, 1, 1, 1})
	f.Add(append([]byte{70}, bytes.Repeat([]byte{1, 1, 0, 2, 1}, 60)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		w := 1 + int(data[0])%130
		px := data[1:]
		h := len(px) / w
		mask := make([]uint8, w*h)
		for i := range mask {
			mask[i] = [3]uint8{0, 1, 255}[px[i]%3]
		}
		want, n, rl := labelRunsChecked(t, mask, w, h)
		var g Grouping
		if got := rl.Fill(&g); !slices.Equal(got, want) {
			t.Fatalf("%dx%d: Fill's labels differ", w, h)
		}
		polys, o := polygonizeAndTrace(t, mask, want, w, h, n)
		traced, err := o.PolygonsAt(rl.At, n)
		if err != nil {
			t.Fatal(err)
		}
		if len(traced) != len(polys) {
			t.Fatalf("%dx%d: %d traced polygons, Polygonize %d", w, h, len(traced), len(polys))
		}
		for i := range polys {
			if !reflect.DeepEqual(traced[i], polys[i]) {
				t.Fatalf("%dx%d: polygon %d differs from Polygonize", w, h, i+1)
			}
		}
	})
}
