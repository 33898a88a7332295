package synth

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
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
