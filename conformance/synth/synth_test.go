package synth

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// TestGenerateParallelIdentical generates the same corpus with one and with
// four workers and requires identical manifests and byte-identical files.
func TestGenerateParallelIdentical(t *testing.T) {
	ctx := context.Background()
	seq, par := t.TempDir(), t.TempDir()
	m1, err := Generate(ctx, seq, Options{PerType: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	m4, err := Generate(ctx, par, Options{PerType: 2, Seed: 5, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	if m1.RecordsSHA256 != m4.RecordsSHA256 || m1.Files != m4.Files || m1.Records != m4.Records {
		t.Fatalf("manifests differ: %+v vs %+v", m1, m4)
	}
	files := 0
	err = filepath.WalkDir(seq, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(seq, p)
		a, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(filepath.Join(par, rel))
		if err != nil {
			return err
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between 1 and 4 workers", rel)
		}
		files++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	_ = filepath.WalkDir(par, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return err
	})
	if n != files {
		t.Errorf("%d files with 4 workers, %d with 1", n, files)
	}
}

// generate writes a corpus into a new test directory and reads it back:
// the directory, its records and an engine on it.
func generate(t testing.TB, opts Options) (string, []workers.Record, *runtime.Engine) {
	t.Helper()
	dir := t.TempDir()
	if _, err := Generate(context.Background(), dir, opts); err != nil {
		t.Fatal(err)
	}
	recs, eng := readCorpus(t, dir)
	return dir, recs, eng
}

// readCorpus reads a generated corpus's records and opens an engine on it.
func readCorpus(t testing.TB, dir string) ([]workers.Record, *runtime.Engine) {
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
