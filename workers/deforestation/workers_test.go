package deforestation

import (
	"math"
	"strings"
	"testing"

	"github.com/geodisaster/engine/workers"
)

func TestDominantPairTiesAndSkips(t *testing.T) {
	nan := float32(math.NaN())
	eps := []EpochIndices{
		{Epoch: "pre_3", NDVI: 0.75, NBR: 0.75},
		{Epoch: "pre_2", NDVI: nan, NBR: 0.7}, // not eligible
		{Epoch: "pre_1", NDVI: 0.75, NBR: 0.75},
		{Epoch: "post_1", NDVI: 0.5, NBR: 0.5},
		{Epoch: "post_2", NDVI: 0.25, NBR: 0.25},
	}
	names, pairs, best := dominantPair(eps)
	if strings.Join(names, ",") != "pre_3,pre_1,post_1,post_2" || len(pairs) != 3 {
		t.Fatalf("eligible %v pairs %d", names, len(pairs))
	}
	if best.Start != "pre_1" || best.End != "post_1" || best.Score != 0.375 {
		t.Fatalf("tie must keep the earliest pair, got %+v", best)
	}
	if _, _, b := dominantPair(eps[:2]); b != nil {
		t.Fatal("one eligible epoch gave a pair")
	}
}

func TestLossComponents8(t *testing.T) {
	// Two diagonal cells join; an isolated cell is its own patch.
	m := []bool{
		true, false, false, false,
		false, true, false, true,
		false, false, false, true,
	}
	if n, largest := lossComponents8(m, 4, 3); n != 2 || largest != 2 {
		t.Fatalf("components %d largest %d", n, largest)
	}
}

func TestLargestLossYearRule(t *testing.T) {
	m := newMemEnv()
	run := func(hist map[int]float64) (*LargestLossYear, error) {
		m.Handles["stats_1"] = &workers.Handle{Name: "stats_1", Kind: "stats", Result: &workers.Result{Payload: &LossHistogram{AreaHa: hist}}}
		r, err := detectLargestLossYear(m, args("DetectChange", map[string]any{"input": "stats_1"}))
		if err != nil {
			return nil, err
		}
		return r.Payload.(*LargestLossYear), nil
	}
	if got, err := run(map[int]float64{2016: 4.25, 2010: 4.25, 2003: 1}); err != nil || got.Year != 2010 || got.LossHa != 4.25 {
		t.Errorf("tie: %+v %v", got, err)
	}
	if got, err := run(map[int]float64{}); err != nil || got.Year != 0 || got.LossHa != 0 {
		t.Errorf("no_loss: %+v %v", got, err)
	}
	if _, err := run(map[int]float64{2005: 0}); err == nil || !strings.Contains(err.Error(), "non-positive") {
		t.Errorf("zero entry: %v", err)
	}
	if _, err := run(map[int]float64{2024: 3}); err == nil || !strings.Contains(err.Error(), "outside the 2001_2023 window") {
		t.Errorf("out-of-window entry: %v", err)
	}
	m.Handles["work_1"] = &workers.Handle{Name: "work_1", Kind: "work", Result: &workers.Result{Payload: &workers.Work{Mode: "forest_loss_history"}}}
	if _, err := detectLargestLossYear(m, args("DetectChange", map[string]any{"input": "work_1"})); err == nil || !strings.Contains(err.Error(), "requires a stats") {
		t.Errorf("work_1 as input: %v", err)
	}
}

func TestClassificationStepsVerifyTheirInput(t *testing.T) {
	m := newMemEnv()
	in := CauseInputs{HansenLossHa: 2, CanopyPct: 80, NDVIDrop: 0.4, NBRDrop: 0.3, VHDeltadB: -2, VVPostdB: -8}
	m.Handles["compare_1"] = &workers.Handle{Name: "compare_1", Kind: "compare", Result: &workers.Result{Payload: &CauseComparison{Criterion: "forest_loss_support", Inputs: in, Cause: "plantation_harvest", RulesFired: []string{RulePlantationHarvest}}}}
	labels := map[string]any{"positive": "deforestation", "negative": "no_deforestation"}
	if _, err := classifyForestLoss(m, args("ClassifyChange", map[string]any{"input": "compare_1", "labels": labels})); err == nil || !strings.Contains(err.Error(), "embeds cause plantation_harvest") {
		t.Errorf("tampered cause: %v", err)
	}
	m.Handles["compare_1"].Result.Payload.(*CauseComparison).Cause = "deforestation"
	m.Handles["compare_1"].Result.Payload.(*CauseComparison).RulesFired = []string{RuleHansenDeforestation}
	r, err := classifyForestLoss(m, args("ClassifyChange", map[string]any{"input": "compare_1", "labels": labels}))
	if err != nil || r.Payload.(*ForestLossClass).Label != "deforestation" {
		t.Fatalf("%v", err)
	}
	if got := r.Payload.(*ForestLossClass).RulesFired; strings.Join(got, "|") != RuleHansenDeforestation+"|"+RuleLabelPositive {
		t.Errorf("rules_fired %v", got)
	}
	if _, err := classifyForestLoss(m, args("ClassifyChange", map[string]any{"input": "compare_1", "labels": map[string]any{"positive": "loss", "negative": "no_deforestation"}})); err == nil || !strings.Contains(err.Error(), "must be exactly") {
		t.Errorf("wrong labels: %v", err)
	}
	if _, err := classifyFalsePositive(m, args("ClassifyChange", map[string]any{"input": "compare_1", "rule": "false_positive_type"})); err == nil || !strings.Contains(err.Error(), "needs criterion cause_attribution") {
		t.Errorf("type-1 comparison into type 4: %v", err)
	}

	best := &WindowPair{Start: "pre_1", End: "post_1", NDVIDrop: 0.3, NBRDrop: 0.2, Score: 0.45}
	m.Handles["change_1"] = &workers.Handle{Name: "change_1", Kind: "change", Result: &workers.Result{Payload: &ClearingDetection{Best: best, HansenLossHa: 0.5, Confirmed: true, NDVIDrop: 0.2, VHDeltadB: -1}}}
	wl := map[string]any{"none": nil, "changed": "start_epoch_to_end_epoch"}
	if _, err := classifyChangeWindow(m, args("ClassifyChange", map[string]any{"input": "change_1", "labels": wl})); err == nil || !strings.Contains(err.Error(), "composite score") {
		t.Errorf("inconsistent composite: %v", err)
	}
	best.Score = float64(best.NDVIDrop) + 0.5*float64(best.NBRDrop)
	r, err = classifyChangeWindow(m, args("ClassifyChange", map[string]any{"input": "change_1", "labels": wl}))
	if err != nil || r.Payload.(*ChangeWindowClass).Label != "deforestation" {
		t.Fatalf("confirmed window: %v", err)
	}
	m.Handles["change_1"].Result.Payload.(*ClearingDetection).HansenLossHa = 0.499999
	if _, err := classifyChangeWindow(m, args("ClassifyChange", map[string]any{"input": "change_1", "labels": wl})); err == nil || !strings.Contains(err.Error(), "confirmation flag") {
		t.Errorf("gate disagreement: %v", err)
	}
	m.Handles["change_1"].Result.Payload.(*ClearingDetection).Confirmed = false
	r, err = classifyChangeWindow(m, args("ClassifyChange", map[string]any{"input": "change_1", "labels": wl}))
	if err != nil || r.Payload.(*ChangeWindowClass).Window != nil || r.Payload.(*ChangeWindowClass).Label != "no_deforestation" {
		t.Fatalf("unconfirmed window: %+v %v", r, err)
	}

	m.Handles["compare_2"] = &workers.Handle{Name: "compare_2", Kind: "compare", Result: &workers.Result{Payload: &ConcordanceComparison{NDVIDrop: 0.2, NBRDrop: 0.1, VHDeltadB: -1, OpticalChange: true, Class: "concordant"}}}
	if _, err := classifyConcordance(m, args("ClassifyChange", map[string]any{"input": "compare_2"})); err == nil || !strings.Contains(err.Error(), "embeds class concordant") {
		t.Errorf("inconsistent concordance: %v", err)
	}
	m.Handles["stats_1"] = &workers.Handle{Name: "stats_1", Kind: "stats", Result: &workers.Result{Payload: &VHDeltaStats{Metric: "vh_delta_db", VHDeltadB: math.NaN(), PreCount: 2, PostCount: 3}}}
	if _, err := scoreVHSeverity(m, args("ScoreHazard", map[string]any{"input": "stats_1"})); err == nil || !strings.Contains(err.Error(), "finite VH delta") {
		t.Errorf("NaN delta: %v", err)
	}
}

func TestExtractObjectsFilter(t *testing.T) {
	m := newMemEnv()
	const w, h = 10, 6
	annual := fill(w*h, 0)
	annual[0], annual[11], annual[30] = 1, 1, 1
	forest := m.hansenScene(t, 2022, w, h, 4326, geoT, annual, fill(w*h, 0), fill(w*h, 70))
	m.Handles["work_1"] = &workers.Handle{Name: "work_1", Kind: "work", Result: &workers.Result{Payload: &workers.Work{Mode: "forest_change", Scenes: map[string]*workers.Scene{"forest": forest}}}}
	call := func(f map[string]any) (*workers.Result, error) {
		return extractLossPatches(m, args("ExtractObjects", map[string]any{"input": "work_1", "filters": f}))
	}
	r, err := call(map[string]any{"event_year": float64(2022)})
	if err != nil {
		t.Fatal(err)
	}
	lp := r.Payload.(*LossPatches)
	if lp.PixelCount != 3 || lp.Components != 2 || lp.LargestPatchPixels != 2 || lp.Source != "annual_mask" {
		t.Fatalf("%+v", lp)
	}
	for _, bad := range []struct {
		f    map[string]any
		want string
	}{
		{map[string]any{"event_year": float64(2021)}, "conflicting event year"},
		{map[string]any{"event_year": "2022"}, "must be an integer year"},
		{map[string]any{"event_year": 2022.5}, "must be an integer year"},
		{map[string]any{}, "must be exactly"},
		{map[string]any{"event_year": float64(2022), "tile": float64(3)}, "must be exactly"},
	} {
		if _, err := call(bad.f); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("filters %v: error %v, want %q", bad.f, err, bad.want)
		}
	}
}

func TestLossMaskArtifactDeterministic(t *testing.T) {
	m := newMemEnv()
	annual := fill(60, 0)
	annual[7] = 1
	forest := m.hansenScene(t, 2020, 10, 6, 4326, geoT, annual, fill(60, 0), fill(60, 70))
	m.Handles["work_1"] = &workers.Handle{Name: "work_1", Kind: "work", Result: &workers.Result{Payload: &workers.Work{Mode: "forest_change", Scenes: map[string]*workers.Scene{"forest": forest}}}}
	var sums []string
	for k := 0; k < 2; k++ {
		r, err := extractLossPatches(m, args("ExtractObjects", map[string]any{"input": "work_1", "filters": map[string]any{"event_year": float64(2020)}}))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Artifacts) != 1 || r.Artifacts[0].Size == 0 || r.Artifacts[0].Name != "forest_loss_patches_2020.tif" {
			t.Fatalf("artifacts %+v", r.Artifacts)
		}
		sums = append(sums, r.Artifacts[0].SHA256)
	}
	if sums[0] != sums[1] {
		t.Error("loss mask artifact is not byte-deterministic")
	}
}

func TestMeasureAreaRejectsNegativeArea(t *testing.T) {
	m := newMemEnv()
	m.Handles["objects_1"] = &workers.Handle{Name: "objects_1", Kind: "objects", Result: &workers.Result{Payload: &LossPatches{EventYear: 2021, AreaHa: -0.2}}}
	if _, err := measureLossArea(m, args("MeasureArea", map[string]any{"input": "objects_1"})); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("negative area: %v", err)
	}
	m.Handles["objects_1"].Result.Payload.(*LossPatches).AreaHa = 1.25
	r, err := measureLossArea(m, args("MeasureArea", map[string]any{"input": "objects_1"}))
	if err != nil || r.Payload.(*ForestLossArea).AreaHa != 1.25 {
		t.Fatalf("%v", err)
	}
	m.Handles["work_1"] = &workers.Handle{Name: "work_1", Kind: "work", Result: &workers.Result{Payload: &workers.Work{Mode: "forest_change"}}}
	if _, err := measureLossArea(m, args("MeasureArea", map[string]any{"input": "work_1"})); err == nil || !strings.Contains(err.Error(), "requires a objects") {
		t.Errorf("work_1 into MeasureArea: %v", err)
	}
}
