// Package otsu computes Otsu thresholds exactly as scikit-image computes
// them, over one slice of values or, for the engine's workers, over values
// held in parts whose histograms the workers' own goroutines count.
package otsu

import (
	"errors"
	"fmt"
	"math"
)

// ErrEmptyInput reports that Threshold or ThresholdParts was given no
// values.
var ErrEmptyInput = errors.New("raster: no input values")

// Threshold returns Otsu's threshold of the float32 values x computed with
// nbins equal-width histogram bins, equal bit for bit to scikit-image's
// skimage.filters.threshold_otsu(x, nbins) on a float32 array (0.19 to
// 0.25 share the algorithm), which the caller then applies as "x <= t is
// the dark class":
//
//   - when every value equals x[0], that value is returned;
//   - the histogram is NumPy's np.histogram(x, bins=nbins) over [min, max]:
//     edges are np.linspace(min, max, nbins+1) computed in float64 and
//     stored as float32, and a value's bin is found from
//     float32(x-min)*float32(nbins/float64(float32(max-min))), then
//     corrected against the stored edges (the last bin is closed);
//   - bin centres are float32 (edge[i]+edge[i+1])/2;
//   - class weights and means are cumulative float64 sums in bin order
//     (from the top for the upper class), the between-class variance is
//     (w1*w2)*(m1-m2)², and the first maximum wins.
//
// The returned threshold is always one of the bin centres (or the constant
// value). Errors: empty input (ErrEmptyInput), nbins < 1, or a non-finite
// value (NumPy refuses a non-finite histogram range).
func Threshold(x []float32, nbins int) (float32, error) {
	if len(x) == 0 {
		return 0, ErrEmptyInput
	}
	if nbins < 1 {
		return 0, fmt.Errorf("raster: Otsu needs at least one bin, got %d", nbins)
	}
	mn, mx := x[0], x[0]
	for i, v := range x {
		// v-v is 0 for finite v and NaN for NaN or ±Inf.
		if v-v != 0 {
			return 0, fmt.Errorf("raster: Otsu input value %d is not finite (%v)", i, v)
		}
		if v < mn {
			mn = v
		}
		if v > mx {
			mx = v
		}
	}
	// Every value compares equal to x[0] exactly when min == max.
	if mn == mx {
		return x[0], nil
	}
	edges := histogramEdges32(mn, mx, nbins)
	counts := make([]int64, nbins)
	histogram32(counts, x, mn, mx, edges)
	return otsuThreshold(counts, edges), nil
}

// ThresholdParts is Threshold over the concatenation of parts for a caller
// that already knows the values' range: mn and mx must be the minimum and
// maximum of the values, which must all be finite (not checked). The
// parts' histograms are counted by run, which receives one function per
// part and must call each once (concurrently or not) before it returns,
// and then added; the result equals Threshold's bit for bit (counts do not
// depend on order). Callers with their own workers use run to count on
// them instead of starting goroutines. nbins must be at least 1.
func ThresholdParts(parts [][]float32, mn, mx float32, nbins int, run func(fs []func())) (float32, error) {
	if nbins < 1 {
		return 0, fmt.Errorf("raster: Otsu needs at least one bin, got %d", nbins)
	}
	first := -1
	for i, p := range parts {
		if len(p) > 0 {
			first = i
			break
		}
	}
	if first < 0 {
		return 0, ErrEmptyInput
	}
	if mn == mx {
		return parts[first][0], nil
	}
	edges := histogramEdges32(mn, mx, nbins)
	counts := make([][]int64, len(parts))
	fs := make([]func(), len(parts))
	for i := range parts {
		counts[i] = make([]int64, nbins)
		fs[i] = func() { histogram32(counts[i], parts[i], mn, mx, edges) }
	}
	run(fs)
	for _, c := range counts[1:] {
		for k, v := range c {
			counts[0][k] += v
		}
	}
	return otsuThreshold(counts[0], edges), nil
}

// otsuThreshold returns the bin centre that maximizes the between-class
// variance of the histogram counts over edges.
func otsuThreshold(counts []int64, edges []float32) float32 {
	nbins := len(counts)
	centers := make([]float32, nbins)
	for i := range centers {
		s := edges[i] + edges[i+1]
		centers[i] = s / 2
	}
	return centers[otsuIndex(counts, centers)]
}

// histogramEdges32 returns np.linspace(mn, mx, n+1, dtype=float32) as NumPy
// computes it: in float64, i*step + start with step = (stop-start)/n, the
// last edge set to stop, then rounded to float32.
func histogramEdges32(mn, mx float32, n int) []float32 {
	start, stop := float64(mn), float64(mx)
	delta := stop - start
	step := delta / float64(n)
	edges := make([]float32, n+1)
	for i := 0; i <= n; i++ {
		var y float64
		if step == 0 {
			y = float64(float64(float64(i)/float64(n))*delta) + start // no fused multiply-add (arm64)
		} else {
			y = float64(float64(i)*step) + start
		}
		edges[i] = float32(y)
	}
	edges[n] = float32(stop)
	return edges
}

// histogram32 adds the counts of x in the bins of edges to counts, as
// np.histogram's uniform-bin path counts float32 data.
func histogram32(counts []int64, x []float32, mn, mx float32, edges []float32) {
	n := len(edges) - 1
	norm := float32(float64(n) / float64(mx-mn))
	for _, v := range x {
		d := v - mn
		f := d * norm
		idx := int(f)
		if idx >= n {
			idx = n - 1
		}
		if v < edges[idx] {
			idx--
		}
		if idx != n-1 && v >= edges[idx+1] {
			idx++
		}
		counts[idx]++
	}
}

// otsuIndex returns the bin index that maximizes the between-class
// variance, with scikit-image's arithmetic and tie rule (first maximum).
func otsuIndex(counts []int64, centers []float32) int {
	n := len(counts)
	w1 := make([]float64, n)
	m1 := make([]float64, n)
	var cw, cm float64
	for i := 0; i < n; i++ {
		c := float64(counts[i])
		cw += c
		cm += float64(c * float64(centers[i]))
		w1[i] = cw
		m1[i] = cm / cw
	}
	w2 := make([]float64, n)
	m2 := make([]float64, n)
	cw, cm = 0, 0
	for i := n - 1; i >= 0; i-- {
		c := float64(counts[i])
		cw += c
		cm += float64(c * float64(centers[i]))
		w2[i] = cw
		m2[i] = cm / cw
	}
	best, bestV := 0, math.Inf(-1)
	for i := 0; i < n-1; i++ {
		d := m1[i] - m2[i+1]
		w := w1[i] * w2[i+1]
		v := w * float64(d*d)
		if math.IsNaN(v) {
			// np.argmax returns the first NaN.
			return i
		}
		if v > bestV {
			best, bestV = i, v
		}
	}
	return best
}
