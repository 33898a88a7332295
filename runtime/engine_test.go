package runtime_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/runtime"
)

// TestNewEngineChecksTheDatasetRoot checks that the dataset root must be
// an existing directory, reached through symbolic links or not, and that
// the engine registers every worker.
func TestNewEngineChecksTheDatasetRoot(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{file, filepath.Join(dir, "none")} {
		if _, err := runtime.NewEngine(runtime.Config{DatasetRoot: root}); err == nil {
			t.Errorf("dataset root %s accepted", root)
		}
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: link})
	if err != nil {
		t.Fatal(err)
	}
	if eng.Registry() == nil || len(eng.Registry().Variants("ReadData")) == 0 {
		t.Fatal("no ReadData variants registered")
	}
}
