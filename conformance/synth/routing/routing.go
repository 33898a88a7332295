// Package routing generates the records of the routing family (spec
// types 36-38): flood-safe routing scenes with packaged candidate routes.
package routing

import (
	"fmt"
	"sort"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/workers"
	worker "github.com/geodisaster/engine/workers/routing"
)

// Types returns the family's generators: 200 records per type, 20 of
// them public-reference test records. The full corpus holds the
// release's duplicate-trajectory groups here, since the routing split
// groups path-renamed copies by analytical content (core.Copies):
// visual_overlay has none, as its render manifest names the record's own
// input paths, so a copy's artifact digests, and with them its episode,
// differ from the source's.
func Types() core.Types {
	return core.Types{
		"nearest_shelter": routingType("nearest_shelter", core.Copies{Train3: 16, Train2: 4, Test2: 1}), // 21 groups, 58 records
		"fastest_safest":  routingType("fastest_safest", core.Copies{Train3: 16, Train2: 3, Test2: 1}),  // 20 groups, 56 records
		"visual_overlay":  routingType("visual_overlay", core.Copies{}),
	}
}

var routingQuestions = map[string]string{
	"nearest_shelter": "Validate the packaged flood-screened fastest route candidates against the declared road-edge costs and report the shelter, confidence, route, distance, ETA, length-weighted flood risk, objective cost and blocked-edge count of the fastest eligible candidate.",
	"fastest_safest":  "Validate all packaged route candidates and report the fastest, safest-weighted and balanced winners and the safest-versus-fastest distance, ETA and mean-risk trade-off.",
	"visual_overlay":  "Compare the packaged route candidates and render a fresh georeferenced overlay of the RGB chip, roads, flood extent, blocked roads, origin, shelter, routes and labels; return the render receipt.",
}

var routingShort = map[string]string{"nearest_shelter": "ns", "fastest_safest": "fs", "visual_overlay": "vo"}

func routingType(qtype string, copies core.Copies) core.Type {
	return core.Type{Full: 200, Tests: 20, Copies: copies,
		Gen:    func(g *core.Gen, i int) (workers.Record, error) { return genRouting(g, i, qtype) },
		Sample: func(i int) string { return routingSample(qtype, i) }}
}

// routingSample names record i's sample.
func routingSample(qtype string, i int) string {
	return fmt.Sprintf("synth_route_%s_%03d", routingShort[qtype], i)
}

// genRouting builds one record of a routing type; the scene variant
// cycles through every edge case for each type.
func genRouting(g *core.Gen, i int, qtype string) (workers.Record, error) {
	sample := routingSample(qtype, i)
	s, err := genRouteScene(g, sample, i%rtVariants)
	if err != nil {
		return workers.Record{}, err
	}
	if g.UserShaped {
		if err := s.useGeographicChip(); err != nil {
			return workers.Record{}, err
		}
	}
	cards, err := s.files(g)
	if err != nil {
		return workers.Record{}, err
	}
	read := core.Read("route_inputs_1", "routing", "scene_1")
	prep := core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"routing": "scene_1"}, "mode": "flood_safe_routing"}, "work_1")
	done := core.TaskComplete()
	all := core.Flags(worker.RouteStrategies()...)
	var chain []workers.Step
	var answer any
	switch qtype {
	case "nearest_shelter":
		chain = []workers.Step{read, prep,
			{Tool: "EstimateExposure", Args: map[string]any{"input": "work_1", "exposure": "blocked_roads"}, Output: "exposure_1"},
			{Tool: "PlanRoutes", Args: map[string]any{"input": "exposure_1", "objective": "nearest_reachable_shelter", "avoid.flood_affected_roads": true}, Output: "routes_1"},
			done}
		answer, err = s.nearestShelterAnswer()
	case "fastest_safest":
		chain = []workers.Step{read, prep,
			{Tool: "PlanRoutes", Args: map[string]any{"input": "work_1", "objective": "candidate_routes", "avoid.flood_affected_roads": true}, Output: "routes_1"},
			{Tool: "CompareRoutes", Args: map[string]any{"input": "routes_1", "objectives": all}, Output: "route_compare_1"},
			done}
		answer, err = s.fastestSafestAnswer()
	case "visual_overlay":
		layers := core.Flags(worker.OverlayLayers()...)
		chain = []workers.Step{read, prep,
			{Tool: "PlanRoutes", Args: map[string]any{"input": "work_1", "objective": "overlay_routes"}, Output: "routes_1"},
			{Tool: "CompareRoutes", Args: map[string]any{"input": "routes_1", "objectives": all}, Output: "route_compare_1"},
			{Tool: "RenderMap", Args: map[string]any{"input": "route_compare_1", "style": "route_overlay", "layers": layers}, Output: "render_1"},
			done}
		answer, err = s.visualOverlayAnswer()
	}
	if err != nil {
		return workers.Record{}, err
	}
	return g.Record(qtype, sample, routingQuestions[qtype], nil, map[string]workers.HandleDecl{"route_inputs_1": core.Input(cards...)}, chain, answer)
}

func (s *rtScene) shelterJSON() map[string]any {
	sh := s.nodes[s.shelter[0]][s.shelter[1]]
	return map[string]any{"shelter_id": "SH-" + s.sample[len("synth_"):], "name": rtShelterNames[int(sh.id)%len(rtShelterNames)], "lon": sh.lon, "lat": sh.lat}
}

func (s *rtScene) confidence() string {
	if s.variant == rtStaleRanks {
		return "medium_osm_tagged_shelter"
	}
	return "low_fallback_public_facility"
}

func (s *rtScene) nearestShelterAnswer() (any, error) {
	c, m, err := s.winner("fastest")
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"answer": map[string]any{
			"shelter": s.shelterJSON(), "confidence": s.confidence(), "route_id": c.id,
			"distance_m": workers.RoundHalfEven(m.dist, 6), "eta_min": workers.RoundHalfEven(m.eta, 6),
			"length_weighted_flood_risk": workers.RoundHalfEven(m.risk, 6), "objective_cost": workers.RoundHalfEven(m.cost["fastest"], 6),
			"blocked_edge_count": m.blocked,
		},
		"terminated": true,
	}, nil
}

func (s *rtScene) fastestSafestAnswer() (any, error) {
	ans := map[string]any{"shelter": s.shelterJSON(), "confidence": s.confidence()}
	win := map[string]*rtCand{}
	met := map[string]rtMetrics{}
	for _, st := range worker.RouteStrategies() {
		c, m, err := s.winner(st)
		if err != nil {
			return nil, err
		}
		win[st], met[st] = c, m
		ans[st] = map[string]any{"route_id": c.id, "distance_m": workers.RoundHalfEven(m.dist, 6), "eta_min": workers.RoundHalfEven(m.eta, 6),
			"node_count": m.nodes, "blocked_edge_count": m.blocked,
			"length_weighted_flood_risk": workers.RoundHalfEven(m.risk, 6), "objective_cost": workers.RoundHalfEven(m.cost[st], 6)}
	}
	f, sf := met["fastest"], met["safest"]
	ans["tradeoff"] = map[string]any{
		"distance_delta_m": workers.RoundHalfEven(sf.dist-f.dist, 6), "eta_delta_min": workers.RoundHalfEven(sf.eta-f.eta, 6),
		"mean_risk_reduction": workers.RoundHalfEven(f.risk-sf.risk, 6),
		"same_geometry":       rtKey(win["safest"].path) == rtKey(win["fastest"].path),
	}
	return map[string]any{"answer": ans, "terminated": true}, nil
}

func (s *rtScene) visualOverlayAnswer() (any, error) {
	sel := map[string]any{}
	for _, st := range worker.RouteStrategies() {
		c, _, err := s.winner(st)
		if err != nil {
			return nil, err
		}
		sel[st] = c.id
	}
	var rendered []string
	for _, c := range s.cands {
		for _, p := range s.walk(c) {
			in, err := s.inChip(p[0], p[1])
			if err != nil {
				return nil, err
			}
			if in {
				rendered = append(rendered, c.id)
				break
			}
		}
	}
	sort.Strings(rendered)
	o, sh := s.nodes[s.origin[0]][s.origin[1]], s.nodes[s.shelter[0]][s.shelter[1]]
	oIn, err := s.inChip(o.lon, o.lat)
	if err != nil {
		return nil, err
	}
	sIn, err := s.inChip(sh.lon, sh.lat)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"image": worker.ImageMarker, "exists": true, "render_contract": worker.RouteOverlayContract, "prepared_overlay_used": false,
		"current_handle": "route_compare_1", "selected_route_ids": sel,
		"requested_layers":   worker.OverlayLayers(),
		"rendered_route_ids": rendered, "rendered_label_ids": rendered,
		"origin_rendered": oIn, "shelter_rendered": sIn,
		"width": worker.OverlayWidth, "height": worker.OverlayHeight, "terminated": true,
	}, nil
}
