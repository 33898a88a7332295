package multihazard

import (
	"strings"
	"testing"

	"github.com/geodisaster/engine/workers/workertest"
)

func TestProjectHazardAreaWaitsAndChecksItsMeasurement(t *testing.T) {
	p := multiHazardProjectors()["wildfire_a"]
	v := workertest.NewView(map[string]any{"stats": &AreaStats{Metric: "burned_area", Handle: "mcd64a1__event", AreaHa: 12.5}})
	workertest.CheckWaitsForTaskComplete(t, p, v)
	got, err := p(v)
	if err != nil {
		t.Fatal(err)
	}
	m := got.(map[string]any)
	if m["status"] != "TASK_COMPLETE" || m["answer"].(map[string]any)["value"] != 12.5 || m["evidence"].(map[string]any)["primary_handle"] != "mcd64a1__event" {
		t.Errorf("answer %v", m)
	}
	v.ByKind["stats"].Result.Payload = &AreaStats{Metric: "forest_loss", Handle: "mcd64a1__event"}
	if _, err := p(v); err == nil || !strings.Contains(err.Error(), "requires burned_area") {
		t.Errorf("wrong metric: %v", err)
	}
	v.ByKind["stats"].Result.Payload = &AreaStats{Metric: "burned_area", Handle: "firms__event"}
	if _, err := p(v); err == nil || !strings.Contains(err.Error(), "requires mcd64a1__event") {
		t.Errorf("wrong source: %v", err)
	}
}

func TestProjectNDVIZRoundsToSixDecimals(t *testing.T) {
	p := multiHazardProjectors()["drought_a"]
	got, err := p(workertest.NewView(map[string]any{"stats": &NDVIZScore{Z: -1.23456749, TargetMean: 0.1234565, BaselineStd: 0.2}}))
	if err != nil {
		t.Fatal(err)
	}
	m := got.(map[string]any)
	if z := m["answer"].(map[string]any)["value"]; z != -1.234567 {
		t.Errorf("z %v, want -1.234567", z)
	}
}
