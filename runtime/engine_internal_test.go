package runtime

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNewEngineChecksTheDatasetRoot checks that the dataset root must be
// an existing directory, reached through symbolic links or not, and that
// the engine keeps it resolved and registers the workers.
func TestNewEngineChecksTheDatasetRoot(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "root")
	if _, err := NewEngine(Config{DatasetRoot: dir}); err == nil {
		t.Error("a missing dataset root accepted")
	}
	writeFiles(t, dir, map[string]string{"f": ""})
	if _, err := NewEngine(Config{DatasetRoot: filepath.Join(dir, "f")}); err == nil {
		t.Error("a file accepted as the dataset root")
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	eng, err := NewEngine(Config{DatasetRoot: link})
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if eng.root.dir != real {
		t.Errorf("root %s, want %s", eng.root.dir, real)
	}
	if len(eng.Registry().Variants("ReadData")) == 0 {
		t.Fatal("no ReadData variants registered")
	}
}
