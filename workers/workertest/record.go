package workertest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/geodisaster/engine/workers"
)

// WriteFile stores data at path below root, creating its directories,
// and points card at it with data's SHA-256, so that a test can replace a
// declared file without breaking its checksum. A failure fails t.
func WriteFile(t testing.TB, root string, card *workers.FileCard, path string, data []byte) {
	t.Helper()
	full := filepath.Join(root, path)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	card.Path, card.SHA256 = path, hex.EncodeToString(sum[:])
}

// CloneRecord deep-copies a record through JSON, for a test to mutate
// without touching the corpus it came from. A failure fails t.
func CloneRecord(t testing.TB, r workers.Record) workers.Record {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var out workers.Record
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// DropFiles removes from a declared handle of r the files drop accepts,
// leaving the slice r shares with the record it was copied from as it is.
func DropFiles(r *workers.Record, handle string, drop func(workers.FileCard) bool) {
	h := r.Handles[handle]
	h.Files = slices.DeleteFunc(slices.Clone(h.Files), drop)
	r.Handles[handle] = h
}
