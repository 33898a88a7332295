package release

import (
	"reflect"
	"strings"
	"testing"

	"github.com/geodisaster/engine/workers"
)

func TestParseCall(t *testing.T) {
	cases := []struct {
		in   string
		tool string
		args map[string]any
	}{
		{"ReadData(question_1, optical_stack_1, role=pre_post, time=event_window)", "ReadData",
			map[string]any{"question": "question_1", "handle": "optical_stack_1", "role": "pre_post", "time": "event_window"}},
		{"PrepareScene(inputs={optical:scene_1, sar:scene_2, forest:scene_3}, mode=forest_change)", "PrepareScene",
			map[string]any{"inputs": map[string]any{"optical": "scene_1", "sar": "scene_2", "forest": "scene_3"}, "mode": "forest_change"}},
		{"CompareSources(work=flood_1,reference=known_water, criterion=overlap_vs_outside_reference)", "CompareSources",
			map[string]any{"input": "flood_1", "reference": "known_water", "criterion": "overlap_vs_outside_reference"}},
		{"CompareSources(criterion=iou,minimum_iou=0.3, threshold_contract=per_source_train_pixel_q25_v1, normalization_fit_split=train)", "CompareSources",
			map[string]any{"criterion": "iou", "minimum_iou": 0.3, "threshold_contract": "per_source_train_pixel_q25_v1", "normalization_fit_split": "train"}},
		{"ComputeStats(metrics=damage_summary,target_mask_distribution,severe_footprint_area)", "", nil},
		{"ComputeStats(damage_1, metrics={damage_summary, target_mask_distribution}, region=aoi)", "ComputeStats",
			map[string]any{"input": "damage_1", "metrics": map[string]any{"damage_summary": true, "target_mask_distribution": true}, "region": "aoi"}},
		{"PlanRoutes(exposure_1, objective=nearest_reachable_shelter, avoid.flood_affected_roads=true)", "PlanRoutes",
			map[string]any{"input": "exposure_1", "objective": "nearest_reachable_shelter", "avoid.flood_affected_roads": true}},
		{"RankRegions(flood_report_1, by=flood_percentage, candidates=grid_4x4, top_k=3)", "RankRegions",
			map[string]any{"input": "flood_report_1", "by": "flood_percentage", "candidates": "grid_4x4", "top_k": 3.0}},
		{"Terminate(answer_ref=ANSWER_JSON:answer_1)", "Terminate", map[string]any{"answer_ref": "ANSWER_JSON:answer_1"}},
		{"TaskComplete", "TaskComplete", map[string]any{}},
		{"RenderMap(work=route_compare_1,style=route_overlay, layers=[rgb, roads])", "RenderMap",
			map[string]any{"input": "route_compare_1", "style": "route_overlay", "layers": []any{"rgb", "roads"}}},
	}
	for _, c := range cases {
		tool, args, err := ParseCall(c.in)
		if c.args == nil {
			if err == nil {
				t.Errorf("%s: want an error (a third positional has no name), got %v", c.in, args)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if tool != c.tool || !reflect.DeepEqual(args, c.args) {
			t.Errorf("%s:\n got %s %#v\nwant %s %#v", c.in, tool, args, c.tool, c.args)
		}
	}
	for _, bad := range []string{"", "Read Data(x)", "ReadData(a, b, c)", "X(a=1, a=2)", "X(a={b:c)", "X(a='open)"} {
		if _, _, err := ParseCall(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

// canonicalLine is a record written the way the spec describes the
// release: no family, handles as path lists with extra card fields, a GT
// chain in call syntax, a tool_sequence, an expected_answer, a Terminate
// step with the answer reference and provenance with a generated-artifact
// locator.
const canonicalLine = `{"id":"baseline_canopy_assessment__aoi_1","sample_id":"aoi_1","question_type":"baseline_canopy_assessment","split":"test","training_weight":1.0,"split_group_id":"g1","trajectory_content_group_id":"tc1","question":"q?",
"handles":{"question_1":["questions/baseline_canopy_assessment/aoi_1.json"],"forest_mask_1":{"files":[{"path":"source_assets/deforestation/aoi_1/masks/treecover2000.tif","exists":true,"sha256":"` + "0000000000000000000000000000000000000000000000000000000000000000" + `"}],"role":"hansen"}},
"gt_chain":["ReadData(question_1, forest_mask_1, role=hansen)","PrepareScene(inputs={forest:scene_1}, mode=baseline_canopy)","ComputeStats(work_1, metrics={treecover_mean_pct:true}, region=aoi)","ClassifyChange(stats_1, rule=canopy_density, labels=[dense_forest, open_canopy, sparse])","TaskComplete(status=TASK_COMPLETE)","Terminate(answer_ref=ANSWER_JSON:answer_1)"],
"tool_sequence":["ReadData","PrepareScene","ComputeStats","ClassifyChange","TaskComplete","Terminate"],
"expected_answer":{"baseline_class":"dense_forest","treecover2000_mean_pct":77.1},
"provenance":{"evidence":"generated-artifact://run/aoi_1/stats.json"},
"correction_provenance":{"publication_contract":{"structured_scoring_policy":"old"}},
"messages":[{"role":"user","content":"q?"}]}`

// canonical returns canonicalLine as one JSON line.
func canonical() string { return strings.ReplaceAll(canonicalLine, "\n", "") }

func TestAdaptCanonicalLayout(t *testing.T) {
	res, err := Adapt(strings.NewReader(canonical() + "\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 0 || len(res.Records) != 1 || res.Lines != 1 {
		t.Fatalf("errors %+v records %d lines %d", res.Errors, len(res.Records), res.Lines)
	}
	r := res.Records[0]
	if r.Family != string(workers.Deforestation) || r.Split != "test" || r.SplitGroupID != "g1" || r.TrainingWeight != 1 {
		t.Errorf("record %+v", r)
	}
	if h := r.Handles["question_1"]; h.Kind != workers.KindQuestion || len(h.Files) != 1 {
		t.Errorf("question handle %+v", h)
	}
	if h := r.Handles["forest_mask_1"]; h.Kind != workers.KindInput || h.Files[0].SHA256 == "" {
		t.Errorf("input handle %+v", h)
	}
	if len(r.GTChain) != 6 || r.GTChain[2].Args["input"] != "work_1" || r.GTChain[5].Args["answer_ref"] != AnswerRef {
		t.Errorf("chain %+v", r.GTChain)
	}
	if string(r.Answer) == "" || res.TrajectoryGroups[r.ID] != "tc1" {
		t.Errorf("answer %s, trajectory groups %v", r.Answer, res.TrajectoryGroups)
	}
	if res.AnswerRefs[AnswerRef] != 1 || res.GeneratedArtifactLocators != 1 {
		t.Errorf("answer refs %v, locators %d", res.AnswerRefs, res.GeneratedArtifactLocators)
	}
	unmapped := fieldSet(t, res.Unmapped, func(u UnmappedField) string { return u.Field })
	for _, want := range []string{"messages", "handles.*.role", "handles.*.files[].exists"} {
		if !unmapped[want] {
			t.Errorf("unmapped %v lacks %s", res.Unmapped, want)
		}
	}
	for _, notWant := range []string{"correction_provenance", "tool_sequence", "provenance", "trajectory_content_group_id", "expected_answer"} {
		if unmapped[notWant] {
			t.Errorf("%s is in the mapping table but reported unmapped", notWant)
		}
	}
	derived := fieldSet(t, res.Derived, func(d DerivedField) string { return d.Field })
	for _, want := range []string{"family", "handles.*.kind", "answer"} {
		if !derived[want] {
			t.Errorf("derived %v lacks %s", res.Derived, want)
		}
	}
}

// fieldSet returns the fields of entries, which Adapt lists in field order.
func fieldSet[T any](t *testing.T, entries []T, field func(T) string) map[string]bool {
	t.Helper()
	set := map[string]bool{}
	for i, e := range entries {
		f := field(e)
		if i > 0 && f <= field(entries[i-1]) {
			t.Errorf("%q listed after %q", f, field(entries[i-1]))
		}
		set[f] = true
	}
	return set
}

func TestAdaptRejects(t *testing.T) {
	canonicalLine := canonical()
	cases := map[string]string{
		"wrong answer ref": strings.Replace(canonicalLine, `Terminate(answer_ref=ANSWER_JSON:answer_1)`, `Terminate(answer_ref=ANSWER_JSON:answer_2)`, 1),
		"tool sequence":    strings.Replace(canonicalLine, `"ClassifyChange","TaskComplete"`, `"TaskComplete","ClassifyChange"`, 1),
		"locator as input": strings.Replace(canonicalLine, `source_assets/deforestation/aoi_1/masks/treecover2000.tif`, `generated-artifact://run/aoi_1/mask.tif`, 1),
		"escaping path":    strings.Replace(canonicalLine, `source_assets/deforestation/aoi_1/masks/treecover2000.tif`, `../outside.tif`, 1),
		"unknown type":     strings.Replace(canonicalLine, `"question_type":"baseline_canopy_assessment"`, `"question_type":"canopy"`, 1),
		"no gold":          strings.Replace(canonicalLine, `"expected_answer"`, `"hint"`, 1),
		"not json":         `{"id":`,
	}
	for name, line := range cases {
		res, err := Adapt(strings.NewReader(line + "\n" + canonicalLine + "\n"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(res.Errors) == 0 {
			t.Errorf("%s: adapted without error", name)
			continue
		}
		if res.Errors[0].Line != 1 {
			t.Errorf("%s: error on line %d", name, res.Errors[0].Line)
		}
		if len(res.Records) != 1 {
			t.Errorf("%s: the valid second line should still adapt; errors %+v", name, res.Errors)
		}
	}
	res, _ := Adapt(strings.NewReader(canonicalLine + "\n" + canonicalLine + "\n"))
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Err, "duplicate id") {
		t.Errorf("duplicate ids: %+v", res.Errors)
	}
}
