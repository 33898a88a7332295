package synth

import (
	"fmt"
	"sort"

	"github.com/geodisaster/engine/workers"
)

// Generators of the routing family's records (spec types 36-38, 200
// records each).
func routingGens() map[string]typeGen {
	return map[string]typeGen{
		"nearest_shelter": routingGen("nearest_shelter"),
		"fastest_safest":  routingGen("fastest_safest"),
		"visual_overlay":  routingGen("visual_overlay"),
	}
}

var routingQuestions = map[string]string{
	"nearest_shelter": "Validate the packaged flood-screened fastest route candidates against the declared road-edge costs and report the shelter, confidence, route, distance, ETA, length-weighted flood risk, objective cost and blocked-edge count of the fastest eligible candidate.",
	"fastest_safest":  "Validate all packaged route candidates and report the fastest, safest-weighted and balanced winners and the safest-versus-fastest distance, ETA and mean-risk trade-off.",
	"visual_overlay":  "Compare the packaged route candidates and render a fresh georeferenced overlay of the RGB chip, roads, flood extent, blocked roads, origin, shelter, routes and labels; return the render receipt.",
}

var routingShort = map[string]string{"nearest_shelter": "ns", "fastest_safest": "fs", "visual_overlay": "vo"}

func routingGen(qtype string) typeGen {
	return typeGen{full: 200,
		gen:    func(g *gen, i int) (workers.Record, error) { return genRouting(g, i, qtype) },
		sample: func(i int) string { return routingSample(qtype, i) }}
}

// routingSample names record i's sample.
func routingSample(qtype string, i int) string {
	return fmt.Sprintf("synth_route_%s_%03d", routingShort[qtype], i)
}

// genRouting builds one record of a routing type; the scene variant
// cycles through every edge case for each type.
func genRouting(g *gen, i int, qtype string) (workers.Record, error) {
	sample := routingSample(qtype, i)
	s, err := genRouteScene(g, sample, i%rtVariants)
	if err != nil {
		return workers.Record{}, err
	}
	if g.userShaped {
		if err := s.useGeographicChip(); err != nil {
			return workers.Record{}, err
		}
	}
	cards, err := s.files(g)
	if err != nil {
		return workers.Record{}, err
	}
	q, err := g.question(qtype, sample, routingQuestions[qtype], nil)
	if err != nil {
		return workers.Record{}, err
	}
	read := workers.Step{Tool: "ReadData", Args: map[string]any{"question": "question_1", "handle": "route_inputs_1", "role": "routing"}, Output: "scene_1"}
	prep := workers.Step{Tool: "PrepareScene", Args: map[string]any{"inputs": map[string]any{"routing": "scene_1"}, "mode": "flood_safe_routing"}, Output: "work_1"}
	done := workers.Step{Tool: "TaskComplete", Args: map[string]any{"status": "TASK_COMPLETE"}}
	all := map[string]any{"fastest": true, "safest": true, "balanced": true}
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
		layers := map[string]any{}
		for _, l := range workers.OverlayLayers() {
			layers[l] = true
		}
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
	ans, err := answerJSON(answer)
	if err != nil {
		return workers.Record{}, err
	}
	return workers.Record{
		ID:       qtype + "__" + sample,
		SampleID: sample,
		Question: routingQuestions[qtype],
		Handles: map[string]workers.HandleDecl{
			"question_1":     q,
			"route_inputs_1": {Kind: workers.KindInput, Files: cards},
		},
		GTChain: chain,
		Answer:  ans,
	}, nil
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
			"distance_m": rtRound(m.dist, 6), "eta_min": rtRound(m.eta, 6),
			"length_weighted_flood_risk": rtRound(m.risk, 6), "objective_cost": rtRound(m.cost["fastest"], 6),
			"blocked_edge_count": m.blocked,
		},
		"terminated": true,
	}, nil
}

func (s *rtScene) fastestSafestAnswer() (any, error) {
	ans := map[string]any{"shelter": s.shelterJSON(), "confidence": s.confidence()}
	win := map[string]*rtCand{}
	met := map[string]rtMetrics{}
	for _, st := range []string{"fastest", "safest", "balanced"} {
		c, m, err := s.winner(st)
		if err != nil {
			return nil, err
		}
		win[st], met[st] = c, m
		ans[st] = map[string]any{"route_id": c.id, "distance_m": rtRound(m.dist, 6), "eta_min": rtRound(m.eta, 6),
			"node_count": m.nodes, "blocked_edge_count": m.blocked,
			"length_weighted_flood_risk": rtRound(m.risk, 6), "objective_cost": rtRound(m.cost[st], 6)}
	}
	f, sf := met["fastest"], met["safest"]
	ans["tradeoff"] = map[string]any{
		"distance_delta_m": rtRound(sf.dist-f.dist, 6), "eta_delta_min": rtRound(sf.eta-f.eta, 6),
		"mean_risk_reduction": rtRound(f.risk-sf.risk, 6),
		"same_geometry":       rtKey(win["safest"].path) == rtKey(win["fastest"].path),
	}
	return map[string]any{"answer": ans, "terminated": true}, nil
}

func (s *rtScene) visualOverlayAnswer() (any, error) {
	sel := map[string]any{}
	for _, st := range []string{"fastest", "safest", "balanced"} {
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
		"image": "<image>", "exists": true, "render_contract": "route_overlay_v1", "prepared_overlay_used": false,
		"current_handle": "route_compare_1", "selected_route_ids": sel,
		"requested_layers":   workers.OverlayLayers(),
		"rendered_route_ids": rendered, "rendered_label_ids": rendered,
		"origin_rendered": oIn, "shelter_rendered": sIn,
		"width": 912, "height": 512, "terminated": true,
	}, nil
}
