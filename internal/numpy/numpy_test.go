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
