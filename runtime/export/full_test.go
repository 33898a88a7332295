package export_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/runtime/export"
	"github.com/geodisaster/engine/scoring"
)

// TestFullReleaseProjection projects a full synthetic release (opt-in: set
// GEODISASTER_FULL_CORPUS to a "geodisaster synth --full" directory; it
// takes minutes) and requires the spec's row counts exactly, zero drift
// and no group across the split.
func TestFullReleaseProjection(t *testing.T) {
	dir := os.Getenv("GEODISASTER_FULL_CORPUS")
	if dir == "" {
		t.Skip("set GEODISASTER_FULL_CORPUS to a synth --full corpus")
	}
	fx := openFixture(t, dir, filepath.Join(dir, "records.jsonl"))
	canon, val := fx.canon, fx.val
	out := t.TempDir()
	m, err := export.Export(context.Background(), export.NewProjector(fx.eng, val, dir), canon, export.Options{OutputDir: out, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{
		export.CoreTasks:          {2629, 292},
		export.MultiAgentEpisodes: {2629, 292}, export.SingleAgentEpisodes: {2629, 292},
		export.ORCSFT: {11895, 1318}, export.GASFT: {11127, 1235}, export.PASFT: {5899, 656},
		export.VRASFT: {2763, 302}, export.SingleAgentSFT: {18410, 2043},
	}
	for name, w := range want {
		if p := m.Projections[name]; [2]int{p.Train, p.Test} != w {
			t.Errorf("%s: %d/%d, the spec says %d/%d", name, p.Train, p.Test, w[0], w[1])
		}
	}
	if m.SFTRows != 55648 || m.TerminalTargets != 5842 || len(m.TerminalActions) != 2 {
		t.Errorf("%d SFT rows, %d terminal targets %v", m.SFTRows, m.TerminalTargets, m.TerminalActions)
	}
	if m.DuplicateTrajectoryGroups != 41 || m.DuplicateTrajectoryRecords != 114 || m.CrossSplitTrajectoryGroups != 0 {
		t.Errorf("trajectory groups %d/%d, %d across splits", m.DuplicateTrajectoryGroups, m.DuplicateTrajectoryRecords, m.CrossSplitTrajectoryGroups)
	}
	rep, err := export.Verify(out, canon, val)
	if err != nil || !rep.OK {
		t.Fatalf("verify: %v %v", err, rep.Drifts)
	}
	f, err := os.Open(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	srecs, err := scoring.ReadSplitRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	var eps []scoring.EpisodeTrajectory
	for _, split := range export.Splits {
		g, err := os.Open(filepath.Join(out, export.File(export.SingleAgentEpisodes, split)))
		if err != nil {
			t.Fatal(err)
		}
		e, err := scoring.ReadEpisodeTrajectories(g, split)
		g.Close()
		if err != nil {
			t.Fatal(err)
		}
		eps = append(eps, e...)
	}
	if err := scoring.WithEpisodes(srecs, eps); err != nil {
		t.Fatal(err)
	}
	if a := scoring.AuditSplits(srecs); !a.OK || a.DuplicateGroups != 41 || a.DuplicateRecords != 114 {
		t.Fatalf("audit: ok %v groups %d/%d cross %v", a.OK, a.DuplicateGroups, a.DuplicateRecords, a.CrossSplitGroups)
	}
}
