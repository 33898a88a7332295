package synth

import (
	"bytes"
	"context"
	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/conformance/synth/internal/synthtest"
	"os"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/export"
	"github.com/geodisaster/engine/workers"
)

// TestFullSplitPlan checks the full corpus's split and duplicate groups
// against the specification's inventory without generating files: each
// type's published train/test counts, 2,629/292 in all, and 41 groups of
// copies covering 114 records, each group within one split.
func TestFullSplitPlan(t *testing.T) {
	gens := generators()
	train, test, groups, grouped := 0, 0, 0, 0
	for _, qt := range SupportedTypes() {
		tg := gens[qt]
		tests := tg.Tests
		if tests <= 0 {
			t.Fatalf("%s: no published test count", qt)
		}
		splits := make([]string, tg.Full)
		n := 0
		for i := range splits {
			splits[i] = core.FullSplit(i, tg.Full, tests)
			if splits[i] == "test" {
				n++
			}
		}
		if n != tests {
			t.Errorf("%s: %d test records, the spec says %d", qt, n, tests)
		}
		train += tg.Full - n
		test += n
		seen := map[int]bool{}
		for _, g := range tg.Copies.Groups(splits) {
			if len(g) < 2 || len(g) > 3 {
				t.Errorf("%s: group %v", qt, g)
			}
			for _, i := range g {
				if seen[i] || splits[i] != splits[g[0]] {
					t.Errorf("%s: record %d reused or across the split in %v", qt, i, g)
				}
				seen[i] = true
			}
			groups++
			grouped += len(g)
		}
		if tg.Sample == nil && tg.Copies.Groups(splits) != nil {
			t.Errorf("%s has copies but cannot name their samples", qt)
		}
	}
	if train != 2629 || test != 292 {
		t.Errorf("split %d/%d, the spec says 2,629/292", train, test)
	}
	if groups != 41 || grouped != 114 {
		t.Errorf("%d duplicate groups over %d records, the spec says 41 over 114", groups, grouped)
	}
}

// TestCopyRecord checks that a path-renamed copy declares byte copies of
// its source's files under its own sample and replays to the same answer.
func TestCopyRecord(t *testing.T) {
	dir, recs, _ := synthtest.Generate(t, generators(), Options{Types: []string{"fastest_safest"}, PerType: 1, Seed: 2})
	src := recs[0]
	files := map[string]bool{}
	cp, err := core.CopyRecord(dir, src, generators()["fastest_safest"].Sample(150), files)
	if err != nil {
		t.Fatal(err)
	}
	if cp.ID != "fastest_safest__synth_route_fs_150" || cp.SampleID != "synth_route_fs_150" || cp.SplitGroupID != cp.SampleID {
		t.Fatalf("copy identity %s %s %s", cp.ID, cp.SampleID, cp.SplitGroupID)
	}
	n := 0
	for name, h := range cp.Handles {
		for i, f := range h.Files {
			orig := src.Handles[name].Files[i]
			if f.Path == orig.Path || f.SHA256 != orig.SHA256 || !files[f.Path] {
				t.Fatalf("card %+v of %+v", f, orig)
			}
			a, _ := os.ReadFile(filepath.Join(dir, orig.Path))
			b, err := os.ReadFile(filepath.Join(dir, f.Path))
			if err != nil || !bytes.Equal(a, b) {
				t.Fatalf("%s is not a byte copy of %s: %v", f.Path, orig.Path, err)
			}
			n++
		}
	}
	if n != len(files) {
		t.Fatalf("%d cards, %d files written", n, len(files))
	}
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: dir})
	if err != nil {
		t.Fatal(err)
	}
	a, b := eng.ReplayRecord(context.Background(), src), eng.ReplayRecord(context.Background(), cp)
	if !a.Correct || !b.Correct || !bytes.Equal(a.Answer, b.Answer) {
		t.Fatalf("source %v %s, copy %v %s", a.Correct, a.Answer, b.Correct, b.Answer)
	}
	bad := src
	bad.Handles = map[string]workers.HandleDecl{"x_1": {Kind: "input", Files: []workers.FileCard{{Path: "elsewhere/a.tif"}}}}
	if _, err := core.CopyRecord(dir, bad, "s", map[string]bool{}); err == nil {
		t.Fatal("a file outside the sample was copied")
	}
}

// TestFullCorpusTurnCounts derives the SFT row counts of a full corpus
// from each type's GT chain (one record per type: every record of a type
// has the same tool sequence) and the published split, and requires the
// spec's table (section 6). geodisaster export on a fresh synth --full
// gives these counts row for row (docs/inventory.md).
func TestFullCorpusTurnCounts(t *testing.T) {
	_, recs, _ := synthtest.Generate(t, generators(), Options{PerType: 1})
	gens := generators()
	var train, test export.TurnCounts
	episodes := [2]int{}
	for _, r := range recs {
		c, err := export.CountTurns(r)
		if err != nil {
			t.Fatal(err)
		}
		nTest := gens[r.QuestionType].Tests
		nTrain := gens[r.QuestionType].Full - nTest
		for _, s := range []struct {
			to *export.TurnCounts
			n  int
		}{{&train, nTrain}, {&test, nTest}} {
			s.to.ORC += s.n * c.ORC
			s.to.GA += s.n * c.GA
			s.to.PA += s.n * c.PA
			s.to.VRA += s.n * c.VRA
			s.to.Single += s.n * c.Single
		}
		episodes[0] += nTrain
		episodes[1] += nTest
	}
	want := [2]export.TurnCounts{{ORC: 11895, GA: 11127, PA: 5899, VRA: 2763, Single: 18410}, {ORC: 1318, GA: 1235, PA: 656, VRA: 302, Single: 2043}}
	if train != want[0] || test != want[1] || episodes != [2]int{2629, 292} {
		t.Fatalf("train %+v test %+v episodes %v; the spec's table gives %+v %+v [2629 292]", train, test, episodes, want[0], want[1])
	}
	total := 0
	for _, c := range []export.TurnCounts{train, test} {
		total += c.ORC + c.GA + c.PA + c.VRA + c.Single
	}
	if total != 55648 {
		t.Fatalf("%d SFT rows, the spec says 55,648", total)
	}
}
