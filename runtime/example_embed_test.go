package runtime_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// Example_runRecord runs one record end to end as an agent would: it opens
// a gold-free session, makes the record's GT-chain calls one by one (each
// returns a new handle and its evidence), watches for the published
// ANSWER_JSON:answer_1, finishes with FinalAnswer and checks the result
// against replay's.
func Example_runRecord() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "geodisaster-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	if _, err := synth.Generate(ctx, dir, synth.Options{Types: []string{"baseline_canopy_assessment"}, PerType: 1}); err != nil {
		fmt.Println(err)
		return
	}
	recs, err := workers.ReadRecordsFile(filepath.Join(dir, "records.jsonl"), true)
	if err != nil {
		fmt.Println(err)
		return
	}
	rec := recs[0]

	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := eng.NewSession(rec) // always the gold-free projection
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	for _, step := range rec.GTChain {
		res, err := s.Call(ctx, step.Tool, step.Args)
		if err != nil {
			fmt.Println(err)
			return
		}
		line := step.Tool
		if res.Handle != "" {
			line += " -> " + res.Handle
		}
		if res.Published != "" {
			line += " (published " + res.Published + ")"
		}
		fmt.Println(line)
	}
	fin, err := s.Call(ctx, runtime.ToolFinalAnswer, map[string]any{"answer_ref": runtime.AnswerRef})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(fin.Answer))
	fmt.Println("denials:", len(s.Denials()))

	rep := eng.ReplayRecord(ctx, rec)
	fmt.Println("replay:", rep.Status, "correct:", rep.Correct, "same answer:", string(rep.Answer) == string(fin.Answer))
	// Output:
	// ReadData -> scene_1
	// PrepareScene -> work_1
	// ComputeStats -> stats_1
	// ClassifyChange -> class_1 (published ANSWER_JSON:answer_1)
	// TaskComplete (published ANSWER_JSON:answer_1)
	// {"baseline_class":"dense_forest","treecover2000_mean_pct":77.70211791992188}
	// denials: 0
	// replay: ok correct: true same answer: true
}
