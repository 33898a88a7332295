package numpy

import (
	"testing"

	"github.com/geodisaster/engine/internal/golden"
)

// lcgValues mirrors conformance/numpy/gen_sums.py.
func lcgValues(n int, seed uint64) []float64 {
	out := make([]float64, n)
	s := seed
	for i := range out {
		s = s*6364136223846793005 + 1442695040888963407
		out[i] = float64(s>>11) / float64(uint64(1)<<53) * 100
	}
	return out
}

func TestNumpySumsMatchGoldens(t *testing.T) {
	var g struct {
		Cases []struct {
			N                            int
			Seed                         uint64
			Sum32, Mean32, Sum64, Mean64 float64
		}
	}
	golden.Load(t, "testdata/numpy_sums.json", &g)
	if len(g.Cases) == 0 {
		t.Fatal("no golden cases")
	}
	for _, c := range g.Cases {
		v := lcgValues(c.N, c.Seed)
		f := make([]float32, len(v))
		for i := range v {
			f[i] = float32(v[i])
		}
		if got := float64(SumFloat32(f)); got != c.Sum32 {
			t.Errorf("n=%d SumFloat32 = %v, numpy %v", c.N, got, c.Sum32)
		}
		if got := float64(MeanFloat32(f)); got != c.Mean32 {
			t.Errorf("n=%d MeanFloat32 = %v, numpy %v", c.N, got, c.Mean32)
		}
		if got := SumFloat64(v); got != c.Sum64 {
			t.Errorf("n=%d SumFloat64 = %v, numpy %v", c.N, got, c.Sum64)
		}
		if got := MeanFloat64(v); got != c.Mean64 {
			t.Errorf("n=%d MeanFloat64 = %v, numpy %v", c.N, got, c.Mean64)
		}
	}
}

func BenchmarkSumFloat32(b *testing.B) {
	v := lcgValues(512*512, 1)
	f := make([]float32, len(v))
	for i := range v {
		f[i] = float32(v[i])
	}
	b.SetBytes(int64(4 * len(f)))
	for b.Loop() {
		SumFloat32(f)
	}
}

// pairwiseRef is NumPy's pairwise_sum as written in its C source, with an
// array of eight accumulators: the reference pairwise must equal bit for
// bit.
func pairwiseRef[T float32 | float64](a []T) T {
	n := len(a)
	switch {
	case n < 8:
		var res T
		for _, v := range a {
			res += v
		}
		return res
	case n <= numpyBlockSize:
		var r [8]T
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range r {
				r[j] += a[i+j]
			}
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	default:
		n2 := n / 2
		n2 -= n2 % 8
		return pairwiseRef(a[:n2]) + pairwiseRef(a[n2:])
	}
}

// TestPairwiseMatchesReference: every length up to 600 and a few large
// ones, with values of mixed sign and magnitude so that the order shows.
func TestPairwiseMatchesReference(t *testing.T) {
	v := lcgValues(70000, 9)
	f64 := make([]float64, len(v))
	f32 := make([]float32, len(v))
	for i, x := range v {
		x = (x - 50) * float64(1+i%13) * 1e3
		f64[i], f32[i] = x, float32(x)
	}
	lens := []int{8191, 8192, 8193, 16384 + 77, 70000}
	for n := 0; n <= 600; n++ {
		lens = append(lens, n)
	}
	for _, n := range lens {
		if got, want := pairwise(f32[:n]), pairwiseRef(f32[:n]); got != want {
			t.Errorf("float32 n=%d: %v, reference %v", n, got, want)
		}
		if got, want := pairwise(f64[:n]), pairwiseRef(f64[:n]); got != want {
			t.Errorf("float64 n=%d: %v, reference %v", n, got, want)
		}
	}
}
