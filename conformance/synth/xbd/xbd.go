// Package xbd generates the records of the xbd family (spec types
// 29-35): 1024 x 1024 scenes of labelled building polygons. Gold answers
// are computed here from the generated polygons and mask, through the
// worker's exported tallies where the spec's arithmetic is the worker's;
// the native-stack oracle (oracle_xbd.py) recomputes them from the
// written files with Shapely and Pillow.
package xbd

import (
	"fmt"
	"sort"

	"github.com/paulmach/orb"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/vector"
	"github.com/geodisaster/engine/workers"
	worker "github.com/geodisaster/engine/workers/xbd"
)

// Types returns the family's generators with the spec's record counts
// and public-reference test records.
func Types() core.Types {
	return core.Types{
		"xbd_q1": {Full: 177, Tests: 17, Gen: genXBDSingle("xbd_q1", 29)},
		"xbd_q2": {Full: 177, Tests: 17, Gen: genXBDSingle("xbd_q2", 30)},
		"xbd_q3": {Full: 177, Tests: 17, Gen: genXBDSingle("xbd_q3", 31)},
		"xbd_q4": {Full: 55, Tests: 6, Gen: genXBDQ4},
		"xbd_q5": {Full: 121, Tests: 12, Gen: genXBDSingle("xbd_q5", 33)},
		"xbd_q7": {Full: 121, Tests: 12, Gen: genXBDSingle("xbd_q7", 34)},
		"xbd_q8": {Full: 177, Tests: 17, Gen: genXBDSingle("xbd_q8", 35)},
	}
}

var xbdR4 = func(x float64) float64 { return workers.RoundHalfEven(x, 4) }

// xbdGold is the gold scene summary.
type xbdGold struct {
	counts                          [5]int
	total, classified, damaged, sev int
	damagedPct, severePct           float64
	areaBy                          [5]float64
	severeArea, totalArea           float64
	majorArea, destroyedArea        float64
	// dmg is the class tally as the AssessDamage worker counts it.
	dmg worker.XBDSceneDamage
}

func (s *xbdScene) gold() xbdGold {
	var o xbdGold
	g2 := s.gsd * s.gsd
	for _, b := range s.bs {
		o.counts[b.class]++
		a := float64(vector.PolygonArea(b.poly) * g2)
		o.areaBy[b.class] += a
		o.totalArea += a
		if b.class == worker.XBDMajorDamage {
			o.majorArea += a
			o.severeArea += a
		}
		if b.class == worker.XBDDestroyed {
			o.destroyedArea += a
			o.severeArea += a
		}
	}
	o.dmg = worker.XBDSceneDamage{Counts: o.counts}
	o.dmg.TallyClasses()
	o.total, o.classified, o.damaged, o.sev = o.dmg.Total, o.dmg.Classified, o.dmg.Damaged, o.dmg.Severe
	o.damagedPct, o.severePct = o.dmg.DamagedPct, o.dmg.SeverePct
	return o
}

func (o xbdGold) classCounts() map[string]any { return o.dmg.ClassCounts() }

func (o xbdGold) summary() map[string]any { return worker.Summary(&o.dmg) }

// xbdConcentrationGold is the type 34/35 concentration over quadrant counts.
func xbdConcentrationGold(q []xbdCell) (fields map[string]any, pattern string, tieBreak bool) {
	var counts [4]int
	for _, c := range q {
		var i int
		if _, err := fmt.Sscanf(c.id, "Q%d", &i); err == nil && i >= 0 && i < len(counts) {
			counts[i] = c.severe
		}
	}
	c := worker.Concentrate(counts)
	return worker.ConcentrationFields(c), c.Pattern, len(c.Tied) > 1
}

func xbdQuestion(qtype string, s *xbdScene) string {
	switch qtype {
	case "xbd_q1":
		return fmt.Sprintf("For this post-disaster %s scene (%s), how many buildings fall in each damage class, what percentage of classified buildings are damaged and severely damaged, and what is the total severe-building footprint area in square metres?", s.disaster, s.dtype)
	case "xbd_q2":
		return fmt.Sprintf("Which 2x2 quadrant of this %s scene has the largest severe-damage footprint area, and how many severe buildings and how much clipped severe area does it hold?", s.disaster)
	case "xbd_q3":
		return fmt.Sprintf("Which cell of the 4x4 grid over this %s scene has the highest normalized damage severity among classified buildings, which cells tie for the top, and what are the top three cells?", s.disaster)
	case "xbd_q5":
		return fmt.Sprintf("In this %s (%s) scene, extract the major-damage and destroyed buildings and report their count and footprint areas.", s.disaster, s.dtype)
	case "xbd_q7":
		return fmt.Sprintf("How concentrated is severe building damage across the four quadrants of this %s scene?", s.disaster)
	default:
		return fmt.Sprintf("Produce a damage report for this %s scene: damage counts and percentages, footprint areas, severe-damage concentration and a class-presence check against the target mask.", s.disaster)
	}
}

// genXBDSingle builds one single-scene record of types 29-31, 33-35.
func genXBDSingle(qtype string, number int) func(g *core.Gen, i int) (workers.Record, error) {
	return func(g *core.Gen, i int) (workers.Record, error) {
		variant := i % xbdVariants
		ev := g.Rng.IntN(len(xbdEvents))
		id := fmt.Sprintf("%s_%08d", xbdEvents[ev].disaster, number*10000+i)
		s := newScene(g, id, ev, variant)
		gd := s.gold()
		dir := s.dir()
		mask := s.mask(qtype == "xbd_q8" && variant == xbdNoClassified)
		imgBytes, err := s.imagePNG(mask)
		if err != nil {
			return workers.Record{}, err
		}
		img, err := g.Write(dir+"post_disaster.png", imgBytes)
		if err != nil {
			return workers.Record{}, err
		}
		file := func(name string, doc any) (workers.FileCard, error) { return g.WriteCompactJSON(dir+name, doc) }
		handles := map[string]workers.HandleDecl{"image_1": core.Input(img)}
		chain := []workers.Step{core.Read("image_1", "post_image", "scene_1")}
		var ans map[string]any
		switch qtype {
		case "xbd_q1", "xbd_q5":
			lab, err := file("building_damage_xy.geojson", s.labelsDoc(g.UserShaped))
			if err != nil {
				return workers.Record{}, err
			}
			handles["damage_labels_1"] = core.Input(lab)
			chain = append(chain, core.Read("damage_labels_1", "damage_labels", "scene_2"),
				workers.Step{Tool: "PrepareScene", Args: map[string]any{"inputs": map[string]any{"image": "scene_1", "labels": "scene_2"}, "mode": "xbd_damage"}, Output: "work_1"})
			if qtype == "xbd_q1" {
				chain = append(chain,
					workers.Step{Tool: "AssessDamage", Args: map[string]any{"input": "work_1", "aggregation": "scene"}, Output: "damage_1"},
					workers.Step{Tool: "ComputeStats", Args: map[string]any{"input": "damage_1", "metrics": map[string]any{"damage_summary": true, "severe_footprint_area": true}}, Output: "stats_1"})
				ans = gd.summary()
				ans["severe_footprint_area_m2"] = xbdR4(gd.severeArea)
				ans["area_method"] = worker.XBDAreaMethod
			} else {
				chain = append(chain,
					workers.Step{Tool: "ExtractObjects", Args: map[string]any{"input": "work_1", "target": "severe_buildings", "severity": "major_or_destroyed"}, Output: "objects_1"},
					workers.Step{Tool: "AssessDamage", Args: map[string]any{"input": "objects_1", "aggregation": "severe_only"}, Output: "damage_1"})
				ans = map[string]any{
					"severe_building_count": gd.sev, "severe_footprint_area_m2": xbdR4(gd.majorArea + gd.destroyedArea),
					"major_damage_area_m2": xbdR4(gd.majorArea), "destroyed_area_m2": xbdR4(gd.destroyedArea),
					"source": "building_damage_xy.geojson", "filter": "major_or_destroyed", "area_method": worker.XBDAreaMethod,
				}
			}
		case "xbd_q2", "xbd_q7":
			qc, err := file("quadrants.geojson", s.cacheDoc(2))
			if err != nil {
				return workers.Record{}, err
			}
			handles["quadrants_1"] = core.Input(qc)
			severity := "severe"
			if qtype == "xbd_q7" {
				severity = "major_or_destroyed"
			}
			chain = append(chain, core.Read("quadrants_1", "quadrant_table", "scene_2"),
				workers.Step{Tool: "PrepareScene", Args: map[string]any{"inputs": map[string]any{"image": "scene_1", "quadrants": "scene_2"}, "mode": "xbd_quadrants", "grid": "2x2"}, Output: "work_1"},
				workers.Step{Tool: "AssessDamage", Args: map[string]any{"input": "work_1", "aggregation": "quadrant_2x2", "severity": severity}, Output: "damage_1"})
			quads := s.cells(2)
			if qtype == "xbd_q2" {
				chain = append(chain, workers.Step{Tool: "RankRegions", Args: map[string]any{"input": "damage_1", "by": "severe_footprint_area_m2", "top_k": 1}, Output: "rank_1"})
				best := 0
				for k := range quads {
					if quads[k].severeArea > quads[best].severeArea {
						best = k
					}
				}
				ans = map[string]any{"quadrant_id": quads[best].id, "severe_building_count": quads[best].severe, "severe_footprint_area_m2": xbdR4(quads[best].severeArea)}
			} else {
				chain = append(chain,
					workers.Step{Tool: "RankRegions", Args: map[string]any{"input": "damage_1", "by": "severe_damage_count", "top_k": 4}, Output: "rank_1"},
					workers.Step{Tool: "ScoreHazard", Args: map[string]any{"input": "rank_1", "scale": "spatial_concentration"}, Output: "score_1"})
				fields, pattern, tb := xbdConcentrationGold(quads)
				ranked := append([]xbdCell{}, quads...)
				sort.SliceStable(ranked, func(a, b int) bool { return ranked[a].severe > ranked[b].severe })
				rows := []any{}
				for _, c := range ranked {
					rows = append(rows, map[string]any{"quadrant_id": c.id, "severe_count": c.severe})
				}
				ans = fields
				ans["ranked_quadrants"] = rows
				ans["spatial_pattern"] = pattern
				ans["tie_break_applied"] = tb
			}
		case "xbd_q3":
			gc, err := file("grid_4x4.geojson", s.cacheDoc(4))
			if err != nil {
				return workers.Record{}, err
			}
			handles["grid_1"] = core.Input(gc)
			chain = append(chain, core.Read("grid_1", "grid_table", "scene_2"),
				workers.Step{Tool: "PrepareScene", Args: map[string]any{"inputs": map[string]any{"image": "scene_1", "grid": "scene_2"}, "mode": "xbd_grid", "grid": "4x4"}, Output: "work_1"},
				workers.Step{Tool: "AssessDamage", Args: map[string]any{"input": "work_1", "aggregation": "grid_4x4"}, Output: "damage_1"},
				workers.Step{Tool: "RankRegions", Args: map[string]any{"input": "damage_1", "by": "normalized_damage_severity", "top_k": 3}, Output: "rank_1"})
			ans = xbdGridGold(s.cells(4))
		case "xbd_q8":
			lab, err := file("building_damage_xy.geojson", s.labelsDoc(g.UserShaped))
			if err != nil {
				return workers.Record{}, err
			}
			qc, err := file("quadrants.geojson", s.cacheDoc(2))
			if err != nil {
				return workers.Record{}, err
			}
			tb, err := xbdGrayPNG(mask)
			if err != nil {
				return workers.Record{}, err
			}
			tgt, err := g.Write(dir+"post_target.png", tb)
			if err != nil {
				return workers.Record{}, err
			}
			handles["damage_labels_1"] = core.Input(lab)
			handles["mask_layers_1"] = core.Input(qc, tgt)
			chain = append(chain, core.Read("damage_labels_1", "damage_labels", "scene_2"), core.Read("mask_layers_1", "mask_layers", "scene_3"),
				workers.Step{Tool: "PrepareScene", Args: map[string]any{"inputs": map[string]any{"image": "scene_1", "labels": "scene_2", "mask_layers": "scene_3"}, "mode": "xbd_scene_summary"}, Output: "work_1"},
				workers.Step{Tool: "AssessDamage", Args: map[string]any{"input": "work_1", "aggregation": "scene"}, Output: "damage_1"},
				workers.Step{Tool: "ComputeStats", Args: map[string]any{"input": "damage_1", "metrics": map[string]any{"damage_summary": true, "target_mask_distribution": true, "severe_footprint_area": true}}, Output: "stats_1"})
			ans = xbdMaskGold(s, gd, mask)
		}
		chain = append(chain, core.TaskComplete())
		return g.Record(qtype, id, xbdQuestion(qtype, s), nil, handles, chain, ans)
	}
}

// xbdGridGold ranks the 4x4 cells by exact severity fractions.
func xbdGridGold(cells []xbdCell) map[string]any {
	type cand struct {
		c        xbdCell
		num, den int
	}
	var el []cand
	for _, c := range cells {
		if c.classified > 0 {
			el = append(el, cand{c, c.severityPoints(), 3 * c.classified})
		}
	}
	sort.SliceStable(el, func(a, b int) bool { return el[a].num*el[b].den > el[b].num*el[a].den })
	ans := map[string]any{"grid": "4x4", "eligible_cell_count": len(el), "top_tied_cell_ids": []string{}, "top_k_cells": []any{}}
	if len(el) == 0 {
		ans["status"], ans["top_cell_id"], ans["severity_score"] = "no_classified_buildings", nil, nil
		return ans
	}
	score := func(x cand) float64 { return severityScore(x.c) }
	var tied []string
	for _, x := range el {
		if x.num*el[0].den == el[0].num*x.den {
			tied = append(tied, x.c.id)
		}
	}
	rows := []any{}
	for k := 0; k < 3 && k < len(el); k++ {
		x := el[k]
		rows = append(rows, map[string]any{"cell_id": x.c.id, "severity_score": score(x), "classified_buildings": x.c.classified,
			"minor_damage": x.c.counts[worker.XBDMinorDamage], "major_damage": x.c.counts[worker.XBDMajorDamage], "destroyed": x.c.counts[worker.XBDDestroyed]})
	}
	ans["status"], ans["top_cell_id"], ans["severity_score"] = "ranked", el[0].c.id, score(el[0])
	ans["top_tied_cell_ids"], ans["top_k_cells"] = tied, rows
	return ans
}

// xbdMaskGold is the type-35 report.
func xbdMaskGold(s *xbdScene, gd xbdGold, mask []uint8) map[string]any {
	var hist [5]int
	for _, v := range mask {
		hist[v]++
	}
	h := map[string]any{}
	for k, n := range hist {
		h[fmt.Sprint(k)] = n
	}
	names := []string{"no-damage", "minor-damage", "major-damage", "destroyed"}
	poly, msk := map[string]any{}, map[string]any{}
	consistent := true
	for c, n := range names {
		poly[n] = gd.counts[c] > 0
		msk[n] = hist[c+1] > 0
		if (gd.counts[c] > 0) != (hist[c+1] > 0) {
			consistent = false
		}
	}
	conc, _, _ := xbdConcentrationGold(s.cells(2))
	return map[string]any{
		"damage_summary": gd.summary(),
		"footprint_areas": map[string]any{
			"severe_footprint_area_m2": xbdR4(gd.severeArea), "major_damage_area_m2": xbdR4(gd.majorArea),
			"destroyed_area_m2": xbdR4(gd.destroyedArea), "total_footprint_area_m2": xbdR4(gd.totalArea), "area_method": worker.XBDAreaMethod,
		},
		"severe_concentration": conc,
		"target_mask":          map[string]any{"encoding": worker.XBDTargetEncoding, "histogram": h, "total_pixels": len(mask), "severe_pixels": hist[3] + hist[4]},
		"class_presence":       map[string]any{"polygon": poly, "mask": msk, "class_presence_consistent": consistent},
	}
}

// xbdPairVariants are the scene variants of each type-32 pair: random,
// both zero-severe (ties on both metrics), a zero-classified scene, the
// same scene composition mirrored (percentage tie), boundary vs edges,
// and (from the seventh pair on) two scenes without classified buildings
// (no percentage-eligible scene).
var xbdPairVariants = [][2]int{
	{xbdMixed, xbdMixed}, {xbdZeroSevere, xbdZeroSevere}, {xbdNoClassified, xbdMixed},
	{xbdMixed, xbdBoundary}, {xbdTies, xbdUnclassAndEdges}, {xbdMixed, -1},
	{xbdNoClassified, xbdNoClassified},
}

// genXBDQ4 builds a same-event scene pair (type 32).
func genXBDQ4(g *core.Gen, i int) (workers.Record, error) {
	pv := xbdPairVariants[i%len(xbdPairVariants)]
	ev := g.Rng.IntN(len(xbdEvents))
	var scenes [2]*xbdScene
	for k := 0; k < 2; k++ {
		id := fmt.Sprintf("%s_%08d", xbdEvents[ev].disaster, 320000+2*i+k)
		if pv[k] < 0 {
			// A mirrored copy of scene a: equal percentages and areas.
			c := *scenes[0]
			c.id = id
			c.bs = nil
			for _, b := range scenes[0].bs {
				var p orb.Polygon
				for _, r := range b.poly {
					var rr orb.Ring
					for _, pt := range r {
						rr = append(rr, orb.Point{xbdFrame - pt[0], pt[1]})
					}
					p = append(p, rr)
				}
				c.bs = append(c.bs, xbdBuilding{uid: xbdUID(g), class: b.class, poly: p})
			}
			scenes[k] = &c
			continue
		}
		scenes[k] = newScene(g, id, ev, pv[k])
	}
	sample := fmt.Sprintf("%s_pair_%04d", xbdEvents[ev].disaster, i)
	text := fmt.Sprintf("Compare the two %s scenes %s and %s: which has the higher classified-only severe-damage percentage and which the larger severe footprint area?", scenes[0].disaster, scenes[0].id, scenes[1].id)
	handles := map[string]workers.HandleDecl{}
	var rows []any
	ids := []string{scenes[0].id, scenes[1].id}
	var pcts, areas []float64
	var elig []bool
	for k, s := range scenes {
		imgBytes, err := s.imagePNG(s.mask(false))
		if err != nil {
			return workers.Record{}, err
		}
		img, err := g.Write(s.dir()+"post_disaster.png", imgBytes)
		if err != nil {
			return workers.Record{}, err
		}
		lab, err := g.WriteCompactJSON(s.dir()+"building_damage_xy.geojson", s.labelsDoc(g.UserShaped))
		if err != nil {
			return workers.Record{}, err
		}
		handles[[]string{"scene_a_1", "scene_b_1"}[k]] = core.Input(img, lab)
		gd := s.gold()
		status := "ok"
		if gd.classified == 0 {
			status = "no_classified_buildings"
		}
		rows = append(rows, map[string]any{"scene_id": s.id, "total_buildings": gd.total, "class_counts": gd.classCounts(),
			"classified_buildings": gd.classified, "severe_buildings": gd.sev, "severe_pct": gd.severePct,
			"severe_footprint_area_m2": gd.severeArea, "status": status})
		pcts = append(pcts, gd.severePct)
		areas = append(areas, gd.severeArea)
		elig = append(elig, gd.classified > 0)
	}
	cmp := func(v []float64, el []bool) map[string]any {
		best, have := 0.0, false
		for k := range v {
			if el[k] && (!have || v[k] > best) {
				best, have = v[k], true
			}
		}
		if !have {
			return map[string]any{"winner": nil, "tied_scene_ids": []string{}, "status": "no_eligible_scene"}
		}
		var top []string
		for k := range v {
			if el[k] && v[k] == best {
				top = append(top, ids[k])
			}
		}
		if len(top) == 1 {
			return map[string]any{"winner": top[0], "tied_scene_ids": []string{}, "status": "unique_winner"}
		}
		sort.Strings(top)
		return map[string]any{"winner": nil, "tied_scene_ids": top, "status": "tie"}
	}
	return g.Record("xbd_q4", sample, text, nil, handles, []workers.Step{
		core.Read("scene_a_1", "damage_scene", "scene_1"), core.Read("scene_b_1", "damage_scene", "scene_2"),
		core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"scene_a": "scene_1", "scene_b": "scene_2"}, "mode": "scene_compare"}, "work_1"),
		core.Step("AssessDamage", map[string]any{"input": "work_1", "aggregation": "pair_compare", "severity": "severe"}, "damage_1"),
		core.Step("CompareScenes", map[string]any{"input": "damage_1", "by": "severe_damage_ratio_and_footprint"}, "scene_compare_1"),
		core.TaskComplete(),
	}, map[string]any{"scenes": rows, "severe_pct_comparison": cmp(pcts, elig), "severe_footprint_area_comparison": cmp(areas, []bool{true, true})})
}
