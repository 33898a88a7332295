package runtime

import (
	"fmt"

	"github.com/geodisaster/engine/workers/deforestation"
)

// Answer projections of the deforestation family (types 1-8). Each
// projection formats the final worker's typed payload; none reads files.
func deforestationProjectors() map[string]Projector {
	return map[string]Projector{
		"forest_loss_detection":       projectForestLoss,
		"area_estimation":             projectAreaEstimation,
		"change_window_estimation":    projectChangeWindow,
		"false_positive_rejection":    projectFalsePositive,
		"baseline_canopy_assessment":  projectBaselineCanopy,
		"multi_year_loss_attribution": projectLargestLossYear,
		"cross_modal_concordance":     projectConcordance,
		"severity_proxy_numeric":      projectSeverity,
	}
}

// forestLatest returns the payload of the newest handle of a kind as T;
// ok is false while no such handle exists.
func forestLatest[T any](v *View, kind, what string) (T, bool, error) {
	var zero T
	h := v.Latest(kind)
	if h == nil {
		return zero, false, nil
	}
	p, ok := h.Result.Payload.(T)
	if !ok {
		return zero, false, fmt.Errorf("%s is not %s", h.Name, what)
	}
	return p, true, nil
}

func forestList(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// projectForestLoss builds type 1's answer from class_n.
func projectForestLoss(v *View) (any, error) {
	c, ok, err := forestLatest[*deforestation.ForestLossClass](v, "class", "a forest_loss classification")
	if !ok || err != nil {
		return nil, err
	}
	return map[string]any{
		"label": c.Label,
		"evidence": map[string]any{
			"hansen_loss_area_ha": c.HansenLossHa,
			"ndvi_drop":           c.NDVIDrop,
			"rules_fired":         forestList(c.RulesFired),
			"sar_vh_delta_db":     c.VHDeltadB,
		},
	}, nil
}

// projectAreaEstimation builds type 2's answer from the parallel area_n
// (MeasureArea) and compare_n (CompareSources validation) branches; the two
// Hansen areas must agree.
func projectAreaEstimation(v *View) (any, error) {
	ar, ok, err := forestLatest[*deforestation.ForestLossArea](v, "area", "a forest_loss area")
	if !ok || err != nil {
		return nil, err
	}
	vc, ok, err := forestLatest[*deforestation.ValidationComparison](v, "compare", "a validation comparison")
	if !ok || err != nil {
		return nil, err
	}
	if ar.AreaHa != vc.HansenLossHa {
		return nil, fmt.Errorf("measured area %v ha disagrees with the validation's Hansen area %v ha", ar.AreaHa, vc.HansenLossHa)
	}
	return map[string]any{
		"loss_area_ha": ar.AreaHa,
		"evidence": map[string]any{
			"hansen_loss_area_ha": vc.HansenLossHa,
			"ndvi_drop":           vc.NDVIDrop,
			"nbr_drop":            vc.NBRDrop,
		},
	}, nil
}

// projectChangeWindow builds type 3's answer from class_n; the window and
// selected-window fields are null for no_deforestation.
func projectChangeWindow(v *View) (any, error) {
	c, ok, err := forestLatest[*deforestation.ChangeWindowClass](v, "class", "a change_window classification")
	if !ok || err != nil {
		return nil, err
	}
	ev := map[string]any{
		"hansen_loss_area_ha":       c.HansenLossHa,
		"ndvi_drop":                 c.NDVIDrop,
		"sar_vh_delta_db":           c.VHDeltadB,
		"selected_window_ndvi_drop": nil,
		"selected_window_nbr_drop":  nil,
		"composite_drop_score":      nil,
	}
	var window any
	if w := c.Window; w != nil {
		window = map[string]any{"start_epoch": w.Start, "end_epoch": w.End}
		ev["selected_window_ndvi_drop"] = w.NDVIDrop
		ev["selected_window_nbr_drop"] = w.NBRDrop
		ev["composite_drop_score"] = w.Score
	}
	return map[string]any{"label": c.Label, "change_window": window, "evidence": ev}, nil
}

// projectFalsePositive builds type 4's answer from class_n.
func projectFalsePositive(v *View) (any, error) {
	c, ok, err := forestLatest[*deforestation.FalsePositiveClass](v, "class", "a false_positive_type classification")
	if !ok || err != nil {
		return nil, err
	}
	in := c.Inputs
	return map[string]any{
		"cause": c.Cause,
		"evidence": map[string]any{
			"hansen_loss_area_ha":    in.HansenLossHa,
			"nbr_drop":               in.NBRDrop,
			"ndvi_drop":              in.NDVIDrop,
			"rules_fired":            forestList(c.RulesFired),
			"sar_vh_delta_db":        in.VHDeltadB,
			"sar_vv_post_mean_db":    in.VVPostdB,
			"treecover2000_mean_pct": in.CanopyPct,
		},
	}, nil
}

// projectBaselineCanopy builds type 5's two-field answer from class_n.
func projectBaselineCanopy(v *View) (any, error) {
	c, ok, err := forestLatest[*deforestation.CanopyClass](v, "class", "a canopy-density classification")
	if !ok || err != nil {
		return nil, err
	}
	return map[string]any{
		"baseline_class":         c.Class,
		"treecover2000_mean_pct": float64(c.MeanPct),
	}, nil
}

// projectLargestLossYear builds type 6's answer from change_n: an integer
// year, or the string no_loss with 0.0 ha.
func projectLargestLossYear(v *View) (any, error) {
	c, ok, err := forestLatest[*deforestation.LargestLossYear](v, "change", "a largest_loss_year detection")
	if !ok || err != nil {
		return nil, err
	}
	if c.Year == 0 {
		return map[string]any{"year": "no_loss", "loss_ha": 0.0}, nil
	}
	return map[string]any{"year": c.Year, "loss_ha": c.LossHa}, nil
}

// projectConcordance builds type 7's answer from class_n.
func projectConcordance(v *View) (any, error) {
	c, ok, err := forestLatest[*deforestation.ConcordanceClass](v, "class", "a concordance classification")
	if !ok || err != nil {
		return nil, err
	}
	return map[string]any{
		"concordance": c.Class,
		"evidence": map[string]any{
			"nbr_drop":    c.NBRDrop,
			"ndvi_drop":   c.NDVIDrop,
			"vh_delta_db": c.VHDeltadB,
		},
	}, nil
}

// projectSeverity builds type 8's answer from score_n.
func projectSeverity(v *View) (any, error) {
	s, ok, err := forestLatest[*deforestation.SeverityScore](v, "score", "a vh_delta_severity score")
	if !ok || err != nil {
		return nil, err
	}
	return map[string]any{"vh_delta_db": s.VHDeltadB, "severity": s.Severity}, nil
}
