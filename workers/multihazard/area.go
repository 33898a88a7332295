package multihazard

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/workers"
)

// Multi-hazard task shape A: one measurement of one declared source raster
// through ComputeStats — types 9 wildfire_a, 13 hazard_deforestation_a,
// 17 urban_expansion_a, 21 drought_a and 25 air_pollution_a.

// areaMetric binds an A-shape area metric to its work mode and mask.
type areaMetric struct {
	Metric, Mode, Handle string
}

// areaMetrics are the binary-footprint area measurements: type 9 burned
// area (MCD64A1), type 13 Hansen 2022 loss and type 17 Dynamic World
// built-up gain.
var areaMetrics = []areaMetric{
	{"burned_area", "wildfire_burn", "mcd64a1__event"},
	{"forest_loss", "forest_loss", "hansen_loss__event"},
	{"built_up_gain", "built_up_gain", "built_gain"},
}

func areaStatsVariants() []workers.Variant {
	var vs []workers.Variant
	for _, m := range areaMetrics {
		m := m
		run := func(env workers.Env, a workers.Args) (*workers.Result, error) { return computeMaskArea(env, a, m) }
		vs = append(vs, workers.NewVariant("ComputeStats", run, workers.Input("work handle from PrepareScene(mode="+m.Mode+")"), workers.Flags("metrics", m.Metric), workers.Choice("region", "aoi")))
	}
	vs = append(vs,
		workers.NewVariant("ComputeStats", computeNDVIZScore, workers.Input("work handle from PrepareScene(mode=drought_anomaly)"), workers.Flags("metrics", "ndvi_z_score"), workers.Choice("region", "aoi")),
		workers.NewVariant("ComputeStats", computePeakNO2, workers.Input("work handle from PrepareScene(mode=pollution_peak)"), workers.Flags("metrics", "peak_no2_column"), workers.Choice("region", "aoi")),
	)
	return vs
}

// AreaStats is the payload of a hazard area measurement.
type AreaStats struct {
	Metric      string
	Handle      string
	PixelCount  int
	ValidPixels int
	AreaM2      float64
	AreaHa      float64 // rounded to three decimals
	Method      string
}

// computeMaskArea implements types 9, 13 and 17: the declared binary
// event mask's positive (value 1) valid cells summed as grid-cell areas
// (WGS84 ellipsoidal on geographic grids, affine determinant on projected
// ones), in hectares rounded once to three decimals.
func computeMaskArea(env workers.Env, a workers.Args, m areaMetric) (*workers.Result, error) {
	w, err := workers.OpenWork(env, a, m.Mode)
	if err != nil {
		return nil, err
	}
	mask, err := loadBinaryMask(env, w.Scenes["hazard"], m.Handle+".tif")
	if err != nil {
		return nil, err
	}
	ga, err := workers.NewGridAreas(mask.Info)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", mask.Path, err)
	}
	m2 := ga.Sum(mask.Ones)
	if err := workers.CheckFinite(mask.Path+" area", m2); err != nil {
		return nil, err
	}
	ha := workers.RoundHalfEven(m2/10000, 3)
	st := &AreaStats{Metric: m.Metric, Handle: mask.Handle, PixelCount: len(mask.Ones), ValidPixels: mask.Valid, AreaM2: m2, AreaHa: ha, Method: ga.Method}
	return &workers.Result{
		Evidence: map[string]any{
			"metric": m.Metric, "region": "aoi", "source_handle": mask.Handle,
			"positive_pixel_count": len(mask.Ones), "valid_pixel_count": mask.Valid,
			"area_ha": ha, "units": "ha", "area_method": ga.Method,
			"mask_contract": "finite 1 = event, 0 = valid no event, declared nodata excluded",
		},
		Payload: st,
	}, nil
}

// NDVIZScore is the type-21 payload of ComputeStats(metrics={ndvi_z_score}).
type NDVIZScore struct {
	Handle string
	// TargetMean is NumPy's mean of the target raster's finite pixels.
	TargetMean float64
	// BaselineMean and BaselineStd (ddof=1) summarize the baseline rows.
	BaselineMean, BaselineStd float64
	BaselineCount             int
	TargetDate                string
	ValidPixels               int
	// Z is (TargetMean-BaselineMean)/BaselineStd, unrounded.
	Z float64
}

// ndviTargetHandle and ndviBaselineCSV are type 21's declared files.
const (
	ndviTargetHandle = "modis_ndvi__target"
	ndviBaselineCSV  = "baselines/modis_ndvi_anomaly.csv"
)

// computeNDVIZScore implements type 21: the target AOI mean is the
// arithmetic mean of the finite pixels of modis_ndvi__target.tif (NDVI in
// [-1,1]); the baseline mean and sample standard deviation (ddof=1) come
// only from the non-target rows of baselines/modis_ndvi_anomaly.csv, which
// must hold exactly one dated target row and at least two baseline rows;
// z = (target - mean)/std with a finite positive std.
func computeNDVIZScore(env workers.Env, a workers.Args) (*workers.Result, error) {
	w, err := workers.OpenWork(env, a, "drought_anomaly")
	if err != nil {
		return nil, err
	}
	sc := w.Scenes["hazard"]
	c, err := loadContinuous(env, sc, ndviTargetHandle+".tif")
	if err != nil {
		return nil, err
	}
	if i, v := c.firstValidOutside(-1, 1); i >= 0 {
		return nil, fmt.Errorf("%s: NDVI %v at pixel %d is outside [-1, 1]", c.Path, v, i)
	}
	target := c.validMean()
	f, err := sc.Require(ndviBaselineCSV)
	if err != nil {
		return nil, err
	}
	raw, err := env.ReadFile(f.Path)
	if err != nil {
		return nil, err
	}
	base, date, mirror, err := parseNDVIBaseline(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	mean := numpy.SumFloat64(base) / float64(len(base))
	sq := make([]float64, len(base))
	for i, v := range base {
		d := v - mean
		sq[i] = d * d
	}
	std := math.Sqrt(numpy.SumFloat64(sq) / float64(len(base)-1))
	if !workers.Finite(std) || std <= 0 {
		return nil, fmt.Errorf("%s: baseline sample standard deviation %v is not finite and positive", f.Path, std)
	}
	z := (target - mean) / std
	if err := workers.CheckFinite("NDVI z-score", z); err != nil {
		return nil, err
	}
	st := &NDVIZScore{Handle: c.Handle, TargetMean: target, BaselineMean: mean, BaselineStd: std, BaselineCount: len(base), TargetDate: date, ValidPixels: c.NValid, Z: z}
	return &workers.Result{
		Evidence: map[string]any{
			"metric": "ndvi_z_score", "region": "aoi", "source_handle": c.Handle,
			"target_aoi_mean_ndvi": workers.RoundHalfEven(target, 6), "target_date": date, "valid_pixel_count": c.NValid,
			"baseline_mean_ndvi": workers.RoundHalfEven(mean, 6), "baseline_std_ndvi": workers.RoundHalfEven(std, 6),
			"baseline_count": len(base), "ddof": 1, "z_score": workers.RoundHalfEven(z, 6),
			"csv_target_row_mean_ndvi": mirror, "target_source": "computed from the GeoTIFF; the CSV target row is an audit mirror",
			"formula": "(target_aoi_mean - baseline_mean) / baseline_std(ddof=1)",
		},
		Payload: st,
	}, nil
}

// parseNDVIBaseline reads the baseline CSV (columns date, role, mean_ndvi;
// role is "baseline" or "target") and returns the baseline values in file
// order, the target row's date and its (audit-only) mean.
func parseNDVIBaseline(raw []byte) ([]float64, string, float64, error) {
	r := csv.NewReader(bytes.NewReader(raw))
	header, err := r.Read()
	if err != nil {
		return nil, "", 0, fmt.Errorf("reading the header: %w", err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(h)] = i
	}
	for _, need := range []string{"date", "role", "mean_ndvi"} {
		if _, ok := col[need]; !ok {
			return nil, "", 0, fmt.Errorf("missing column %q (have %v)", need, header)
		}
	}
	var base []float64
	targets := 0
	date, mirror := "", 0.0
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", 0, fmt.Errorf("line %d: %w", line, err)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rec[col["mean_ndvi"]]), 64)
		if err != nil || !workers.Finite(v) {
			return nil, "", 0, fmt.Errorf("line %d: mean_ndvi %q is not a finite number", line, rec[col["mean_ndvi"]])
		}
		switch role := strings.TrimSpace(rec[col["role"]]); role {
		case "baseline":
			base = append(base, v)
		case "target":
			targets++
			mirror = v
			date = strings.TrimSpace(rec[col["date"]])
			if date == "" {
				return nil, "", 0, fmt.Errorf("line %d: the target row has no date", line)
			}
		default:
			return nil, "", 0, fmt.Errorf("line %d: role %q is neither baseline nor target", line, role)
		}
	}
	if targets != 1 {
		return nil, "", 0, fmt.Errorf("%d target rows; exactly one dated target marker is required", targets)
	}
	if len(base) < 2 {
		return nil, "", 0, fmt.Errorf("%d baseline rows; at least two historical observations are required", len(base))
	}
	return base, date, mirror, nil
}

// PeakStats is the type-25 payload of ComputeStats(metrics={peak_no2_column}).
type PeakStats struct {
	Handle      string
	Max, P95    float64
	ValidPixels int
}

// peakNO2Handle is type 25's declared Sentinel-5P episode-peak raster.
const peakNO2Handle = "s5p_no2__peak"

// computePeakNO2 implements type 25: NumPy's maximum and 95th percentile
// (np.percentile, linear interpolation in float64) of the finite pixels of
// the declared Sentinel-5P episode-peak NO2 column raster (µmol/m²).
func computePeakNO2(env workers.Env, a workers.Args) (*workers.Result, error) {
	w, err := workers.OpenWork(env, a, "pollution_peak")
	if err != nil {
		return nil, err
	}
	c, err := loadContinuous(env, w.Scenes["hazard"], peakNO2Handle+".tif")
	if err != nil {
		return nil, err
	}
	vals := c.validFloat64s()
	mx, p95 := MaxPercentile(vals, 95)
	if err := workers.CheckFinite("NO2 p95", p95); err != nil {
		return nil, err
	}
	st := &PeakStats{Handle: c.Handle, Max: mx, P95: p95, ValidPixels: len(vals)}
	return &workers.Result{
		Evidence: map[string]any{
			"metric": "peak_no2_column", "region": "aoi", "source_handle": c.Handle,
			"max_umol_m2": workers.RoundHalfEven(mx, 6), "p95_umol_m2": workers.RoundHalfEven(p95, 6),
			"valid_pixel_count": len(vals), "units": "µmol/m²",
			"percentile_method": "numpy linear",
		},
		Payload: st,
	}, nil
}

// Percentile returns NumPy's np.percentile(x, q) with the default linear
// method for sorted, non-empty x: the virtual index (n-1)·q/100, and the
// lerp a+(b-a)·t (or b-(b-a)·(1-t) when t >= 0.5) NumPy uses.
func Percentile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	vi := float64(float64(n-1) * (q / 100)) // float64(): no fused multiply-add on arm64
	lo := math.Floor(vi)
	i := int(lo)
	if i >= n-1 {
		return sorted[n-1]
	}
	if i < 0 {
		return sorted[0]
	}
	return lerp(sorted[i], sorted[i+1], vi-lo)
}

// lerp is NumPy's percentile interpolation between neighbours a <= b.
func lerp(a, b, t float64) float64 {
	d := b - a
	if t >= 0.5 {
		return b - float64(d*(1-t)) // float64(): NumPy rounds the product (no FMA)
	}
	return a + float64(d*t)
}

// MaxPercentile returns the maximum and Percentile(q) of the finite,
// non-empty x as sorted x would give them, reordering x. The percentile
// reads two neighbouring order statistics, which it selects instead of
// sorting. Without zeros equal values are equal bits, so any order gives
// the same sorted array; x holding a zero, whose sign depends on where a
// sort leaves -0 and +0, is sorted as before.
func MaxPercentile(x []float64, q float64) (mx, p float64) {
	n := len(x)
	vi := float64(float64(n-1) * (q / 100)) // as Percentile
	lo := math.Floor(vi)
	if i := int(lo); i >= 0 && i < n-1 && !slices.Contains(x, 0) {
		selectKth(x, i)
		a, b, m := x[i], x[i+1], x[i+1]
		for _, v := range x[i+2:] {
			b, m = min(b, v), max(m, v)
		}
		return m, lerp(a, b, vi-lo)
	}
	sort.Float64s(x)
	return x[n-1], Percentile(x, q)
}

// selectKth reorders x so that x[k] is the element sorted x holds there,
// no element before it greater and none after it smaller (x holds no NaN):
// quickselect with a median-of-three pivot, sorting the remaining range
// after 2*log2(n) rounds.
func selectKth(x []float64, k int) {
	lo, hi := 0, len(x)-1
	for depth := 2 * bits.Len(uint(len(x))); hi > lo; depth-- {
		if depth == 0 {
			slices.Sort(x[lo : hi+1])
			return
		}
		mid := lo + (hi-lo)/2
		if x[mid] < x[lo] {
			x[mid], x[lo] = x[lo], x[mid]
		}
		if x[hi] < x[lo] {
			x[hi], x[lo] = x[lo], x[hi]
		}
		if x[hi] < x[mid] {
			x[hi], x[mid] = x[mid], x[hi]
		}
		p := x[mid]
		i, j := lo, hi
		for i <= j {
			for x[i] < p {
				i++
			}
			for p < x[j] {
				j--
			}
			if i <= j {
				x[i], x[j] = x[j], x[i]
				i++
				j--
			}
		}
		// x[lo:j+1] <= p <= x[i:hi+1], and x[j+1:i] equal p.
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}
