package xbd

import (
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geodisaster/engine/vector"
	"github.com/geodisaster/engine/workers"
)

// xBD building-damage family (spec question types 29-35: xbd_q1, xbd_q2,
// xbd_q3, xbd_q4, xbd_q5, xbd_q7, xbd_q8).
//
// Chains (spec sections "Question type 29..35"):
//
//	Q1 ReadData(image_1) ReadData(damage_labels_1) PrepareScene(mode=xbd_damage)
//	   AssessDamage(aggregation=scene) ComputeStats(damage_1, metrics={damage_summary,severe_footprint_area})
//	Q2 ReadData(image_1) ReadData(quadrants_1) PrepareScene(mode=xbd_quadrants, grid=2x2)
//	   AssessDamage(aggregation=quadrant_2x2, severity=severe) RankRegions(by=severe_footprint_area_m2, top_k=1)
//	Q3 ReadData(image_1) ReadData(grid_1) PrepareScene(mode=xbd_grid, grid=4x4)
//	   AssessDamage(aggregation=grid_4x4) RankRegions(by=normalized_damage_severity, top_k=3)
//	Q4 ReadData(scene_a_1) ReadData(scene_b_1) PrepareScene(mode=scene_compare)
//	   AssessDamage(aggregation=pair_compare, severity=severe) CompareScenes(by=severe_damage_ratio_and_footprint)
//	Q5 ReadData(image_1) ReadData(damage_labels_1) PrepareScene(mode=xbd_damage)
//	   ExtractObjects(target=severe_buildings, severity=major_or_destroyed) AssessDamage(objects_1, aggregation=severe_only)
//	Q7 ReadData(image_1) ReadData(quadrants_1) PrepareScene(mode=xbd_quadrants, grid=2x2)
//	   AssessDamage(aggregation=quadrant_2x2, severity=major_or_destroyed) RankRegions(by=severe_damage_count, top_k=4)
//	   ScoreHazard(rank_1, scale=spatial_concentration)
//	Q8 ReadData(image_1) ReadData(damage_labels_1) ReadData(mask_layers_1) PrepareScene(mode=xbd_scene_summary)
//	   AssessDamage(aggregation=scene) ComputeStats(damage_1, metrics={damage_summary,severe_footprint_area,target_mask_distribution})

// XBDAreaMethod names the footprint-area rule (spec type 29): the polygon's
// pixel-coordinate area times the scene GSD squared.
const XBDAreaMethod = "pixel_polygon_area_x_gsd_squared"

// XBDTargetEncoding describes post_target.png's codes (spec type 35).
const XBDTargetEncoding = "0=background,1=no-damage,2=minor-damage,3=major-damage,4=destroyed"

func xbdVariants() []workers.Variant {
	imageSlot := []string{"post_image"}
	severity := workers.Param{Name: "severity", Kind: workers.KindString, Required: true, Enum: []string{"severe", "major_or_destroyed"}, Doc: "severe = major-damage or destroyed"}
	return []workers.Variant{
		workers.ReadDataVariant(workers.ReadSpec{Role: "post_image", HandleStems: []string{"image"}, Check: checkXBDImage}),
		workers.ReadDataVariant(workers.ReadSpec{Role: "damage_labels", HandleStems: []string{"damage_labels"}, Check: checkXBDLabelsScene}),
		workers.ReadDataVariant(workers.ReadSpec{Role: "quadrant_table", HandleStems: []string{"quadrants"}, Check: checkXBDCacheScene("quadrants.geojson", "2x2")}),
		workers.ReadDataVariant(workers.ReadSpec{Role: "grid_table", HandleStems: []string{"grid"}, Check: checkXBDCacheScene("grid_4x4.geojson", "4x4")}),
		workers.ReadDataVariant(workers.ReadSpec{Role: "mask_layers", HandleStems: []string{"mask_layers"}, Check: checkXBDMaskLayers}),
		workers.ReadDataVariant(workers.ReadSpec{Role: "damage_scene", HandleStems: []string{"scene_a", "scene_b"}, Check: checkXBDPairScene}),
		workers.PrepareSceneVariant(workers.PrepareSpec{
			Mode:     "xbd_damage",
			Slots:    map[string][]string{"image": imageSlot, "labels": {"damage_labels"}},
			Required: []string{"image", "labels"},
			Check:    checkXBDWork,
		}),
		xbdGridPrepare("xbd_quadrants", "2x2", "quadrants", "quadrant_table"),
		xbdGridPrepare("xbd_grid", "4x4", "grid", "grid_table"),
		workers.PrepareSceneVariant(workers.PrepareSpec{
			Mode:     "xbd_scene_summary",
			Slots:    map[string][]string{"image": imageSlot, "labels": {"damage_labels"}, "mask_layers": {"mask_layers"}},
			Required: []string{"image", "labels", "mask_layers"},
			Check:    checkXBDWork,
		}),
		workers.PrepareSceneVariant(workers.PrepareSpec{
			Mode:     "scene_compare",
			Slots:    map[string][]string{"scene_a": {"damage_scene"}, "scene_b": {"damage_scene"}},
			Required: []string{"scene_a", "scene_b"},
			Check:    checkXBDPair,
		}),
		workers.NewVariant("AssessDamage", assessXBDScene, workers.Input("work handle from PrepareScene(mode=xbd_damage or xbd_scene_summary)"), workers.Choice("aggregation", "scene")),
		workers.NewVariant("AssessDamage", assessXBDGrid("xbd_quadrants", "quadrant_2x2"), workers.Input("work handle from PrepareScene(mode=xbd_quadrants)"), workers.Choice("aggregation", "quadrant_2x2"), severity),
		workers.NewVariant("AssessDamage", assessXBDGrid("xbd_grid", "grid_4x4"), workers.Input("work handle from PrepareScene(mode=xbd_grid)"), workers.Choice("aggregation", "grid_4x4")),
		workers.NewVariant("AssessDamage", assessXBDPair,
			workers.Input("work handle from PrepareScene(mode=scene_compare)"),
			workers.Choice("aggregation", "pair_compare"),
			workers.Param{Name: "severity", Kind: workers.KindString, Required: true, Enum: []string{"severe"}, Doc: "severe = major-damage or destroyed"}),
		workers.NewVariant("AssessDamage", assessXBDSevereOnly, workers.Input("objects handle from ExtractObjects(target=severe_buildings)"), workers.Choice("aggregation", "severe_only")),
		workers.NewVariant("ExtractObjects", extractXBDSevere,
			workers.Input("work handle from PrepareScene(mode=xbd_damage)"),
			workers.Choice("target", "severe_buildings"),
			workers.Param{Name: "severity", Kind: workers.KindString, Required: true, Enum: []string{"major_or_destroyed"}, Doc: "the union of the major-damage and destroyed labels"}),
		workers.NewVariant("RankRegions", rankXBD("severe_footprint_area_m2"),
			workers.Input("damage handle from AssessDamage(aggregation=quadrant_2x2)"),
			workers.Choice("by", "severe_footprint_area_m2"),
			workers.Param{Name: "top_k", Kind: workers.KindInteger, Required: true, Doc: "number of ranked regions to report"}),
		workers.NewVariant("RankRegions", rankXBD("severe_damage_count"),
			workers.Input("damage handle from AssessDamage(aggregation=quadrant_2x2)"),
			workers.Choice("by", "severe_damage_count"),
			workers.Param{Name: "top_k", Kind: workers.KindInteger, Required: true, Doc: "number of ranked regions to report"}),
		workers.NewVariant("RankRegions", rankXBD("normalized_damage_severity"),
			workers.Input("damage handle from AssessDamage(aggregation=grid_4x4)"),
			workers.Choice("by", "normalized_damage_severity"),
			workers.Param{Name: "top_k", Kind: workers.KindInteger, Required: true, Doc: "number of ranked eligible cells to report"}),
		workers.NewVariant("ScoreHazard", scoreXBDConcentration, workers.Input("rank handle from RankRegions(by=severe_damage_count)"), workers.Choice("scale", "spatial_concentration")),
		workers.NewVariant("CompareScenes", compareXBDScenes, workers.Input("damage handle from AssessDamage(aggregation=pair_compare)"), workers.Choice("by", "severe_damage_ratio_and_footprint")),
		{
			Tool: "ComputeStats", Value: "damage_summary+severe_footprint_area",
			Params: []workers.Param{
				workers.Input("damage handle from AssessDamage(aggregation=scene)"),
				workers.Flags("metrics", "damage_summary", "severe_footprint_area"),
			},
			Run: statsXBD(false),
		},
		{
			// Type 29 says only "ComputeStats on damage_1"; the summary
			// alone carries the severe footprint area too.
			Tool: "ComputeStats", Value: "damage_summary",
			Params: []workers.Param{
				workers.Input("damage handle from AssessDamage(aggregation=scene)"),
				workers.Flags("metrics", "damage_summary"),
			},
			Run: statsXBD(false),
		},
		{
			Tool: "ComputeStats", Value: "damage_summary+severe_footprint_area+target_mask_distribution",
			Params: []workers.Param{
				workers.Input("damage handle from AssessDamage(aggregation=scene) over an xbd_scene_summary work"),
				workers.Flags("metrics", "damage_summary", "severe_footprint_area", "target_mask_distribution"),
			},
			Run: statsXBD(true),
		},
	}
}

// --- ReadData checks ---------------------------------------------------

// checkXBDImage requires exactly one declared PNG: the post-disaster image.
func checkXBDImage(env workers.Env, s *workers.Scene) error {
	var pngs []*workers.SceneFile
	for i := range s.Files {
		if xbdHasExt(s.Files[i].Path, ".png") {
			pngs = append(pngs, &s.Files[i])
		}
	}
	if len(pngs) != 1 {
		return fmt.Errorf("a post-disaster image handle declares exactly one PNG, found %d", len(pngs))
	}
	b, err := env.ReadFile(pngs[0].Path)
	if err != nil {
		return err
	}
	_, _, err = xbdPNGSize(pngs[0].Path, b)
	return err
}

func xbdHasExt(p, ext string) bool {
	return len(p) >= len(ext) && strings.EqualFold(p[len(p)-len(ext):], ext)
}

func xbdSceneLabels(s *workers.Scene) (*XBDLabels, error) {
	f, err := s.Require("building_damage_xy.geojson")
	if err != nil {
		return nil, err
	}
	return xbdFileLabels(s, f)
}

// xbdFileLabels is ParseXBDLabels of one of s's declared files, parsed
// once per scene: ReadData's check, PrepareScene's check and the workers
// after them share it (read-only). The parsed JSON is part of the scene,
// so the file's path names its content within the scene.
func xbdFileLabels(s *workers.Scene, f *workers.SceneFile) (*XBDLabels, error) {
	v, err := s.Memo("xbd:labels:"+f.Path, nil, func() (any, error) { return ParseXBDLabels(f.Path, f.JSON) })
	if err != nil {
		return nil, err
	}
	return v.(*XBDLabels), nil
}

// xbdFileCache is ParseXBDCache of one of s's declared files, parsed once
// per scene as xbdFileLabels parses labels.
func xbdFileCache(s *workers.Scene, f *workers.SceneFile) (*XBDCache, error) {
	v, err := s.Memo("xbd:cache:"+f.Path, nil, func() (any, error) { return ParseXBDCache(f.Path, f.JSON) })
	if err != nil {
		return nil, err
	}
	return v.(*XBDCache), nil
}

func xbdSceneCache(s *workers.Scene, name, grid string) (*XBDCache, error) {
	f, err := s.Require(name)
	if err != nil {
		return nil, err
	}
	c, err := xbdFileCache(s, f)
	if err != nil {
		return nil, err
	}
	if c.Grid != grid {
		return nil, fmt.Errorf("%s declares grid %s, %s expected", f.Path, c.Grid, grid)
	}
	return c, nil
}

func checkXBDLabelsScene(env workers.Env, s *workers.Scene) error {
	_, err := xbdSceneLabels(s)
	return err
}

func checkXBDCacheScene(name, grid string) func(env workers.Env, s *workers.Scene) error {
	return func(env workers.Env, s *workers.Scene) error {
		_, err := xbdSceneCache(s, name, grid)
		return err
	}
}

func checkXBDMaskLayers(env workers.Env, s *workers.Scene) error {
	if _, err := xbdSceneCache(s, "quadrants.geojson", "2x2"); err != nil {
		return err
	}
	_, err := s.Require("post_target.png")
	return err
}

func checkXBDPairScene(env workers.Env, s *workers.Scene) error {
	if err := checkXBDImage(env, s); err != nil {
		return err
	}
	_, err := xbdSceneLabels(s)
	return err
}

// --- PrepareScene ------------------------------------------------------

// xbdGridPrepare is PrepareScene for a prepared grid cache: the grid
// argument must name the grid the mode declares (2x2 for xbd_quadrants,
// 4x4 for xbd_grid), and the cache must declare the same grid.
func xbdGridPrepare(mode, grid, slot, role string) workers.Variant {
	v := workers.PrepareSceneVariant(workers.PrepareSpec{
		Mode:     mode,
		Slots:    map[string][]string{"image": {"post_image"}, slot: {role}},
		Required: []string{"image", slot},
		Check:    checkXBDWork,
	})
	v.Params = append(v.Params, workers.Param{Name: "grid", Kind: workers.KindString, Required: true, Enum: []string{grid}, Doc: "the prepared grid"})
	return v.Then(func(_ workers.Env, _ workers.Args, r *workers.Result) (*workers.Result, error) {
		r.Evidence["grid"] = grid
		return r, nil
	})
}

// checkXBDWork checks that every file a work binds describes one scene:
// the files share a scene directory, label and cache scene ids agree, and
// the PNGs, labels and caches have the same frame size. A mismatch is
// reported as a handle from another scene.
func checkXBDWork(env workers.Env, w *workers.Work) error {
	dir, id := "", ""
	var width, height int
	agree := func(what, d, sid string, wd, ht int) error {
		if dir == "" {
			dir, id = d, sid
		}
		if d != dir {
			return fmt.Errorf("%s comes from scene directory %s, the other inputs from %s (a handle from another scene)", what, d, dir)
		}
		if sid != "" && id != "" && sid != id {
			return fmt.Errorf("%s describes scene %s, the other inputs scene %s (a handle from another scene)", what, sid, id)
		}
		if sid != "" && id == "" {
			id = sid
		}
		if wd != 0 {
			if width == 0 {
				width, height = wd, ht
			} else if wd != width || ht != height {
				return fmt.Errorf("%s has a %dx%d frame, the other inputs %dx%d", what, wd, ht, width, height)
			}
		}
		return nil
	}
	for _, slot := range workers.SortedKeys(w.Scenes) {
		s := w.Scenes[slot]
		for i := range s.Files {
			f := &s.Files[i]
			var sid string
			var wd, ht int
			switch {
			case f.Base() == "building_damage_xy.geojson":
				l, err := xbdFileLabels(s, f)
				if err != nil {
					return err
				}
				sid, wd, ht = l.SceneID, l.Width, l.Height
			case xbdHasExt(f.Path, ".geojson"):
				c, err := xbdFileCache(s, f)
				if err != nil {
					return err
				}
				sid, wd, ht = c.SceneID, c.Width, c.Height
			case xbdHasExt(f.Path, ".png"):
				b, err := env.ReadFile(f.Path)
				if err != nil {
					return err
				}
				wd, ht, err = xbdPNGSize(f.Path, b)
				if err != nil {
					return err
				}
			}
			if err := agree(f.Path, xbdSceneDir(f.Path), sid, wd, ht); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkXBDPair checks a same-event pair of two different scenes, each
// internally consistent.
func checkXBDPair(env workers.Env, w *workers.Work) error {
	var labels [2]*XBDLabels
	for i, slot := range []string{"scene_a", "scene_b"} {
		one := &workers.Work{Mode: w.Mode, Scenes: map[string]*workers.Scene{slot: w.Scenes[slot]}}
		if err := checkXBDWork(env, one); err != nil {
			return err
		}
		l, err := xbdSceneLabels(w.Scenes[slot])
		if err != nil {
			return err
		}
		labels[i] = l
	}
	if labels[0].SceneID == labels[1].SceneID {
		return fmt.Errorf("scene_a and scene_b are the same scene %s", labels[0].SceneID)
	}
	if labels[0].Disaster != labels[1].Disaster {
		return fmt.Errorf("scene pair mixes events %q and %q; pairs are same-event", labels[0].Disaster, labels[1].Disaster)
	}
	return nil
}

// --- scene summaries ---------------------------------------------------

// XBDSceneDamage is a polygon-derived damage summary of one scene (spec
// types 29, 32 and 35). Areas are unrounded square metres summed in label
// order.
type XBDSceneDamage struct {
	SceneID      string
	Disaster     string
	DisasterType string
	GSD          float64
	Mode         string
	// Counts are per normalized class (XBDClassNames order).
	Counts                       [xbdClasses]int
	Total, Classified            int
	Damaged, Severe              int
	DamagedPct, SeverePct        float64 // classified-only, two decimals
	Status                       string  // "ok" or "no_classified_buildings"
	AreaM2                       [xbdClasses]float64
	SevereAreaM2, TotalAreaM2    float64
	MajorAreaM2, DestroyedAreaM2 float64
	// Quadrants is the severe-centroid count per 2x2 quadrant (Q0..Q3),
	// set for an xbd_scene_summary work.
	Quadrants *[4]int
	// MaskPath is the declared post_target.png (xbd_scene_summary only).
	MaskPath string
}

// xbdPct returns round(100*num/den, 2), 0 when den is 0 (Python's
// round(100 * num / den, 2)).
func xbdPct(num, den int) float64 {
	if den == 0 {
		return 0
	}
	return workers.RoundHalfEven(float64(100*num)/float64(den), 2)
}

// summarizeXBD computes the spec's scene summary from label polygons:
// damaged = minor+major+destroyed, severe = major+destroyed, both
// percentages over the four classified classes (type 29: "return 0 only if
// that denominator is zero"), areas = pixel area x GSD² per polygon.
func summarizeXBD(l *XBDLabels) *XBDSceneDamage {
	d := &XBDSceneDamage{SceneID: l.SceneID, Disaster: l.Disaster, DisasterType: l.DisasterType, GSD: l.GSD}
	g2 := l.GSD * l.GSD
	for _, b := range l.Buildings {
		d.Counts[b.Class]++
		a := float64(b.AreaPx * g2) // float64(): no fused multiply-add on arm64
		d.AreaM2[b.Class] += a
		d.TotalAreaM2 += a
		switch b.Class {
		case XBDMajorDamage:
			d.MajorAreaM2 += a
			d.SevereAreaM2 += a
		case XBDDestroyed:
			d.DestroyedAreaM2 += a
			d.SevereAreaM2 += a
		}
	}
	d.TallyClasses()
	d.Status = "ok"
	if d.Classified == 0 {
		d.Status = "no_classified_buildings"
	}
	return d
}

// ClassCounts returns the counts keyed by normalized class name.
// TallyClasses sets Total, Classified, Damaged, Severe and the
// classified-only percentages (two decimals) from Counts.
func (d *XBDSceneDamage) TallyClasses() {
	d.Total = 0
	for _, n := range d.Counts {
		d.Total += n
	}
	d.Classified = d.Total - d.Counts[XBDUnclassified]
	d.Damaged = d.Counts[XBDMinorDamage] + d.Counts[XBDMajorDamage] + d.Counts[XBDDestroyed]
	d.Severe = d.Counts[XBDMajorDamage] + d.Counts[XBDDestroyed]
	d.DamagedPct = xbdPct(d.Damaged, d.Classified)
	d.SeverePct = xbdPct(d.Severe, d.Classified)
}

func (d *XBDSceneDamage) ClassCounts() map[string]any {
	m := map[string]any{}
	for i, n := range XBDClassNames {
		m[n] = d.Counts[i]
	}
	return m
}

func (d *XBDSceneDamage) evidence() map[string]any {
	ev := map[string]any{
		"scene_id": d.SceneID, "gsd_m": d.GSD, "class_counts": d.ClassCounts(),
		"total_buildings": d.Total, "classified_buildings": d.Classified,
		"damaged_buildings": d.Damaged, "severe_buildings": d.Severe,
		"damaged_pct": d.DamagedPct, "severe_pct": d.SeverePct, "status": d.Status,
		"severe_footprint_area_m2": d.SevereAreaM2, "area_method": XBDAreaMethod,
		"denominator": "classified buildings (unclassified excluded)",
	}
	if d.Quadrants != nil {
		ev["quadrant_severe_counts"] = xbdQuadrantMap(*d.Quadrants)
	}
	return ev
}

func xbdQuadrantMap(q [4]int) map[string]any {
	return map[string]any{"Q0": q[0], "Q1": q[1], "Q2": q[2], "Q3": q[3]}
}

// assessXBDScene is AssessDamage(aggregation=scene) (types 29 and 35).
func assessXBDScene(env workers.Env, a workers.Args) (*workers.Result, error) {
	w, err := workers.OpenWork(env, a, "xbd_damage", "xbd_scene_summary")
	if err != nil {
		return nil, err
	}
	l, err := xbdSceneLabels(w.Scenes["labels"])
	if err != nil {
		return nil, err
	}
	d := summarizeXBD(l)
	d.Mode = w.Mode
	if w.Mode == "xbd_scene_summary" {
		ml := w.Scenes["mask_layers"]
		c, err := xbdSceneCache(ml, "quadrants.geojson", "2x2")
		if err != nil {
			return nil, err
		}
		if c.GSD != l.GSD {
			return nil, fmt.Errorf("%s declares GSD %v, the labels %v", c.Path, c.GSD, l.GSD)
		}
		// Counts come from the authoritative label polygons; the quadrant
		// table must agree with them.
		regs := xbdGridRegions(l.Buildings, l.Width, l.Height, 2, 2, l.GSD)
		cached := xbdGridRegions(c.Buildings, c.Width, c.Height, 2, 2, c.GSD)
		var q [4]int
		for i := range regs {
			if regs[i].Severe != cached[i].Severe {
				return nil, fmt.Errorf("%s: quadrant %s holds %d severe centroids, the label polygons %d", c.Path, regs[i].ID, cached[i].Severe, regs[i].Severe)
			}
			q[i] = regs[i].Severe
		}
		if err := xbdCheckCacheCells(c, cached); err != nil {
			return nil, err
		}
		d.Quadrants = &q
		f, err := ml.Require("post_target.png")
		if err != nil {
			return nil, err
		}
		d.MaskPath = f.Path
	}
	return &workers.Result{Evidence: d.evidence(), Payload: d}, nil
}

// --- grids -------------------------------------------------------------

// XBDRegion is one cell's centroid-assigned counts and clipped severe
// area.
type XBDRegion struct {
	ID         string
	Row, Col   int
	Counts     [xbdClasses]int
	Classified int
	Severe     int
	// SevereAreaM2 is the unrounded severe polygon area clipped to the
	// cell, in m².
	SevereAreaM2 float64
}

// severityNum and severityDen give the cell's score
// (minor + 2*major + 3*destroyed) / (3*classified) (spec type 31).
func (r *XBDRegion) severityNum() int64 {
	return int64(r.Counts[XBDMinorDamage]) + 2*int64(r.Counts[XBDMajorDamage]) + 3*int64(r.Counts[XBDDestroyed])
}
func (r *XBDRegion) severityDen() int64 { return 3 * int64(r.Classified) }

// SeverityScore returns the six-decimal display score and whether the cell
// is eligible (has classified buildings).
func (r *XBDRegion) SeverityScore() (float64, bool) {
	if r.Classified == 0 {
		return 0, false
	}
	return workers.RoundHalfEven(float64(r.severityNum())/float64(r.severityDen()), 6), true
}

// xbdGridRegions assigns buildings to grid cells: counts by centroid
// (AssignCell), severe area by clipping each severe polygon to every cell.
// Spec type 30: "Area is spatially divisible across boundaries, while a
// building count is indivisible and belongs to its centroid quadrant", and
// "The frame is clipped at x/y 0, 512, and 1024" (so parts of a polygon
// outside the frame add no quadrant area).
func xbdGridRegions(bs []XBDBuilding, w, h, rows, cols int, gsd float64) []XBDRegion {
	regs := make([]XBDRegion, rows*cols)
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			regs[r*cols+c] = XBDRegion{ID: XBDCellID(rows, cols, r, c), Row: r, Col: c}
		}
	}
	for _, b := range bs {
		r, c := AssignCell(b.Centroid, w, h, rows, cols)
		reg := &regs[r*cols+c]
		reg.Counts[b.Class]++
		if b.Class != XBDUnclassified {
			reg.Classified++
		}
		if xbdSevere(b.Class) {
			reg.Severe++
		}
	}
	xbdAddSevereAreas(regs, bs, w, h, rows, cols, gsd)
	return regs
}

// xbdAddSevereAreas is the building-to-cell join of xbdGridRegions: each
// severe building is clipped to the cells its bound meets, in building
// order; a cell it cannot reach would add a zero area, which leaves the
// cell's sum as it is. BenchmarkGridSevereArea measures it against an
// r-tree over the cells.
func xbdAddSevereAreas(regs []XBDRegion, bs []XBDBuilding, w, h, rows, cols int, gsd float64) {
	g2 := gsd * gsd
	cells := make([]orb.Bound, len(regs))
	for i := range regs {
		cells[i] = xbdCellBound(w, h, rows, cols, regs[i].Row, regs[i].Col)
	}
	for _, b := range bs {
		if !xbdSevere(b.Class) {
			continue
		}
		bb := b.Geom.Bound()
		for i := range regs {
			if !bb.Intersects(cells[i]) {
				continue
			}
			a := vector.ClippedArea(b.Geom, cells[i])
			regs[i].SevereAreaM2 += float64(a * g2)
		}
	}
}

// xbdCheckCacheCells verifies a cache's cached cell summaries, where
// present, against the counts recomputed from its building polygons.
func xbdCheckCacheCells(c *XBDCache, regs []XBDRegion) error {
	for i, cell := range c.Cells {
		r := &regs[i]
		if v, ok := cell.Props["severe_count"]; ok {
			if n, ok := xbdJSONInt(v); !ok || n != r.Severe {
				return fmt.Errorf("%s: cell %s caches severe_count %v, its building polygons give %d", c.Path, cell.ID, v, r.Severe)
			}
		}
		if v, ok := cell.Props["building_count"]; ok {
			total := 0
			for _, n := range r.Counts {
				total += n
			}
			if n, ok := xbdJSONInt(v); !ok || n != total {
				return fmt.Errorf("%s: cell %s caches building_count %v, its building polygons give %d", c.Path, cell.ID, v, total)
			}
		}
		if cc, ok := cell.Props["class_counts"].(map[string]any); ok {
			for k, name := range XBDClassNames {
				if n, ok := xbdJSONInt(cc[name]); !ok || n != r.Counts[k] {
					return fmt.Errorf("%s: cell %s caches %s=%v, its building polygons give %d", c.Path, cell.ID, name, cc[name], r.Counts[k])
				}
			}
		}
		if v, ok := cell.Props["severe_area_m2"].(float64); ok {
			if d := v - r.SevereAreaM2; d > 1e-6*(1+xbdAbs(v)) || -d > 1e-6*(1+xbdAbs(v)) {
				return fmt.Errorf("%s: cell %s caches severe_area_m2 %v, clipping its building polygons gives %v", c.Path, cell.ID, v, r.SevereAreaM2)
			}
		}
	}
	return nil
}

func xbdAbs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// XBDRegions is AssessDamage's per-cell result for a 2x2 or 4x4 grid.
type XBDRegions struct {
	SceneID     string
	Grid        string
	Aggregation string
	Severity    string
	GSD         float64
	Regions     []XBDRegion
	TotalSevere int
}

// assessXBDGrid is AssessDamage(aggregation=quadrant_2x2 or grid_4x4)
// (types 30, 31, 34).
func assessXBDGrid(mode, aggregation string) func(env workers.Env, a workers.Args) (*workers.Result, error) {
	return func(env workers.Env, a workers.Args) (*workers.Result, error) {
		w, err := workers.OpenWork(env, a, mode)
		if err != nil {
			return nil, err
		}
		slot, name, grid := "quadrants", "quadrants.geojson", "2x2"
		if mode == "xbd_grid" {
			slot, name, grid = "grid", "grid_4x4.geojson", "4x4"
		}
		c, err := xbdSceneCache(w.Scenes[slot], name, grid)
		if err != nil {
			return nil, err
		}
		regs := xbdGridRegions(c.Buildings, c.Width, c.Height, c.Rows, c.Cols, c.GSD)
		if err := xbdCheckCacheCells(c, regs); err != nil {
			return nil, err
		}
		out := &XBDRegions{SceneID: c.SceneID, Grid: grid, Aggregation: aggregation, Severity: a.String("severity"), GSD: c.GSD, Regions: regs}
		cells := make([]any, 0, len(regs))
		for i := range regs {
			r := &regs[i]
			out.TotalSevere += r.Severe
			row := map[string]any{"cell_id": r.ID, "class_counts": xbdClassCountMap(r.Counts), "classified_buildings": r.Classified, "severe_count": r.Severe, "severe_area_m2": r.SevereAreaM2}
			if s, ok := r.SeverityScore(); ok {
				row["severity_score"] = s
			} else {
				row["severity_score"] = nil
			}
			cells = append(cells, row)
		}
		return &workers.Result{
			Evidence: map[string]any{
				"scene_id": c.SceneID, "aggregation": aggregation, "grid": grid, "cells": cells,
				"total_severe_buildings": out.TotalSevere, "count_rule": "centroid", "area_rule": "clipped_to_cell",
			},
			Payload: out,
		}, nil
	}
}

func xbdClassCountMap(c [xbdClasses]int) map[string]any {
	m := map[string]any{}
	for i, n := range XBDClassNames {
		m[n] = c[i]
	}
	return m
}

// --- ranking -----------------------------------------------------------

// XBDRanking is RankRegions' result: eligible regions in rank order
// (descending metric, then ascending id), the exact top tie set and the
// top-k rows.
type XBDRanking struct {
	By      string
	TopK    int
	Regions *XBDRegions
	// Ranked are the eligible regions in rank order.
	Ranked []XBDRegion
	// TopTied are the ids of every region exactly equal to the first.
	TopTied []string
	// Excluded are the ids of ineligible regions (no classified
	// buildings, normalized_damage_severity only).
	Excluded []string
}

// cmpXBD compares two regions under a metric: negative when a ranks
// before b. Severity compares exact fractions by integer cross
// multiplication (spec type 31).
func cmpXBD(by string, a, b *XBDRegion) int {
	switch by {
	case "severe_footprint_area_m2":
		if a.SevereAreaM2 != b.SevereAreaM2 {
			if a.SevereAreaM2 > b.SevereAreaM2 {
				return -1
			}
			return 1
		}
	case "severe_damage_count":
		if a.Severe != b.Severe {
			return b.Severe - a.Severe
		}
	case "normalized_damage_severity":
		l := a.severityNum() * b.severityDen()
		r := b.severityNum() * a.severityDen()
		if l != r {
			if l > r {
				return -1
			}
			return 1
		}
	}
	return 0
}

// rankXBD is RankRegions over AssessDamage's cells. Spec type 30: "Ranking
// uses unrounded clipped square-metre area; exact ties select the
// lexicographically ascending Q0-Q3 ID only as the reported
// representative"; type 31: "Ranking uses exact integer fractions,
// descending, then ascending cell ID", and "a cell with no classified
// buildings has no score and cannot win, even if its cached display score
// is zero" (cached severity_score values are never read).
func rankXBD(by string) func(env workers.Env, a workers.Args) (*workers.Result, error) {
	return func(env workers.Env, a workers.Args) (*workers.Result, error) {
		regs, _, err := workers.OpenResult[*XBDRegions](env, a, "input", "damage (AssessDamage quadrant_2x2 or grid_4x4)")
		if err != nil {
			return nil, err
		}
		wantAgg := "quadrant_2x2"
		if by == "normalized_damage_severity" {
			wantAgg = "grid_4x4"
		}
		if regs.Aggregation != wantAgg {
			return nil, a.Errorf("by", "%s ranks %s cells, the input holds %s cells", by, wantAgg, regs.Aggregation)
		}
		k, _ := a.Number("top_k")
		topK := int(k)
		if topK < 1 || topK > len(regs.Regions) {
			return nil, a.Errorf("top_k", "must be between 1 and %d, got %d", len(regs.Regions), topK)
		}
		rk := &XBDRanking{By: by, TopK: topK, Regions: regs}
		for _, r := range regs.Regions {
			if by == "normalized_damage_severity" && r.Classified == 0 {
				rk.Excluded = append(rk.Excluded, r.ID)
				continue
			}
			rk.Ranked = append(rk.Ranked, r)
		}
		sort.SliceStable(rk.Ranked, func(i, j int) bool {
			if c := cmpXBD(by, &rk.Ranked[i], &rk.Ranked[j]); c != 0 {
				return c < 0
			}
			return rk.Ranked[i].ID < rk.Ranked[j].ID
		})
		for i := range rk.Ranked {
			if cmpXBD(by, &rk.Ranked[0], &rk.Ranked[i]) != 0 {
				break
			}
			rk.TopTied = append(rk.TopTied, rk.Ranked[i].ID)
		}
		rows := make([]any, 0, topK)
		for i := 0; i < topK && i < len(rk.Ranked); i++ {
			r := &rk.Ranked[i]
			row := map[string]any{"rank": i + 1, "cell_id": r.ID, "severe_count": r.Severe, "severe_area_m2": r.SevereAreaM2, "classified_buildings": r.Classified}
			if s, ok := r.SeverityScore(); ok {
				row["severity_score"] = s
			}
			rows = append(rows, row)
		}
		tied := append([]string{}, rk.TopTied...)
		return &workers.Result{
			Evidence: map[string]any{
				"by": by, "top_k": topK, "grid": regs.Grid, "ranked": rows, "top_tied_ids": tied,
				"excluded_ids": append([]string{}, rk.Excluded...), "eligible": len(rk.Ranked),
				"order": "metric descending (exact), then id ascending",
			},
			Payload: rk,
		}, nil
	}
}

// --- concentration -----------------------------------------------------

// XBDConcentration is the spatial concentration of severe centroids over
// the 2x2 quadrants (spec type 34).
type XBDConcentration struct {
	Counts [4]int
	Total  int
	// Score is max/total; HasScore is false when total is 0.
	Score    float64
	HasScore bool
	Pattern  string
	Worst    string
	Tied     []string
	Ranked   []XBDRegion
}

// Concentrate classifies max/total with exact integer thresholds (spec
// type 34: "scores at least 0.70 are highly concentrated, scores at least
// 0.45 and below 0.70 are moderately concentrated, and lower scores are
// spatially dispersed"; "When total severe is zero the ratio is undefined,
// so the score and worst quadrant are null and the top-tie list is
// empty"):
// >= 0.70 highly_concentrated, >= 0.45 moderately_concentrated, else
// spatially_dispersed; no severe building gives no_severe_damage and no
// score, worst quadrant or tie list.
func Concentrate(counts [4]int) *XBDConcentration {
	c := &XBDConcentration{Counts: counts, Tied: []string{}}
	mx := 0
	for _, n := range counts {
		c.Total += n
		if n > mx {
			mx = n
		}
	}
	if c.Total == 0 {
		c.Pattern = "no_severe_damage"
		return c
	}
	c.HasScore = true
	c.Score = float64(mx) / float64(c.Total)
	switch {
	case 100*mx >= 70*c.Total:
		c.Pattern = "highly_concentrated"
	case 100*mx >= 45*c.Total:
		c.Pattern = "moderately_concentrated"
	default:
		c.Pattern = "spatially_dispersed"
	}
	for i, n := range counts {
		if n == mx {
			c.Tied = append(c.Tied, fmt.Sprintf("Q%d", i))
		}
	}
	c.Worst = c.Tied[0]
	return c
}

func scoreXBDConcentration(env workers.Env, a workers.Args) (*workers.Result, error) {
	rk, _, err := workers.OpenResult[*XBDRanking](env, a, "input", "rank (RankRegions by=severe_damage_count)")
	if err != nil {
		return nil, err
	}
	if rk.By != "severe_damage_count" || rk.Regions.Grid != "2x2" {
		return nil, a.Errorf("input", "spatial_concentration scores a 2x2 severe_damage_count ranking, got by=%s on %s", rk.By, rk.Regions.Grid)
	}
	var counts [4]int
	for i, r := range rk.Regions.Regions {
		counts[i] = r.Severe
	}
	c := Concentrate(counts)
	c.Ranked = rk.Ranked
	ev := map[string]any{
		"scale": "spatial_concentration", "quadrant_severe_counts": xbdQuadrantMap(counts),
		"total_severe_buildings": c.Total, "pattern": c.Pattern, "top_tied_quadrants": append([]string{}, c.Tied...),
		"formula": "max quadrant severe count / total severe count",
	}
	if c.HasScore {
		ev["concentration_score"] = c.Score
		ev["worst_quadrant"] = c.Worst
	} else {
		ev["concentration_score"] = nil
		ev["worst_quadrant"] = nil
	}
	return &workers.Result{Evidence: ev, Payload: c}, nil
}

// --- pair comparison ---------------------------------------------------

// XBDPair holds the two scene summaries of a same-event pair.
type XBDPair struct {
	Scenes [2]*XBDSceneDamage
}

func assessXBDPair(env workers.Env, a workers.Args) (*workers.Result, error) {
	w, err := workers.OpenWork(env, a, "scene_compare")
	if err != nil {
		return nil, err
	}
	p := &XBDPair{}
	scenes := make([]any, 0, 2)
	for i, slot := range []string{"scene_a", "scene_b"} {
		l, err := xbdSceneLabels(w.Scenes[slot])
		if err != nil {
			return nil, err
		}
		p.Scenes[i] = summarizeXBD(l)
		p.Scenes[i].Mode = w.Mode
		scenes = append(scenes, p.Scenes[i].evidence())
	}
	return &workers.Result{Evidence: map[string]any{"aggregation": "pair_compare", "severity": "severe", "scenes": scenes}, Payload: p}, nil
}

// XBDMetricComparison is one comparison axis of a scene pair.
type XBDMetricComparison struct {
	// Winner is the unique best scene ("" on a tie or with no eligible
	// scene).
	Winner string
	// Tied lists every tied scene id (ascending) when Status is "tie".
	Tied   []string
	Status string // "unique_winner", "tie" or "no_eligible_scene"
}

// XBDSceneComparison is CompareScenes' result (spec type 32).
type XBDSceneComparison struct {
	Scenes   [2]*XBDSceneDamage
	Severity XBDMetricComparison
	Area     XBDMetricComparison
}

// xbdCompareMetric picks the maximum over eligible scenes; exact ties keep
// every tied id and no singular winner. Spec type 32: "A tied metric has
// every tied scene ID, a null singular winner, and status tie; the agent
// must not choose an arbitrary representative." The tie list is empty for a
// unique winner (the schema's 0-2 items).
func xbdCompareMetric(ids []string, vals []float64, eligible []bool) XBDMetricComparison {
	out := XBDMetricComparison{Tied: []string{}}
	best, have := 0.0, false
	for i := range ids {
		if eligible[i] && (!have || vals[i] > best) {
			best, have = vals[i], true
		}
	}
	if !have {
		out.Status = "no_eligible_scene"
		return out
	}
	var top []string
	for i := range ids {
		if eligible[i] && vals[i] == best {
			top = append(top, ids[i])
		}
	}
	if len(top) == 1 {
		out.Winner, out.Status = top[0], "unique_winner"
		return out
	}
	sort.Strings(top)
	out.Tied, out.Status = top, "tie"
	return out
}

func compareXBDScenes(env workers.Env, a workers.Args) (*workers.Result, error) {
	p, _, err := workers.OpenResult[*XBDPair](env, a, "input", "damage (AssessDamage aggregation=pair_compare)")
	if err != nil {
		return nil, err
	}
	ids := []string{p.Scenes[0].SceneID, p.Scenes[1].SceneID}
	// Percentages compare the emitted two-decimal values over scenes with
	// classified buildings; areas the unrounded sums (spec type 32).
	sc := &XBDSceneComparison{Scenes: p.Scenes}
	sc.Severity = xbdCompareMetric(ids, []float64{p.Scenes[0].SeverePct, p.Scenes[1].SeverePct}, []bool{p.Scenes[0].Classified > 0, p.Scenes[1].Classified > 0})
	sc.Area = xbdCompareMetric(ids, []float64{p.Scenes[0].SevereAreaM2, p.Scenes[1].SevereAreaM2}, []bool{true, true})
	ev := map[string]any{
		"by": "severe_damage_ratio_and_footprint", "scene_ids": ids,
		"severe_pct":               map[string]any{"winner": xbdNullable(sc.Severity.Winner), "tied": sc.Severity.Tied, "status": sc.Severity.Status},
		"severe_footprint_area_m2": map[string]any{"winner": xbdNullable(sc.Area.Winner), "tied": sc.Area.Tied, "status": sc.Area.Status},
	}
	return &workers.Result{Evidence: ev, Payload: sc}, nil
}

func xbdNullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// --- severe extraction -------------------------------------------------

// XBDObjects is ExtractObjects' severe-building result (spec type 33).
type XBDObjects struct {
	SceneID   string
	Source    string
	Severity  string
	GSD       float64
	Buildings []XBDBuilding
}

// PolygonCoordinates is a polygon's GeoJSON "coordinates" member: its
// rings as arrays of [x, y] positions, as the severe-buildings artifact
// writes them.
func PolygonCoordinates(p orb.Polygon) []any {
	rings := make([]any, 0, len(p))
	for _, r := range p {
		pts := make([]any, 0, len(r))
		for _, pt := range r {
			pts = append(pts, []float64{pt[0], pt[1]})
		}
		rings = append(rings, pts)
	}
	return rings
}

func extractXBDSevere(env workers.Env, a workers.Args) (*workers.Result, error) {
	w, err := workers.OpenWork(env, a, "xbd_damage")
	if err != nil {
		return nil, err
	}
	l, err := xbdSceneLabels(w.Scenes["labels"])
	if err != nil {
		return nil, err
	}
	o := &XBDObjects{SceneID: l.SceneID, Source: "building_damage_xy.geojson", Severity: "major_or_destroyed", GSD: l.GSD}
	feats := make([]any, 0)
	for _, b := range l.Buildings {
		if !xbdSevere(b.Class) {
			continue
		}
		o.Buildings = append(o.Buildings, b)
		coords := make([]any, 0, len(b.Geom))
		for _, p := range b.Geom {
			coords = append(coords, PolygonCoordinates(p))
		}
		feats = append(feats, map[string]any{
			"type":       "Feature",
			"properties": map[string]any{"uid": b.UID, "subtype": XBDClassNames[b.Class], "area_px": b.AreaPx},
			"geometry":   map[string]any{"type": "MultiPolygon", "coordinates": coords},
		})
	}
	doc := map[string]any{
		"type": "FeatureCollection", "features": feats,
		"metadata": map[string]any{"scene_id": l.SceneID, "coordinate_space": "pixel", "gsd": l.GSD, "filter": "major-damage|destroyed"},
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("severe buildings GeoJSON: %w", err)
	}
	art, err := env.WriteArtifact("severe_buildings_"+xbdSafeName(l.SceneID)+".geojson", b, nil)
	if err != nil {
		return nil, err
	}
	return &workers.Result{
		Evidence: map[string]any{
			"target": "severe_buildings", "severity": "major_or_destroyed", "scene_id": l.SceneID,
			"object_count": len(o.Buildings), "artifact": art.Locator,
		},
		Payload:   o,
		Artifacts: []workers.Artifact{art},
	}, nil
}

// XBDSevereSummary is AssessDamage(aggregation=severe_only) (spec type 33):
// whole qualifying polygons and their unrounded areas per class.
type XBDSevereSummary struct {
	SceneID         string
	Count           int
	MajorAreaM2     float64
	DestroyedAreaM2 float64
	Source, Filter  string
}

func assessXBDSevereOnly(env workers.Env, a workers.Args) (*workers.Result, error) {
	o, _, err := workers.OpenResult[*XBDObjects](env, a, "input", "objects (ExtractObjects target=severe_buildings)")
	if err != nil {
		return nil, err
	}
	s := &XBDSevereSummary{SceneID: o.SceneID, Count: len(o.Buildings), Source: o.Source, Filter: o.Severity}
	g2 := o.GSD * o.GSD
	for _, b := range o.Buildings {
		switch b.Class {
		case XBDMajorDamage:
			s.MajorAreaM2 += float64(b.AreaPx * g2)
		case XBDDestroyed:
			s.DestroyedAreaM2 += float64(b.AreaPx * g2)
		default:
			return nil, fmt.Errorf("objects %s holds a %s building; severe_only accepts only major-damage and destroyed", o.SceneID, XBDClassNames[b.Class])
		}
	}
	return &workers.Result{
		Evidence: map[string]any{
			"aggregation": "severe_only", "scene_id": s.SceneID, "severe_building_count": s.Count,
			"major_damage_area_m2": s.MajorAreaM2, "destroyed_area_m2": s.DestroyedAreaM2,
			"severe_footprint_area_m2": s.MajorAreaM2 + s.DestroyedAreaM2, "area_method": XBDAreaMethod,
		},
		Payload: s,
	}, nil
}

// --- ComputeStats ------------------------------------------------------

// XBDMaskStats is the post_target.png code histogram and class-presence
// check (spec type 35).
type XBDMaskStats struct {
	Histogram [5]int64
	// PolygonPresent and MaskPresent say whether each damage class
	// (no-damage..destroyed) occurs among the polygons and mask pixels.
	PolygonPresent, MaskPresent [4]bool
	Consistent                  bool
}

// XBDStats is ComputeStats' result over a scene damage summary.
type XBDStats struct {
	Metrics       string
	Damage        *XBDSceneDamage
	Mask          *XBDMaskStats
	Concentration *XBDConcentration
}

func statsXBD(withMask bool) func(env workers.Env, a workers.Args) (*workers.Result, error) {
	return func(env workers.Env, a workers.Args) (*workers.Result, error) {
		d, _, err := workers.OpenResult[*XBDSceneDamage](env, a, "input", "damage (AssessDamage aggregation=scene)")
		if err != nil {
			return nil, err
		}
		if d.Mode == "scene_compare" {
			return nil, a.Errorf("input", "a pair summary is compared with CompareScenes, not ComputeStats")
		}
		st := &XBDStats{Damage: d, Metrics: "damage_summary+severe_footprint_area"}
		ev := d.evidence()
		if withMask {
			st.Metrics += "+target_mask_distribution"
			if d.MaskPath == "" || d.Quadrants == nil {
				return nil, a.Errorf("input", "target_mask_distribution needs a damage summary over an xbd_scene_summary work (with the mask layers), got mode %s", d.Mode)
			}
			b, err := env.ReadFile(d.MaskPath)
			if err != nil {
				return nil, err
			}
			hist, w, h, err := DecodeXBDTarget(d.MaskPath, b)
			if err != nil {
				return nil, err
			}
			if w != 1024 || h != 1024 {
				return nil, fmt.Errorf("%s is %dx%d; the target mask is 1024x1024", d.MaskPath, w, h)
			}
			m := &XBDMaskStats{Histogram: hist, Consistent: true}
			for c := 0; c < 4; c++ {
				m.PolygonPresent[c] = d.Counts[c] > 0
				m.MaskPresent[c] = hist[c+1] > 0
				if m.PolygonPresent[c] != m.MaskPresent[c] {
					m.Consistent = false
				}
			}
			st.Mask = m
			st.Concentration = Concentrate(*d.Quadrants)
			ev["target_mask_histogram"] = []int64{hist[0], hist[1], hist[2], hist[3], hist[4]}
			ev["target_mask_encoding"] = XBDTargetEncoding
			ev["class_presence_consistent"] = m.Consistent
		} else if d.Mode != "xbd_damage" {
			return nil, a.Errorf("metrics", "a scene summary with mask layers is summarized with target_mask_distribution")
		}
		return &workers.Result{Evidence: ev, Payload: st}, nil
	}
}

// xbdSafeName keeps a scene id usable as an artifact file name: anything
// but letters, digits, '.', '_' and '-' becomes '_'.
func xbdSafeName(id string) string {
	out := []byte(id)
	for i, c := range out {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			out[i] = '_'
		}
	}
	if len(out) == 0 || out[0] == '.' {
		return "scene" + string(out)
	}
	return string(out)
}

// schemaFiles holds schemas/<question_type>.json, the answer schemas.
//
//go:embed schemas/*.json
var schemaFiles embed.FS

// Def declares the xBD family (question types 29-35).
func Def() workers.FamilyDef {
	return workers.NewFamilyDef(workers.XBD, xbdVariants, xbdProjectors(), schemaFiles)
}
