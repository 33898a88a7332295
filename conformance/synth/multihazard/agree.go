package multihazard

import (
	"math"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
	worker "github.com/geodisaster/engine/workers/multihazard"
)

// Multi-hazard task shape C generators (types 11, 15, 19, 23, 27).

// decision is the agreement tasks' decision label.
func decision(agree bool) string {
	if agree {
		return worker.SourcesAgree
	}
	return worker.SourcesDisagree
}

// agreementRecord declares the C-shape handles (hazard_stack_1: the
// inventory of sources and the extra files; agreement_sources_1: the
// sources' cards) and assembles the record.
func (r *mhRec) agreementRecord(text string, sources []string, extra, cards []workers.FileCard, chain []workers.Step, answer any) (workers.Record, error) {
	inv, err := r.inventory(sources...)
	if err != nil {
		return workers.Record{}, err
	}
	r.input("hazard_stack_1", append([]workers.FileCard{inv}, extra...)...)
	r.input("agreement_sources_1", cards...)
	return r.record(text, chain, answer)
}

// agreeChain is the C-shape chain: hazard inventory, agreement sources,
// PrepareScene and the given CompareSources arguments.
func agreeChain(role, mode string, compare map[string]any) []workers.Step {
	compare["input"] = "work_1"
	return []workers.Step{
		readHazard(role),
		core.Step("ReadData", map[string]any{"question": "question_1", "handle": "agreement_sources_1", "role": role, "sources": "all"}, "scene_2"),
		core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"hazard": "scene_1", "sources": "scene_2"}, "mode": mode}, "work_1"),
		core.Step("CompareSources", compare, "compare_1"),
		core.TaskComplete(),
	}
}

// support computes IoU, binary-state agreement and Cohen's kappa (nil when
// chance agreement is 1) on common valid cells, six decimals, as the
// CompareSources worker does.
func support(aSet, aOK, bSet, bOK []bool) (float64, float64, any, error) {
	s, err := worker.BinarySupport(aSet, aOK, bSet, bOK)
	if err != nil {
		return 0, 0, nil, err
	}
	var kappa any
	if s.Kappa != nil {
		kappa = *s.Kappa
	}
	return s.IoU, s.Agreement, kappa, nil
}

// areaTypeC describes an area-agreement type.
type areaTypeC struct {
	qt, role, mode, key string
	limit               float64
	sources             []string
	maxCode             []int
	question            string
}

// genAreaC builds a type-11/15/19 record: three binary (RADD: 0/1/2)
// masks from shared ellipses with per-source radius scales (close scales
// agree, spread scales disagree), declared nodata strips that differ per
// source, and measured-zero sources (two zero areas give a 0% difference,
// IoU 1 and an undefined kappa).
func genAreaC(t areaTypeC) func(g *core.Gen, i int) (workers.Record, error) {
	return func(g *core.Gen, i int) (workers.Record, error) {
		r, err := newMH(g, t.qt, i)
		if err != nil {
			return workers.Record{}, err
		}
		w, h := r.grid.W, r.grid.H
		type ell struct{ cx, cy, rx, ry float64 }
		var es []ell
		for k := 0; k < 2+g.Rng.IntN(2); k++ {
			es = append(es, ell{float64(float64(w) * (0.2 + float64(0.6*g.Rng.Float64()))), float64(float64(h) * (0.2 + float64(0.6*g.Rng.Float64()))),
				2 + float64(float64(w)*0.15*g.Rng.Float64()), 2 + float64(float64(h)*0.15*g.Rng.Float64())})
		}
		spread := 0.02 + float64(0.05*g.Rng.Float64())
		if i%2 == 1 {
			spread = 0.3 + float64(0.4*g.Rng.Float64())
		}
		var cards []workers.FileCard
		sets := make([][]bool, 3)
		oks := make([][]bool, 3)
		areas := make([]float64, 3)
		areaJ := map[string]any{}
		for k, src := range t.sources {
			scale := 1 + float64(spread*(float64(2*float64(g.Rng.Float64()))-1))
			zero := (t.maxCode[k] == 2 && i%3 == 2) || (i%6 == 5 && k >= 1)
			set := make([]bool, w*h)
			ok := make([]bool, w*h)
			var nd []bool
			if (i+k)%3 == 0 {
				nd = r.stripe(1 + k)
			}
			b, err := r.band(raster.Uint8)
			if err != nil {
				return workers.Record{}, err
			}
			var ones []int
			for row := 0; row < h; row++ {
				for col := 0; col < w; col++ {
					p := row*w + col
					if nd != nil && nd[p] {
						b.Set(p, 255)
						continue
					}
					ok[p] = true
					in := false
					for _, e := range es {
						if !zero && core.Blob(col, row, e.cx+float64(k), e.cy, e.rx*scale, e.ry*scale) {
							in = true
						}
					}
					if in {
						code := 1.0
						if t.maxCode[k] == 2 && g.Rng.IntN(3) == 0 {
							code = 2
						}
						b.Set(p, code)
						set[p] = true
						ones = append(ones, p)
					}
				}
			}
			sets[k], oks[k] = set, ok
			areas[k] = r.areaHa(ones)
			areaJ[src] = workers.RoundHalfEven(areas[k], 3)
			var ndv *float64
			if nd != nil {
				ndv = core.F64(255)
			}
			c, err := r.raster(src, b, ndv, map[string]any{"units": "binary_mask", "max_code": t.maxCode[k]})
			if err != nil {
				return workers.Record{}, err
			}
			cards = append(cards, c...)
		}
		pct := map[string]any{}
		sup := map[string]any{}
		var ds []float64
		for _, p := range worker.SourcePairs {
			d := worker.SymmetricPctDelta(areas[p[0]], areas[p[1]])
			ds = append(ds, d)
			key := worker.PairKey(t.sources[p[0]], t.sources[p[1]])
			pct[key] = workers.RoundHalfEven(d, 3)
			iou, agr, kap, err := support(sets[p[0]], oks[p[0]], sets[p[1]], oks[p[1]])
			if err != nil {
				return workers.Record{}, err
			}
			sup[key] = map[string]any{"iou": iou, "binary_state_agreement": agr, "cohen_kappa": kap}
		}
		med := worker.Median3(ds)
		dec := decision(med <= t.limit)
		return r.agreementRecord(t.question, t.sources, nil, cards, agreeChain(t.role, t.mode, map[string]any{t.key: "area_agreement", "maximum_median_pct_delta": t.limit}),
			map[string]any{
				"status": "TASK_COMPLETE",
				"answer": map[string]any{"decision": dec, "metric": "area_agreement", "median_pct_delta": workers.RoundHalfEven(med, 3),
					"agreement_score_0_100": workers.RoundHalfEven(math.Max(0, 100-med), 3)},
				"evidence": map[string]any{"maximum_median_pct_delta": t.limit, "score_contract": worker.AreaScoreContract,
					"median_area_ha": workers.RoundHalfEven(worker.Median3(areas), 3), "source_areas_ha": areaJ,
					"pairwise_pct_delta": pct, "spatial_support": sup},
			})
	}
}

var genWildfireC = func(g *core.Gen, i int) (workers.Record, error) {
	rec, err := genAreaC(areaTypeC{qt: "wildfire_c", role: "wildfire", mode: "multisource_hazard", key: "criterion", limit: 20,
		sources: []string{"mcd64a1__event", "s2_burn_support", "nifc_perimeter__event"}, maxCode: []int{1, 1, 1},
		question: "Do the MODIS, Sentinel-2 dNBR and NIFC burn footprints agree in area (median pairwise difference at most 20%)?"})(g, i)
	if err == nil {
		rec.GTChain[3].Args["sources"] = "all"
	}
	return rec, err
}

var genDeforestationC = genAreaC(areaTypeC{qt: "hazard_deforestation_c", role: "deforestation", mode: "multisource", key: "metric", limit: 25,
	sources: []string{"hansen_loss__event", "tmf_loss__event", "radd_alerts__event"}, maxCode: []int{1, 1, 2},
	question: "Do Hansen, JRC TMF and RADD 2022 disturbance footprints agree in area (median pairwise difference at most 25%)?"})

var genUrbanC = genAreaC(areaTypeC{qt: "urban_expansion_c", role: "urban_expansion", mode: "multisource_hazard", key: "criterion", limit: 30,
	sources: []string{"built_gain", "ghsl_built_gain", "worldcover_built_gain"}, maxCode: []int{1, 1, 1},
	question: "Do Dynamic World, GHSL and WorldCover built-gain footprints agree in area (median pairwise difference at most 30%)?"})

// smoothField returns a smooth random pattern in [0, 1] over the grid.
func (r *mhRec) smoothField() []float64 {
	w, h := r.grid.W, r.grid.H
	fx, fy := 1+float64(3*r.g.Rng.Float64()), 1+float64(3*r.g.Rng.Float64())
	px, py := float64(2*math.Pi*r.g.Rng.Float64()), float64(2*math.Pi*r.g.Rng.Float64())
	out := make([]float64, w*h)
	for row := 0; row < h; row++ {
		for col := 0; col < w; col++ {
			v := float64(math.Sin(float64(fx*float64(col)/float64(w)*math.Pi)+px) * math.Cos(float64(fy*float64(row)/float64(h)*math.Pi)+py))
			out[row*w+col] = (v + 1) / 2
		}
	}
	return out
}

// genDroughtC builds a type-23 record: three float32 drought rasters
// (CHIRPS SPI, MODIS NDVI, ERA5 soil moisture) sharing a smooth pattern
// plus noise, the train-only q25 contract; some sources lie wholly at or
// above their q25 (valid measured-zero masks, including the exact q25
// value, which is not below it).
func genDroughtC(g *core.Gen, i int) (workers.Record, error) {
	r, err := newMH(g, "drought_c", i)
	if err != nil {
		return workers.Record{}, err
	}
	srcs := []string{"chirps_spi__event", "modis_ndvi__event", "era5_soil_moisture__event"}
	ranges := [][2]float64{{-2.5, 2.5}, {-0.2, 0.9}, {0.05, 0.45}}
	nz, qs, _, err := r.normFileEach("drought_normalization.json", srcs, ranges, nil)
	if err != nil {
		return workers.Record{}, err
	}
	shared := r.smoothField()
	weight := 0.3 + float64(0.7*g.Rng.Float64())
	var cards []workers.FileCard
	sets := make([][]bool, 3)
	oks := make([][]bool, 3)
	thr := map[string]any{}
	areas := map[string]any{}
	for k, s := range srcs {
		lo, hi := ranges[k][0], ranges[k][1]
		q := qs[s][0]
		empty := (i%3 == 1 && k != 1) || (i%3 == 2 && k == 2)
		if empty {
			lo = q
		}
		b, err := r.band(raster.Float32)
		if err != nil {
			return workers.Record{}, err
		}
		own := r.smoothField()
		set := make([]bool, r.n())
		ok := make([]bool, r.n())
		var ones []int
		for p := 0; p < r.n(); p++ {
			if g.Rng.IntN(31) == 0 {
				b.Set(p, math.NaN())
				continue
			}
			u := float64(weight*shared[p]) + float64((1-weight)*own[p])
			v := lo + float64((hi-lo)*u)
			if empty && p%53 == 0 {
				v = q // exactly q25: not below it
			}
			b.Set(p, v)
			ok[p] = true
			if b.At(p) < float64(float32(q)) {
				set[p] = true
				ones = append(ones, p)
			}
		}
		sets[k], oks[k] = set, ok
		thr[s] = q
		areas[s] = workers.RoundHalfEven(r.areaHa(ones), 3)
		c, err := r.raster(s, b, core.F64(math.NaN()), map[string]any{"role": "continuous drought source"})
		if err != nil {
			return workers.Record{}, err
		}
		cards = append(cards, c...)
	}
	ious := map[string]any{}
	var vals []float64
	for _, p := range worker.SourcePairs {
		iou, _, _, err := support(sets[p[0]], oks[p[0]], sets[p[1]], oks[p[1]])
		if err != nil {
			return workers.Record{}, err
		}
		ious[worker.PairKey(srcs[p[0]], srcs[p[1]])] = iou
		vals = append(vals, iou)
	}
	med := worker.Median3(vals)
	dec := decision(med >= 0.3)
	return r.agreementRecord("Do the low-state masks (below each source's training q25) of CHIRPS SPI, MODIS NDVI and ERA5 soil moisture overlap with a median IoU of at least 0.30?",
		srcs, []workers.FileCard{nz}, cards,
		agreeChain("drought", "multisource_hazard", map[string]any{"criterion": "iou", "minimum_iou": 0.3,
			"threshold_contract": "per_source_train_pixel_q25_v1", "normalization_fit_split": "train"}),
		map[string]any{
			"status": "TASK_COMPLETE",
			"answer": map[string]any{"decision": dec, "median_iou": med},
			"evidence": map[string]any{"metric": "iou", "minimum_iou": 0.3, "threshold_contract": "per_source_train_pixel_q25_v1",
				"normalization_fit_split": "train", "source_q25_thresholds": thr, "source_mask_areas_ha": areas, "pairwise_iou": ious},
		})
}

// genAirC builds a type-27 record: three float32 pollution rasters whose
// AOI means are steered to chosen z-score states against the 18 declared
// training means (all equal in some records: agreement; mixed otherwise).
func genAirC(g *core.Gen, i int) (workers.Record, error) {
	r, err := newMH(g, "air_pollution_c", i)
	if err != nil {
		return workers.Record{}, err
	}
	srcs := []string{"s5p_no2__peak", "cams_no2__peak", "modis_aod__peak"}
	ranges := [][2]float64{{40, 320}, {5, 60}, {0.05, 1.5}}
	nz, _, means, err := r.normFileEach("normalization.json", srcs, ranges, nil)
	if err != nil {
		return workers.Record{}, err
	}
	targets := [][3]float64{{1.3, 1.1, 0.9}, {-1.2, 0, 1.4}, {0.1, -0.2, 0.3}, {-1.5, -0.9, 0.2}, {1.2, 0.2, 0.1}, {-0.8, -1.1, -1.6}}[i%6]
	var cards []workers.FileCard
	counts := map[string]int{}
	srcJ := map[string]any{}
	for k, s := range srcs {
		m := means[s]
		mu := numpy.SumFloat64(m) / float64(len(m))
		sq := make([]float64, len(m))
		for j, v := range m {
			sq[j] = (v - mu) * (v - mu)
		}
		sd := math.Sqrt(numpy.SumFloat64(sq) / float64(len(m)))
		level := mu + float64(targets[k]*sd)
		b, err := r.band(raster.Float32)
		if err != nil {
			return workers.Record{}, err
		}
		var valid []int
		for p := 0; p < r.n(); p++ {
			if k == 1 && g.Rng.IntN(17) == 0 {
				b.Set(p, math.NaN())
				continue
			}
			b.Set(p, level*(1+float64(0.2*(float64(2*float64(g.Rng.Float64()))-1))))
			valid = append(valid, p)
		}
		am := meanF32(b, valid)
		z := (am - mu) / sd
		st := worker.StateTypical
		if z < -0.5 {
			st = worker.StateBelow
		} else if z > 0.5 {
			st = worker.StateAbove
		}
		counts[st]++
		srcJ[s] = map[string]any{"aoi_mean": workers.RoundHalfEven(am, 6), "training_mean": workers.RoundHalfEven(mu, 6), "training_std": workers.RoundHalfEven(sd, 6),
			"z_score": workers.RoundHalfEven(z, 6), "state": st}
		c, err := r.raster(s, b, core.F64(math.NaN()), map[string]any{"role": "episode-peak pollution source"})
		if err != nil {
			return workers.Record{}, err
		}
		cards = append(cards, c...)
	}
	best := 0
	for _, n := range counts {
		if n > best {
			best = n
		}
	}
	dec := decision(best == 3)
	return r.agreementRecord("Do Sentinel-5P NO2, CAMS NO2 and MODIS AOD all place this episode in the same training-relative intensity state?",
		srcs, []workers.FileCard{nz}, cards,
		agreeChain("air_pollution", "multisource_hazard", map[string]any{"criterion": "benchmark_relative_intensity_agreement",
			"required_agreement_fraction": 1.0, "normalization_fit_split": "train"}),
		map[string]any{
			"status": "TASK_COMPLETE",
			"answer": map[string]any{"decision": dec, "agreement_fraction": workers.RoundHalfEven(float64(best)/3, 6)},
			"evidence": map[string]any{"criterion": "benchmark_relative_intensity_agreement", "required_agreement_fraction": 1.0,
				"normalization_fit_split": "train", "sources": srcJ},
		})
}
