package xbd

import (
	"fmt"

	"github.com/geodisaster/engine/workers"
)

// Answer projections of the xbd family (types 29-35). The specification
// prints no answer JSON for these types; the field layout is the one
// written down in each schemas/xbd_q*.json "description".
func xbdProjectors() map[string]workers.Projector {
	return map[string]workers.Projector{
		"xbd_q1": projectXBDQ1,
		"xbd_q2": projectXBDQ2,
		"xbd_q3": projectXBDQ3,
		"xbd_q4": projectXBDQ4,
		"xbd_q5": projectXBDQ5,
		"xbd_q7": projectXBDQ7,
		"xbd_q8": projectXBDQ8,
	}
}

// xbdLatest returns the newest handle of a kind as T once TaskComplete
// ran; ok is false while evidence is incomplete.
func xbdLatest[T any](v workers.View, kind, what string) (T, bool, error) {
	h, p, err := workers.FinalPayload[T](v, kind, what)
	return p, h != nil, err
}

func round4(x float64) float64 { return workers.RoundHalfEven(x, 4) }

// Summary is the damage-summary object of the xBD answers (class counts,
// classified, damaged and severe buildings and their percentages).
func Summary(d *XBDSceneDamage) map[string]any {
	return map[string]any{
		"total_buildings": d.Total, "class_counts": d.ClassCounts(),
		"classified_buildings": d.Classified, "damaged_buildings": d.Damaged, "severe_buildings": d.Severe,
		"damaged_pct": d.DamagedPct, "severe_pct": d.SeverePct,
	}
}

// projectXBDQ1: type 29 from stats_n over a scene damage summary.
func projectXBDQ1(v workers.View) (any, error) {
	st, ok, err := xbdLatest[*XBDStats](v, "stats", "an xBD damage statistic")
	if !ok || err != nil {
		return nil, err
	}
	if st.Mask != nil {
		return nil, fmt.Errorf("type 29 summarizes polygons only; the statistic includes a target mask")
	}
	ans := Summary(st.Damage)
	ans["severe_footprint_area_m2"] = round4(st.Damage.SevereAreaM2)
	ans["area_method"] = XBDAreaMethod
	return ans, nil
}

// projectXBDQ2: type 30 from rank_n by severe_footprint_area_m2.
func projectXBDQ2(v workers.View) (any, error) {
	rk, ok, err := xbdLatest[*XBDRanking](v, "rank", "a region ranking")
	if !ok || err != nil {
		return nil, err
	}
	if rk.By != "severe_footprint_area_m2" || len(rk.Ranked) == 0 {
		return nil, fmt.Errorf("type 30 needs a severe_footprint_area_m2 ranking, got by=%s", rk.By)
	}
	top := rk.Ranked[0]
	return map[string]any{"quadrant_id": top.ID, "severe_building_count": top.Severe, "severe_footprint_area_m2": round4(top.SevereAreaM2)}, nil
}

// projectXBDQ3: type 31 from rank_n by normalized_damage_severity.
func projectXBDQ3(v workers.View) (any, error) {
	rk, ok, err := xbdLatest[*XBDRanking](v, "rank", "a region ranking")
	if !ok || err != nil {
		return nil, err
	}
	if rk.By != "normalized_damage_severity" {
		return nil, fmt.Errorf("type 31 needs a normalized_damage_severity ranking, got by=%s", rk.By)
	}
	ans := map[string]any{
		"grid": rk.Regions.Grid, "eligible_cell_count": len(rk.Ranked),
		"top_tied_cell_ids": append([]string{}, rk.TopTied...), "top_k_cells": []any{},
	}
	if len(rk.Ranked) == 0 {
		ans["status"], ans["top_cell_id"], ans["severity_score"] = "no_classified_buildings", nil, nil
		return ans, nil
	}
	rows := []any{}
	for i := 0; i < rk.TopK && i < len(rk.Ranked); i++ {
		r := rk.Ranked[i]
		s, _ := r.SeverityScore()
		rows = append(rows, map[string]any{
			"cell_id": r.ID, "severity_score": s, "classified_buildings": r.Classified,
			"minor_damage": r.Counts[XBDMinorDamage], "major_damage": r.Counts[XBDMajorDamage], "destroyed": r.Counts[XBDDestroyed],
		})
	}
	s, _ := rk.Ranked[0].SeverityScore()
	ans["status"], ans["top_cell_id"], ans["severity_score"], ans["top_k_cells"] = "ranked", rk.Ranked[0].ID, s, rows
	return ans, nil
}

// projectXBDQ4: type 32 from scene_compare_n.
func projectXBDQ4(v workers.View) (any, error) {
	sc, ok, err := xbdLatest[*XBDSceneComparison](v, "scene_compare", "a scene comparison")
	if !ok || err != nil {
		return nil, err
	}
	scenes := []any{}
	for _, d := range sc.Scenes {
		scenes = append(scenes, map[string]any{
			"scene_id": d.SceneID, "total_buildings": d.Total, "class_counts": d.ClassCounts(),
			"classified_buildings": d.Classified, "severe_buildings": d.Severe, "severe_pct": d.SeverePct,
			"severe_footprint_area_m2": d.SevereAreaM2, "status": d.Status,
		})
	}
	cmp := func(m XBDMetricComparison) map[string]any {
		var w any
		if m.Winner != "" {
			w = m.Winner
		}
		return map[string]any{"winner": w, "tied_scene_ids": append([]string{}, m.Tied...), "status": m.Status}
	}
	return map[string]any{"scenes": scenes, "severe_pct_comparison": cmp(sc.Severity), "severe_footprint_area_comparison": cmp(sc.Area)}, nil
}

// projectXBDQ5: type 33 from damage_n of aggregation severe_only.
func projectXBDQ5(v workers.View) (any, error) {
	s, ok, err := xbdLatest[*XBDSevereSummary](v, "damage", "a severe-only damage assessment")
	if !ok || err != nil {
		return nil, err
	}
	return map[string]any{
		"severe_building_count": s.Count, "severe_footprint_area_m2": round4(s.MajorAreaM2 + s.DestroyedAreaM2),
		"major_damage_area_m2": round4(s.MajorAreaM2), "destroyed_area_m2": round4(s.DestroyedAreaM2),
		"source": s.Source, "filter": s.Filter, "area_method": XBDAreaMethod,
	}, nil
}

// ConcentrationFields is the 2x2 concentration object of types 34 and 35.
func ConcentrationFields(c *XBDConcentration) map[string]any {
	m := map[string]any{
		"grid": "2x2", "quadrant_severe_counts": map[string]any{"Q0": c.Counts[0], "Q1": c.Counts[1], "Q2": c.Counts[2], "Q3": c.Counts[3]},
		"total_severe_buildings": c.Total, "top_tied_quadrants": append([]string{}, c.Tied...),
		"concentration_score": nil, "worst_quadrant": nil,
	}
	if c.HasScore {
		// Unrounded: the spec states the ratio ("max quadrant severe count
		// / total severe count", types 34 and 35) and no rounding for it.
		m["concentration_score"] = c.Score
		m["worst_quadrant"] = c.Worst
	}
	return m
}

// projectXBDQ7: type 34 from score_n (spatial_concentration).
func projectXBDQ7(v workers.View) (any, error) {
	c, ok, err := xbdLatest[*XBDConcentration](v, "score", "a spatial concentration score")
	if !ok || err != nil {
		return nil, err
	}
	ans := ConcentrationFields(c)
	ranked := []any{}
	for _, r := range c.Ranked {
		ranked = append(ranked, map[string]any{"quadrant_id": r.ID, "severe_count": r.Severe})
	}
	ans["ranked_quadrants"] = ranked
	ans["spatial_pattern"] = c.Pattern
	ans["tie_break_applied"] = c.HasScore && len(c.Tied) > 1
	return ans, nil
}

// projectXBDQ8: type 35 from stats_n with the target mask distribution.
func projectXBDQ8(v workers.View) (any, error) {
	st, ok, err := xbdLatest[*XBDStats](v, "stats", "an xBD damage statistic")
	if !ok || err != nil {
		return nil, err
	}
	if st.Mask == nil || st.Concentration == nil {
		return nil, fmt.Errorf("type 35 needs the target mask distribution and quadrant concentration")
	}
	d, m := st.Damage, st.Mask
	hist := map[string]any{}
	for k, n := range m.Histogram {
		hist[fmt.Sprint(k)] = n
	}
	var total int64
	for _, n := range m.Histogram {
		total += n
	}
	pres := func(p [4]bool) map[string]any {
		return map[string]any{"no-damage": p[0], "minor-damage": p[1], "major-damage": p[2], "destroyed": p[3]}
	}
	return map[string]any{
		"damage_summary": Summary(d),
		"footprint_areas": map[string]any{
			"severe_footprint_area_m2": round4(d.SevereAreaM2), "major_damage_area_m2": round4(d.MajorAreaM2),
			"destroyed_area_m2": round4(d.DestroyedAreaM2), "total_footprint_area_m2": round4(d.TotalAreaM2),
			"area_method": XBDAreaMethod,
		},
		"severe_concentration": ConcentrationFields(st.Concentration),
		"target_mask": map[string]any{
			"encoding": XBDTargetEncoding, "histogram": hist, "total_pixels": total,
			"severe_pixels": m.Histogram[3] + m.Histogram[4],
		},
		"class_presence": map[string]any{"polygon": pres(m.PolygonPresent), "mask": pres(m.MaskPresent), "class_presence_consistent": m.Consistent},
	}, nil
}
