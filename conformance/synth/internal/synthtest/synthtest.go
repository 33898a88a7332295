// Package synthtest holds what the generator families' tests share:
// generating a corpus of some types into a test directory and opening an
// engine on it. Tests only.
package synthtest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// Generate writes a corpus of types into a new test directory and reads
// it back: the directory, its records and an engine on it.
func Generate(t testing.TB, types core.Types, opts core.Options) (string, []workers.Record, *runtime.Engine) {
	t.Helper()
	dir := t.TempDir()
	if _, err := core.Generate(context.Background(), dir, types, opts); err != nil {
		t.Fatal(err)
	}
	recs, eng := ReadCorpus(t, dir)
	return dir, recs, eng
}

// ReadCorpus reads a generated corpus's records and opens an engine on it.
func ReadCorpus(t testing.TB, dir string) ([]workers.Record, *runtime.Engine) {
	t.Helper()
	recs, err := workers.ReadRecordsFile(filepath.Join(dir, "records.jsonl"), true)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: dir})
	if err != nil {
		t.Fatal(err)
	}
	return recs, eng
}
