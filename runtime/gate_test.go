package runtime_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers/workertest"
)

func TestSymlinkOutOfRootDenied(t *testing.T) {
	dir, recs := corpus(t)
	outside := filepath.Join(t.TempDir(), "secret.tif")
	rec := workertest.CloneRecord(t, recs["baseline_canopy_assessment"])
	orig := filepath.Join(dir, rec.Handles["forest_mask_1"].Files[0].Path)
	b, _ := os.ReadFile(orig)
	if err := os.WriteFile(outside, b, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "source_assets", "link.tif")
	if err := os.Symlink(outside, link); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	rec.Handles["forest_mask_1"].Files[0].Path = "source_assets/link.tif"
	eng := newEngine(t, runtime.Config{DatasetRoot: dir})
	res := eng.ReplayRecord(context.Background(), rec)
	if res.Status != "error" || !strings.Contains(*res.Error, "outside the data root") {
		t.Fatalf("symlink out of root: %+v", res.Error)
	}
	if len(res.Denials) == 0 {
		t.Fatal("denial not recorded")
	}
}
