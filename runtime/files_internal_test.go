package runtime

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFileAtomic checks that the file is replaced whole with mode
// OutputFileMode whatever it had, that no temporary file stays, and that
// a directory that cannot take the temporary file is an error that leaves
// the old file.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"report.json": "old"})
	p := filepath.Join(dir, "report.json")
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(b) != "new" || fi.Mode().Perm() != OutputFileMode {
		t.Fatalf("%q mode %v", b, fi.Mode())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("%d entries, want 1", len(ents))
	}
	if err := WriteFileAtomic(filepath.Join(dir, "none", "x.json"), []byte("x")); err == nil {
		t.Fatal("write into a missing directory")
	}
}

// TestWriteFileExclusive checks that an existing file is refused and kept.
func TestWriteFileExclusive(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.json")
	if err := writeFileExclusive(p, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := writeFileExclusive(p, []byte("two")); !errors.Is(err, os.ErrExist) {
		t.Fatalf("second write: %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one" {
		t.Fatalf("file holds %q", b)
	}
}

// TestWriteTemp checks the temporary file's name beside its final name and
// its contents, and that a missing directory is an error.
func TestWriteTemp(t *testing.T) {
	dir := t.TempDir()
	name, err := writeTemp(dir, "a.bin", []byte("data"), true, "artifact a.bin")
	if err != nil || !strings.HasPrefix(filepath.Base(name), ".a.bin.tmp-") {
		t.Fatalf("%q %v", name, err)
	}
	if b, _ := os.ReadFile(name); string(b) != "data" {
		t.Fatalf("temporary file holds %q", b)
	}
	if _, err := writeTemp(filepath.Join(dir, "none"), "a.bin", nil, false, "artifact a.bin"); err == nil {
		t.Fatal("temporary file in a missing directory")
	}
}
