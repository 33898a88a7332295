package sen1flood

import (
	"fmt"

	"github.com/geodisaster/engine/workers"
)

// Answer projections of the Sen1Floods11 family (spec types 39-43). The
// spec prints no answer JSON for these types; the fields are derived from
// each type's "Agent task" prose and documented in
// schemas/sen1_flood_*.json. Every projection waits for
// TaskComplete and reads only the worker payloads of the current chain.
//
// Rounding (from the populations the spec quotes): percentages and
// fractions to 6 decimals, areas in m² to 3 decimals, coordinates in
// degrees to 6 decimals.
func sen1FloodProjectors() map[string]workers.Projector {
	return map[string]workers.Projector{
		"sen1_flood_a": projectSen1A,
		"sen1_flood_b": projectSen1B,
		"sen1_flood_c": projectSen1C,
		"sen1_flood_d": projectSen1D,
		"sen1_flood_e": projectSen1E,
	}
}

// sen1Report returns the latest flood report once TaskComplete ran.
func sen1Report(v workers.View, metrics ...string) (*FloodReport, error) {
	h, r, err := workers.FinalPayload[*FloodReport](v, "flood_report", "a flood report")
	if h == nil || err != nil {
		return nil, err
	}
	for _, m := range metrics {
		if !r.Has(m) {
			return nil, fmt.Errorf("%s lacks the %s metric", h.Name, m)
		}
	}
	return r, nil
}

// sen1Ranking returns the latest grid ranking once TaskComplete ran.
func sen1Ranking(v workers.View) (*FloodRanking, error) {
	_, r, err := workers.FinalPayload[*FloodRanking](v, "rank", "a flood-grid ranking")
	return r, err
}

func sen1Round6(x float64) float64 { return workers.RoundHalfEven(x, 6) }
func sen1Round3(x float64) float64 { return workers.RoundHalfEven(x, 3) }

func sen1LargestArea(c *FloodComponent) float64 {
	if c == nil {
		return 0
	}
	return sen1Round3(c.AreaM2)
}

func sen1GridJSON(cells []FloodCell) []any {
	out := make([]any, len(cells))
	for i, c := range cells {
		out[i] = CellJSON(c)
	}
	return out
}

func sen1TopJSON(top []FloodCell) []any {
	out := make([]any, len(top))
	for i, c := range top {
		e := CellJSON(c)
		e["rank"] = i + 1
		out[i] = e
	}
	return out
}

// projectSen1A: predicted flood percentage and exact-grid area, component
// count, largest-component area and centroid, and the 4x4 inventory.
func projectSen1A(v workers.View) (any, error) {
	r, err := sen1Report(v, MetricFloodPercentage, MetricFloodArea, MetricComponents, MetricGrid)
	if r == nil || err != nil {
		return nil, err
	}
	if r.Objects == nil || r.Objects.Target != "flood_components" {
		return nil, fmt.Errorf("type A describes the flood_components of ExtractObjects")
	}
	l := r.Largest()
	return map[string]any{
		"flood_percentage":           sen1Round6(r.FloodPercentage),
		"flood_area_m2":              sen1Round3(r.FloodAreaM2),
		"component_count":            len(r.Components),
		"largest_component_area_m2":  sen1LargestArea(l),
		"largest_component_centroid": CentroidJSON(l),
		"grid_4x4":                   sen1GridJSON(r.Grid),
	}, nil
}

// projectSen1B: polygon generation status and count, total and largest
// component areas, largest bbox and centroid, and the top three cells.
func projectSen1B(v workers.View) (any, error) {
	rk, err := sen1Ranking(v)
	if rk == nil || err != nil {
		return nil, err
	}
	r := rk.Report
	if r.Objects == nil || r.Objects.Target != "flood_polygons" || r.Objects.GeoJSON == nil {
		return nil, fmt.Errorf("type B ranks a report over ExtractObjects(target=flood_polygons)")
	}
	if !r.Has(MetricFloodArea) || !r.Has(MetricComponents) {
		return nil, fmt.Errorf("type B needs the flood_area and components metrics")
	}
	if r.Objects.PolygonCount != len(r.Components) {
		return nil, fmt.Errorf("polygon count %d differs from component count %d", r.Objects.PolygonCount, len(r.Components))
	}
	l := r.Largest()
	return map[string]any{
		"polygon_generation_status":  "generated",
		"polygon_count":              r.Objects.PolygonCount,
		"total_flood_area_m2":        sen1Round3(r.FloodAreaM2),
		"largest_component_area_m2":  sen1LargestArea(l),
		"largest_component_bbox":     BBoxJSON(l),
		"largest_component_centroid": CentroidJSON(l),
		"top3_cells":                 sen1TopJSON(rk.Top),
	}, nil
}

// projectSen1C: the top three cells, maximum-cell concentration and the
// localized/dispersed pattern.
func projectSen1C(v workers.View) (any, error) {
	rk, err := sen1Ranking(v)
	if rk == nil || err != nil {
		return nil, err
	}
	r := rk.Report
	if !r.Has(MetricConcentration) || !r.Has(MetricPattern) {
		return nil, fmt.Errorf("type C needs the concentration and pattern metrics")
	}
	return map[string]any{
		"top3_cells":             sen1TopJSON(rk.Top),
		"max_cell_concentration": sen1Round6(r.Concentration),
		"pattern":                r.Pattern,
	}, nil
}

// projectSen1D: total predicted flood, the overlap/outside-reference
// partition and the largest component.
func projectSen1D(v workers.View) (any, error) {
	r, err := sen1Report(v, MetricPrediction, MetricComponents, MetricOverlap, MetricOutsideReference)
	if r == nil || err != nil {
		return nil, err
	}
	c := r.Compare
	if c == nil {
		return nil, fmt.Errorf("type D describes a known-water comparison")
	}
	l := r.Largest()
	return map[string]any{
		"total_flood_pixels":           r.Mask.Flood,
		"overlap_pixels":               c.Overlap,
		"overlap_percentage":           sen1Round6(c.OverlapPercentage()),
		"outside_reference_pixels":     c.Outside,
		"outside_reference_percentage": sen1Round6(c.OutsidePercentage()),
		"largest_component_area_m2":    sen1LargestArea(l),
		"largest_component_centroid":   CentroidJSON(l),
	}, nil
}

// projectSen1E: the 19-field summary of the whole chain, read back from
// the render through compare, ranking, report, objects and mask.
func projectSen1E(v workers.View) (any, error) {
	h := v.Latest("render")
	if h == nil || !v.Completed() {
		return nil, nil
	}
	rd, ok := h.Result.Payload.(*FloodRender)
	if !ok {
		return nil, fmt.Errorf("%s is not a flood diagnostic render", h.Name)
	}
	c := rd.Compare
	if c.Ranking == nil {
		return nil, fmt.Errorf("type E compares the ranking (rank_n), not the bare prediction")
	}
	rk := c.Ranking
	r := rk.Report
	o := r.Objects
	if o == nil || o.Target != "flood_polygons" || o.GeoJSON == nil {
		return nil, fmt.Errorf("type E needs ExtractObjects(target=flood_polygons)")
	}
	if !r.Has(MetricFloodArea) || !r.Has(MetricConcentration) || !r.Has(MetricComponents) {
		return nil, fmt.Errorf("type E needs the area, components and concentration metrics")
	}
	l := r.Largest()
	return map[string]any{
		"flood_percentage":             sen1Round6(r.FloodPercentage),
		"flood_area_m2":                sen1Round3(r.FloodAreaM2),
		"component_count":              len(r.Components),
		"polygon_count":                o.PolygonCount,
		"largest_component_area_m2":    sen1LargestArea(l),
		"largest_component_bbox":       BBoxJSON(l),
		"largest_component_centroid":   CentroidJSON(l),
		"grid_4x4":                     sen1GridJSON(r.Grid),
		"top3_cells":                   sen1TopJSON(rk.Top),
		"max_cell_concentration":       sen1Round6(r.Concentration),
		"pattern":                      r.Pattern,
		"overlap_pixels":               c.Overlap,
		"overlap_percentage":           sen1Round6(c.OverlapPercentage()),
		"outside_reference_pixels":     c.Outside,
		"outside_reference_percentage": sen1Round6(c.OutsidePercentage()),
		"method":                       r.Mask.Method,
		"mask_generated":               r.Mask.Artifact.Size > 0,
		"polygons_generated":           o.GeoJSON.Size > 0,
		"map_rendered":                 rd.PNG.Size > 0 && !rd.PreparedOverlayUsed,
	}, nil
}
