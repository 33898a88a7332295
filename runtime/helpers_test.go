package runtime_test

import (
	"strings"
	"testing"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/internal/synthtest"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// corpus synthesizes types 5 and 9 once per test and returns the first
// record of each.
func corpus(t *testing.T) (string, map[string]workers.Record) {
	t.Helper()
	dir, recs := synthtest.Corpus(t, synth.Options{Types: []string{"baseline_canopy_assessment", "wildfire_a"}, PerType: 4, Seed: 7})
	return dir, synthtest.FirstByType(recs)
}

// corpusEngine returns an engine over a corpus of types 5 and 9, the first
// record of each type and the corpus directory.
func corpusEngine(t *testing.T) (*runtime.Engine, map[string]workers.Record, string) {
	t.Helper()
	dir, recs := corpus(t)
	return newEngine(t, runtime.Config{DatasetRoot: dir}), recs, dir
}

// newEngine returns an engine with cfg. A failure fails t.
func newEngine(t testing.TB, cfg runtime.Config) *runtime.Engine {
	t.Helper()
	eng, err := runtime.NewEngine(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return eng
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

// checkRejected checks a replay of mutated records among clean ones: a
// record whose id is in want was rejected with no answer and an error
// containing want[id]; every other record scored correct.
func checkRejected(t *testing.T, results []runtime.RecordResult, want map[string]string) {
	t.Helper()
	for _, res := range results {
		w, mutated := want[res.ID]
		if !mutated {
			if res.Status != "ok" || !res.Correct {
				t.Errorf("clean record %s failed: %v %s", res.ID, res.Error, res.Reason)
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
