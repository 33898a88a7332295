package multihazard

import (
	"fmt"
	"math"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// Multi-hazard task shape B generators (types 10, 14, 18, 22, 26).

// mhBin is a lower-inclusive, upper-exclusive class interval.
type mhBin struct {
	label  string
	lo, hi float64
}

// classTypeB describes a B-shape type.
type classTypeB struct {
	qt, role, mode, hazard, scale string
	// value is the classified raster's handle; mask the footprint ("" for
	// the whole AOI); scope the analysis_scope string.
	value, mask, scope string
	// bins are fixed bins; when nil the bins are train-only quartiles
	// written to norm with labels.
	bins   []mhBin
	norm   string
	labels []string
	// lo, hi bound the generated values.
	lo, hi   float64
	question string
	side     map[string]any
}

// normFile writes a train-only normalization contract whose sources all
// span [lo, hi], with the four class labels.
func (r *mhRec) normFile(name string, sources []string, lo, hi float64, labels []string) (workers.FileCard, map[string][3]float64, map[string][]float64, error) {
	ranges := make([][2]float64, len(sources))
	for k := range ranges {
		ranges[k] = [2]float64{lo, hi}
	}
	return r.normFileEach(name, sources, ranges, labels)
}

// normFileEach writes a train-only normalization contract for the given
// sources (q25 < q50 < q75 float32 values inside each source's range, 18
// training-AOI means) and returns its card, per-source quartiles and
// training means.
func (r *mhRec) normFileEach(name string, sources []string, ranges [][2]float64, labels []string) (workers.FileCard, map[string][3]float64, map[string][]float64, error) {
	fit := make([]string, 18)
	for k := range fit {
		fit[k] = fmt.Sprintf("train_aoi_%02d", k)
	}
	src := map[string]any{}
	qs := map[string][3]float64{}
	means := map[string][]float64{}
	for k, s := range sources {
		lo, span := ranges[k][0], ranges[k][1]-ranges[k][0]
		a := lo + float64(span*(0.2+float64(0.15*r.g.Rng.Float64())))
		b := a + float64(span*(0.1+float64(0.15*r.g.Rng.Float64())))
		c := b + float64(span*(0.1+float64(0.15*r.g.Rng.Float64())))
		q := [3]float64{float64(float32(a)), float64(float32(b)), float64(float32(c))}
		m := make([]float64, 18)
		for j := range m {
			m[j] = workers.RoundHalfEven(q[0]+float64((q[2]-q[0])*r.g.Rng.Float64()), 6)
		}
		entry := map[string]any{"finite_pixel_count": 294912, "q25": q[0], "q50": q[1], "q75": q[2], "train_aoi_means": m}
		if labels != nil {
			entry["classes"] = labels
		}
		src[s] = entry
		qs[s], means[s] = q, m
	}
	card, err := r.g.WriteJSON(r.base+name, map[string]any{
		"contract": "train_only_pixel_quartiles_v1", "fit_split": "train", "fit_aois": fit,
		"method":  "numpy.quantile(all finite training pixels, [0.25, 0.5, 0.75]) per source; per-AOI finite means",
		"sources": src,
	})
	return card, qs, means, err
}

// inBin applies a bin to a float32 sample as NumPy compares a float32
// array with a Python float (in float32).
func inBin(v float64, b mhBin) bool {
	return v >= float64(float32(b.lo)) && v < float64(float32(b.hi))
}

// genClassB builds a B record: a float32 value raster (NaN gaps), an
// optional binary footprint (declared nodata strip in some records) and,
// for normalized types, the train-only contract. Records put exact
// boundary values and the float32 just below them in scope; every sixth
// record is a four-way equal-count tie (resolved in declared order) and
// some leave a class empty (null mean).
func genClassB(t classTypeB) func(g *core.Gen, i int) (workers.Record, error) {
	return func(g *core.Gen, i int) (workers.Record, error) {
		r, err := newMH(g, t.qt, i)
		if err != nil {
			return workers.Record{}, err
		}
		var extra []workers.FileCard
		bins := t.bins
		var bounds []float64
		if bins == nil {
			card, qs, _, err := r.normFile(t.norm, []string{t.value}, t.lo, t.hi, t.labels)
			if err != nil {
				return workers.Record{}, err
			}
			extra = append(extra, card)
			q := qs[t.value]
			bounds = q[:]
			bins = []mhBin{{t.labels[0], -1e30, q[0]}, {t.labels[1], q[0], q[1]}, {t.labels[2], q[1], q[2]}, {t.labels[3], q[2], 1e30}}
		}
		n := r.n()
		inScope := make([]bool, n)
		maskCount := 0
		var maskBand *raster.Band
		var maskND *float64
		if t.mask != "" {
			set := r.blobs(2+g.Rng.IntN(2), 0.2)
			var nd []bool
			if i%2 == 1 {
				nd, maskND = r.stripe(2), core.F64(255)
			}
			var ones []int
			maskBand, ones, err = r.binaryBand(set, nd)
			if err != nil {
				return workers.Record{}, err
			}
			maskCount = len(ones)
			for _, k := range ones {
				inScope[k] = true
			}
		} else {
			for k := range inScope {
				inScope[k] = true
			}
		}
		// Value raster: NaN gaps, a skewed distribution per record.
		b, err := r.band(raster.Float32)
		if err != nil {
			return workers.Record{}, err
		}
		skew := 0.3 + float64(2.5*g.Rng.Float64())
		hiCap := t.hi
		if i%5 == 3 { // leave the top class empty
			hiCap = bins[3].lo - float64((bins[3].lo-bins[2].lo)*0.3)
			if bins[3].lo > t.hi {
				hiCap = t.hi
			}
		}
		for k := 0; k < n; k++ {
			if g.Rng.IntN(23) == 0 {
				b.Set(k, math.NaN())
				continue
			}
			u := math.Pow(g.Rng.Float64(), skew)
			b.Set(k, t.lo+float64((hiCap-t.lo)*u))
		}
		var scope []int
		for k := 0; k < n; k++ {
			if inScope[k] && !math.IsNaN(b.At(k)) {
				scope = append(scope, k)
			}
		}
		if i%6 == 4 && len(scope) >= 8 {
			// Four-way tie: class k%4 by position, surplus pixels nodata.
			extraN := len(scope) % 4
			for _, k := range scope[len(scope)-extraN:] {
				b.Set(k, math.NaN())
			}
			scope = scope[:len(scope)-extraN]
			for j, k := range scope {
				bn := bins[j%4]
				lo, hi := math.Max(bn.lo, t.lo), math.Min(bn.hi, t.hi)
				b.Set(k, lo+float64((hi-lo)*(0.1+float64(0.8*g.Rng.Float64()))))
			}
		} else {
			// Boundary probes at and just below every interior boundary.
			limit := 4
			if i%5 == 3 {
				limit = 3 // keep the emptied top class empty
			}
			for j := 1; j < limit && 2*j < len(scope); j++ {
				edge := bins[j].lo
				b.Set(scope[2*j-2], float64(float32(edge)))
				b.Set(scope[2*j-1], f32down(edge))
			}
		}
		members := make([][]int, 4)
		for _, k := range scope {
			v := b.At(k)
			found := false
			for c, bn := range bins {
				if inBin(v, bn) {
					members[c] = append(members[c], k)
					found = true
					break
				}
			}
			if !found {
				return workers.Record{}, fmt.Errorf("generated value %v outside every bin", v)
			}
		}
		byClass := map[string]any{}
		best := 0
		for c, bn := range bins {
			var mean any
			if len(members[c]) > 0 {
				mean = workers.RoundHalfEven(meanF32(b, members[c]), 6)
			}
			byClass[bn.label] = map[string]any{"area_ha": workers.RoundHalfEven(r.areaHa(members[c]), 3), "pixel_count": len(members[c]), "mean_value": mean}
			if len(members[c]) > len(members[best]) {
				best = c
			}
		}
		dom := bins[best].label
		frac := workers.RoundHalfEven(float64(len(members[best]))/float64(len(scope)), 6)
		ev := map[string]any{"dominant_class": dom, "by_class": byClass, "analysis_scope": t.scope}
		if t.mask != "" {
			ev["mask_pixel_count"] = maskCount
		} else {
			ev["valid_pixel_count"] = len(scope)
		}
		if bounds != nil {
			ev["boundaries"] = bounds
			ev["normalization_fit_split"] = "train"
		}
		nodata := core.F64(math.NaN())
		if i%3 == 0 {
			nodata = core.F64(-9999) // a declared finite nodata instead of NaN
			nanTo(b, -9999)
		}
		cards, err := r.raster(t.value, b, nodata, t.side)
		if err != nil {
			return workers.Record{}, err
		}
		handles := []string{t.value}
		if t.mask != "" {
			mc, err := r.raster(t.mask, maskBand, maskND, map[string]any{"units": "binary_mask"})
			if err != nil {
				return workers.Record{}, err
			}
			cards = append(cards, mc...)
			handles = append(handles, t.mask)
		}
		inv, err := r.inventory(handles...)
		if err != nil {
			return workers.Record{}, err
		}
		r.input("hazard_stack_1", append(append([]workers.FileCard{inv}, cards...), extra...)...)
		return r.record(t.question, []workers.Step{
			readHazard(t.role),
			core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"hazard": "scene_1"}, "mode": t.mode}, "work_1"),
			core.Step("ScoreHazard", map[string]any{"input": "work_1", "hazard": t.hazard, "scale": t.scale}, "score_1"),
			core.TaskComplete(),
		}, map[string]any{
			"status":   "TASK_COMPLETE",
			"answer":   map[string]any{"class": dom, "dominant_fraction": frac},
			"evidence": ev,
		})
	}
}

var genWildfireB = genClassB(classTypeB{
	qt: "wildfire_b", role: "wildfire", mode: "wildfire_burn", hazard: "wildfire", scale: "question_defined_class",
	value: "dnbr", mask: "mcd64a1__event", scope: "mcd64_burn_footprint",
	bins: []mhBin{{"unburned", math.Inf(-1), 0.10}, {"low", 0.10, 0.27}, {"moderate", 0.27, 0.44}, {"high", 0.44, math.Inf(1)}},
	lo:   -0.25, hi: 0.95,
	question: "Inside the MODIS burned footprint, which dNBR burn-severity class dominates and what fraction of the footprint does it cover?",
	side:     map[string]any{"product": "COPERNICUS/S2_SR_HARMONIZED", "definition": "NBR_pre - NBR_post"},
})

var genDeforestationB = genClassB(classTypeB{
	qt: "hazard_deforestation_b", role: "deforestation", mode: "forest_loss", hazard: "deforestation", scale: "question_defined_class",
	value: "ndvi_change", mask: "hansen_loss__event", scope: "hansen_loss_footprint",
	bins: []mhBin{{"none", -10, 0.15}, {"minor", 0.15, 0.30}, {"major", 0.30, 0.50}, {"severe", 0.50, 10}},
	lo:   -0.3, hi: 0.8,
	question: "Inside the Hansen 2022 loss footprint, which NDVI-drop class dominates and with what fraction?",
	side:     map[string]any{"product": "COPERNICUS/S2_SR_HARMONIZED", "definition": "NDVI_pre - NDVI_post"},
})

var genUrbanB = genClassB(classTypeB{
	qt: "urban_expansion_b", role: "urban_expansion", mode: "built_up_gain", hazard: "urban_expansion", scale: "question_defined_class",
	value: "ndbi_change", scope: "whole_aoi",
	bins: []mhBin{{"contraction", -10, -0.02}, {"stable", -0.02, 0.02}, {"minor", 0.02, 0.18}, {"major", 0.18, 10}},
	lo:   -0.3, hi: 0.4,
	question: "Which signed NDBI-change class dominates this AOI between 2019 and 2024, and with what fraction?",
	side:     map[string]any{"product": "COPERNICUS/S2_SR_HARMONIZED", "definition": "NDBI_2024 - NDBI_2019"},
})

var genDroughtB = genClassB(classTypeB{
	qt: "drought_b", role: "drought", mode: "drought_anomaly", hazard: "drought", scale: "question_defined_class",
	value: "chirps_spi__event", scope: "whole_aoi", norm: "drought_normalization.json",
	labels: []string{"q1_low_spi", "q2_below_median_spi", "q3_above_median_spi", "q4_high_spi"},
	lo:     -2.5, hi: 2.5,
	question: "Which training-relative CHIRPS SPI quartile class dominates this AOI, and with what fraction?",
	side:     map[string]any{"product": "UCSB-CHG/CHIRPS/DAILY", "definition": "same-window SPI"},
})

var genAirB = genClassB(classTypeB{
	qt: "air_pollution_b", role: "air_pollution", mode: "pollution_peak", hazard: "air_pollution", scale: "benchmark_relative_column_quartile",
	value: "s5p_no2__peak", scope: "whole_aoi", norm: "normalization.json",
	labels: []string{"q1_low_column", "q2_below_median_column", "q3_above_median_column", "q4_high_column"},
	lo:     40, hi: 320,
	question: "Which benchmark-relative NO2-column quartile class dominates this AOI's episode peak, and with what fraction?",
	side:     map[string]any{"product": "COPERNICUS/S5P/OFFL/L3_NO2", "units": "µmol/m²"},
})
