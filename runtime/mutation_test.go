package runtime_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// corpus synthesizes types 5 and 9 once per test.
func corpus(t *testing.T) (string, map[string]workers.Record) {
	t.Helper()
	dir := t.TempDir()
	if _, err := synth.Generate(context.Background(), dir, synth.Options{Types: []string{"baseline_canopy_assessment", "wildfire_a"}, PerType: 4, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	recs, err := workers.ReadRecordsFile(filepath.Join(dir, "records.jsonl"), true)
	if err != nil {
		t.Fatal(err)
	}
	byType := map[string]workers.Record{}
	for _, r := range recs {
		if _, ok := byType[r.QuestionType]; !ok {
			byType[r.QuestionType] = r
		}
	}
	return dir, byType
}

// clone deep-copies a record through JSON.
func clone(t *testing.T, r workers.Record) workers.Record {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var out workers.Record
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestGTChainsReplayCorrect(t *testing.T) {
	dir, recs := corpus(t)
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: dir})
	if err != nil {
		t.Fatal(err)
	}
	for typ, rec := range recs {
		res := eng.ReplayRecord(context.Background(), rec)
		if res.Status != "ok" || !res.Correct {
			t.Errorf("%s: status %s correct %v error %v reason %s", typ, res.Status, res.Correct, res.Error, res.Reason)
		}
		if len(res.Denials) != 0 {
			t.Errorf("%s: %d read denials", typ, len(res.Denials))
		}
		if len(res.Calls) != len(rec.GTChain) {
			t.Errorf("%s: traced %d calls, chain has %d", typ, len(res.Calls), len(rec.GTChain))
		}
		for _, c := range res.Calls {
			for _, rd := range c.Reads {
				if len(rd.SHA256) != 64 {
					t.Errorf("%s: read of %s traced without SHA-256", typ, rd.Path)
				}
			}
		}
	}
}

// TestMutationsRejected mutates every step of both chains and requires the
// intended rejection reason; replay never scores a failed record correct.
func TestMutationsRejected(t *testing.T) {
	dir, recs := corpus(t)
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: dir})
	if err != nil {
		t.Fatal(err)
	}
	type mutation struct {
		name   string
		typ    string
		mutate func(r *workers.Record)
		want   string
	}
	setArg := func(step int, k string, v any) func(r *workers.Record) {
		return func(r *workers.Record) { r.GTChain[step].Args[k] = v }
	}
	muts := []mutation{
		// Step 1: ReadData.
		{"read question as input", "baseline_canopy_assessment", setArg(0, "handle", "question_1"), "ReadData opens declared input handles"},
		{"read with wrong role", "baseline_canopy_assessment", setArg(0, "role", "wildfire"), "does not apply to handle"},
		{"read with unknown role", "wildfire_a", setArg(0, "role", "volcano"), `unsupported value "volcano"`},
		{"read with unknown argument", "wildfire_a", setArg(0, "colour", "red"), `unknown argument`},
		{"read with bad time", "wildfire_a", setArg(0, "time", "pre"), `unsupported value "pre"`},
		{"read unknown handle", "wildfire_a", setArg(0, "handle", "hazard_stack_9"), `unknown handle`},
		// Step 2: PrepareScene.
		{"prepare from input handle", "baseline_canopy_assessment", setArg(1, "inputs", map[string]any{"forest": "forest_mask_1"}), "PrepareScene takes scene handles"},
		{"prepare unknown mode", "wildfire_a", setArg(1, "mode", "flood"), `unsupported value "flood"`},
		{"prepare wrong slot", "wildfire_a", setArg(1, "inputs", map[string]any{"forest": "scene_1"}), `unsupported slot "forest"`},
		// Step 3: ComputeStats.
		{"stats on scene instead of work", "baseline_canopy_assessment", setArg(2, "input", "scene_1"), "requires a work"},
		{"stats cross-domain metric", "wildfire_a", setArg(2, "metrics", map[string]any{"treecover_mean_pct": true}), "baseline_canopy work context"},
		{"stats invented metric", "wildfire_a", setArg(2, "metrics", map[string]any{"smoke": true}), `unsupported value "smoke"`},
		{"stats conflicting metrics", "wildfire_a", setArg(2, "metrics", map[string]any{"burned_area": true, "treecover_mean_pct": true}), "unsupported value"},
		{"stats wrong region", "wildfire_a", setArg(2, "region", "bbox"), `unsupported value "bbox"`},
		// Step 4: ClassifyChange / TaskComplete.
		{"classify work instead of stats", "baseline_canopy_assessment", setArg(3, "input", "work_1"), "requires a stats"},
		{"classify wrong labels", "baseline_canopy_assessment", setArg(3, "labels", []any{"dense_forest", "sparse"}), "must list exactly"},
		{"task complete wrong status", "wildfire_a", setArg(3, "status", "DONE"), "allowed: TASK_COMPLETE"},
		// Files.
		{"missing file", "wildfire_a", func(r *workers.Record) {
			r.Handles["hazard_stack_1"].Files[1].Path = "source_assets/multi_hazard/nowhere/rasters/mcd64a1__event.tif"
			r.Handles["hazard_stack_1"].Files[1].SHA256 = ""
		}, "is missing"},
		{"checksum mismatch", "baseline_canopy_assessment", func(r *workers.Record) {
			r.Handles["forest_mask_1"].Files[0].SHA256 = strings.Repeat("0", 64)
		}, "does not match its file card"},
		{"gold path", "baseline_canopy_assessment", func(r *workers.Record) {
			r.Handles["forest_mask_1"].Files[0].Path = "../gold/answers.json"
		}, `'..' element`},
		{"absolute path", "baseline_canopy_assessment", func(r *workers.Record) {
			r.Handles["forest_mask_1"].Files[0].Path = "/etc/passwd"
		}, "not repository-relative"},
		{"chain output drift", "wildfire_a", func(r *workers.Record) { r.GTChain[2].Output = "stats_2" }, `chain declares "stats_2"`},
		{"unknown tool", "wildfire_a", func(r *workers.Record) { r.GTChain[2].Tool = "GuessAnswer" }, "unknown tool"},
	}
	var batch []workers.Record
	want := map[string]string{}
	for _, m := range muts {
		r := clone(t, recs[m.typ])
		m.mutate(&r)
		r.ID = m.typ + "__mut__" + strings.ReplaceAll(m.name, " ", "_")
		batch = append(batch, r)
		want[r.ID] = m.want
	}
	// The unmodified records ride along: replay must go on past failures.
	batch = append(batch, recs["baseline_canopy_assessment"], recs["wildfire_a"])
	results := eng.Replay(context.Background(), batch, runtime.ReplayOptions{Workers: 2})
	if len(results) != len(batch) {
		t.Fatalf("%d results for %d records", len(results), len(batch))
	}
	for _, res := range results {
		w, mutated := want[res.ID]
		if !mutated {
			if res.Status != "ok" || !res.Correct {
				t.Errorf("clean record %s failed: %v", res.ID, res.Error)
			}
			continue
		}
		if res.Status != "error" || res.Correct || string(res.Answer) != "null" {
			t.Errorf("%s: status %s correct %v answer %s, want a rejected record", res.ID, res.Status, res.Correct, res.Answer)
			continue
		}
		if !strings.Contains(*res.Error, w) {
			t.Errorf("%s: error %q does not contain %q", res.ID, *res.Error, w)
		}
	}
}

// TestNonFiniteInputRejected swaps each input raster for one without a
// single valid pixel (updating the file card's checksum) and requires the
// worker to fail instead of answering.
func TestNonFiniteInputRejected(t *testing.T) {
	dir, recs := corpus(t)
	eng, _ := runtime.NewEngine(runtime.Config{DatasetRoot: dir})
	for _, c := range []struct {
		typ, handle string
		file        int
		want        string
	}{
		{"baseline_canopy_assessment", "forest_mask_1", 0, "no valid tree-cover pixels"},
		{"wildfire_a", "hazard_stack_1", 1, "no valid pixels"},
	} {
		rec := clone(t, recs[c.typ])
		card := &rec.Handles[c.handle].Files[c.file]
		b, _ := raster.NewBand(8, 8, raster.Float32)
		for i := range b.Data.([]float32) {
			b.Data.([]float32)[i] = float32(math.NaN())
		}
		var buf bytes.Buffer
		nd := 255.0
		if err := raster.Write(&buf, []*raster.Band{b}, raster.WriteOptions{EPSG: 4326, Transform: crs.Affine{0.01, 0, 10, 0, -0.01, 50}, NoData: &nd}); err != nil {
			t.Fatal(err)
		}
		card.Path = "nan_variant/" + card.Path
		os.MkdirAll(filepath.Dir(filepath.Join(dir, card.Path)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, card.Path), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(buf.Bytes())
		card.SHA256 = hex.EncodeToString(sum[:])
		if c.typ == "wildfire_a" {
			// The sidecar pins the original raster's checksum: drop the
			// pin so the no-valid-pixel guard is what fails.
			rec.Handles[c.handle].Files[2].Path = "nan_variant/" + rec.Handles[c.handle].Files[2].Path
			rec.Handles[c.handle].Files[2].SHA256 = ""
			os.WriteFile(filepath.Join(dir, rec.Handles[c.handle].Files[2].Path), []byte(`{"handle":"mcd64a1__event"}`), 0o644)
		}
		res := eng.ReplayRecord(context.Background(), rec)
		if res.Status != "error" || res.Correct || !strings.Contains(*res.Error, c.want) {
			t.Errorf("%s with an all-NaN raster: status %s error %v, want %q", c.typ, res.Status, *res.Error, c.want)
		}
	}
}

func TestTerminateAndFinalAnswer(t *testing.T) {
	dir, recs := corpus(t)
	eng, _ := runtime.NewEngine(runtime.Config{DatasetRoot: dir})
	rec := recs["wildfire_a"]
	s, err := eng.NewSession(rec)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := s.Call(ctx, runtime.ToolTerminate, map[string]any{"answer_ref": runtime.AnswerRef}); err == nil || !strings.Contains(err.Error(), "not published") {
		t.Fatalf("Terminate before publication: %v", err)
	}
	var published string
	for _, st := range rec.GTChain {
		out, err := s.Call(ctx, st.Tool, st.Args)
		if err != nil {
			t.Fatal(err)
		}
		if st.Tool != "TaskComplete" && out.Published != "" {
			t.Fatalf("%s published before TaskComplete", st.Tool)
		}
		published = out.Published
	}
	if published != runtime.AnswerRef {
		t.Fatalf("answer not published after TaskComplete")
	}
	if _, err := s.Call(ctx, runtime.ToolFinalAnswer, map[string]any{"answer_ref": "ANSWER_JSON:answer_2"}); err == nil {
		t.Fatal("unknown reference accepted")
	}
	out, err := s.Call(ctx, runtime.ToolFinalAnswer, map[string]any{"answer_ref": runtime.AnswerRef})
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	_ = json.Unmarshal(out.Answer, &got)
	_ = json.Unmarshal(rec.Answer, &want)
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if string(gb) != string(wb) {
		t.Fatalf("FinalAnswer resolved %s, gold %s", gb, wb)
	}
	if _, err := s.Call(ctx, "ReadData", rec.GTChain[0].Args); err == nil {
		t.Fatal("call accepted after the session terminated")
	}
}

func TestSymlinkOutOfRootDenied(t *testing.T) {
	dir, recs := corpus(t)
	outside := filepath.Join(t.TempDir(), "secret.tif")
	rec := clone(t, recs["baseline_canopy_assessment"])
	orig := filepath.Join(dir, rec.Handles["forest_mask_1"].Files[0].Path)
	b, _ := os.ReadFile(orig)
	if err := os.WriteFile(outside, b, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "source_assets", "link.tif")
	if err := os.Symlink(outside, link); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	rec.Handles["forest_mask_1"].Files[0].Path = "source_assets/link.tif"
	eng, _ := runtime.NewEngine(runtime.Config{DatasetRoot: dir})
	res := eng.ReplayRecord(context.Background(), rec)
	if res.Status != "error" || !strings.Contains(*res.Error, "outside the data root") {
		t.Fatalf("symlink out of root: %+v", res.Error)
	}
	if len(res.Denials) == 0 {
		t.Fatal("denial not recorded")
	}
}
