package runtime_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/internal/synthtest"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// BenchmarkReplaySen1FloodE replays a sen1_flood_e record (the capstone
// chain: read, prepare, map, polygons, describe, rank, compare, render)
// per iteration through the whole session path, artifacts included, and
// reports the allocation per record. It runs on a synthetic chip, and on
// the real one when GEODISASTER_SEN1_REAL_OUT names the corpus that
// conformance's TestSen1FloodRealChip writes there:
//
//	GEODISASTER_SEN1_REAL_OUT=/tmp/c_sen1_real go test ./conformance/ -run TestSen1FloodRealChip
//	GEODISASTER_SEN1_REAL_OUT=/tmp/c_sen1_real go test ./runtime/ -run '^$' \
//	    -bench ReplaySen1FloodE -benchmem -memprofile /tmp/mem.prof
func BenchmarkReplaySen1FloodE(b *testing.B) {
	b.Run("synthetic", func(b *testing.B) {
		dir, recs := synthtest.Corpus(b, synth.Options{Types: []string{"sen1_flood_e"}, PerType: 1, Seed: 11})
		benchReplay(b, dir, recs[0])
	})
	b.Run("real_chip", func(b *testing.B) {
		dir := os.Getenv("GEODISASTER_SEN1_REAL_OUT")
		if dir == "" {
			b.Skip("GEODISASTER_SEN1_REAL_OUT unset: no real-chip corpus")
		}
		recs, err := workers.ReadRecordsFile(filepath.Join(dir, "records.jsonl"), true)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range recs {
			if r.ID == "sen1_flood_e__Spain_7370579" {
				benchReplay(b, dir, r)
				return
			}
		}
		b.Fatalf("%s holds no sen1_flood_e__Spain_7370579", dir)
	})
}

// benchReplay replays rec once per iteration into one artifact directory.
func benchReplay(b *testing.B, dir string, rec workers.Record) {
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: dir, ArtifactDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := eng.ReplayRecord(ctx, rec); !res.Correct {
			b.Fatalf("%s: %v %s", rec.ID, res.Error, res.Reason)
		}
	}
}
