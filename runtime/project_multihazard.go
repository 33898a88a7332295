package runtime

import (
	"fmt"

	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/multihazard"
)

// Answer projections of the multi-hazard family (types 9-28). Every
// projection waits for TaskComplete(status=TASK_COMPLETE) and adds the
// literal terminal status; everything else comes from the newest result
// handle of the kind the type's chain ends with.
func multiHazardProjectors() map[string]Projector {
	return map[string]Projector{
		"wildfire_a":             projectHazardArea("burned_area", "mcd64a1__event"),
		"hazard_deforestation_a": projectHazardArea("forest_loss", "hansen_loss__event"),
		"urban_expansion_a":      projectHazardArea("built_up_gain", "built_gain"),
		"drought_a":              projectNDVIZ,
		"air_pollution_a":        projectPeakNO2,

		"wildfire_b":             projectClassTable("wildfire"),
		"hazard_deforestation_b": projectClassTable("deforestation"),
		"urban_expansion_b":      projectClassTable("urban_expansion"),
		"drought_b":              projectClassTable("drought"),
		"air_pollution_b":        projectClassTable("air_pollution"),

		"wildfire_c":             projectAreaAgreement("wildfire"),
		"hazard_deforestation_c": projectAreaAgreement("deforestation"),
		"urban_expansion_c":      projectAreaAgreement("urban_expansion"),
		"drought_c":              projectIoUAgreement,
		"air_pollution_c":        projectIntensityAgreement,

		"wildfire_d":             projectExposure(""),
		"hazard_deforestation_d": projectExposure("nearest_highway"),
		"urban_expansion_d":      projectExposure("population_in_footprint"),
		"drought_d":              projectExposure("schools"),
		"air_pollution_d":        projectExposure("high_no2_column_population"),
	}
}

// latestPayload returns the newest handle of a kind and its payload as T
// once TaskComplete ran; (nil, zero, nil) while evidence is incomplete.
func latestPayload[T any](v *View, kind, what string) (*workers.Handle, T, error) {
	var zero T
	h := v.Latest(kind)
	if h == nil || !v.Completed() {
		return nil, zero, nil
	}
	p, ok := h.Result.Payload.(T)
	if !ok {
		return nil, zero, fmt.Errorf("%s is not %s", h.Name, what)
	}
	return h, p, nil
}

// complete wraps an answer and evidence object with the terminal status.
func complete(answer, evidence map[string]any) map[string]any {
	return map[string]any{"status": "TASK_COMPLETE", "answer": answer, "evidence": evidence}
}

// projectHazardArea builds a multi-hazard A area answer (types 9, 13, 17)
// from stats_n.
func projectHazardArea(metric, handle string) Projector {
	return func(v *View) (any, error) {
		h, st, err := latestPayload[*multihazard.AreaStats](v, "stats", "an area measurement")
		if h == nil || err != nil {
			return nil, err
		}
		if st.Metric != metric {
			return nil, fmt.Errorf("%s is a %s measurement, the answer requires %s", h.Name, st.Metric, metric)
		}
		if st.Handle != handle {
			return nil, fmt.Errorf("%s measured %s, the answer requires %s", h.Name, st.Handle, handle)
		}
		return complete(
			map[string]any{"value": st.AreaHa, "units": "ha"},
			map[string]any{"primary_area_ha": st.AreaHa, "primary_handle": st.Handle},
		), nil
	}
}

// projectNDVIZ builds type 21's answer from stats_n: the z-score with its
// units and the target/baseline statistics (six decimals).
func projectNDVIZ(v *View) (any, error) {
	h, st, err := latestPayload[*multihazard.NDVIZScore](v, "stats", "an NDVI z-score")
	if h == nil || err != nil {
		return nil, err
	}
	return complete(
		map[string]any{"value": workers.RoundHalfEven(st.Z, 6), "units": "z_score"},
		map[string]any{
			"target_aoi_mean_ndvi": workers.RoundHalfEven(st.TargetMean, 6),
			"baseline_mean_ndvi":   workers.RoundHalfEven(st.BaselineMean, 6),
			"baseline_std_ndvi":    workers.RoundHalfEven(st.BaselineStd, 6),
			"baseline_count":       st.BaselineCount,
			"primary_handle":       st.Handle,
		},
	), nil
}

// projectPeakNO2 builds type 25's answer from stats_n.
func projectPeakNO2(v *View) (any, error) {
	h, st, err := latestPayload[*multihazard.PeakStats](v, "stats", "a peak NO2 measurement")
	if h == nil || err != nil {
		return nil, err
	}
	mx := workers.RoundHalfEven(st.Max, 6)
	return complete(
		map[string]any{"value": mx, "units": "µmol/m²"},
		map[string]any{"max_umol_m2": mx, "p95_umol_m2": workers.RoundHalfEven(st.P95, 6), "primary_handle": st.Handle},
	), nil
}

// projectClassTable builds a B answer (types 10, 14, 18, 22, 26) from
// score_n.
func projectClassTable(hazard string) Projector {
	return func(v *View) (any, error) {
		h, t, err := latestPayload[*multihazard.ClassTable](v, "score", "a class table")
		if h == nil || err != nil {
			return nil, err
		}
		if t.Hazard != hazard {
			return nil, fmt.Errorf("%s classifies %s, the answer requires %s", h.Name, t.Hazard, hazard)
		}
		by := map[string]any{}
		for _, r := range t.Rows {
			var mean any
			if r.Mean != nil {
				mean = *r.Mean
			}
			by[r.Label] = map[string]any{"area_ha": r.AreaHa, "pixel_count": r.PixelCount, "mean_value": mean}
		}
		ev := map[string]any{"dominant_class": t.Dominant, "by_class": by, "analysis_scope": t.Scope}
		if t.MaskPixelCount >= 0 {
			ev["mask_pixel_count"] = t.MaskPixelCount
		} else {
			ev["valid_pixel_count"] = t.Classified
		}
		if t.Boundaries != nil {
			ev["boundaries"] = t.Boundaries
			ev["normalization_fit_split"] = t.FitSplit
		}
		return complete(map[string]any{"class": t.Dominant, "dominant_fraction": t.DominantFraction}, ev), nil
	}
}

// projectAreaAgreement builds an area-agreement answer (types 11, 15, 19)
// from compare_n.
func projectAreaAgreement(hazard string) Projector {
	return func(v *View) (any, error) {
		h, ag, err := latestPayload[*multihazard.AreaAgreement](v, "compare", "an area-agreement comparison")
		if h == nil || err != nil {
			return nil, err
		}
		if ag.Hazard != hazard {
			return nil, fmt.Errorf("%s compares %s sources, the answer requires %s", h.Name, ag.Hazard, hazard)
		}
		areas, pct, sup := map[string]any{}, map[string]any{}, map[string]any{}
		for k, s := range ag.Sources {
			areas[s] = workers.RoundHalfEven(ag.AreasHa[k], 3)
		}
		for k, key := range ag.PairKeys {
			pct[key] = workers.RoundHalfEven(ag.PairPct[k], 3)
			var kappa any
			if ag.Support[k].Kappa != nil {
				kappa = *ag.Support[k].Kappa
			}
			sup[key] = map[string]any{"iou": ag.Support[k].IoU, "binary_state_agreement": ag.Support[k].Agreement, "cohen_kappa": kappa}
		}
		return complete(
			map[string]any{
				"decision": ag.Decision, "metric": "area_agreement",
				"median_pct_delta":      workers.RoundHalfEven(ag.MedianPct, 3),
				"agreement_score_0_100": workers.RoundHalfEven(ag.Score, 3),
			},
			map[string]any{
				"maximum_median_pct_delta": ag.MaxMedianPct, "score_contract": multihazard.AreaScoreContract,
				"median_area_ha": workers.RoundHalfEven(ag.MedianAreaHa, 3), "source_areas_ha": areas,
				"pairwise_pct_delta": pct, "spatial_support": sup,
			},
		), nil
	}
}

// projectIoUAgreement builds type 23's answer from compare_n.
func projectIoUAgreement(v *View) (any, error) {
	h, ag, err := latestPayload[*multihazard.IoUAgreement](v, "compare", "an IoU comparison")
	if h == nil || err != nil {
		return nil, err
	}
	thr, areas, ious := map[string]any{}, map[string]any{}, map[string]any{}
	for k, s := range ag.Sources {
		thr[s] = ag.Thresholds[k]
		areas[s] = workers.RoundHalfEven(ag.AreasHa[k], 3)
	}
	for k, key := range ag.PairKeys {
		ious[key] = ag.PairIoU[k]
	}
	return complete(
		map[string]any{"decision": ag.Decision, "median_iou": ag.MedianIoU},
		map[string]any{
			"metric": "iou", "minimum_iou": ag.MinimumIoU, "threshold_contract": ag.Contract,
			"normalization_fit_split": ag.FitSplit, "source_q25_thresholds": thr,
			"source_mask_areas_ha": areas, "pairwise_iou": ious,
		},
	), nil
}

// projectIntensityAgreement builds type 27's answer from compare_n.
func projectIntensityAgreement(v *View) (any, error) {
	h, ag, err := latestPayload[*multihazard.IntensityAgreement](v, "compare", "an intensity-state comparison")
	if h == nil || err != nil {
		return nil, err
	}
	src := map[string]any{}
	for _, s := range ag.States {
		src[s.Source] = map[string]any{
			"aoi_mean": workers.RoundHalfEven(s.AOIMean, 6), "training_mean": workers.RoundHalfEven(s.TrainMean, 6),
			"training_std": workers.RoundHalfEven(s.TrainStd, 6), "z_score": workers.RoundHalfEven(s.Z, 6), "state": s.State,
		}
	}
	return complete(
		map[string]any{"decision": ag.Decision, "agreement_fraction": ag.Fraction},
		map[string]any{
			"criterion": "benchmark_relative_intensity_agreement", "required_agreement_fraction": ag.Required,
			"normalization_fit_split": ag.FitSplit, "sources": src,
		},
	), nil
}

// Availability states of type 16's nearest-highway answer.
const (
	availMeasured    = "measured"
	availNoHighway   = "no_cached_highway_representative"
	availNoFootprint = "no_footprint_cell"
)

// projectExposure builds a D answer (types 12, 16, 20, 24, 28) from
// exposure_n.
func projectExposure(variant string) Projector {
	return func(v *View) (any, error) {
		h, ex, err := latestPayload[*multihazard.Exposure](v, "exposure", "an exposure estimate")
		if h == nil || err != nil {
			return nil, err
		}
		if ex.Variant != variant {
			return nil, fmt.Errorf("%s is a %q exposure, the answer requires %q", h.Name, ex.Variant, variant)
		}
		assets := map[string]any{}
		for _, c := range ex.Categories {
			ac := ex.Assets[c]
			var name, dist any
			if ac.NearestName != nil {
				name = *ac.NearestName
			}
			if ac.NearestM != nil {
				dist = workers.RoundHalfEven(*ac.NearestM, 3)
			}
			assets[c] = map[string]any{
				"feature_count": ac.FeatureCount, "in_footprint_count": ac.InFootprint,
				"within_5km_count": ac.WithinContext, "nearest_name": name, "nearest_distance_m": dist,
			}
		}
		ev := map[string]any{
			"footprint_handle": ex.FootprintHandle, "footprint_pixel_count": ex.FootprintPixels,
			"footprint_area_ha": ex.FootprintAreaHa, "population_in_footprint": ex.Population,
			"within_km": ex.WithinKM, "distance_method": multihazard.DistanceMethod, "assets": assets,
		}
		if ex.Provenance != "" {
			ev["threshold_provenance"] = ex.Provenance
		}
		var ans map[string]any
		switch variant {
		case "":
			ans = map[string]any{"value": ex.Assets["highway"].WithinContext, "units": "osm_highway_features"}
		case "nearest_highway":
			ac := ex.Assets["highway"]
			status := availMeasured
			var dist any
			switch {
			case ac.FeatureCount == 0:
				status = availNoHighway
			case ac.NearestM == nil:
				status = availNoFootprint
			default:
				dist = workers.RoundHalfEven(*ac.NearestM, 3)
			}
			ans = map[string]any{"distance_m": dist, "units": "m", "availability_status": status}
		case "schools":
			ans = map[string]any{"value": ex.Assets["school"].InFootprint, "units": "osm_school_features"}
		default:
			ans = map[string]any{"value": ex.Population, "units": "people"}
		}
		return complete(ans, ev), nil
	}
}
