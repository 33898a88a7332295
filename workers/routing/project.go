package routing

import (
	"fmt"

	"github.com/geodisaster/engine/workers"
)

// Answer projections of the routing family (types 36-38).
//
// The specification prints no answer JSON for these types; the field
// layout is derived from each type's prose and documented in
// schemas/{nearest_shelter,fastest_safest,visual_overlay}.json.
// Every answer carries "terminated": true, so it is published only after
// TaskComplete(status=TASK_COMPLETE). Floating-point fields are rounded to
// six decimals (Python's round(x, 6)), within the 1e-6 scoring tolerance of
// the unrounded values; deltas are computed before rounding.
func routingProjectors() map[string]workers.Projector {
	return map[string]workers.Projector{
		"nearest_shelter": projectNearestShelter,
		"fastest_safest":  projectFastestSafest,
		"visual_overlay":  projectVisualOverlay,
	}
}

// RouteDisplayDecimals is the rounding of routing answers' float fields.
const RouteDisplayDecimals = 6

func round6(x float64) float64 { return workers.RoundHalfEven(x, RouteDisplayDecimals) }

// shelterAnswer copies the declared shelter metadata.
func shelterAnswer(m *RouteMetadata) map[string]any {
	return map[string]any{
		"shelter_id": m.Shelter.ID, "name": m.Shelter.Name,
		"lon": m.Shelter.Lon, "lat": m.Shelter.Lat,
	}
}

// projectNearestShelter builds type 36's answer from the
// nearest_reachable_shelter plan (routes_n).
func projectNearestShelter(v workers.View) (any, error) {
	const what = "a nearest_reachable_shelter route plan"
	h, p, err := workers.FinalPayload[*RoutePlan](v, "routes", what)
	if h == nil || err != nil {
		return nil, err
	}
	if p.Objective != ObjectiveNearestShelter || p.Selected == nil {
		return nil, fmt.Errorf("%s is not %s", h.Name, what)
	}
	m := p.Selected
	return map[string]any{
		"answer": map[string]any{
			"shelter":                    shelterAnswer(p.Metadata),
			"confidence":                 p.Metadata.Confidence,
			"route_id":                   m.RouteID,
			"distance_m":                 round6(m.DistanceM),
			"eta_min":                    round6(m.ETAMin),
			"length_weighted_flood_risk": round6(m.LengthWeightedRisk),
			"objective_cost":             round6(m.Cost(StrategyFastest)),
			"blocked_edge_count":         m.BlockedEdges,
		},
		"terminated": true,
	}, nil
}

// selectedRouteAnswer is one winner in type 37's answer.
func selectedRouteAnswer(m *RouteMetrics, strategy string) map[string]any {
	return map[string]any{
		"route_id":                   m.RouteID,
		"distance_m":                 round6(m.DistanceM),
		"eta_min":                    round6(m.ETAMin),
		"node_count":                 m.NodeCount,
		"blocked_edge_count":         m.BlockedEdges,
		"length_weighted_flood_risk": round6(m.LengthWeightedRisk),
		"objective_cost":             round6(m.Cost(strategy)),
	}
}

// projectFastestSafest builds type 37's answer from route_compare_n.
func projectFastestSafest(v workers.View) (any, error) {
	h, rc, err := workers.FinalPayload[*RouteComparison](v, "route_compare", "a route comparison")
	if h == nil || err != nil {
		return nil, err
	}
	ans := map[string]any{}
	for _, st := range RouteStrategies() {
		ans[st] = selectedRouteAnswer(rc.Selected[st], st)
	}
	ans["tradeoff"] = map[string]any{
		"distance_delta_m":    round6(rc.DistanceDeltaM),
		"eta_delta_min":       round6(rc.ETADeltaMin),
		"mean_risk_reduction": round6(rc.RiskReduction),
		"same_geometry":       rc.SameGeometry,
	}
	ans["shelter"] = shelterAnswer(rc.Plan.Metadata)
	ans["confidence"] = rc.Plan.Metadata.Confidence
	return map[string]any{"answer": ans, "terminated": true}, nil
}

// ImageMarker is the first field of type 38's receipt: the marker standing
// for the rendered image (the published text stripped it as an
// angle-bracket placeholder).
const ImageMarker = "<image>"

// projectVisualOverlay builds type 38's receipt from the newest render_n,
// which must have been rendered from the current route_compare handle.
func projectVisualOverlay(v workers.View) (any, error) {
	h, rr, err := workers.FinalPayload[*RouteRender](v, "render", "a route overlay render")
	if h == nil || err != nil {
		return nil, err
	}
	cur := v.Latest("route_compare")
	if cur == nil || cur.Name != rr.CompareHandle {
		return nil, fmt.Errorf("%s was rendered from %s, not from the current route_compare handle", h.Name, rr.CompareHandle)
	}
	strs := func(s []string) []any {
		out := make([]any, len(s))
		for i, x := range s {
			out[i] = x
		}
		return out
	}
	return map[string]any{
		"image":                 ImageMarker,
		"exists":                rr.PNG.Size > 0 && rr.Manifest.Size > 0,
		"render_contract":       rr.Contract,
		"prepared_overlay_used": false,
		"current_handle":        rr.CompareHandle,
		"selected_route_ids": map[string]any{
			"fastest":  rr.Selected[StrategyFastest],
			"safest":   rr.Selected[StrategySafest],
			"balanced": rr.Selected[StrategyBalanced],
		},
		"requested_layers":   strs(rr.Layers),
		"rendered_route_ids": strs(rr.RenderedRouteIDs),
		"rendered_label_ids": strs(rr.RenderedLabelIDs),
		"origin_rendered":    rr.OriginRendered,
		"shelter_rendered":   rr.ShelterRendered,
		"width":              rr.Width,
		"height":             rr.Height,
		"terminated":         true,
	}, nil
}
