package runtime_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/conformance/synth"
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
