package deforestation

import (
	"strings"
	"testing"

	"github.com/geodisaster/engine/workers/workertest"
)

func TestProjectAreaEstimationNeedsAgreeingBranches(t *testing.T) {
	p := deforestationProjectors()["area_estimation"]
	if got, err := p(workertest.NewView(map[string]any{"area": &ForestLossArea{AreaHa: 1.5}})); got != nil || err != nil {
		t.Fatalf("one branch only: %v %v, want pending", got, err)
	}
	v := workertest.NewView(map[string]any{"area": &ForestLossArea{AreaHa: 1.5}, "compare": &ValidationComparison{HansenLossHa: 1.5, NDVIDrop: 0.2}})
	got, err := p(v)
	if err != nil || got.(map[string]any)["loss_area_ha"] != 1.5 {
		t.Fatalf("agreeing: %v %v", got, err)
	}
	v.ByKind["compare"].Result.Payload = &ValidationComparison{HansenLossHa: 1.25}
	if _, err := p(v); err == nil || !strings.Contains(err.Error(), "disagrees") {
		t.Errorf("disagreeing areas: %v", err)
	}
}

func TestProjectLargestLossYearNoLoss(t *testing.T) {
	p := deforestationProjectors()["multi_year_loss_attribution"]
	got, err := p(workertest.NewView(map[string]any{"change": &LargestLossYear{}}))
	if err != nil {
		t.Fatal(err)
	}
	if m := got.(map[string]any); m["year"] != "no_loss" || m["loss_ha"] != 0.0 {
		t.Errorf("no loss: %v", m)
	}
	got, _ = p(workertest.NewView(map[string]any{"change": &LargestLossYear{Year: 2012, LossHa: 3.5}}))
	if m := got.(map[string]any); m["year"] != 2012 || m["loss_ha"] != 3.5 {
		t.Errorf("2012: %v", m)
	}
}

func TestProjectRejectsAForeignPayload(t *testing.T) {
	p := deforestationProjectors()["forest_loss_detection"]
	if _, err := p(workertest.NewView(map[string]any{"class": &CanopyClass{}})); err == nil || !strings.Contains(err.Error(), "class_1 is not a forest_loss classification") {
		t.Errorf("canopy class as forest loss: %v", err)
	}
	p = deforestationProjectors()["change_window_estimation"]
	got, err := p(workertest.NewView(map[string]any{"class": &ChangeWindowClass{Label: "no_deforestation"}}))
	if err != nil {
		t.Fatal(err)
	}
	if m := got.(map[string]any); m["change_window"] != nil || m["evidence"].(map[string]any)["composite_drop_score"] != nil {
		t.Errorf("no window must give nulls: %v", m)
	}
}
