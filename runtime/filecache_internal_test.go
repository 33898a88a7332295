package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/geodisaster/engine/workers"
)

func hexSum(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestFileCacheReadsOnceAndTracesEveryRead checks that a declared file is
// read from disk at the session's first read only: a later call gets the
// bytes the session verified (even if the file changed since), every read
// is traced with the file's digest, and the read counts once against the
// session's usage.
func TestFileCacheReadsOnceAndTracesEveryRead(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"q/q.json": "{}", "a/in.bin": "first"})
	s, env := testSession(t, dir, Config{}, workers.FileCard{Path: "a/in.bin", SHA256: hexSum("first")})
	if _, err := env.Open("forest_mask_1"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if b, err := env.ReadFile("a/in.bin"); err != nil || string(b) != "first" {
			t.Fatalf("read: %q %v", b, err)
		}
	}
	if sum, ok := env.FileSHA256("a/in.bin"); !ok || sum != hexSum("first") {
		t.Fatalf("FileSHA256: %q %v", sum, ok)
	}
	writeFiles(t, dir, map[string]string{"a/in.bin": "changed"})
	env2 := newCallEnv(s, context.Background(), &CallTrace{Index: 2, Tool: "Test"})
	if _, ok := env2.FileSHA256("a/in.bin"); ok {
		t.Fatal("FileSHA256 answered for a path this call did not open")
	}
	env2.Open("forest_mask_1")
	if b, err := env2.ReadFile("a/in.bin"); err != nil || string(b) != "first" {
		t.Fatalf("second call's read: %q %v", b, err)
	}
	for _, tr := range []*CallTrace{env.tr, env2.tr} {
		for _, r := range tr.Reads {
			if r.Path != "a/in.bin" || r.SHA256 != hexSum("first") || r.Size != 5 {
				t.Fatalf("call %d traced %+v", tr.Index, r)
			}
		}
	}
	if len(env.tr.Reads) != 2 || len(env2.tr.Reads) != 1 {
		t.Fatalf("%d and %d reads traced, want 2 and 1", len(env.tr.Reads), len(env2.tr.Reads))
	}
	if u := s.Usage(); u.ReadBytes != 5 {
		t.Fatalf("usage %+v, want 5 bytes read", u)
	}
}

// TestFileCardMismatchAndMissingFile checks that bytes that do not match
// their file card, and a declared file that is missing, are errors that
// leave nothing cached and are not read-gate denials.
func TestFileCardMismatchAndMissingFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"q/q.json": "{}", "a/in.bin": "tampered"})
	s, env := testSession(t, dir, Config{},
		workers.FileCard{Path: "a/in.bin", SHA256: hexSum("original")},
		workers.FileCard{Path: "a/gone.bin"})
	env.Open("forest_mask_1")
	_, err := env.ReadFile("a/in.bin")
	if err == nil || !strings.Contains(err.Error(), "does not match its file card") {
		t.Fatalf("tampered file: %v", err)
	}
	if _, err := env.ReadFile("a/gone.bin"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	if len(s.files) != 0 || len(s.Denials()) != 0 || s.Usage().ReadBytes != 0 {
		t.Fatalf("after failed reads: %d cached, %d denials, usage %+v", len(s.files), len(s.Denials()), s.Usage())
	}
	if _, err := env.RasterInfo("a/in.bin"); err == nil {
		t.Fatal("RasterInfo of a file that failed its card")
	}
}

// TestNotARaster checks that a declared file that is no GeoTIFF is an
// error from RasterInfo and Band, and still readable as bytes.
func TestNotARaster(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"q/q.json": "{}", "a/in.tif": "not a tiff"})
	_, env := testSession(t, dir, Config{}, workers.FileCard{Path: "a/in.tif"})
	env.Open("forest_mask_1")
	if _, err := env.RasterInfo("a/in.tif"); err == nil || !strings.Contains(err.Error(), "declared raster a/in.tif") {
		t.Fatalf("RasterInfo: %v", err)
	}
	if _, _, err := env.Band("a/in.tif", 1); err == nil {
		t.Fatal("Band of a file that is no GeoTIFF")
	}
	if b, err := env.ReadFile("a/in.tif"); err != nil || string(b) != "not a tiff" {
		t.Fatalf("ReadFile: %q %v", b, err)
	}
}
