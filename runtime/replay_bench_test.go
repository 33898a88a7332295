package runtime_test

import (
	"context"
	"testing"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/internal/synthtest"
	"github.com/geodisaster/engine/runtime"
)

// BenchmarkReplayRecord replays one record of a type per iteration through
// the whole session path: the read gate, the file cache and its hashed
// reads, band decoding (with prefetch), the workers, artifact writing
// (into the same directory each time, as a rerun does) and publication.
func BenchmarkReplayRecord(b *testing.B) {
	for _, typ := range []string{"baseline_canopy_assessment", "wildfire_a", "sen1_flood_a"} {
		b.Run(typ, func(b *testing.B) {
			dir, recs := synthtest.Corpus(b, synth.Options{Types: []string{typ}, PerType: 1, Seed: 11})
			eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: dir, ArtifactDir: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			for b.Loop() {
				if res := eng.ReplayRecord(ctx, recs[0]); !res.Correct {
					b.Fatalf("%s: %v %s", recs[0].ID, res.Error, res.Reason)
				}
			}
		})
	}
}
