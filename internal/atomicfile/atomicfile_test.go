package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileReplacesAndLeavesNoTemporary(t *testing.T) {
	for _, sync := range []bool{false, true} {
		dir := t.TempDir()
		path := filepath.Join(dir, "out.json")
		if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := WriteFile(path, []byte("new"), 0o644, sync); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil || string(b) != "new" {
			t.Fatalf("contents %q, %v", b, err)
		}
		st, _ := os.Stat(path)
		if st.Mode().Perm() != 0o644 {
			t.Errorf("mode %v, want 0644", st.Mode().Perm())
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Errorf("%d entries in the directory, want only the file", len(ents))
		}
	}
}

func TestWriteFileFailureKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	// A directory in the way: the rename over it fails.
	path := filepath.Join(dir, "taken")
	if err := os.MkdirAll(filepath.Join(path, "child"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("x"), 0o644, false); err == nil {
		t.Fatal("renamed over a non-empty directory")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || !ents[0].IsDir() {
		t.Errorf("directory holds %v, want only the untouched directory", ents)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "f"), []byte("x"), 0o644, false); err == nil {
		t.Fatal("wrote into a missing directory")
	}
}
