// Package testdir holds the directory helpers tests share: a directory
// built once per test binary, and a copy of a directory to tamper with.
package testdir

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Once is a directory built once per test binary (a synthetic corpus, a
// release fixture) and shared by its tests; the zero value is ready. The
// test binary's TestMain calls Remove after m.Run.
type Once struct {
	once sync.Once
	dir  string
	err  error
}

// Dir returns the directory, building it with build in a new temporary
// directory (named after prefix) on the first call; a failed build fails
// every test that asks for it.
func (o *Once) Dir(t testing.TB, prefix string, build func(dir string) error) string {
	t.Helper()
	o.once.Do(func() {
		if o.dir, o.err = os.MkdirTemp("", prefix); o.err == nil {
			o.err = build(o.dir)
		}
	})
	if o.err != nil {
		t.Fatal(o.err)
	}
	return o.dir
}

// Remove deletes the directory, if it was built.
func (o *Once) Remove() {
	if o.dir != "" {
		os.RemoveAll(o.dir)
	}
}

// Copy copies the tree under src into a new test temporary directory and
// returns it.
func Copy(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
