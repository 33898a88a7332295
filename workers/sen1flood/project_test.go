package sen1flood

import (
	"strings"
	"testing"

	"github.com/geodisaster/engine/workers/workertest"
)

func TestProjectSen1ARequiresItsMetricsAndComponents(t *testing.T) {
	p := sen1FloodProjectors()["sen1_flood_a"]
	all := []string{MetricComponents, MetricFloodArea, MetricFloodPercentage, MetricGrid}
	r := &FloodReport{Metrics: all, Objects: &FloodObjects{Target: "flood_components"},
		FloodPercentage: 12.34567851, FloodAreaM2: 1000.00049, Grid: make([]FloodCell, 16)}
	v := workertest.NewView(map[string]any{"flood_report": r})
	workertest.CheckWaitsForTaskComplete(t, p, v)
	got, err := p(v)
	if err != nil {
		t.Fatal(err)
	}
	m := got.(map[string]any)
	if m["flood_percentage"] != 12.345679 || m["flood_area_m2"] != 1000.0 || m["component_count"] != 0 ||
		m["largest_component_area_m2"] != 0.0 || len(m["grid_4x4"].([]any)) != 16 {
		t.Errorf("answer %v", m)
	}
	r.Metrics = all[1:]
	if _, err := p(v); err == nil || !strings.Contains(err.Error(), "lacks the "+MetricComponents) {
		t.Errorf("missing metric: %v", err)
	}
	r.Metrics = all
	r.Objects.Target = "flood_polygons"
	if _, err := p(v); err == nil || !strings.Contains(err.Error(), "flood_components") {
		t.Errorf("polygons instead of components: %v", err)
	}
}

func TestSen1TopJSONRanksFromOne(t *testing.T) {
	top := sen1TopJSON(make([]FloodCell, 3))
	for i, e := range top {
		if e.(map[string]any)["rank"] != i+1 {
			t.Errorf("entry %d: %v", i, e)
		}
	}
}
