package runtime

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/workers"
)

// writeFiles writes each file (slash path -> contents) under dir.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// testSession opens a session of a type-1 record over dir whose question
// handle declares q.json and whose forest_mask_1 handle declares inputs,
// (q/q.json too when inputs is empty), with the environment of its first
// call (nothing opened yet).
func testSession(t *testing.T, dir string, cfg Config, inputs ...workers.FileCard) (*Session, *callEnv) {
	t.Helper()
	if len(inputs) == 0 {
		inputs = []workers.FileCard{{Path: "q/q.json"}}
	}
	cfg.DatasetRoot = dir
	eng, err := NewEngine(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rec := workers.Record{ID: "r/1", Family: "deforestation", QuestionType: "baseline_canopy_assessment", Handles: map[string]workers.HandleDecl{
		"question_1":    {Kind: workers.KindQuestion, Files: []workers.FileCard{{Path: "q/q.json"}}},
		"forest_mask_1": {Kind: workers.KindInput, Files: inputs},
	}}
	s, err := eng.NewSession(rec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, newCallEnv(s, context.Background(), &CallTrace{Index: 1, Tool: "Test"})
}
