package xbd

import (
	"context"
	"encoding/json"
	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/conformance/synth/internal/synthtest"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/internal/testdir"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"
	worker "github.com/geodisaster/engine/workers/xbd"
)

var xbdTypes = []string{"xbd_q1", "xbd_q2", "xbd_q3", "xbd_q4", "xbd_q5", "xbd_q7", "xbd_q8"}

type xbdCorpus struct {
	dir  string
	recs map[string][]workers.Record
	eng  *runtime.Engine
}

var xbdOnce testdir.Once

func TestMain(m *testing.M) {
	code := m.Run()
	xbdOnce.Remove()
	os.Exit(code)
}

// xbdTestCorpus generates the xbd corpus once per test binary.
func xbdTestCorpus(t *testing.T) xbdCorpus {
	t.Helper()
	var c xbdCorpus
	c.dir = xbdOnce.Dir(t, "xbd-synth-", func(dir string) error {
		_, err := core.Generate(context.Background(), dir, Types(), core.Options{Types: xbdTypes, Seed: 1})
		return err
	})
	recs, eng := synthtest.ReadCorpus(t, c.dir)
	c.eng = eng
	c.recs = map[string][]workers.Record{}
	for _, r := range recs {
		c.recs[r.QuestionType] = append(c.recs[r.QuestionType], r)
	}
	return c
}

func TestXBDGoldReplays(t *testing.T) {
	c := xbdTestCorpus(t)
	for _, typ := range xbdTypes {
		if len(c.recs[typ]) == 0 {
			t.Fatalf("no %s records", typ)
		}
		for _, r := range c.recs[typ] {
			res := c.eng.ReplayRecord(context.Background(), r)
			if res.Status != "ok" || !res.Correct {
				t.Errorf("%s: status %s correct %v: %v %s", r.ID, res.Status, res.Correct, res.Error, res.Reason)
			}
		}
	}
}

// TestXBDCorpusCoversEdgeCases checks that the default corpus exercises
// the branches the specification lists.
func TestXBDCorpusCoversEdgeCases(t *testing.T) {
	c := xbdTestCorpus(t)
	has := func(typ, substr string) bool {
		for _, r := range c.recs[typ] {
			if strings.Contains(string(r.Answer), substr) {
				return true
			}
		}
		return false
	}
	for _, c := range []struct{ typ, substr string }{
		{"xbd_q1", `"severe_footprint_area_m2":0,`},
		{"xbd_q1", `"classified_buildings":0,`},
		{"xbd_q2", `"quadrant_id":"Q0","severe_building_count":0,"severe_footprint_area_m2":0`},
		{"xbd_q3", `"status":"no_classified_buildings"`},
		{"xbd_q4", `"status":"tie"`},
		{"xbd_q4", `"status":"unique_winner"`},
		{"xbd_q4", `"no_classified_buildings"`},
		{"xbd_q5", `"severe_building_count":0`},
		{"xbd_q7", `"spatial_pattern":"no_severe_damage"`},
		{"xbd_q7", `"tie_break_applied":true`},
		{"xbd_q7", `"spatial_pattern":"highly_concentrated"`},
		{"xbd_q7", `"spatial_pattern":"moderately_concentrated"`},
		{"xbd_q7", `"spatial_pattern":"spatially_dispersed"`},
		{"xbd_q8", `"class_presence_consistent":false`},
		{"xbd_q8", `"class_presence_consistent":true`},
		{"xbd_q8", `"concentration_score":null`},
	} {
		if !has(c.typ, c.substr) {
			t.Errorf("%s corpus never has %s", c.typ, c.substr)
		}
	}
	tied := false
	for _, r := range c.recs["xbd_q3"] {
		var a struct {
			Tied []string `json:"top_tied_cell_ids"`
		}
		if err := json.Unmarshal(r.Answer, &a); err != nil {
			t.Fatal(err)
		}
		tied = tied || len(a.Tied) > 1
	}
	if !tied {
		t.Error("no xbd_q3 record has an exact top tie")
	}
}

// replayErr replays a mutated record and returns its error text.
func replayErr(t *testing.T, c xbdCorpus, r workers.Record) string {
	t.Helper()
	res := c.eng.ReplayRecord(context.Background(), r)
	if res.Status == "ok" {
		t.Fatalf("%s: mutated record replayed without error (answer %s)", r.ID, res.Answer)
	}
	return *res.Error
}

func setArg(r *workers.Record, tool, key string, val any) {
	for i := range r.GTChain {
		if r.GTChain[i].Tool == tool {
			if val == nil {
				delete(r.GTChain[i].Args, key)
			} else {
				r.GTChain[i].Args[key] = val
			}
		}
	}
}

func TestXBDMutationsRejected(t *testing.T) {
	c := xbdTestCorpus(t)
	first := func(typ string) workers.Record { return workertest.CloneRecord(t, c.recs[typ][0]) }
	// withArg is the first record of a type with one argument of a chain
	// step changed.
	withArg := func(typ, tool, arg string, v any) func() workers.Record {
		return func() workers.Record {
			r := first(typ)
			setArg(&r, tool, arg, v)
			return r
		}
	}
	cases := []struct {
		name   string
		rec    func() workers.Record
		reason string
	}{
		{"handle from another scene (Q8 mask layers)", func() workers.Record {
			r := first("xbd_q8")
			r.Handles["mask_layers_1"] = workertest.CloneRecord(t, c.recs["xbd_q8"][1]).Handles["mask_layers_1"]
			return r
		}, "a handle from another scene"},
		{"handle from another scene (Q1 labels)", func() workers.Record {
			r := first("xbd_q1")
			r.Handles["damage_labels_1"] = workertest.CloneRecord(t, c.recs["xbd_q1"][2]).Handles["damage_labels_1"]
			return r
		}, "a handle from another scene"},
		{"grid other than declared (PrepareScene)", withArg("xbd_q2", "PrepareScene", "grid", "4x4"), `unsupported value "4x4"`},
		{"quadrant table as the grid handle", func() workers.Record {
			r := first("xbd_q3")
			q2 := workertest.CloneRecord(t, c.recs["xbd_q2"][0])
			r.Handles["grid_1"] = q2.Handles["quadrants_1"]
			return r
		}, `declares no file ending in "grid_4x4.geojson"`},
		{"severity filter other than the spec's (AssessDamage)", withArg("xbd_q7", "AssessDamage", "severity", "minor_or_worse"), `unsupported value "minor_or_worse"`},
		{"severity filter other than the spec's (ExtractObjects)", withArg("xbd_q5", "ExtractObjects", "severity", "destroyed"), `unsupported value "destroyed"`},
		{"pair severity other than severe", withArg("xbd_q4", "AssessDamage", "severity", "major_or_destroyed"), `unsupported value "major_or_destroyed"`},
		{"scorer bypasses the ranking", withArg("xbd_q7", "ScoreHazard", "input", "work_1"), "requires a rank"},
		{"assessment bypasses the extraction", withArg("xbd_q5", "AssessDamage", "input", "work_1"), "requires a objects"},
		{"stats bypass the damage artifact", withArg("xbd_q1", "ComputeStats", "input", "work_1"), "requires a damage"},
		{"ranking over the wrong grid", withArg("xbd_q2", "RankRegions", "by", "normalized_damage_severity"), "ranks grid_4x4 cells"},
		{"unknown argument", withArg("xbd_q1", "AssessDamage", "threshold", 0.5), `argument "threshold": unknown argument`},
		{"summary-only metrics over mask layers", withArg("xbd_q8", "ComputeStats", "metrics", map[string]any{"damage_summary": true}), "target_mask_distribution"},
		{"mask distribution over a polygon-only summary", withArg("xbd_q1", "ComputeStats", "metrics", map[string]any{"damage_summary": true, "severe_footprint_area": true, "target_mask_distribution": true}), "xbd_scene_summary work"},
		{"Q1 metrics over mask layers", withArg("xbd_q8", "ComputeStats", "metrics", map[string]any{"damage_summary": true, "severe_footprint_area": true}), "target_mask_distribution"},
		{"pair of one scene twice", func() workers.Record {
			r := first("xbd_q4")
			r.Handles["scene_b_1"] = r.Handles["scene_a_1"]
			return r
		}, "same scene"},
		{"pair across events", func() workers.Record {
			r := first("xbd_q4")
			for _, o := range c.recs["xbd_q4"][1:] {
				if !strings.HasPrefix(o.SampleID, strings.SplitN(r.SampleID, "_pair_", 2)[0]) {
					r.Handles["scene_b_1"] = workertest.CloneRecord(t, o).Handles["scene_b_1"]
					return r
				}
			}
			t.Fatal("every pair is from one event")
			return r
		}, "same-event"},
		{"ReadData role on the wrong handle", withArg("xbd_q1", "ReadData", "role", "damage_labels"), "does not apply to handle image_1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := replayErr(t, c, tc.rec())
			if !strings.Contains(msg, tc.reason) {
				t.Fatalf("rejected for the wrong reason:\n got: %s\nwant: ...%s...", msg, tc.reason)
			}
		})
	}
}

// TestXBDMissingAndTamperedFiles removes a declared file and corrupts a
// cache's cell summary (with a matching card checksum).
func TestXBDMissingAndTamperedFiles(t *testing.T) {
	src := xbdTestCorpus(t)
	dir, recs, eng := synthtest.Generate(t, Types(), core.Options{Types: []string{"xbd_q2", "xbd_q3", "xbd_q5"}, Seed: 3, PerType: 2})
	c := xbdCorpus{dir: dir, eng: eng, recs: src.recs}
	var q2, q3, q5 workers.Record
	for _, r := range recs {
		switch r.QuestionType {
		case "xbd_q2":
			q2 = r
		case "xbd_q3":
			q3 = r
		case "xbd_q5":
			q5 = r
		}
	}
	// A grid other than declared: grid_4x4.geojson holding a 2x2 table.
	qb, err := os.ReadFile(filepath.Join(dir, q2.Handles["quadrants_1"].Files[0].Path))
	if err != nil {
		t.Fatal(err)
	}
	gcard := &q3.Handles["grid_1"].Files[0]
	if err := os.WriteFile(filepath.Join(dir, gcard.Path), qb, 0o644); err != nil {
		t.Fatal(err)
	}
	gcard.SHA256 = ""
	if msg := replayErr(t, c, q3); !strings.Contains(msg, "declares grid 2x2, 4x4 expected") {
		t.Fatalf("2x2 table accepted as the 4x4 grid or wrong reason: %s", msg)
	}
	// Missing labels file.
	lab := q5.Handles["damage_labels_1"].Files[0].Path
	if err := os.Remove(filepath.Join(dir, lab)); err != nil {
		t.Fatal(err)
	}
	if msg := replayErr(t, c, q5); !strings.Contains(msg, lab) {
		t.Fatalf("missing file error does not name %s: %s", lab, msg)
	}
	// Tampered cache summary.
	card := &q2.Handles["quadrants_1"].Files[0]
	p := filepath.Join(dir, card.Path)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	cell := doc["features"].([]any)[0].(map[string]any)["properties"].(map[string]any)
	cell["severe_count"] = cell["severe_count"].(float64) + 1
	nb, _ := json.Marshal(doc)
	if err := os.WriteFile(p, nb, 0o644); err != nil {
		t.Fatal(err)
	}
	card.SHA256 = ""
	if msg := replayErr(t, c, q2); !strings.Contains(msg, "caches severe_count") {
		t.Fatalf("tampered cache accepted or wrong reason: %s", msg)
	}
}

// TestXBDSummaryOnlyMetrics replays type 29 with metrics={damage_summary}
// (the spec names no metric for its ComputeStats step): same answer.
func TestXBDSummaryOnlyMetrics(t *testing.T) {
	c := xbdTestCorpus(t)
	r := workertest.CloneRecord(t, c.recs["xbd_q1"][0])
	setArg(&r, "ComputeStats", "metrics", map[string]any{"damage_summary": true})
	if res := c.eng.ReplayRecord(context.Background(), r); res.Status != "ok" || !res.Correct {
		t.Fatalf("status %s correct %v: %v %s", res.Status, res.Correct, res.Error, res.Reason)
	}
}

// TestXBDSessionPublishesOnlyWhenComplete walks a type-33 chain by hand:
// no answer is published before TaskComplete, the extraction artifact is
// byte-deterministic, and the published answer resolves through
// FinalAnswer.
func TestXBDSessionPublishesOnlyWhenComplete(t *testing.T) {
	c := xbdTestCorpus(t)
	var rec workers.Record
	for _, r := range c.recs["xbd_q5"] {
		if !strings.Contains(string(r.Answer), `"severe_building_count":0`) {
			rec = r
			break
		}
	}
	var sums []string
	for run := 0; run < 2; run++ {
		s, err := c.eng.NewSession(rec)
		if err != nil {
			t.Fatal(err)
		}
		for i, step := range rec.GTChain {
			out, err := s.Call(context.Background(), step.Tool, step.Args)
			if err != nil {
				t.Fatalf("step %d: %v", i+1, err)
			}
			last := i == len(rec.GTChain)-1
			if (out.Published != "") != last {
				t.Fatalf("step %d %s: published %q", i+1, step.Tool, out.Published)
			}
		}
		for _, tr := range s.Trace() {
			for _, a := range tr.Artifacts {
				sums = append(sums, a.SHA256)
			}
		}
		ans, err := s.Call(context.Background(), runtime.ToolFinalAnswer, map[string]any{"answer_ref": runtime.AnswerRef})
		if err != nil {
			t.Fatal(err)
		}
		if string(ans.Answer) != string(rec.Answer) {
			var got, want map[string]any
			_ = json.Unmarshal(ans.Answer, &got)
			_ = json.Unmarshal(rec.Answer, &want)
			if len(got) != 7 || got["severe_building_count"] != want["severe_building_count"] {
				t.Fatalf("answer %s, gold %s", ans.Answer, rec.Answer)
			}
		}
		s.Close()
	}
	if len(sums) != 2 || sums[0] != sums[1] {
		t.Fatalf("severe-building artifact not deterministic: %v", sums)
	}
}

// TestXBDCacheBuilderMatchesGenerator rebuilds every type-35 quadrant
// cache from its label file with workers.BuildXBDCache and compares the
// cell summaries with the generator's.
func TestXBDCacheBuilderMatchesGenerator(t *testing.T) {
	c := xbdTestCorpus(t)
	read := func(rel string) any {
		b, err := os.ReadFile(filepath.Join(c.dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, r := range c.recs["xbd_q8"] {
		lp := r.Handles["damage_labels_1"].Files[0].Path
		l, err := worker.ParseXBDLabels(lp, read(lp))
		if err != nil {
			t.Fatal(err)
		}
		built, err := worker.BuildXBDCache(l, "2x2")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(built)
		var got map[string]any
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		want := read(r.Handles["mask_layers_1"].Files[0].Path).(map[string]any)
		gf, wf := got["features"].([]any), want["features"].([]any)
		if len(gf) != len(wf) {
			t.Fatalf("%s: %d features, generator %d", r.ID, len(gf), len(wf))
		}
		for k := 0; k < 4; k++ {
			gp := gf[k].(map[string]any)["properties"].(map[string]any)
			wp := wf[k].(map[string]any)["properties"].(map[string]any)
			ga, wa := gp["severe_area_m2"].(float64), wp["severe_area_m2"].(float64)
			if math.Abs(ga-wa) > 1e-9*math.Max(1, wa) {
				t.Errorf("%s cell %v: area %v, generator %v", r.ID, gp["cell_id"], ga, wa)
			}
			delete(gp, "severe_area_m2")
			delete(wp, "severe_area_m2")
			gj, _ := json.Marshal(gp)
			wj, _ := json.Marshal(wp)
			if string(gj) != string(wj) {
				t.Errorf("%s cell %d:\n built     %s\n generator %s", r.ID, k, gj, wj)
			}
		}
	}
}
