package multihazard

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

func TestPercentileMatchesNumPy(t *testing.T) {
	// Values printed by NumPy 1.24: np.percentile(x, 95).
	cases := []struct {
		x    []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, 3.8499999999999996},
		{[]float64{5.5}, 5.5},
		{[]float64{0.1, 0.11, 0.2, 0.2, 0.3, 0.31, 0.35, 0.45, 0.5, 0.7, 0.9}, 0.8},
	}
	for _, c := range cases {
		if got := Percentile(c.x, 95); got != c.want {
			t.Errorf("Percentile(%v, 95) = %v, want %v", c.x, got, c.want)
		}
	}
	if got := Percentile([]float64{1, 2, 3}, 100); got != 3 {
		t.Errorf("p100 = %v, want the maximum", got)
	}
	if got := Percentile(nil, 50); !math.IsNaN(got) {
		t.Errorf("percentile of nothing = %v, want NaN", got)
	}
}

func TestParseNDVIBaseline(t *testing.T) {
	good := "date,role,mean_ndvi\n2015-07-15,baseline,0.5\n2016-07-15,baseline,0.6\n2022-07-15,target,0.3\n"
	base, date, mirror, err := parseNDVIBaseline([]byte(good))
	if err != nil || len(base) != 2 || base[1] != 0.6 || date != "2022-07-15" || mirror != 0.3 {
		t.Fatalf("good CSV: %v %v %v %v", base, date, mirror, err)
	}
	bad := map[string]string{
		"two targets":    "date,role,mean_ndvi\n2015,baseline,0.5\n2016,baseline,0.6\n2022,target,0.3\n2023,target,0.3\n",
		"no target":      "date,role,mean_ndvi\n2015,baseline,0.5\n2016,baseline,0.6\n",
		"one baseline":   "date,role,mean_ndvi\n2015,baseline,0.5\n2022,target,0.3\n",
		"undated":        "date,role,mean_ndvi\n2015,baseline,0.5\n2016,baseline,0.6\n,target,0.3\n",
		"unknown role":   "date,role,mean_ndvi\n2015,baseline,0.5\n2016,reference,0.6\n2022,target,0.3\n",
		"not a number":   "date,role,mean_ndvi\n2015,baseline,nan\n2016,baseline,0.6\n2022,target,0.3\n",
		"missing column": "date,kind,mean_ndvi\n2015,baseline,0.5\n",
	}
	for name, csv := range bad {
		if _, _, _, err := parseNDVIBaseline([]byte(csv)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestMaxPercentileMatchesSort: the selected statistics are what sorting
// gives, bit for bit, on values with ties, zeros of both signs and
// negative values.
func TestMaxPercentileMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pools := [][]float64{
		{1, 2, 3, 2.5, 7, -1},
		{0, math.Copysign(0, -1), 1, -1},
		{3, 3, 3, 3},
	}
	for trial := 0; trial < 3000; trial++ {
		n := 1 + rng.IntN(300)
		x := make([]float64, n)
		pool := pools[trial%len(pools)]
		for i := range x {
			if trial%4 == 3 {
				x[i] = rng.NormFloat64() * 1e3
			} else {
				x[i] = pool[rng.IntN(len(pool))]
			}
		}
		for _, q := range []float64{95, 50, 0, 100, 99.9} {
			ref := slices.Clone(x)
			sort.Float64s(ref)
			wantMax, wantP := ref[n-1], Percentile(ref, q)
			gotMax, gotP := MaxPercentile(slices.Clone(x), q)
			if math.Float64bits(gotMax) != math.Float64bits(wantMax) || math.Float64bits(gotP) != math.Float64bits(wantP) {
				t.Fatalf("n=%d q=%v: %v %v, want %v %v", n, q, gotMax, gotP, wantMax, wantP)
			}
		}
	}
	// Sorted and reversed runs, where a first-element pivot would go quadratic.
	for _, n := range []int{2, 3, 10000} {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i + 1)
		}
		for _, rev := range []bool{false, true} {
			if rev {
				slices.Reverse(x)
			}
			if m, p := MaxPercentile(slices.Clone(x), 95); m != float64(n) || p != Percentile(slices.Sorted(slices.Values(x)), 95) {
				t.Fatalf("n=%d: %v %v", n, m, p)
			}
		}
	}
}

func BenchmarkMaxPercentile(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, 128*128)
	for i := range x {
		x[i] = 40 + rng.NormFloat64()*10
	}
	buf := make([]float64, len(x))
	for _, bc := range []struct {
		name string
		f    func([]float64) (float64, float64)
	}{
		{"select", func(v []float64) (float64, float64) { return MaxPercentile(v, 95) }},
		{"sort", func(v []float64) (float64, float64) { sort.Float64s(v); return v[len(v)-1], Percentile(v, 95) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				copy(buf, x)
				bc.f(buf)
			}
		})
	}
}
