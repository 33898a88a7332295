package runtime

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"
)

// prefetchFixture writes a two-band float32 GeoTIFF large enough for the
// buffer pool and for hashedread.ReadFile's chunked path (300x300 noise, DEFLATE
// tiles) and returns a session whose one
// call has opened its handle, with the file's path and bytes.
func prefetchFixture(t *testing.T, mutateCard bool) (*Session, *callEnv, string, []byte) {
	t.Helper()
	dir := t.TempDir()
	const w, h = 300, 300
	bands := make([]*raster.Band, 2)
	x := uint32(12345)
	for k := range bands {
		b, _ := raster.NewBand(w, h, raster.Float32)
		for i := range b.Data.([]float32) {
			x = x*1664525 + 1013904223 // noise, so the file is too large to read in one piece
			b.Data.([]float32)[i] = float32(x>>8) / 1000
		}
		bands[k] = b
	}
	data := workertest.EncodeTIFF(t, bands, raster.WriteOptions{Compression: "deflate", Predictor: 3, TileSize: 128, EPSG: 4326,
		Transform: [6]float64{0.001, 0, 10, 0, -0.001, 40}})
	p := "s1/chip.tif"
	var card workers.FileCard
	workertest.WriteFile(t, dir, &card, p, data)
	os.WriteFile(filepath.Join(dir, "q.json"), []byte("{}"), 0o644)
	if mutateCard {
		card.SHA256 = strings.Repeat("0", 64)
	}
	eng, err := NewEngine(Config{DatasetRoot: dir})
	if err != nil {
		t.Fatal(err)
	}
	rec := workers.Record{ID: "r", Family: "sen1_flood", QuestionType: "sen1_flood_a", Handles: map[string]workers.HandleDecl{
		"question_1": {Kind: workers.KindQuestion, Files: []workers.FileCard{{Path: "q.json"}}},
		"s1_image_1": {Kind: workers.KindInput, Files: []workers.FileCard{card}},
	}}
	s, err := eng.NewSession(rec)
	if err != nil {
		t.Fatal(err)
	}
	env := newCallEnv(s, context.Background(), &CallTrace{Index: 1, Tool: "Test"})
	if _, err := env.Open("s1_image_1"); err != nil {
		t.Fatal(err)
	}
	return s, env, p, data
}

// TestPrefetchedBandsEqualDecodedBands checks that bands decoded by a
// prefetch started during the file's read equal a plain decode, that a
// band not prefetched is still decoded on demand, and that recycling the
// session's buffers lets a second session reuse them with equal results.
func TestPrefetchedBandsEqualDecodedBands(t *testing.T) {
	s, env, p, data := prefetchFixture(t, false)
	ds, err := raster.OpenReaderAt(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	want, err := ds.ReadAll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	env.PrefetchBands(p, []int{2, 2, 7})
	if _, err := env.ReadFile(p); err != nil {
		t.Fatal(err)
	}
	if s.files[p].prefetch == nil {
		t.Fatal("no prefetch started")
	}
	for _, b := range []int{2, 1} {
		got, info, err := env.Band(p, b)
		if err != nil {
			t.Fatal(err)
		}
		if info.Width != 300 || !reflect.DeepEqual(got.Data, want[b-1].Data) {
			t.Errorf("band %d differs from a plain decode", b)
		}
	}
	if len(data) < 512<<10 {
		t.Fatalf("fixture is %d bytes, too small for the chunked read", len(data))
	}
	if len(s.bufs.taken) < 3 { // the file bytes and both bands
		t.Errorf("%d pooled buffers taken, want at least 3", len(s.bufs.taken))
	}
	s.Close()
	s.recycle()
	if s.eng.bufs.held == 0 {
		t.Fatal("recycle returned no buffer to the pool")
	}
	// A second session of the same engine gets the recycled (dirty)
	// buffers and must decode the same values.
	s2, err := s.eng.NewSession(s.rec)
	if err != nil {
		t.Fatal(err)
	}
	env2 := newCallEnv(s2, context.Background(), &CallTrace{Index: 1, Tool: "Test"})
	env2.Open("s1_image_1")
	for b := 1; b <= 2; b++ {
		got, _, err := env2.Band(p, b)
		if err != nil || !reflect.DeepEqual(got.Data, want[b-1].Data) {
			t.Errorf("band %d from recycled buffers differs: %v", b, err)
		}
	}
	s2.Close()
	s2.recycle()
}

// TestPrefetchDroppedOnCardMismatch checks that bytes failing their file
// card are an error with a prefetch as without one, and leave nothing
// cached.
func TestPrefetchDroppedOnCardMismatch(t *testing.T) {
	s, env, p, _ := prefetchFixture(t, true)
	env.PrefetchBands(p, []int{1, 2})
	if _, err := env.ReadFile(p); err == nil || !strings.Contains(err.Error(), "does not match its file card") {
		t.Fatalf("ReadFile: %v", err)
	}
	if _, _, err := env.Band(p, 1); err == nil || !strings.Contains(err.Error(), "does not match its file card") {
		t.Fatalf("Band: %v", err)
	}
	if len(s.files) != 0 {
		t.Errorf("%d files cached after a mismatch", len(s.files))
	}
	s.Close()
	s.recycle()
}

// TestPrefetchIgnoresUndeclaredPaths checks that a prefetch hint outside
// the read gate is ignored and the read is still denied.
func TestPrefetchIgnoresUndeclaredPaths(t *testing.T) {
	s, env, _, _ := prefetchFixture(t, false)
	env.PrefetchBands("gold/answer.tif", []int{1})
	if len(s.prefetchHints) != 0 {
		t.Errorf("hint recorded for an undeclared path")
	}
	if _, _, err := env.Band("gold/answer.tif", 1); err == nil {
		t.Error("undeclared read allowed")
	}
}

// TestPrefetchReportsCorruptBlocks checks that a decoding error found by a
// prefetch is reported by Band as a synchronous decode reports it.
func TestPrefetchReportsCorruptBlocks(t *testing.T) {
	_, env, p, data := prefetchFixture(t, false)
	root := env.s.eng.root
	full, err := root.resolve(p)
	if err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), data...)
	for i := len(bad) / 2; i < len(bad)/2+2000; i++ {
		bad[i] ^= 0x5a
	}
	os.WriteFile(full, bad, 0o644)
	sum := sha256.Sum256(bad)
	card := env.allowed[p]
	card.SHA256 = hex.EncodeToString(sum[:])
	env.allowed[p] = card
	plain := func() error {
		ds, err := raster.OpenReaderAt(bytes.NewReader(bad), int64(len(bad)))
		if err != nil {
			return err
		}
		for b := 1; b <= 2; b++ {
			if _, err := ds.ReadBand(context.Background(), b); err != nil {
				return err
			}
		}
		return nil
	}()
	if plain == nil {
		t.Skip("corruption did not reach a block")
	}
	env.PrefetchBands(p, []int{1, 2})
	_, _, e1 := env.Band(p, 1)
	_, _, e2 := env.Band(p, 2)
	if e1 == nil && e2 == nil {
		t.Fatalf("corrupt blocks decoded without error (plain decode: %v)", plain)
	}
}
