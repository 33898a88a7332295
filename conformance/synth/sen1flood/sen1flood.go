// Package sen1flood generates the records of the Sen1Floods11 family
// (spec types 39-43): synthetic Sentinel-1 chips with JRC known-water
// rasters, and corpora over a real hydrated chip (RealCorpus,
// LabelGridCorpus). Gold answers are computed from the arrays.
package sen1flood

import (
	"fmt"
	"math"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/geodesy"
	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/internal/otsu"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/raster/regions"
	"github.com/geodisaster/engine/workers"
	worker "github.com/geodisaster/engine/workers/sen1flood"
)

// Types returns the family's generators: 100 chips per type, 10 of them
// public-reference test records.
func Types() core.Types {
	out := core.Types{}
	for _, t := range []string{"sen1_flood_a", "sen1_flood_b", "sen1_flood_c", "sen1_flood_d", "sen1_flood_e"} {
		out[t] = core.Type{Full: 100, Tests: 10, Gen: func(g *core.Gen, i int) (workers.Record, error) { return genSen1Flood(g, t, i) }}
	}
	return out
}

// S1Chip is a Sentinel-1-like two-band chip with its JRC known-water
// raster, on a north-up EPSG:4326 grid.
type S1Chip struct {
	W, H int
	T    crs.Affine
	// VV and VH are dB values; S1NoData marks nodata in either band.
	VV, VH   []float32
	S1NoData float64
	// JRC holds 0/1 known water (and JRCNoData where declared).
	JRC       []uint8
	JRCNoData *float64
	// JRCTransform, when set, is the known-water raster's own transform
	// (one exported by another tool, with its float noise); T otherwise.
	JRCTransform *crs.Affine
}

// sen1Variant names the edge case record i covers (i%6): random blobs
// with overlapping noise; a single localized blob with an all-zero JRC;
// two identical patches that tie in the top three with JRC nodata; diagonal
// touches, holes, NaN and single-band nodata; a constant chip (everything
// valid is flood); a size that is not a multiple of 4 (types A, B, D;
// the others get dense speckle, since their chains check the 4x4 grid).
var sen1Variants = []string{"blobs", "localized", "tie", "topology", "constant", "odd_size"}

// genSen1Flood builds one record of a Sen1Floods11 type.
func genSen1Flood(g *core.Gen, qtype string, i int) (workers.Record, error) {
	variant := sen1Variants[i%len(sen1Variants)]
	gridChecked := qtype == "sen1_flood_c" || qtype == "sen1_flood_e"
	if variant == "odd_size" && gridChecked {
		variant = "speckle"
	}
	sample := fmt.Sprintf("synth_s1_%s_%03d", qtype[len(qtype)-1:], i)
	chip, err := sen1Chip(g, variant)
	if err != nil {
		return workers.Record{}, err
	}
	return sen1Record(g, qtype, sample, chip)
}

// sen1Record writes a chip's files and builds the record of qtype with its
// gold answer. It is shared by the synthetic corpus and the real-chip
// corpus.
func sen1Record(g *core.Gen, qtype, sample string, chip *S1Chip) (workers.Record, error) {
	dir := "source_assets/sen1_flood/" + sample + "/"
	s1, err := g.Write(dir+"S1Portable.tif", chip.S1Bytes())
	if err != nil {
		return workers.Record{}, err
	}
	handles := map[string]workers.HandleDecl{
		"s1_image_1": {Kind: workers.KindInput, Files: []workers.FileCard{s1}},
	}
	withJRC := qtype == "sen1_flood_d" || qtype == "sen1_flood_e"
	if withJRC {
		jb, err := chip.JRCBytes()
		if err != nil {
			return workers.Record{}, err
		}
		jrc, err := g.Write(dir+"JRCWaterHand.tif", jb)
		if err != nil {
			return workers.Record{}, err
		}
		handles["jrc_water_1"] = workers.HandleDecl{Kind: workers.KindInput, Files: []workers.FileCard{jrc}}
	}
	gold, err := sen1Gold(chip)
	if err != nil {
		return workers.Record{}, err
	}
	return g.Record(qtype, sample, sen1Questions[qtype], nil, handles, sen1Chain(qtype), gold.answer(qtype))
}

var sen1Questions = map[string]string{
	"sen1_flood_a": "From the Sentinel-1 VV/VH chip, derive the flood-prediction mask and report the predicted flood percentage and exact-grid area, the 8-neighbour component count, the largest component's area and centroid, and the complete 4x4 spatial inventory.",
	"sen1_flood_b": "Generate a polygon GeoJSON from the SAR-derived flood prediction and report its generation status, polygon count, total and largest component areas, the largest component's bounding box and centroid, and the three most flooded 4x4 cells.",
	"sen1_flood_c": "Derive the predicted flood mask, rank the three most flooded 4x4 cells, compute the maximum-cell concentration and classify the prediction as localized or dispersed.",
	"sen1_flood_d": "Generate the SAR flood prediction, compare its flood pixels with the JRC known-water raster, and report total predicted flood, overlap and outside-reference counts and percentages, and the largest component's area and centroid.",
	"sen1_flood_e": "Run the complete SAR flood analysis (mask, polygons, components, area, 4x4 grid and ranking, JRC known-water comparison and a fresh diagnostic map) and return the structured summary.",
}

// sen1Chain is the GT chain of a Sen1Floods11 type (spec types 39-43).
func sen1Chain(qtype string) []workers.Step {
	method := worker.Sen1FloodMethod
	read := core.Read("s1_image_1", "sar", "scene_1")
	readJRC := core.Read("jrc_water_1", "known_water", "scene_2")
	mapFlood := core.Step("MapFlood", map[string]any{"input": "work_1", "method": method}, "flood_1")
	rank := func(in string) workers.Step {
		return core.Step("RankRegions", map[string]any{"input": in, "by": "flood_percentage", "candidates": "grid_4x4", "top_k": 3}, "rank_1")
	}
	done := core.TaskComplete()
	switch qtype {
	case "sen1_flood_a":
		return []workers.Step{read,
			core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"sar": "scene_1"}, "mode": "sar_flood"}, "work_1"),
			mapFlood,
			core.Step("ExtractObjects", map[string]any{"input": "flood_1", "target": "flood_components"}, "objects_1"),
			core.Step("DescribeFlood", map[string]any{"input": "objects_1", "metrics": core.Flags("flood_percentage", "flood_area", "components", "grid_4x4")}, "flood_report_1"),
			done}
	case "sen1_flood_b":
		return []workers.Step{read,
			core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"sar": "scene_1"}, "mode": "sar_flood"}, "work_1"),
			mapFlood,
			core.Step("ExtractObjects", map[string]any{"input": "flood_1", "target": "flood_polygons"}, "objects_1"),
			core.Step("DescribeFlood", map[string]any{"input": "objects_1", "metrics": core.Flags("flood_percentage", "flood_area", "components", "grid_4x4")}, "flood_report_1"),
			rank("flood_report_1"), done}
	case "sen1_flood_c":
		return []workers.Step{read,
			core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"sar": "scene_1"}, "mode": "sar_flood", "grid": "4x4"}, "work_1"),
			mapFlood,
			core.Step("DescribeFlood", map[string]any{"input": "flood_1", "metrics": core.Flags("grid_4x4", "concentration", "pattern")}, "flood_report_1"),
			rank("flood_report_1"), done}
	case "sen1_flood_d":
		return []workers.Step{read, readJRC,
			core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"sar": "scene_1", "reference": "scene_2"}, "mode": "sar_flood_reference"}, "work_1"),
			mapFlood,
			core.Step("CompareSources", map[string]any{"input": "flood_1", "reference": "known_water", "criterion": "overlap_vs_outside_reference"}, "compare_1"),
			core.Step("DescribeFlood", map[string]any{"input": "compare_1", "metrics": core.Flags("prediction", "components", "overlap", "outside_reference")}, "flood_report_1"),
			done}
	default:
		return []workers.Step{read, readJRC,
			core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"sar": "scene_1", "reference": "scene_2"}, "mode": "sar_flood_diagnostic"}, "work_1"),
			mapFlood,
			core.Step("ExtractObjects", map[string]any{"input": "flood_1", "target": "flood_polygons"}, "objects_1"),
			core.Step("DescribeFlood", map[string]any{"input": "objects_1", "metrics": core.Flags("flood_percentage", "flood_area", "components", "grid_4x4", "concentration", "pattern")}, "flood_report_1"),
			rank("flood_report_1"),
			core.Step("CompareSources", map[string]any{"input": "rank_1", "reference": "known_water", "criterion": "overlap_vs_outside_reference"}, "compare_1"),
			core.Step("RenderMap", map[string]any{"input": "compare_1", "style": "flood_diagnostic", "layers": core.Flags("sar", "prediction", "component_boundaries", "grid")}, "render_1"),
			done}
	}
}

// S1Bytes encodes the chip as S1Portable.tif: two float32 bands named VV
// and VH, DEFLATE with the floating-point predictor, nodata -9999.
func (c *S1Chip) S1Bytes() []byte {
	vv, _ := raster.NewBand(c.W, c.H, raster.Float32)
	vh, _ := raster.NewBand(c.W, c.H, raster.Float32)
	copy(vv.Data.([]float32), c.VV)
	copy(vh.Data.([]float32), c.VH)
	nd := c.S1NoData
	// Write cannot fail on bands it validated itself.
	b, _ := core.EncodeTIFF(raster.WriteOptions{
		Compression: "deflate", Predictor: 3, TileSize: 256, NoData: &nd, EPSG: 4326, Transform: c.T,
		BandDescriptions: []string{"VV", "VH"},
	}, vv, vh)
	return b
}

// JRCBytes encodes the known-water raster (uint8, optional nodata).
func (c *S1Chip) JRCBytes() ([]byte, error) {
	b, err := raster.NewBand(c.W, c.H, raster.Uint8)
	if err != nil {
		return nil, err
	}
	copy(b.Data.([]uint8), c.JRC)
	t := c.T
	if c.JRCTransform != nil {
		t = *c.JRCTransform
	}
	return core.EncodeTIFF(raster.WriteOptions{
		Compression: "deflate", Predictor: 2, TileSize: 256, NoData: c.JRCNoData, EPSG: 4326, Transform: t,
	}, b)
}

// sen1Chip draws a chip for a variant. Land scores (min(VV,VH)) lie well
// above water scores except in the blobs variant, whose noise overlaps.
func sen1Chip(g *core.Gen, variant string) (*S1Chip, error) {
	w, h := 64, 64
	if g.Full {
		w, h = 512, 512
	}
	switch variant {
	case "odd_size":
		w, h = 61+g.Rng.IntN(6), 45+g.Rng.IntN(6)
		if w%4 == 0 {
			w++
		}
	case "blobs", "topology":
		if !g.Full {
			w, h = 48+4*g.Rng.IntN(5), 40+4*g.Rng.IntN(5)
		}
	}
	grid := g.AOIGrid(w, h, 8.983152841195215e-05, -9, 3, 36, 44)
	c := &S1Chip{W: w, H: h, T: grid.T, VV: make([]float32, w*h), VH: make([]float32, w*h), S1NoData: -9999, JRC: make([]uint8, w*h)}
	water := make([]bool, w*h)
	// Bounded land and water scores: min(VV,VH) is -15.5..-14.5 on land
	// and -28..-25 on water, so Otsu separates exactly the water pixels
	// even when they are a few percent of the chip.
	land := func(i int) {
		c.VV[i] = float32(-9 + float64(2*float64(g.Rng.Float64())))
		c.VH[i] = float32(-15.5 + float64(g.Rng.Float64()))
	}
	wet := func(i int) {
		c.VV[i] = float32(-24 + float64(4*g.Rng.Float64()))
		c.VH[i] = float32(-28 + float64(3*g.Rng.Float64()))
	}
	gauss := func(i int, isWater bool) {
		if isWater {
			c.VV[i] = float32(-20 + float64(2.5*g.Rng.NormFloat64()))
			c.VH[i] = float32(-25 + float64(2.5*g.Rng.NormFloat64()))
		} else {
			c.VV[i] = float32(-9 + float64(2.5*g.Rng.NormFloat64()))
			c.VH[i] = float32(-16 + float64(2.5*g.Rng.NormFloat64()))
		}
	}
	fw, fh := float64(w), float64(h)
	switch variant {
	case "blobs", "odd_size":
		nb := 3 + g.Rng.IntN(4)
		for b := 0; b < nb; b++ {
			cx, cy := float64(g.Rng.Float64()*fw), float64(g.Rng.Float64()*fh)
			rx, ry := 2+float64(g.Rng.Float64()*fw/6), 2+float64(g.Rng.Float64()*fh/6)
			for r := 0; r < h; r++ {
				for col := 0; col < w; col++ {
					if core.Blob(col, r, cx, cy, rx, ry) {
						water[r*w+col] = true
					}
				}
			}
		}
	case "localized":
		// One blob inside a single cell holds most of the flood.
		cellW, cellH := fw/4, fh/4
		cr, cc := g.Rng.IntN(4), g.Rng.IntN(4)
		cx, cy := float64((float64(cc)+0.5)*cellW), float64((float64(cr)+0.5)*cellH)
		for r := 0; r < h; r++ {
			for col := 0; col < w; col++ {
				if core.Blob(col, r, cx, cy, cellW*0.45, cellH*0.4) {
					water[r*w+col] = true
				}
			}
		}
		// A few isolated dark pixels elsewhere.
		for k := 0; k < 4; k++ {
			water[g.Rng.IntN(w*h)] = true
		}
	case "tie":
		// Identical square patches in two cells (same valid count), and a
		// smaller one in a third cell.
		cellW, cellH := w/4, h/4
		side := min(cellW, cellH) / 2
		cells := g.Rng.Perm(16)
		for k, cell := range cells[:3] {
			s := side
			if k == 2 {
				s = side / 2
			}
			r0, c0 := (cell/4)*cellH+1, (cell%4)*cellW+1
			for r := r0; r < r0+s; r++ {
				for col := c0; col < c0+s; col++ {
					water[r*w+col] = true
				}
			}
		}
	case "topology":
		// A checkerboard patch (diagonal touches), an annulus with a land
		// island holding a water pixel, and a diagonal staircase.
		for r := 2; r < 8; r++ {
			for col := 2; col < 8; col++ {
				water[r*w+col] = (r+col)%2 == 0
			}
		}
		for r := 10; r < 19; r++ {
			for col := 12; col < 21; col++ {
				ring := r == 10 || r == 18 || col == 12 || col == 20 || r == 11 || r == 17 || col == 13 || col == 19
				water[r*w+col] = ring || (r == 14 && col == 16)
			}
		}
		for k := 0; k < min(w, h)-25; k++ {
			water[(22+k)*w+(k+2)%w] = true
		}
	case "speckle":
		for i := range water {
			water[i] = g.Rng.IntN(9) == 0
		}
	}
	for i := range water {
		switch variant {
		case "blobs":
			gauss(i, water[i])
		case "constant":
			c.VV[i], c.VH[i] = -14.5, -14.5
		case "tie":
			// Constant water: the water mode is the histogram's first bin,
			// whose centre lies above it, so every patch pixel is flood
			// and the two equal patches tie exactly.
			if water[i] {
				c.VV[i], c.VH[i] = -22, -27
			} else {
				land(i)
			}
		default:
			if water[i] {
				wet(i)
			} else {
				land(i)
			}
		}
	}
	// Nodata: a rectangle in both bands, plus single-band and NaN pixels.
	if variant != "localized" && variant != "tie" {
		rw, rh := 1+g.Rng.IntN(w/5), 1+g.Rng.IntN(h/4)
		r0, c0 := g.Rng.IntN(h-rh), g.Rng.IntN(w-rw)
		for r := r0; r < r0+rh; r++ {
			for col := c0; col < c0+rw; col++ {
				c.VV[r*w+col], c.VH[r*w+col] = -9999, -9999
			}
		}
	}
	if variant == "topology" || variant == "blobs" {
		for k := 0; k < 6; k++ {
			c.VV[g.Rng.IntN(w*h)] = -9999
			c.VH[g.Rng.IntN(w*h)] = -9999
		}
		c.VV[g.Rng.IntN(w*h)] = float32(math.NaN())
	}
	// JRC known water.
	switch variant {
	case "localized":
		// All-zero reference: a valid zero overlap.
	case "tie":
		nd := 255.0
		c.JRCNoData = &nd
		for i := range c.JRC {
			if water[i] && g.Rng.IntN(2) == 0 {
				c.JRC[i] = 1
			}
		}
		for r := 0; r < h; r++ {
			c.JRC[r*w+w/2] = 255
		}
	case "topology":
		for i := range c.JRC {
			if g.Rng.IntN(10) < 3 {
				c.JRC[i] = 1
			}
		}
	default:
		for i := range c.JRC {
			if water[i] && i%w < w/2 {
				c.JRC[i] = 1
			}
		}
		for r := h / 3; r < h/2; r++ {
			for col := 0; col < w/5; col++ {
				c.JRC[r*w+col] = 1
			}
		}
	}
	return c, nil
}

// sen1Truth is the gold of one chip, computed from its arrays.
type sen1Truth struct {
	valid, flood    int
	floodArea       float64
	comps           int
	largestArea     float64
	largestCentroid any
	largestBBox     any
	cells           []map[string]any
	top3            []any
	concentration   float64
	pattern         string
	overlap         int
	outside         int
}

// sen1Gold computes the answer quantities directly from the chip: the
// prediction rule of spec type 39, 8-connected components, WGS84 cell
// areas, the 4x4 grid, the ranking and the JRC partition.
func sen1Gold(c *S1Chip) (*sen1Truth, error) {
	n := c.W * c.H
	ok := func(v float32) bool {
		return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) && float64(v) != c.S1NoData
	}
	valid := make([]bool, n)
	var scores []float32
	for i := 0; i < n; i++ {
		if ok(c.VV[i]) && ok(c.VH[i]) {
			valid[i] = true
			scores = append(scores, min(c.VV[i], c.VH[i]))
		}
	}
	t, err := otsu.Threshold(scores, 256)
	if err != nil {
		return nil, err
	}
	flood := make([]bool, n)
	tr := &sen1Truth{valid: len(scores)}
	for i := 0; i < n; i++ {
		if valid[i] && min(c.VV[i], c.VH[i]) <= t {
			flood[i] = true
			tr.flood++
		}
	}
	rows, err := geodesy.CellAreas(c.T, c.H)
	if err != nil {
		return nil, err
	}
	var areas []float64
	for i := 0; i < n; i++ {
		if flood[i] {
			areas = append(areas, rows[i/c.W])
		}
	}
	tr.floodArea = numpy.SumFloat64(areas)
	labels, nc, err := regions.Label(flood, c.W, c.H, regions.Connect8)
	if err != nil {
		return nil, err
	}
	tr.comps = nc
	if nc > 0 {
		count := make([]int, nc+1)
		for _, l := range labels {
			count[l]++
		}
		best := 1
		for k := 2; k <= nc; k++ {
			if count[k] > count[best] {
				best = k
			}
		}
		var la, xs, ys []float64
		minC, maxC, minR, maxR := c.W, 0, c.H, 0
		for i, l := range labels {
			if int(l) != best {
				continue
			}
			col, row := i%c.W, i/c.W
			la = append(la, rows[row])
			xs = append(xs, c.T[2]+float64((float64(col)+0.5)*c.T[0]))
			ys = append(ys, c.T[5]+float64((float64(row)+0.5)*c.T[4]))
			minC, maxC, minR, maxR = min(minC, col), max(maxC, col), min(minR, row), max(maxR, row)
		}
		tr.largestArea = workers.RoundHalfEven(numpy.SumFloat64(la), 3)
		tr.largestCentroid = map[string]any{"lon": workers.RoundHalfEven(numpy.MeanFloat64(xs), 6), "lat": workers.RoundHalfEven(numpy.MeanFloat64(ys), 6)}
		tr.largestBBox = []any{
			workers.RoundHalfEven(c.T[2]+float64(float64(minC)*c.T[0]), 6), workers.RoundHalfEven(c.T[5]+float64(float64(maxR+1)*c.T[4]), 6),
			workers.RoundHalfEven(c.T[2]+float64(float64(maxC+1)*c.T[0]), 6), workers.RoundHalfEven(c.T[5]+float64(float64(minR)*c.T[4]), 6),
		}
	}
	// The 4x4 grid, its cells and ranking as the worker partitions and
	// ranks them (spec types 39-41), over the prediction computed here.
	mask := make([]uint8, n)
	for i := range mask {
		switch {
		case !valid[i]:
			mask[i] = worker.MaskNoData
		case flood[i]:
			mask[i] = worker.MaskFlood
		}
	}
	cells := worker.FloodGrid(mask, c.W, c.H, tr.flood)
	maxFlood := 0
	for _, ce := range cells {
		tr.cells = append(tr.cells, worker.CellJSON(ce))
		maxFlood = max(maxFlood, ce.Flood)
	}
	for k, ce := range worker.RankFloodCells(cells)[:3] {
		m := worker.CellJSON(ce)
		m["rank"] = k + 1
		tr.top3 = append(tr.top3, m)
	}
	tr.pattern = "dispersed"
	if tr.flood > 0 {
		tr.concentration = float64(maxFlood) / float64(tr.flood)
		if tr.concentration >= 0.5 {
			tr.pattern = "localized"
		}
	}
	for i := 0; i < n; i++ {
		if !flood[i] {
			continue
		}
		jrcND := c.JRCNoData != nil && float64(c.JRC[i]) == *c.JRCNoData
		if !jrcND && c.JRC[i] == 1 {
			tr.overlap++
		} else {
			tr.outside++
		}
	}
	return tr, nil
}

// answer returns the gold answer of a type.
func (tr *sen1Truth) answer(qtype string) map[string]any {
	pct := func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return workers.RoundHalfEven(float64(100*float64(a))/float64(b), 6)
	}
	grid := make([]any, len(tr.cells))
	for i, c := range tr.cells {
		grid[i] = c
	}
	switch qtype {
	case "sen1_flood_a":
		return map[string]any{
			"flood_percentage": pct(tr.flood, tr.valid), "flood_area_m2": workers.RoundHalfEven(tr.floodArea, 3),
			"component_count": tr.comps, "largest_component_area_m2": tr.largestArea,
			"largest_component_centroid": tr.largestCentroid, "grid_4x4": grid,
		}
	case "sen1_flood_b":
		return map[string]any{
			"polygon_generation_status": "generated", "polygon_count": tr.comps,
			"total_flood_area_m2": workers.RoundHalfEven(tr.floodArea, 3), "largest_component_area_m2": tr.largestArea,
			"largest_component_bbox": tr.largestBBox, "largest_component_centroid": tr.largestCentroid,
			"top3_cells": tr.top3,
		}
	case "sen1_flood_c":
		return map[string]any{"top3_cells": tr.top3, "max_cell_concentration": workers.RoundHalfEven(tr.concentration, 6), "pattern": tr.pattern}
	case "sen1_flood_d":
		return map[string]any{
			"total_flood_pixels": tr.flood, "overlap_pixels": tr.overlap, "overlap_percentage": pct(tr.overlap, tr.flood),
			"outside_reference_pixels": tr.outside, "outside_reference_percentage": pct(tr.outside, tr.flood),
			"largest_component_area_m2": tr.largestArea, "largest_component_centroid": tr.largestCentroid,
		}
	}
	return map[string]any{
		"flood_percentage": pct(tr.flood, tr.valid), "flood_area_m2": workers.RoundHalfEven(tr.floodArea, 3),
		"component_count": tr.comps, "polygon_count": tr.comps,
		"largest_component_area_m2": tr.largestArea, "largest_component_bbox": tr.largestBBox,
		"largest_component_centroid": tr.largestCentroid, "grid_4x4": grid, "top3_cells": tr.top3,
		"max_cell_concentration": workers.RoundHalfEven(tr.concentration, 6), "pattern": tr.pattern,
		"overlap_pixels": tr.overlap, "overlap_percentage": pct(tr.overlap, tr.flood),
		"outside_reference_pixels": tr.outside, "outside_reference_percentage": pct(tr.outside, tr.flood),
		"method": worker.Sen1FloodMethod, "mask_generated": true, "polygons_generated": true, "map_rendered": true,
	}
}
