package runtime

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/workers"
)

// TestReadGateDeniesUndeclaredSiblings checks the gate itself: a call may
// read only the file cards reachable from the handles it opened.
func TestReadGateDeniesUndeclaredSiblings(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"q/q.json", "a/input.bin", "a/sibling.bin", "gold/answer.json"} {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(p), 0o644)
	}
	eng, err := NewEngine(Config{DatasetRoot: dir})
	if err != nil {
		t.Fatal(err)
	}
	rec := workers.Record{ID: "r", Family: "deforestation", QuestionType: "baseline_canopy_assessment", Handles: map[string]workers.HandleDecl{
		"question_1":    {Kind: workers.KindQuestion, Files: []workers.FileCard{{Path: "q/q.json"}}},
		"forest_mask_1": {Kind: workers.KindInput, Files: []workers.FileCard{{Path: "a/input.bin"}}},
	}}
	s, err := eng.NewSession(rec)
	if err != nil {
		t.Fatal(err)
	}
	env := &callEnv{s: s, ctx: context.Background(), tr: &CallTrace{Index: 1, Tool: "Test"}, allowed: map[string]workers.FileCard{}, opened: map[string]bool{}}
	if _, err := env.ReadFile("a/input.bin"); !errors.Is(err, ErrDenied) {
		t.Fatalf("read before opening any handle: %v", err)
	}
	if _, err := env.Open("forest_mask_1"); err != nil {
		t.Fatal(err)
	}
	if b, err := env.ReadFile("a/input.bin"); err != nil || string(b) != "a/input.bin" {
		t.Fatalf("declared read: %q %v", b, err)
	}
	for _, p := range []string{"a/sibling.bin", "gold/answer.json", "q/q.json", "a/../gold/answer.json", "/etc/passwd", "a"} {
		if _, err := env.ReadFile(p); !errors.Is(err, ErrDenied) {
			t.Errorf("read of %q: %v, want denial", p, err)
		}
	}
	if got := len(s.Denials()); got != 7 {
		t.Errorf("%d denials recorded, want 7", got)
	}
}
