package sen1flood

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/workers"
)

// FloodCell is one cell of the 4x4 inventory (spec types 39-41).
type FloodCell struct {
	// ID is row*4+col (0..15, row-major from the north-west cell).
	ID, Row, Col int
	// Valid and Flood count the cell's valid and predicted-flood pixels.
	Valid, Flood int
	// Percentage is 100*Flood/Valid (undefined when Valid is 0).
	Percentage float64
	// Share is Flood / total predicted-flood pixels (0 for an empty
	// prediction).
	Share float64
}

// HasValid reports whether the cell has valid pixels, so that its
// percentage is defined.
func (c FloodCell) HasValid() bool { return c.Valid > 0 }

// FloodGrid partitions a width x height prediction into the 4x4 index
// grid: cell row i spans rows [i*h/4, (i+1)*h/4) (integer division), and
// likewise for columns, and counts valid and flood pixels per cell.
func FloodGrid(mask []uint8, w, h, totalFlood int) []FloodCell {
	cells := make([]FloodCell, 16)
	for r := 0; r < h; r++ {
		row := mask[r*w : (r+1)*w]
		gr := sen1CellIndex(r, h)
		for gc := 0; gc < 4; gc++ {
			// Columns [gc*w/4, (gc+1)*w/4) are exactly those with
			// sen1CellIndex(c, w) == gc.
			nodata, flood := sen1CountMask(row[gc*w/4 : (gc+1)*w/4])
			cell := &cells[gr*4+gc]
			cell.Valid += (gc+1)*w/4 - gc*w/4 - nodata
			cell.Flood += flood
		}
	}
	for i := range cells {
		c := &cells[i]
		c.ID, c.Row, c.Col = i, i/4, i%4
		c.Percentage = sen1Percent(c.Flood, c.Valid)
		if totalFlood > 0 {
			c.Share = float64(c.Flood) / float64(totalFlood)
		}
	}
	return cells
}

// sen1CountMask returns the numbers of MaskNoData and MaskFlood values in
// seg, eight at a time.
func sen1CountMask(seg []uint8) (nodata, flood int) {
	i := 0
	for ; i+8 <= len(seg); i += 8 {
		x := binary.LittleEndian.Uint64(seg[i:])
		nodata += bits.OnesCount64(sen1ZeroBytes(x ^ sen1Lanes*uint64(MaskNoData)))
		flood += bits.OnesCount64(sen1ZeroBytes(x ^ sen1Lanes*uint64(MaskFlood)))
	}
	for _, v := range seg[i:] {
		if v == MaskNoData {
			nodata++
		}
		if v == MaskFlood {
			flood++
		}
	}
	return nodata, flood
}

// sen1Lanes has 1 in every byte.
const sen1Lanes = 0x0101010101010101

// sen1ZeroBytes returns 0x80 in every byte of x that is zero and 0 in the
// others (exactly: no carry crosses a byte).
func sen1ZeroBytes(x uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((x&low7 + low7) | x) & 0x8080808080808080
}

// sen1FloodArea is m.Areas.Sum(m.FloodIndices()) without the index list:
// the flood pixels' cell areas in row-major order, summed as NumPy sums
// areas[flood] (pairwise) on geographic grids, count times the pixel area
// on projected ones.
func sen1FloodArea(m *FloodMask) float64 {
	ra := m.Areas.RowArea
	if ra == nil {
		return float64(m.Flood) * m.Areas.PixelArea
	}
	w := m.Info.Width
	sc := sen1LabelPool.Get().(*sen1LabelScratch)
	defer sen1LabelPool.Put(sc)
	// Every flood pixel of a row has the row's area, so each row adds its
	// flood count (counted eight pixels at a time) copies of it.
	vals := sen1Floats(&sc.vals, m.Flood)[:0]
	for r := 0; r < m.Info.Height; r++ {
		_, f := sen1CountMask(m.Mask[r*w : (r+1)*w])
		a := ra[r]
		for range f {
			vals = append(vals, a)
		}
	}
	return numpy.SumFloat64(vals)
}

// sen1CellIndex returns the grid index k with k*n/4 <= i < (k+1)*n/4.
func sen1CellIndex(i, n int) int {
	k := i * 4 / n
	for k < 3 && i >= (k+1)*n/4 {
		k++
	}
	for k > 0 && i < k*n/4 {
		k--
	}
	return k
}

// RankFloodCells orders cells by descending flood percentage, then
// descending flood-pixel count, then descending cell ID (spec types 40-41:
// the ID is only a stable serialization key; numeric ties stay visible).
// Cells without valid pixels rank last.
func RankFloodCells(cells []FloodCell) []FloodCell {
	out := append([]FloodCell(nil), cells...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.HasValid() != b.HasValid() {
			return a.HasValid()
		}
		if a.Percentage != b.Percentage {
			return a.Percentage > b.Percentage
		}
		if a.Flood != b.Flood {
			return a.Flood > b.Flood
		}
		return a.ID > b.ID
	})
	return out
}

// FloodReport is DescribeFlood's payload.
type FloodReport struct {
	// Metrics are the requested metric names, sorted.
	Metrics []string
	// Mask is the described prediction; Objects and Compare are the
	// causal inputs when DescribeFlood consumed objects_n or compare_n.
	Mask    *FloodMask
	Objects *FloodObjects
	Compare *FloodComparison
	// FloodPercentage is 100*flood/valid pixels; FloodAreaM2 the exact-grid
	// area of the predicted flood.
	FloodPercentage float64
	FloodAreaM2     float64
	// Components are the 8-neighbour components in label order.
	Components []FloodComponent
	// Grid is the 4x4 inventory in cell-ID order.
	Grid []FloodCell
	// Concentration is max(cell flood)/total flood (0 when empty); Pattern
	// is "localized" when it is at least 0.5, else "dispersed".
	Concentration float64
	Pattern       string
}

// Has reports whether a metric was requested.
func (r *FloodReport) Has(metric string) bool {
	for _, m := range r.Metrics {
		if m == metric {
			return true
		}
	}
	return false
}

// Largest returns the largest component (most pixels, first in label
// order), or nil for an empty prediction.
func (r *FloodReport) Largest() *FloodComponent {
	o := FloodObjects{Components: r.Components}
	return o.Largest()
}

// describeFlood implements DescribeFlood over the family's three causal
// inputs: objects_n (types 39, 40, 43: the components ExtractObjects
// found), flood_n (type 41: grid, concentration and pattern only) and
// compare_n (type 42: prediction, components, overlap and outside-reference
// metrics; the components are labelled here from the compared mask).
func describeFlood(env workers.Env, a workers.Args) (*workers.Result, error) {
	h, err := env.Open(a.String("input"))
	if err != nil {
		return nil, err
	}
	var metrics []string
	for k, v := range a.Object("metrics") {
		if on, _ := v.(bool); on {
			metrics = append(metrics, k)
		}
	}
	sort.Strings(metrics)
	r := &FloodReport{Metrics: metrics}
	var payload any
	if h.Result != nil {
		payload = h.Result.Payload
	}
	switch p := payload.(type) {
	case *FloodObjects:
		r.Mask, r.Objects, r.Components = p.Mask, p, p.Components
	case *FloodMask:
		r.Mask = p
	case *FloodComparison:
		r.Mask, r.Compare = p.Mask, p
	default:
		return nil, a.Errorf("input", "%s is a %s handle; DescribeFlood takes flood_n, objects_n or compare_n of the Sen1Floods11 chain", h.Name, h.Kind)
	}
	if r.Has(MetricComponents) && r.Objects == nil && r.Compare == nil {
		return nil, a.Errorf("input", "the components metric needs objects_n from ExtractObjects (or compare_n), got %s", h.Name)
	}
	if (r.Has(MetricOverlap) || r.Has(MetricOutsideReference)) && r.Compare == nil {
		return nil, a.Errorf("input", "overlap and outside_reference need compare_n from CompareSources(criterion=overlap_vs_outside_reference), got %s", h.Name)
	}
	if r.Compare != nil && !r.Has(MetricOverlap) {
		return nil, a.Errorf("metrics", "a known-water comparison input is described with the prediction, components, overlap and outside_reference metrics")
	}
	m := r.Mask
	if r.Has(MetricComponents) && r.Objects == nil {
		_, comps, err := LabelFlood(m)
		if err != nil {
			return nil, fmt.Errorf("DescribeFlood: %w", err)
		}
		r.Components = comps
	}
	r.FloodPercentage = sen1Percent(m.Flood, m.Valid)
	if r.Has(MetricGrid) {
		if err := sen1CheckGridSize(m.Info.Width, m.Info.Height); err != nil {
			return nil, fmt.Errorf("DescribeFlood: %w", err)
		}
	}
	// The area and the 4x4 grid are independent passes over the mask.
	area := func() {
		if r.Has(MetricFloodArea) {
			r.FloodAreaM2 = sen1FloodArea(m)
		}
	}
	grid := func() {
		if r.Has(MetricGrid) {
			r.Grid = FloodGrid(m.Mask, m.Info.Width, m.Info.Height, m.Flood)
		}
	}
	if r.Has(MetricFloodArea) && r.Has(MetricGrid) {
		tm, release := workers.TeamFor(env)
		tm.Both(area, grid)
		release()
	} else {
		area()
		grid()
	}
	if r.Has(MetricGrid) {
		maxFlood := 0
		for _, c := range r.Grid {
			maxFlood = max(maxFlood, c.Flood)
		}
		r.Pattern = "dispersed"
		if m.Flood > 0 {
			r.Concentration = float64(maxFlood) / float64(m.Flood)
			if 2*maxFlood >= m.Flood {
				r.Pattern = "localized"
			}
		}
	}
	ev := map[string]any{"metrics": strings.Join(metrics, ","), "source": h.Name,
		"valid_pixel_count": m.Valid, "flood_pixel_count": m.Flood}
	if r.Has(MetricFloodPercentage) || r.Has(MetricPrediction) {
		ev["flood_percentage"] = workers.RoundHalfEven(r.FloodPercentage, 6)
	}
	if r.Has(MetricFloodArea) {
		ev["flood_area_m2"] = workers.RoundHalfEven(r.FloodAreaM2, 3)
		ev["area_method"] = m.Areas.Method
	}
	if r.Has(MetricComponents) {
		ev["component_count"] = len(r.Components)
		ev["connectivity"] = 8
		if l := r.Largest(); l != nil {
			ev["largest_component"] = sen1ComponentEvidence(l)
		} else {
			ev["largest_component"] = nil
		}
	}
	if r.Has(MetricGrid) {
		ev["grid_4x4"] = sen1GridEvidence(r.Grid)
	}
	if r.Has(MetricConcentration) {
		ev["max_cell_concentration"] = workers.RoundHalfEven(r.Concentration, 6)
	}
	if r.Has(MetricPattern) {
		ev["pattern"] = r.Pattern
		ev["pattern_rule"] = "localized if max cell flood / total flood >= 0.5, else dispersed"
	}
	if r.Compare != nil {
		ev["overlap_pixels"] = r.Compare.Overlap
		ev["outside_reference_pixels"] = r.Compare.Outside
		ev["overlap_percentage"] = workers.RoundHalfEven(r.Compare.OverlapPercentage(), 6)
		ev["outside_reference_percentage"] = workers.RoundHalfEven(r.Compare.OutsidePercentage(), 6)
	}
	return &workers.Result{Evidence: ev, Payload: r}, nil
}

// checkGrid requires a chip large enough for 16 non-empty cells.
func sen1CheckGridSize(w, h int) error {
	if w < 4 || h < 4 {
		return fmt.Errorf("a %dx%d chip is too small for the 4x4 grid", w, h)
	}
	return nil
}

// CentroidJSON is a centroid as the answers carry it: {"lon","lat"}
// rounded to 6 decimals.
func CentroidJSON(c *FloodComponent) any {
	if c == nil {
		return nil
	}
	return map[string]any{"lon": workers.RoundHalfEven(c.Centroid[0], 6), "lat": workers.RoundHalfEven(c.Centroid[1], 6)}
}

// BBoxJSON is a bounding box as the answers carry it: [min lon, min lat,
// max lon, max lat] rounded to 6 decimals.
func BBoxJSON(c *FloodComponent) any {
	if c == nil {
		return nil
	}
	return []any{workers.RoundHalfEven(c.BBox[0], 6), workers.RoundHalfEven(c.BBox[1], 6), workers.RoundHalfEven(c.BBox[2], 6), workers.RoundHalfEven(c.BBox[3], 6)}
}

// CellJSON is a grid cell as the answers carry it.
func CellJSON(c FloodCell) map[string]any {
	var pct any
	if c.HasValid() {
		pct = workers.RoundHalfEven(c.Percentage, 6)
	}
	return map[string]any{
		"cell_id": c.ID, "row": c.Row, "col": c.Col,
		"valid_pixels": c.Valid, "flood_pixels": c.Flood,
		"flood_percentage": pct, "flood_share": workers.RoundHalfEven(c.Share, 6),
	}
}

func sen1ComponentEvidence(c *FloodComponent) map[string]any {
	return map[string]any{"id": c.ID, "pixels": c.Pixels, "area_m2": workers.RoundHalfEven(c.AreaM2, 3),
		"bbox": BBoxJSON(c), "centroid": CentroidJSON(c)}
}

func sen1GridEvidence(cells []FloodCell) []any {
	out := make([]any, len(cells))
	for i, c := range cells {
		out[i] = CellJSON(c)
	}
	return out
}

// FloodRanking is RankRegions' payload over the 4x4 grid.
type FloodRanking struct {
	// Report is the ranked flood report.
	Report *FloodReport
	// Top are the top-k cells in rank order.
	Top []FloodCell
}

// rankFloodCells implements RankRegions(by=flood_percentage,
// candidates=grid_4x4, top_k=3) over flood_report_n (spec types 40, 41,
// 43). Only top_k=3 is the family's contract; other values are rejected.
func rankFloodCells(env workers.Env, a workers.Args) (*workers.Result, error) {
	r, h, err := workers.OpenResult[*FloodReport](env, a, "input", "flood_report (DescribeFlood with grid_4x4)")
	if err != nil {
		return nil, err
	}
	if k, _ := a.Number("top_k"); k != 3 {
		return nil, a.Errorf("top_k", "unsupported value %v (allowed: 3)", k)
	}
	if r.Grid == nil {
		return nil, a.Errorf("input", "%s has no 4x4 grid (DescribeFlood was not asked for grid_4x4)", h.Name)
	}
	top := RankFloodCells(r.Grid)[:3]
	list := make([]any, len(top))
	for i, c := range top {
		e := CellJSON(c)
		e["rank"] = i + 1
		list[i] = e
	}
	return &workers.Result{
		Evidence: map[string]any{"by": "flood_percentage", "candidates": "grid_4x4", "top_k": 3, "ranking": list,
			"order": "flood_percentage desc, flood_pixels desc, cell_id desc"},
		Payload: &FloodRanking{Report: r, Top: top},
	}, nil
}
