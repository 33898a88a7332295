package workertest

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/workers"
)

func TestWriteFilePointsTheCardAtItsBytes(t *testing.T) {
	root := t.TempDir()
	var card workers.FileCard
	data := []byte("roads")
	WriteFile(t, root, &card, "scene_1/roads.geojson", data)
	got, err := os.ReadFile(filepath.Join(root, "scene_1", "roads.geojson"))
	if err != nil || string(got) != "roads" {
		t.Fatalf("file %q, %v", got, err)
	}
	sum := sha256.Sum256(data)
	if card.Path != "scene_1/roads.geojson" || card.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("card %+v", card)
	}
}

func TestCloneAndDropLeaveTheOriginal(t *testing.T) {
	r := workers.Record{ID: "r1", Handles: map[string]workers.HandleDecl{
		"scene_1": {Kind: "scene", Files: []workers.FileCard{{Path: "a.tif"}, {Path: "b.json"}}},
	}}
	c := CloneRecord(t, r)
	DropFiles(&c, "scene_1", func(f workers.FileCard) bool { return strings.HasSuffix(f.Path, ".json") })
	if files := c.Handles["scene_1"].Files; len(files) != 1 || files[0].Path != "a.tif" {
		t.Errorf("clone's files %+v", files)
	}
	if files := r.Handles["scene_1"].Files; len(files) != 2 || files[1].Path != "b.json" {
		t.Errorf("original's files changed: %+v", files)
	}
}
