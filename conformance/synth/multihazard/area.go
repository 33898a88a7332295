package multihazard

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
	worker "github.com/geodisaster/engine/workers/multihazard"
)

// Multi-hazard task shape A generators (types 13, 17, 21, 25; type 9 is in
// worker.go).

// areaTypeA describes a binary-footprint area type.
type areaTypeA struct {
	qt, role, mode, metric, handle, question string
	side                                     map[string]any
}

// genAreaA builds a type-13/17 record: a binary mask (uint8; some records
// with a declared nodata 255 strip, one with a valid zero footprint) and
// its sidecar and inventory; the gold is the ellipsoidal area of the
// positive cells in hectares, three decimals.
func genAreaA(t areaTypeA) func(g *core.Gen, i int) (workers.Record, error) {
	return func(g *core.Gen, i int) (workers.Record, error) {
		r, err := newMH(g, t.qt, i)
		if err != nil {
			return workers.Record{}, err
		}
		set := r.blobs(1+g.Rng.IntN(3), 0.15)
		if i%6 == 5 {
			set = make([]bool, r.n()) // a valid measured zero
		}
		var nd []bool
		var ndv *float64
		if i%3 == 1 {
			nd, ndv = r.stripe(1+g.Rng.IntN(4)), core.F64(255)
		}
		b, ones, err := r.binaryBand(set, nd)
		if err != nil {
			return workers.Record{}, err
		}
		ha := workers.RoundHalfEven(r.areaHa(ones), 3)
		cards, err := r.raster(t.handle, b, ndv, t.side)
		if err != nil {
			return workers.Record{}, err
		}
		inv, err := r.inventory(t.handle)
		if err != nil {
			return workers.Record{}, err
		}
		r.input("hazard_stack_1", append([]workers.FileCard{inv}, cards...)...)
		return r.record(t.question, []workers.Step{
			readHazard(t.role),
			core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"hazard": "scene_1"}, "mode": t.mode}, "work_1"),
			core.Step("ComputeStats", map[string]any{"input": "work_1", "metrics": map[string]any{t.metric: true}, "region": "aoi"}, "stats_1"),
			core.TaskComplete(),
		}, map[string]any{
			"status":   "TASK_COMPLETE",
			"answer":   map[string]any{"value": ha, "units": "ha"},
			"evidence": map[string]any{"primary_area_ha": ha, "primary_handle": t.handle},
		})
	}
}

var genDeforestationA = genAreaA(areaTypeA{
	qt: "hazard_deforestation_a", role: "deforestation", mode: "forest_loss", metric: "forest_loss",
	handle: "hansen_loss__event", question: "How many hectares of forest were lost in this AOI in 2022 according to Hansen Global Forest Change?",
	side: map[string]any{"product": "UMD/hansen/global_forest_change_2025_v1_13", "lossyear": 2022, "units": "binary_mask"},
})

var genUrbanA = genAreaA(areaTypeA{
	qt: "urban_expansion_a", role: "urban_expansion", mode: "built_up_gain", metric: "built_up_gain",
	handle: "built_gain", question: "How many hectares of new built-up area appeared in this AOI between 2019 and 2024 according to Dynamic World?",
	side: map[string]any{"product": "GOOGLE/DYNAMICWORLD/V1", "rule": "post_2024_built > 0.55 and pre_2019_built <= 0.55", "units": "binary_mask"},
})

// genDroughtA builds a type-21 record: a float32 MODIS NDVI target raster
// (NaN or a declared -3000 nodata strip) and the baseline CSV with six
// baseline rows and one dated target row; the gold z-score uses NumPy's
// float32 target mean and the float64 ddof=1 baseline statistics.
func genDroughtA(g *core.Gen, i int) (workers.Record, error) {
	r, err := newMH(g, "drought_a", i)
	if err != nil {
		return workers.Record{}, err
	}
	b, err := r.band(raster.Float32)
	if err != nil {
		return workers.Record{}, err
	}
	var nd []bool
	var ndv *float64
	switch i % 3 {
	case 1:
		nd, ndv = r.stripe(2), core.F64(-3000)
	case 2:
		nd, ndv = r.stripe(3), core.F64(math.NaN())
	}
	level := 0.15 + float64(0.6*g.Rng.Float64())
	var valid []int
	for k := 0; k < r.n(); k++ {
		if nd != nil && nd[k] {
			b.Set(k, *ndv)
			continue
		}
		v := math.Max(-1, math.Min(1, level+float64(0.25*(float64(g.Rng.Float64())-0.5))))
		if k == 0 {
			v = 1 // the inclusive upper NDVI bound
		}
		b.Set(k, v)
		valid = append(valid, k)
	}
	target := meanF32(b, valid)
	var base []float64
	var sb strings.Builder
	sb.WriteString("date,role,mean_ndvi\n")
	for y := 2015; y < 2021; y++ {
		v := workers.RoundHalfEven(level+(float64(0.3*g.Rng.Float64())-0.15)+float64(0.05*float64(i%4)), 6)
		base = append(base, v)
		fmt.Fprintf(&sb, "%d-07-15,baseline,%s\n", y, fmtF(v))
	}
	fmt.Fprintf(&sb, "2022-07-15,target,%s\n", fmtF(workers.RoundHalfEven(target, 6)))
	mean := numpy.SumFloat64(base) / float64(len(base))
	sq := make([]float64, len(base))
	for k, v := range base {
		sq[k] = (v - mean) * (v - mean)
	}
	std := math.Sqrt(numpy.SumFloat64(sq) / float64(len(base)-1))
	z := (target - mean) / std
	cards, err := r.raster("modis_ndvi__target", b, ndv, map[string]any{"product": "MODIS/061/MOD13Q1", "band": "NDVI", "scale": "NDVI (-1..1)", "date": "2022-07-15"})
	if err != nil {
		return workers.Record{}, err
	}
	csv, err := r.g.Write(r.base+"baselines/modis_ndvi_anomaly.csv", []byte(sb.String()))
	if err != nil {
		return workers.Record{}, err
	}
	inv, err := r.inventory("modis_ndvi__target")
	if err != nil {
		return workers.Record{}, err
	}
	r.input("hazard_stack_1", append([]workers.FileCard{inv}, append(cards, csv)...)...)
	return r.record("What is the MODIS NDVI z-score of this AOI's drought-season target against its same-season baseline?", []workers.Step{
		readHazard("drought"),
		core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"hazard": "scene_1"}, "mode": "drought_anomaly"}, "work_1"),
		core.Step("ComputeStats", map[string]any{"input": "work_1", "metrics": map[string]any{"ndvi_z_score": true}, "region": "aoi"}, "stats_1"),
		core.TaskComplete(),
	}, map[string]any{
		"status": "TASK_COMPLETE",
		"answer": map[string]any{"value": workers.RoundHalfEven(z, 6), "units": "z_score"},
		"evidence": map[string]any{"target_aoi_mean_ndvi": workers.RoundHalfEven(target, 6), "baseline_mean_ndvi": workers.RoundHalfEven(mean, 6),
			"baseline_std_ndvi": workers.RoundHalfEven(std, 6), "baseline_count": len(base), "primary_handle": "modis_ndvi__target"},
	})
}

// genAirA builds a type-25 record: a float32 Sentinel-5P episode-peak NO2
// column raster (µmol/m², NaN gaps in some records, a repeated maximum in
// others); the gold is NumPy's max and linear 95th percentile.
func genAirA(g *core.Gen, i int) (workers.Record, error) {
	r, err := newMH(g, "air_pollution_a", i)
	if err != nil {
		return workers.Record{}, err
	}
	b, err := r.band(raster.Float32)
	if err != nil {
		return workers.Record{}, err
	}
	var vals []float64
	peak := 110 + float64(300*g.Rng.Float64())
	for k := 0; k < r.n(); k++ {
		if i%2 == 1 && g.Rng.IntN(9) == 0 {
			b.Set(k, math.NaN())
			continue
		}
		v := float64(float32(peak * (0.2 + float64(0.8*g.Rng.Float64()*g.Rng.Float64()))))
		if i%3 == 2 && k%97 == 0 {
			v = float64(float32(peak)) // repeated maximum
		}
		b.Set(k, v)
		vals = append(vals, v)
	}
	mx := math.Inf(-1)
	for _, v := range vals {
		mx = math.Max(mx, v)
	}
	sorted := append([]float64(nil), vals...)
	sort.Float64s(sorted)
	p95 := worker.Percentile(sorted, 95)
	nodata := core.F64(math.NaN())
	if i%4 == 3 {
		nodata = core.F64(-9999) // a declared finite nodata instead of NaN
		nanTo(b, -9999)
	}
	cards, err := r.raster("s5p_no2__peak", b, nodata, map[string]any{
		"product": "COPERNICUS/S5P/OFFL/L3_NO2", "band": "tropospheric_NO2_column_number_density",
		"units": "µmol/m²", "scale": 1e6, "temporal_reducer": "episode max"})
	if err != nil {
		return workers.Record{}, err
	}
	inv, err := r.inventory("s5p_no2__peak")
	if err != nil {
		return workers.Record{}, err
	}
	r.input("hazard_stack_1", append([]workers.FileCard{inv}, cards...)...)
	return r.record("What is the peak tropospheric NO2 column in this AOI during the episode, in µmol/m²?", []workers.Step{
		readHazard("air_pollution"),
		core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"hazard": "scene_1"}, "mode": "pollution_peak"}, "work_1"),
		core.Step("ComputeStats", map[string]any{"input": "work_1", "metrics": map[string]any{"peak_no2_column": true}, "region": "aoi"}, "stats_1"),
		core.TaskComplete(),
	}, map[string]any{
		"status":   "TASK_COMPLETE",
		"answer":   map[string]any{"value": workers.RoundHalfEven(mx, 6), "units": "µmol/m²"},
		"evidence": map[string]any{"max_umol_m2": workers.RoundHalfEven(mx, 6), "p95_umol_m2": workers.RoundHalfEven(p95, 6), "primary_handle": "s5p_no2__peak"},
	})
}
