package scoring

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// maxCornerLevels bounds the exhaustive corner check (2^n corners).
const maxCornerLevels = 24

// MixtureAudit is the composition audit of two mixtures over the same
// levels (GeoKTools' K=1..4): how far a headline mean can move when only
// the level weights change and every per-level score stays fixed.
type MixtureAudit struct {
	// DevCounts and TestCounts are the case counts per level.
	DevCounts  []float64 `json:"dev_counts"`
	TestCounts []float64 `json:"test_counts"`
	// DevWeights and TestWeights are the counts normalised to sum to 1.
	DevWeights  []float64 `json:"dev_weights"`
	TestWeights []float64 `json:"test_weights"`
	// TVBound is the total variation distance ½Σ|p−q|: the exact largest
	// possible |Σ(p−q)a| over per-level scores a in [0,1].
	TVBound float64 `json:"tv_bound"`
	// CornerMax is max |Σ(p−q)a| over all 2^n zero/one corners a, an
	// independent check that must equal TVBound.
	CornerMax float64 `json:"corner_max"`
	// Corner is a maximising corner (the levels scored 1).
	Corner []int `json:"corner"`
	// Profile is the per-level score vector a, when given.
	Profile []float64 `json:"profile,omitempty"`
	// DevMean and TestMean are Σp·a and Σq·a for Profile.
	DevMean  *float64 `json:"dev_mean,omitempty"`
	TestMean *float64 `json:"test_mean,omitempty"`
}

// Normalize returns counts divided by their sum. Counts must be finite,
// non-negative and not all zero.
func Normalize(counts []float64) ([]float64, error) {
	sum := 0.0
	for i, c := range counts {
		if math.IsNaN(c) || math.IsInf(c, 0) || c < 0 {
			return nil, fmt.Errorf("count %d is %v: counts must be finite and non-negative", i+1, c)
		}
		sum += c
	}
	if sum == 0 {
		return nil, errors.New("counts sum to zero")
	}
	w := make([]float64, len(counts))
	for i, c := range counts {
		w[i] = c / sum
	}
	return w, nil
}

// AuditMixture computes the mixture audit of dev against test counts and,
// when profile is non-nil, the two weighted means of that per-level score
// profile (each score in [0,1]). The slices must have equal lengths
// between 1 and 24.
func AuditMixture(dev, test, profile []float64) (*MixtureAudit, error) {
	n := len(dev)
	if n == 0 || n != len(test) {
		return nil, fmt.Errorf("mixture: dev has %d levels, test %d; they must match and be non-empty", len(dev), len(test))
	}
	if n > maxCornerLevels {
		return nil, fmt.Errorf("mixture: %d levels exceed the %d the corner check enumerates", n, maxCornerLevels)
	}
	p, err := Normalize(dev)
	if err != nil {
		return nil, fmt.Errorf("mixture: dev: %w", err)
	}
	q, err := Normalize(test)
	if err != nil {
		return nil, fmt.Errorf("mixture: test: %w", err)
	}
	a := &MixtureAudit{DevCounts: dev, TestCounts: test, DevWeights: p, TestWeights: q}
	for i := range p {
		a.TVBound += math.Abs(p[i] - q[i])
	}
	a.TVBound /= 2
	for mask := 0; mask < 1<<n; mask++ {
		d := 0.0
		for i := 0; i < n; i++ {
			if mask&(1<<i) != 0 {
				d += p[i] - q[i]
			}
		}
		if math.Abs(d) > a.CornerMax {
			a.CornerMax = math.Abs(d)
			a.Corner = a.Corner[:0]
			for i := 0; i < n; i++ {
				if mask&(1<<i) != 0 {
					a.Corner = append(a.Corner, i+1)
				}
			}
		}
	}
	if a.Corner == nil {
		a.Corner = []int{}
	}
	if profile != nil {
		if len(profile) != n {
			return nil, fmt.Errorf("mixture: profile has %d scores for %d levels", len(profile), n)
		}
		for i, s := range profile {
			if math.IsNaN(s) || s < 0 || s > 1 {
				return nil, fmt.Errorf("mixture: profile score %d is %v, not in [0,1]", i+1, s)
			}
		}
		dm, tm := dot(p, profile), dot(q, profile)
		a.Profile, a.DevMean, a.TestMean = profile, &dm, &tm
	}
	return a, nil
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += float64(a[i] * b[i]) // no fused multiply-add (arm64)
	}
	return s
}

// Case is one scored development case for per-level reporting and the
// bootstraps.
type Case struct {
	ID       string  `json:"id"`
	K        int     `json:"k"`        // level, 1-based
	Template string  `json:"template"` // template family (cluster unit)
	Score    float64 `json:"score"`    // in [0,1]
}

// LevelStat is the per-level summary of cases.
type LevelStat struct {
	K          int     `json:"k"`
	N          int     `json:"n"`
	Mean       float64 `json:"mean"` // NaN-free: 0 when N is 0
	DevWeight  float64 `json:"dev_weight"`
	TestWeight float64 `json:"test_weight"`
}

// Interval is a percentile bootstrap interval of one statistic.
type Interval struct {
	// Method is "case" (resample cases) or "template_cluster" (resample
	// templates, keeping all their cases).
	Method string `json:"method"`
	// Statistic is "sample_mean" (the cases' own mean) or
	// "test_standardized_mean" (Σ q_k · mean_k).
	Statistic string `json:"statistic"`
	// Defined is false when the statistic cannot be computed (a level
	// with positive test weight has no case); Estimate, Lo and Hi are
	// then 0.
	Defined  bool    `json:"defined"`
	Estimate float64 `json:"estimate"`
	Lo       float64 `json:"lo"`
	Hi       float64 `json:"hi"`
	// Units is the number of resampled units (cases or templates).
	Units int `json:"units"`
	// Replicates is the number of replicates used; Discarded counts
	// replicates dropped because a level had no case (standardized mean).
	Replicates int `json:"replicates"`
	Discarded  int `json:"discarded"`
}

// LevelStats summarises cases per level 1..len(testWeights).
func LevelStats(cases []Case, devWeights, testWeights []float64) ([]LevelStat, error) {
	n := len(testWeights)
	out := make([]LevelStat, n)
	for i := range out {
		out[i] = LevelStat{K: i + 1, DevWeight: devWeights[i], TestWeight: testWeights[i]}
	}
	for _, c := range cases {
		if c.K < 1 || c.K > n {
			return nil, fmt.Errorf("case %s: k %d outside 1..%d", c.ID, c.K, n)
		}
		if math.IsNaN(c.Score) || c.Score < 0 || c.Score > 1 {
			return nil, fmt.Errorf("case %s: score %v not in [0,1]", c.ID, c.Score)
		}
		out[c.K-1].N++
		out[c.K-1].Mean += c.Score
	}
	for i := range out {
		if out[i].N > 0 {
			out[i].Mean /= float64(out[i].N)
		}
	}
	return out, nil
}

// sampleStats returns the plain mean of the cases and the test-standardized
// mean Σ q_k·mean_k (ok false when some level with q_k > 0 has no case).
func sampleStats(cases []*Case, q []float64) (mean, std float64, ok bool) {
	sums := make([]float64, len(q))
	ns := make([]int, len(q))
	total := 0.0
	for _, c := range cases {
		sums[c.K-1] += c.Score
		ns[c.K-1]++
		total += c.Score
	}
	mean = total / float64(len(cases))
	ok = true
	for k := range q {
		if ns[k] == 0 {
			if q[k] > 0 {
				ok = false
			}
			continue
		}
		std += q[k] * sums[k] / float64(ns[k])
	}
	return mean, std, ok
}

// Bootstrap returns percentile intervals (confidence level conf, e.g. 0.95)
// for the sample mean and the test-standardized mean, by case resampling
// and by template-cluster resampling, side by side. The random stream is
// PCG seeded with seed, so results are reproducible. Cases must already be
// validated (LevelStats).
func Bootstrap(cases []Case, testWeights []float64, replicates int, conf float64, seed uint64) ([]Interval, error) {
	if len(cases) == 0 {
		return nil, errors.New("bootstrap: no cases")
	}
	if replicates < 1 {
		return nil, fmt.Errorf("bootstrap: %d replicates", replicates)
	}
	if !(conf > 0 && conf < 1) {
		return nil, fmt.Errorf("bootstrap: confidence %v not in (0,1)", conf)
	}
	ptrs := make([]*Case, len(cases))
	clusters := map[string][]*Case{}
	var order []string
	for i := range cases {
		c := &cases[i]
		if c.Template == "" {
			return nil, fmt.Errorf("bootstrap: case %s has no template", c.ID)
		}
		ptrs[i] = c
		if _, ok := clusters[c.Template]; !ok {
			order = append(order, c.Template)
		}
		clusters[c.Template] = append(clusters[c.Template], c)
	}
	sort.Strings(order)
	mean, std, stdOK := sampleStats(ptrs, testWeights)

	var out []Interval
	for _, method := range []string{"case", "template_cluster"} {
		rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
		var means, stds []float64
		discarded := 0
		units := len(ptrs)
		if method == "template_cluster" {
			units = len(order)
		}
		sample := make([]*Case, 0, len(ptrs))
		for r := 0; r < replicates; r++ {
			sample = sample[:0]
			if method == "case" {
				for i := 0; i < len(ptrs); i++ {
					sample = append(sample, ptrs[rng.IntN(len(ptrs))])
				}
			} else {
				for i := 0; i < len(order); i++ {
					sample = append(sample, clusters[order[rng.IntN(len(order))]]...)
				}
			}
			m, s, ok := sampleStats(sample, testWeights)
			means = append(means, m)
			if ok {
				stds = append(stds, s)
			} else {
				discarded++
			}
		}
		lo, hi := percentileInterval(means, conf)
		out = append(out, Interval{Method: method, Statistic: "sample_mean", Defined: true, Estimate: mean, Lo: lo, Hi: hi, Units: units, Replicates: replicates})
		iv := Interval{Method: method, Statistic: "test_standardized_mean", Units: units, Replicates: len(stds), Discarded: discarded}
		if stdOK && len(stds) > 0 {
			iv.Defined, iv.Estimate = true, std
			iv.Lo, iv.Hi = percentileInterval(stds, conf)
		}
		out = append(out, iv)
	}
	return out, nil
}

// percentileInterval returns the (1-conf)/2 and (1+conf)/2 quantiles of
// xs with linear interpolation (NumPy's default method). xs is sorted.
func percentileInterval(xs []float64, conf float64) (float64, float64) {
	sort.Float64s(xs)
	return Quantile(xs, (1-conf)/2), Quantile(xs, (1+conf)/2)
}

// Quantile returns the q-quantile (0 <= q <= 1) of sorted xs by linear
// interpolation between order statistics, like numpy.quantile's default.
// It is NaN for an empty slice.
func Quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	h := float64(q * float64(len(sorted)-1)) // float64(): h-float64(i) below must not fuse with this product (arm64)
	i := int(math.Floor(h))
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	if i < 0 {
		return sorted[0]
	}
	return sorted[i] + float64((h-float64(i))*(sorted[i+1]-sorted[i])) // no fused multiply-add (arm64)
}
