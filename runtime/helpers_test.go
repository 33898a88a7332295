package runtime_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// synthCorpus synthesizes perType records of each type into a temporary
// directory and returns it with the records in file order.
func synthCorpus(tb testing.TB, types []string, perType int, seed uint64) (string, []workers.Record) {
	tb.Helper()
	dir := tb.TempDir()
	if _, err := synth.Generate(context.Background(), dir, synth.Options{Types: types, PerType: perType, Seed: seed}); err != nil {
		tb.Fatal(err)
	}
	recs, err := workers.ReadRecordsFile(filepath.Join(dir, "records.jsonl"), true)
	if err != nil {
		tb.Fatal(err)
	}
	return dir, recs
}

// corpus synthesizes types 5 and 9 once per test and returns the first
// record of each.
func corpus(t *testing.T) (string, map[string]workers.Record) {
	t.Helper()
	dir, recs := synthCorpus(t, []string{"baseline_canopy_assessment", "wildfire_a"}, 4, 7)
	byType := map[string]workers.Record{}
	for _, r := range recs {
		if _, ok := byType[r.QuestionType]; !ok {
			byType[r.QuestionType] = r
		}
	}
	return dir, byType
}

// corpusEngine returns an engine over a corpus of types 5 and 9, the first
// record of each type and the corpus directory.
func corpusEngine(t *testing.T) (*runtime.Engine, map[string]workers.Record, string) {
	t.Helper()
	dir, recs := corpus(t)
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: dir})
	if err != nil {
		t.Fatal(err)
	}
	return eng, recs, dir
}

// openSession opens a session on rec, closed at the end of the test.
func openSession(t *testing.T, eng *runtime.Engine, rec workers.Record) *runtime.Session {
	t.Helper()
	s, err := eng.NewSession(rec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// corpusSession opens a session, closed at the end of the test, on the
// first record of type typ in the corpus of corpusEngine.
func corpusSession(t *testing.T, typ string) (*runtime.Session, workers.Record) {
	t.Helper()
	eng, recs, _ := corpusEngine(t)
	return openSession(t, eng, recs[typ]), recs[typ]
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
