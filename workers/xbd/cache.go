package xbd

import (
	"fmt"
	"path"
)

// BuildXBDCache derives a prepared grid cache (the quadrants.geojson or
// grid_4x4.geojson document this package reads) from parsed xView2 labels,
// so real label files can be turned into the caches types 30, 31, 34 and
// 35 declare. grid is "2x2" or "4x4". Cell summaries follow the workers'
// rules: counts by centroid cell, severe area clipped to each cell (in m²,
// unrounded) and, on the 4x4 grid, the six-decimal display severity score
// (0 for a cell without classified buildings, which never ranks). Building
// features keep the label order, uid and subtype.
func BuildXBDCache(l *XBDLabels, grid string) (map[string]any, error) {
	var n int
	switch grid {
	case "2x2":
		n = 2
	case "4x4":
		n = 4
	default:
		return nil, fmt.Errorf("grid %q is not 2x2 or 4x4", grid)
	}
	regs := xbdGridRegions(l.Buildings, l.Width, l.Height, n, n, l.GSD)
	feats := make([]any, 0, len(regs)+len(l.Buildings))
	for _, r := range regs {
		b := xbdCellBound(l.Width, l.Height, n, n, r.Row, r.Col)
		total := 0
		for _, c := range r.Counts {
			total += c
		}
		props := map[string]any{
			"feature_type": "cell", "cell_id": r.ID, "row": r.Row, "col": r.Col,
			"x_min": b.Min[0], "y_min": b.Min[1], "x_max": b.Max[0], "y_max": b.Max[1],
			"building_count": total, "class_counts": xbdClassCountMap(r.Counts),
			"severe_count": r.Severe, "severe_area_m2": r.SevereAreaM2,
		}
		if n == 4 {
			s, _ := r.SeverityScore()
			props["severity_score"] = s
		}
		ring := [][]float64{{b.Min[0], b.Min[1]}, {b.Max[0], b.Min[1]}, {b.Max[0], b.Max[1]}, {b.Min[0], b.Max[1]}, {b.Min[0], b.Min[1]}}
		feats = append(feats, map[string]any{"type": "Feature", "properties": props,
			"geometry": map[string]any{"type": "Polygon", "coordinates": [][][]float64{ring}}})
	}
	for _, b := range l.Buildings {
		coords := make([][][][]float64, 0, len(b.Geom))
		for _, p := range b.Geom {
			rings := make([][][]float64, 0, len(p))
			for _, r := range p {
				pts := make([][]float64, 0, len(r))
				for _, pt := range r {
					pts = append(pts, []float64{pt[0], pt[1]})
				}
				rings = append(rings, pts)
			}
			coords = append(coords, rings)
		}
		var geom map[string]any
		if len(coords) == 1 {
			geom = map[string]any{"type": "Polygon", "coordinates": coords[0]}
		} else {
			geom = map[string]any{"type": "MultiPolygon", "coordinates": coords}
		}
		feats = append(feats, map[string]any{"type": "Feature", "geometry": geom,
			"properties": map[string]any{"feature_type": "building", "uid": b.UID, "subtype": XBDClassNames[b.Class]}})
	}
	return map[string]any{
		"type": "FeatureCollection",
		"metadata": map[string]any{
			"scene_id": l.SceneID, "grid": grid, "width": l.Width, "height": l.Height, "gsd": l.GSD,
			"coordinate_space": "pixel", "source": path.Base(l.Path),
			"count_rule": "centroid", "area_rule": "clipped_to_cell",
		},
		"features": feats,
	}, nil
}
