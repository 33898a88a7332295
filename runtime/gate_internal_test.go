package runtime

import (
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
	writeFiles(t, dir, map[string]string{"q/q.json": "q/q.json", "a/input.bin": "a/input.bin", "a/sibling.bin": "a/sibling.bin", "gold/answer.json": "gold/answer.json"})
	s, env := testSession(t, dir, Config{}, workers.FileCard{Path: "a/input.bin"})
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
	if _, err := env.Open("forest_mask_2"); err == nil {
		t.Error("unknown handle opened")
	}
}

// TestDataRootResolve checks the data root on its own: relative paths
// inside it resolve (through symbolic links that stay inside), anything
// that leaves it or is not a regular file is a denial, and a missing file
// is os.ErrNotExist, not a denial.
func TestDataRootResolve(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	writeFiles(t, dir, map[string]string{"a/f.bin": "f"})
	writeFiles(t, outside, map[string]string{"secret.bin": "s"})
	linkIn := filepath.Join(dir, "a", "in.bin")
	linkOut := filepath.Join(dir, "a", "out.bin")
	if err := os.Symlink(filepath.Join(dir, "a", "f.bin"), linkIn); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.bin"), linkOut); err != nil {
		t.Fatal(err)
	}
	if _, err := newDataRoot(filepath.Join(dir, "a", "f.bin")); err == nil {
		t.Error("a file accepted as the data root")
	}
	if _, err := newDataRoot(filepath.Join(dir, "none")); err == nil {
		t.Error("a missing data root accepted")
	}
	root, err := newDataRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a/f.bin", "a/in.bin"} {
		real, err := root.resolve(p)
		if err != nil || filepath.Base(real) != "f.bin" {
			t.Errorf("%s: %q %v", p, real, err)
		}
	}
	for _, p := range []string{"a/out.bin", "a", "../x", "/a/f.bin", ""} {
		if _, err := root.resolve(p); !errors.Is(err, ErrDenied) {
			t.Errorf("%q: %v, want a denial", p, err)
		}
	}
	if _, err := root.resolve("a/missing.bin"); !errors.Is(err, os.ErrNotExist) || errors.Is(err, ErrDenied) {
		t.Errorf("missing file: %v", err)
	}
}

// TestDataRootResolvePlain checks resolve's symlink-free fast path against
// the filepath.EvalSymlinks route: both give the same file for plain
// paths, and a symlinked directory element, a file used as a directory or
// a non-regular last element are left to the careful route, which still
// refuses what leaves the root.
func TestDataRootResolvePlain(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	writeFiles(t, dir, map[string]string{"a/b/c/f.bin": "f", "g.bin": "g"})
	writeFiles(t, outside, map[string]string{"d/secret.bin": "s"})
	if err := os.Symlink(filepath.Join(outside, "d"), filepath.Join(dir, "a", "out")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	if err := os.Symlink(filepath.Join(dir, "a", "b"), filepath.Join(dir, "a", "in")); err != nil {
		t.Fatal(err)
	}
	root, err := newDataRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a/b/c/f.bin", "g.bin"} {
		plain, ok := root.resolvePlain(p)
		linked, err := root.resolveLinked(p)
		if !ok || err != nil || plain != linked {
			t.Errorf("%s: plain %q %v, linked %q %v", p, plain, ok, linked, err)
		}
	}
	for _, p := range []string{"a/out/secret.bin", "a/in/c/f.bin", "g.bin/x", "a/b", "a/missing.bin"} {
		if _, ok := root.resolvePlain(p); ok {
			t.Errorf("%s: taken by the fast path", p)
		}
	}
	if real, err := root.resolve("a/in/c/f.bin"); err != nil || filepath.Base(real) != "f.bin" {
		t.Errorf("symlinked directory inside the root: %q %v", real, err)
	}
	if _, err := root.resolve("a/out/secret.bin"); !errors.Is(err, ErrDenied) {
		t.Errorf("symlinked directory leaving the root: %v, want a denial", err)
	}
	if _, err := root.resolve("g.bin/x"); err == nil || errors.Is(err, ErrDenied) {
		t.Errorf("file used as a directory: %v, want a plain error", err)
	}
}

// BenchmarkDataRootResolve measures resolving a declared file four
// elements below the root.
func BenchmarkDataRootResolve(b *testing.B) {
	dir := b.TempDir()
	writeFiles(b, dir, map[string]string{"data/family/sample/band.tif": "x"})
	root, err := newDataRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := root.resolve("data/family/sample/band.tif"); err != nil {
			b.Fatal(err)
		}
	}
}
