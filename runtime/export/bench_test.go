package export_test

import (
	"context"
	"testing"

	"github.com/geodisaster/engine/runtime/export"
)

// BenchmarkProject compares projecting the fixture's records (one replay
// each, both episodes and every SFT row encoded and validated) with
// replaying them alone; the ratio of the two is the projection's cost.
func BenchmarkProject(b *testing.B) {
	f := newFixture(b)
	ctx := context.Background()
	b.Run("replay", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, r := range f.recs {
				if res := f.eng.ReplayRecord(ctx, r); !res.Correct {
					b.Fatal(res.ID)
				}
			}
		}
	})
	p := export.NewProjector(f.eng, f.val)
	b.Run("project", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, r := range f.recs {
				if _, err := p.Project(ctx, r); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
