package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"
)

// TestSelectAndShardOf checks that the shards of a selection partition it,
// in input order, and that the filters apply before sharding.
func TestSelectAndShardOf(t *testing.T) {
	var recs []workers.Record
	for i := range 40 {
		typ, fam := "wildfire_a", "multi_hazard"
		if i%3 == 0 {
			typ, fam = "baseline_canopy_assessment", "deforestation"
		}
		recs = append(recs, workers.Record{ID: fmt.Sprintf("rec_%02d", i), QuestionType: typ, Family: fam})
	}
	all := runtime.ReplayOptions{Family: "multi_hazard"}.Select(recs)
	if len(all) != 26 {
		t.Fatalf("%d multi_hazard records selected, want 26", len(all))
	}
	seen := map[string]int{}
	for k := range 3 {
		shard := runtime.ReplayOptions{Family: "multi_hazard", ShardIndex: k, ShardCount: 3}.Select(recs)
		for i, r := range shard {
			if runtime.ShardOf(r.ID, 3) != k || (i > 0 && shard[i-1].ID >= r.ID) {
				t.Fatalf("shard %d holds %s at %d", k, r.ID, i)
			}
			seen[r.ID]++
		}
	}
	if len(seen) != len(all) {
		t.Fatalf("the shards hold %d records, the selection %d", len(seen), len(all))
	}
	if runtime.ShardOf("x", 1) != 0 || runtime.ShardOf("x", 0) != 0 {
		t.Fatal("one shard is not shard 0")
	}
}

func TestGTChainsReplayCorrect(t *testing.T) {
	eng, recs, _ := corpusEngine(t)
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
	eng, recs, _ := corpusEngine(t)
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
		r := workertest.CloneRecord(t, recs[m.typ])
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
	checkRejected(t, results, want)
}

// TestNonFiniteInputRejected swaps each input raster for one without a
// single valid pixel (updating the file card's checksum) and requires the
// worker to fail instead of answering.
func TestNonFiniteInputRejected(t *testing.T) {
	eng, recs, dir := corpusEngine(t)
	for _, c := range []struct {
		typ, handle string
		file        int
		want        string
	}{
		{"baseline_canopy_assessment", "forest_mask_1", 0, "no valid tree-cover pixels"},
		{"wildfire_a", "hazard_stack_1", 1, "no valid pixels"},
	} {
		rec := workertest.CloneRecord(t, recs[c.typ])
		card := &rec.Handles[c.handle].Files[c.file]
		b, _ := raster.NewBand(8, 8, raster.Float32)
		for i := range b.Data.([]float32) {
			b.Data.([]float32)[i] = float32(math.NaN())
		}
		nd := 255.0
		data := workertest.EncodeTIFF(t, []*raster.Band{b}, raster.WriteOptions{EPSG: 4326, Transform: crs.Affine{0.01, 0, 10, 0, -0.01, 50}, NoData: &nd})
		workertest.WriteFile(t, dir, card, "nan_variant/"+card.Path, data)
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

// TestReplayTrace checks that ReplayRecord reports every step to the
// trace attached to its context and fails the record on a hook error.
func TestReplayTrace(t *testing.T) {
	eng, recs, _ := corpusEngine(t)
	rec := recs["baseline_canopy_assessment"]
	var steps []int
	var handles []string
	tr := &runtime.ReplayTrace{StepDone: func(i int, s *runtime.Session, res *runtime.CallResult) error {
		steps = append(steps, i)
		handles = append(handles, res.Handle)
		if len(s.Trace()) != i+1 {
			return errors.New("session trace out of step")
		}
		return nil
	}}
	res := eng.ReplayRecord(runtime.WithReplayTrace(context.Background(), tr), rec)
	if res.Status != "ok" || !res.Correct {
		t.Fatalf("replay with a trace: %+v", res)
	}
	if len(steps) != len(rec.GTChain) {
		t.Fatalf("hook saw %d steps, chain has %d", len(steps), len(rec.GTChain))
	}
	for i, st := range rec.GTChain {
		if steps[i] != i || handles[i] != st.Output {
			t.Fatalf("step %d: hook saw index %d handle %q, chain output %q", i, steps[i], handles[i], st.Output)
		}
	}
	fail := &runtime.ReplayTrace{StepDone: func(i int, _ *runtime.Session, _ *runtime.CallResult) error {
		if i == 1 {
			return errors.New("projection refused")
		}
		return nil
	}}
	res = eng.ReplayRecord(runtime.WithReplayTrace(context.Background(), fail), rec)
	if res.Status != "error" || res.Correct || res.Error == nil || !strings.Contains(*res.Error, "step 2") || !strings.Contains(*res.Error, "projection refused") {
		t.Fatalf("hook error not reported: %+v", res)
	}
	if string(res.Answer) != "null" {
		t.Fatalf("failed record has answer %s", res.Answer)
	}
}

// TestReplayCancelled checks that a replay whose context is cancelled
// fails every record it does not finish, sorted by id, none scored
// correct.
func TestReplayCancelled(t *testing.T) {
	eng, recs, _ := corpusEngine(t)
	batch := []workers.Record{recs["wildfire_a"], recs["baseline_canopy_assessment"]}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	results := eng.Replay(ctx, batch, runtime.ReplayOptions{Workers: 1})
	if len(results) != 2 || results[0].ID > results[1].ID {
		t.Fatalf("results %+v", results)
	}
	for _, r := range results {
		if r.Status != "error" || r.Correct || r.Error == nil || !strings.Contains(*r.Error, "context canceled") || string(r.Answer) != "null" {
			t.Errorf("%s: %+v", r.ID, r)
		}
	}
}
