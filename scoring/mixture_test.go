package scoring

import (
	"fmt"
	"math"
	"reflect"
	"testing"
)

var (
	auditDev  = []float64{10, 50, 15, 10}  // GeoKTools development K=1..4
	auditTest = []float64{30, 100, 50, 30} // documented held-out K=1..4
)

// TestMixtureAuditFigures reproduces the release audit's numbers.
func TestMixtureAuditFigures(t *testing.T) {
	a, err := AuditMixture(auditDev, auditTest, []float64{0.9, 0.8, 0.6, 0.4})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%.3f", 100*a.TVBound); got != "11.204" {
		t.Errorf("TV bound = %s pp, want 11.204", got)
	}
	if math.Abs(a.CornerMax-a.TVBound) > 1e-15 {
		t.Errorf("corner max %v != TV bound %v", a.CornerMax, a.TVBound)
	}
	// The extreme is the method perfect only on K=2 (or its complement).
	if !reflect.DeepEqual(a.Corner, []int{2}) {
		t.Errorf("maximising corner = %v, want [2]", a.Corner)
	}
	if got := fmt.Sprintf("%.2f %.2f", 100*a.DevWeights[1], 100*a.TestWeights[1]); got != "58.82 47.62" {
		t.Errorf("K=2 weights = %s, want 58.82 47.62", got)
	}
	if got := fmt.Sprintf("%.2f%% %.2f%%", 100**a.DevMean, 100**a.TestMean); got != "72.94% 70.95%" {
		t.Errorf("90/80/60/40 means = %s, want 72.94%% 70.95%%", got)
	}
	// Exact fractions: 62/85 and 149/210.
	if math.Abs(*a.DevMean-62.0/85) > 1e-15 || math.Abs(*a.TestMean-149.0/210) > 1e-15 {
		t.Errorf("means %v %v", *a.DevMean, *a.TestMean)
	}
}

func TestMixtureCornerEqualsTVOnRandomWeights(t *testing.T) {
	for i, m := range [][2][]float64{
		{{1, 2, 3}, {3, 2, 1}},
		{{5, 0, 0, 1, 9}, {0, 7, 1, 1, 1}},
		{{1}, {4}},
	} {
		a, err := AuditMixture(m[0], m[1], nil)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(a.CornerMax-a.TVBound) > 1e-12 {
			t.Errorf("case %d: corner %v vs TV %v", i, a.CornerMax, a.TVBound)
		}
		if a.DevMean != nil {
			t.Errorf("case %d: means without a profile", i)
		}
	}
}

func TestAuditMixtureErrors(t *testing.T) {
	for name, in := range map[string][3][]float64{
		"length mismatch": {{1, 2}, {1, 2, 3}, nil},
		"empty":           {{}, {}, nil},
		"zero counts":     {{0, 0}, {1, 1}, nil},
		"negative":        {{-1, 2}, {1, 1}, nil},
		"profile length":  {{1, 2}, {1, 1}, {0.5}},
		"profile range":   {{1, 2}, {1, 1}, {0.5, 1.5}},
	} {
		if _, err := AuditMixture(in[0], in[1], in[2]); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestBootstrap(t *testing.T) {
	// Two templates per level; template t1 always scores 1, others 0.
	var cases []Case
	for k := 1; k <= 2; k++ {
		for i := 0; i < 10; i++ {
			tmpl := fmt.Sprintf("k%d_t%d", k, i%2)
			score := 0.0
			if i%2 == 0 {
				score = 1
			}
			cases = append(cases, Case{ID: fmt.Sprintf("c%d_%d", k, i), K: k, Template: tmpl, Score: score})
		}
	}
	stats, err := LevelStats(cases, []float64{0.5, 0.5}, []float64{0.25, 0.75})
	if err != nil {
		t.Fatal(err)
	}
	if stats[0].N != 10 || stats[0].Mean != 0.5 {
		t.Errorf("level stats %+v", stats)
	}
	ivs, err := Bootstrap(cases, []float64{0.25, 0.75}, 2000, 0.95, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(ivs) != 4 {
		t.Fatalf("%d intervals", len(ivs))
	}
	byKey := map[string]Interval{}
	for _, iv := range ivs {
		byKey[iv.Method+"/"+iv.Statistic] = iv
		if !iv.Defined || iv.Lo > iv.Estimate || iv.Hi < iv.Estimate || iv.Estimate != 0.5 {
			t.Errorf("interval %+v", iv)
		}
	}
	c, tc := byKey["case/sample_mean"], byKey["template_cluster/sample_mean"]
	if c.Units != 20 || tc.Units != 4 {
		t.Errorf("units case %d cluster %d", c.Units, tc.Units)
	}
	// With only 4 perfectly split clusters the cluster interval must be
	// wider than the case interval.
	if !(tc.Hi-tc.Lo > c.Hi-c.Lo) {
		t.Errorf("cluster interval [%v,%v] not wider than case [%v,%v]", tc.Lo, tc.Hi, c.Lo, c.Hi)
	}
	// Reproducible for a seed.
	again, _ := Bootstrap(cases, []float64{0.25, 0.75}, 2000, 0.95, 1)
	if !reflect.DeepEqual(ivs, again) {
		t.Error("bootstrap not reproducible for a fixed seed")
	}
	// A level with test weight but no case leaves the standardized mean undefined.
	ivs, err = Bootstrap(cases[:10], []float64{0.25, 0.75}, 100, 0.95, 1)
	if err != nil {
		t.Fatal(err)
	}
	if ivs[1].Defined || ivs[1].Statistic != "test_standardized_mean" {
		t.Errorf("undefined standardized mean reported as %+v", ivs[1])
	}
	if _, err := Bootstrap([]Case{{ID: "x", K: 1, Score: 1}}, []float64{1}, 10, 0.95, 1); err == nil {
		t.Error("case without template accepted")
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{1, 2, 3, 4}
	for q, want := range map[float64]float64{0: 1, 1: 4, 0.5: 2.5, 0.25: 1.75} {
		if got := Quantile(xs, q); got != want {
			t.Errorf("Quantile(%v) = %v, want %v", q, got, want)
		}
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("empty quantile not NaN")
	}
}
