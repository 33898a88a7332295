package routing

import (
	"strings"
	"testing"

	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"
)

func TestProjectNearestShelterNeedsItsObjective(t *testing.T) {
	p := routingProjectors()["nearest_shelter"]
	md := &RouteMetadata{Confidence: "high"}
	md.Shelter.ID, md.Shelter.Name = "s1", "School"
	sel := &RouteMetrics{RouteID: "r2", DistanceM: 1234.56789049, ETAMin: 3.5}
	v := workertest.NewView(map[string]any{"routes": &RoutePlan{Objective: ObjectiveNearestShelter, Metadata: md, Selected: sel}})
	workertest.CheckWaitsForTaskComplete(t, p, v)
	got, err := p(v)
	if err != nil {
		t.Fatal(err)
	}
	ans := got.(map[string]any)["answer"].(map[string]any)
	if ans["route_id"] != "r2" || ans["distance_m"] != 1234.56789 || ans["shelter"].(map[string]any)["shelter_id"] != "s1" {
		t.Errorf("answer %v", ans)
	}
	v.ByKind["routes"].Result.Payload = &RoutePlan{Objective: ObjectiveCandidates, Metadata: md, Selected: sel}
	if _, err := p(v); err == nil || !strings.Contains(err.Error(), "not a nearest_reachable_shelter route plan") {
		t.Errorf("candidate plan: %v", err)
	}
}

func TestProjectVisualOverlayNeedsTheCurrentComparison(t *testing.T) {
	p := routingProjectors()["visual_overlay"]
	rr := &RouteRender{CompareHandle: "route_compare_1", PNG: workers.Artifact{Size: 10}, Manifest: workers.Artifact{Size: 5}}
	v := workertest.NewView(map[string]any{"render": rr, "route_compare": &RouteComparison{}})
	got, err := p(v)
	if err != nil {
		t.Fatal(err)
	}
	if m := got.(map[string]any); m["exists"] != true || m["image"] != ImageMarker || m["current_handle"] != "route_compare_1" {
		t.Errorf("receipt %v", m)
	}
	v.ByKind["route_compare"].Name = "route_compare_2"
	if _, err := p(v); err == nil || !strings.Contains(err.Error(), "not from the current route_compare handle") {
		t.Errorf("stale render: %v", err)
	}
}
