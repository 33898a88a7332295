package release

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/internal/synthtest"
	"github.com/geodisaster/engine/workers"
)

const specPath = "../../../shared/spec/geodisaster-user-guide.md"

// TestFactsQuoteTheSpec checks that every fact's quote is a verbatim
// sentence of the specification and that the per-type record facts add up
// to the published inventory.
func TestFactsQuoteTheSpec(t *testing.T) {
	facts, err := Facts()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := os.ReadFile(specPath)
	if err != nil {
		t.Skipf("RESOURCE_BLOCKED: specification not available at %s: %v", specPath, err)
	}
	records, train, test := 0, 0, 0
	typesWithRecords := map[string]bool{}
	for _, f := range facts {
		if !strings.Contains(string(spec), f.Quote) {
			t.Errorf("%s: quote not found verbatim in the spec: %q", f.ID, f.Quote)
		}
		if f.QuestionType != "" {
			if _, ok := workers.LookupQuestionType(f.QuestionType); !ok {
				t.Errorf("%s: unknown question type %q", f.ID, f.QuestionType)
			}
		}
		if expected(f) == "" {
			t.Errorf("%s: unknown kind %q", f.ID, f.Kind)
		}
		if f.Kind == KindRecords {
			typesWithRecords[f.QuestionType] = true
			records += *f.Records
			train += *f.Train
			test += *f.Test
		}
	}
	inv := CanonicalInventory()
	if len(typesWithRecords) != 43 || records != inv.Records || train != inv.Train || test != inv.Test {
		t.Errorf("per-type record facts: %d types, %d records, %d train, %d test; want 43 and %+v", len(typesWithRecords), records, train, test, inv)
	}
	if !strings.Contains(string(spec), CanonicalSpecSentence) || !strings.Contains(string(spec), InventorySpecSentence) {
		t.Error("the canonical digest or inventory sentence is not in the spec")
	}
}

// TestFactPathsExistInOurAnswers checks every per-type fact's answer
// paths against synth gold answers (our schemas): a path that does not
// resolve would make the fact uncheckable on the real corpus for a reason
// of ours. It also checks that synth records declare the published number
// of paths per record.
func TestFactPathsExistInOurAnswers(t *testing.T) {
	_, recs := synthtest.Corpus(t, synth.Options{PerType: 1, Seed: 11})
	facts, err := Facts()
	if err != nil {
		t.Fatal(err)
	}
	present := map[string]bool{}
	for _, r := range recs {
		present[r.QuestionType] = true
	}
	for _, fr := range CheckFacts(facts, CorpusView{Records: recs}) {
		if fr.QuestionType == "" || !present[fr.QuestionType] || fr.Kind == KindArtifactsReproduce {
			continue
		}
		if strings.Contains(fr.Detail, "absent") || fr.Status == FactNotCheckable {
			t.Errorf("%s: %s %s", fr.ID, fr.Status, fr.Detail)
		}
		// Our records declare the published number of paths per record
		// (totals differ: the corpus is small).
		if fr.Kind == KindDeclaredPaths && strings.Contains(fr.Detail, "first differing record") {
			t.Errorf("%s: %s", fr.ID, fr.Detail)
		}
	}
}

func rec(t *testing.T, id, split string, answer any) workers.Record {
	t.Helper()
	b, err := json.Marshal(answer)
	if err != nil {
		t.Fatal(err)
	}
	return workers.Record{ID: id, QuestionType: "sen1_flood_c", Family: "sen1_flood", Split: split, TrainingWeight: 1, Answer: b}
}

func ip(n int) *int         { return &n }
func fp(x float64) *float64 { return &x }
func results(fr []FactResult) map[string]FactResult {
	out := map[string]FactResult{}
	for _, r := range fr {
		out[r.ID] = r
	}
	return out
}

func TestCheckFacts(t *testing.T) {
	recs := []workers.Record{
		rec(t, "a", "train", map[string]any{"pattern": "dispersed", "max_cell_concentration": 0.2, "top3_cells": []any{1, 2, 3}, "n": nil}),
		rec(t, "b", "train", map[string]any{"pattern": "dispersed", "max_cell_concentration": 0.1, "top3_cells": []any{1}, "n": 1.0}),
		rec(t, "c", "test", map[string]any{"pattern": "localized", "max_cell_concentration": 0.6, "top3_cells": []any{}, "n": 1.0}),
	}
	qt := "sen1_flood_c"
	facts := []Fact{
		{ID: "records.ok", QuestionType: qt, Kind: KindRecords, Records: ip(3), Train: ip(2), Test: ip(1)},
		{ID: "records.bad", QuestionType: qt, Kind: KindRecords, Records: ip(100), Train: ip(90), Test: ip(10)},
		{ID: "weights", QuestionType: qt, Kind: KindWeights, Weight: fp(1)},
		{ID: "counts.ok", QuestionType: qt, Kind: KindValueCounts, Path: "pattern", Counts: map[string]int{"dispersed": 2, "localized": 1}, Exhaustive: true},
		{ID: "counts.bad", QuestionType: qt, Kind: KindValueCounts, Path: "pattern", Counts: map[string]int{"dispersed": 99, "localized": 1}},
		{ID: "counts.extra", QuestionType: qt, Kind: KindValueCounts, Path: "pattern", Counts: map[string]int{"dispersed": 2}, Exhaustive: true},
		{ID: "range.ok", QuestionType: qt, Kind: KindRange, Path: "max_cell_concentration", Min: fp(0.1), Max: fp(0.6)},
		{ID: "range.bad", QuestionType: qt, Kind: KindRange, Path: "max_cell_concentration", Min: fp(0.069474), Max: fp(0.6), Tol: 5e-7},
		{ID: "range.where", QuestionType: qt, Kind: KindRange, Path: "max_cell_concentration", Min: fp(0.1), Max: fp(0.2), Where: []Cond{{Path: "pattern", Op: "eq", Value: "dispersed"}}},
		{ID: "count.split", QuestionType: qt, Kind: KindCount, Count: ip(1), Where: []Cond{{Path: "pattern", Op: "eq", Value: "localized"}, {Path: "@split", Op: "eq", Value: "test"}}},
		{ID: "count.len", QuestionType: qt, Kind: KindCount, Count: ip(1), Where: []Cond{{Path: "#top3_cells", Op: "gt", Value: 1.0}}},
		{ID: "count.null", QuestionType: qt, Kind: KindCount, Count: ip(1), Where: []Cond{{Path: "n", Op: "is_null"}}},
		{ID: "count.absent", QuestionType: qt, Kind: KindCount, Count: ip(1), Where: []Cond{{Path: "nope", Op: "is_null"}}},
		{ID: "constant.bad", QuestionType: qt, Kind: KindConstant, Path: "n", Value: 1.0},
		{ID: "other.type", QuestionType: "sen1_flood_a", Kind: KindRecords, Records: ip(100)},
		{ID: "corpus.inventory", Kind: KindCorpusInventory, Records: ip(3), Types: ip(1), Train: ip(2), Test: ip(1)},
		{ID: "corpus.isolation", Kind: KindSplitIsolation, Count: ip(0)},
		{ID: "corpus.groups", Kind: KindDuplicateGroups, Groups: ip(1), Records: ip(2)},
	}
	got := results(CheckFacts(facts, CorpusView{Records: recs, TrajectoryGroups: map[string]string{"a": "g", "b": "g", "c": "h"}}))
	want := map[string]string{
		"records.ok": FactOK, "records.bad": FactMismatch, "weights": FactOK,
		"counts.ok": FactOK, "counts.bad": FactMismatch, "counts.extra": FactMismatch,
		"range.ok": FactOK, "range.bad": FactMismatch, "range.where": FactOK,
		"count.split": FactOK, "count.len": FactOK, "count.null": FactOK, "count.absent": FactMismatch,
		"constant.bad": FactMismatch, "other.type": FactNotCheckable,
		"corpus.inventory": FactOK, "corpus.isolation": FactNotCheckable, "corpus.groups": FactOK,
	}
	for id, st := range want {
		if got[id].Status != st {
			t.Errorf("%s: %s (%s; %s), want %s", id, got[id].Status, got[id].Observed, got[id].Detail, st)
		}
	}
	for id, sub := range map[string]string{
		"counts.bad":   "dispersed: 2, published 99",
		"counts.extra": "unpublished value localized",
		"range.bad":    "minimum 0.1 (record b), published 0.069474",
		"count.absent": "path nope absent",
		"constant.bad": "first differing record a",
	} {
		if !strings.Contains(got[id].Detail, sub) {
			t.Errorf("%s: detail %q lacks %q", id, got[id].Detail, sub)
		}
	}
	nc := NotCheckable(facts, "why")
	if len(nc) != len(facts) || nc[0].Status != FactNotCheckable || nc[0].Detail != "why" {
		t.Errorf("NotCheckable: %+v", nc[0])
	}
}

// TestDocsListEveryFact keeps docs/real-mode.md in step with facts.json.
func TestDocsListEveryFact(t *testing.T) {
	doc, err := os.ReadFile("../../docs/real-mode.md")
	if err != nil {
		t.Fatalf("docs/real-mode.md: %v", err)
	}
	facts, err := Facts()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range facts {
		if !strings.Contains(string(doc), "| `"+f.ID+"` |") {
			t.Errorf("docs/real-mode.md does not list fact %s", f.ID)
		}
	}
}
