package export_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/internal/synthtest"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/episode"
	"github.com/geodisaster/engine/runtime/export"
	"github.com/geodisaster/engine/workers"
)

// exportTypes cover every family and every shape of delegation: GA then
// PA, GA-VRA-PA, GA-VRA, GA-PA-GA, GA-PA-VRA and GA-VRA-PA-GA.
var exportTypes = []string{"baseline_canopy_assessment", "wildfire_d", "xbd_q7", "xbd_q4", "fastest_safest", "visual_overlay", "sen1_flood_d", "sen1_flood_e"}

type fixture struct {
	root  string
	canon *export.Canonical // the records as read from their file
	recs  []workers.Record  // canon.Records
	eng   *runtime.Engine
	val   *episode.Validator
}

// newFixture synthesizes two records per type; the second of each is in
// the test split.
func newFixture(t testing.TB) *fixture {
	t.Helper()
	root, recs := synthtest.Corpus(t, synth.Options{Types: exportTypes, PerType: 2, Seed: 11})
	seen := map[string]bool{}
	for i := range recs {
		if seen[recs[i].QuestionType] {
			recs[i].Split = "test"
		}
		seen[recs[i].QuestionType] = true
	}
	path := filepath.Join(t.TempDir(), "records.jsonl")
	var buf bytes.Buffer
	if err := workers.WriteRecords(&buf, recs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return openFixture(t, root, path)
}

// openFixture reads the canonical records file at path and opens an
// engine, writing artifacts to a temporary directory, over the dataset
// root.
func openFixture(t testing.TB, root, path string) *fixture {
	t.Helper()
	canon, err := export.ReadCanonical(path)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: root, ArtifactDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	val, err := episode.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{root: root, canon: canon, recs: canon.Records, eng: eng, val: val}
}

// canonical is the canonical source of records held in memory.
func canonical(t testing.TB, recs []workers.Record) *export.Canonical {
	t.Helper()
	c, err := export.NewCanonical(recs)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (f *fixture) export(t *testing.T, recs []workers.Record) (string, *export.Manifest) {
	t.Helper()
	out := t.TempDir()
	m, err := export.Export(context.Background(), export.NewProjector(f.eng, f.val, f.root), canonical(t, recs), export.Options{OutputDir: out, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return out, m
}

func TestExportCountsAndVerify(t *testing.T) {
	f := newFixture(t)
	out, m := f.export(t, f.recs)
	want := map[string][2]int{}
	add := func(name, split string, n int) {
		c := want[name]
		if split == "train" {
			c[0] += n
		} else {
			c[1] += n
		}
		want[name] = c
	}
	for _, r := range f.recs {
		c, err := export.CountTurns(r)
		if err != nil {
			t.Fatal(err)
		}
		add(export.CoreTasks, r.Split, 1)
		add(export.MultiAgentEpisodes, r.Split, 1)
		add(export.SingleAgentEpisodes, r.Split, 1)
		add(export.ORCSFT, r.Split, c.ORC)
		add(export.GASFT, r.Split, c.GA)
		add(export.PASFT, r.Split, c.PA)
		add(export.VRASFT, r.Split, c.VRA)
		add(export.SingleAgentSFT, r.Split, c.Single)
	}
	rows := 0
	for _, name := range export.Projections() {
		ps := m.Projections[name]
		if got := [2]int{ps.Train, ps.Test}; got != want[name] {
			t.Errorf("%s: %v rows, the chains give %v", name, got, want[name])
		}
		if name != export.CoreTasks && name != export.MultiAgentEpisodes && name != export.SingleAgentEpisodes {
			rows += ps.Train + ps.Test
		}
		for _, rel := range ps.Files {
			if fi, ok := m.Files[rel]; !ok || fi.SHA256 == "" {
				t.Errorf("%s not in the manifest", rel)
			}
		}
	}
	if m.SFTRows != rows || m.TerminalTargets != 2*len(f.recs) || len(m.TerminalActions) != 2 {
		t.Errorf("sft rows %d (want %d), terminal targets %d %v", m.SFTRows, rows, m.TerminalTargets, m.TerminalActions)
	}
	// Every terminal target is the reference-only action.
	for _, split := range export.Splits {
		for _, name := range []string{export.ORCSFT, export.SingleAgentSFT} {
			b, err := os.ReadFile(filepath.Join(out, export.File(name, split)))
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
				var row episode.Turn
				if err := json.Unmarshal(line, &row); err != nil {
					t.Fatal(err)
				}
				if row.Target.Tool == runtime.ToolTerminate || row.Target.Tool == runtime.ToolFinalAnswer {
					if len(row.Target.Args) != 1 || row.Target.Args["answer_ref"] != runtime.AnswerRef {
						t.Errorf("%s: terminal target %v", row.ID, row.Target)
					}
				}
				for _, msg := range row.Messages {
					if strings.Contains(msg.Content, f.root) {
						t.Errorf("%s: a message names the dataset root", row.ID)
					}
				}
			}
		}
	}
	// The core files are the canonical lines, split by split, byte for
	// byte.
	for _, split := range export.Splits {
		var want []byte
		for i, r := range f.canon.Records {
			if r.Split == split {
				want = append(append(want, f.canon.Lines[i]...), '\n')
			}
		}
		got, err := os.ReadFile(filepath.Join(out, export.File(export.CoreTasks, split)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: not the canonical %s lines", export.File(export.CoreTasks, split), split)
		}
	}
	rep, err := export.Verify(out, f.canon, f.val)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK {
		t.Fatalf("fresh export drifts: %v", rep.Drifts[0])
	}
}

// TestExportIsDeterministic checks that the export is byte-identical for
// one and for several workers.
func TestExportIsDeterministic(t *testing.T) {
	f := newFixture(t)
	_, ma := f.export(t, f.recs)
	out := t.TempDir()
	mb, err := export.Export(context.Background(), export.NewProjector(f.eng, f.val), f.canon, export.Options{OutputDir: out, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for rel, fi := range ma.Files {
		if mb.Files[rel] != fi {
			t.Errorf("%s differs between 2 workers and 1", rel)
		}
	}
}

// TestExportFailureLeavesNothing checks that a record that cannot be
// replayed fails the export and leaves no files and no manifest.
func TestExportFailureLeavesNothing(t *testing.T) {
	f := newFixture(t)
	bad := append([]workers.Record(nil), f.recs...)
	card := bad[3].Handles["question_1"].Files[0]
	if err := os.WriteFile(filepath.Join(f.root, card.Path), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	// A previous export's manifest must not survive a failed run.
	if err := os.WriteFile(filepath.Join(out, export.ManifestFile), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := export.Export(context.Background(), export.NewProjector(f.eng, f.val), canonical(t, bad), export.Options{OutputDir: out, Workers: 2})
	if err == nil || !strings.Contains(err.Error(), bad[3].ID) {
		t.Fatalf("export of a broken record: %v", err)
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 0 {
		t.Fatalf("a failed export left %v", entries)
	}
	// A record without a split cannot be projected.
	nosplit := append([]workers.Record(nil), f.recs[:1]...)
	nosplit[0].Split = ""
	if _, err := export.Export(context.Background(), export.NewProjector(f.eng, f.val), canonical(t, nosplit), export.Options{OutputDir: t.TempDir()}); err == nil {
		t.Fatal("a record without a split was projected")
	}
}

// TestExportTrajectoryGroups checks that a path-renamed copy of a record
// shares its trajectory group, and the summary counts the group.
func TestExportTrajectoryGroups(t *testing.T) {
	f := newFixture(t)
	src := f.recs[8] // fastest_safest, train
	if src.QuestionType != "fastest_safest" || src.Split != "train" {
		t.Fatalf("fixture order changed: %s %s", src.ID, src.Split)
	}
	var cp workers.Record
	b, _ := json.Marshal(src)
	if err := json.Unmarshal([]byte(strings.ReplaceAll(string(b), src.SampleID, "copy_of_fs")), &cp); err != nil {
		t.Fatal(err)
	}
	cp.Answer = src.Answer
	for name, h := range src.Handles {
		for i, fc := range h.Files {
			data, _ := os.ReadFile(filepath.Join(f.root, fc.Path))
			dst := filepath.Join(f.root, cp.Handles[name].Files[i].Path)
			os.MkdirAll(filepath.Dir(dst), 0o755)
			os.WriteFile(dst, data, 0o644)
		}
	}
	recs := append(append([]workers.Record(nil), f.recs...), cp)
	_, m := f.export(t, recs)
	if m.DuplicateTrajectoryGroups != 1 || m.DuplicateTrajectoryRecords != 2 || m.CrossSplitTrajectoryGroups != 0 {
		t.Fatalf("groups %d/%d, cross %d", m.DuplicateTrajectoryGroups, m.DuplicateTrajectoryRecords, m.CrossSplitTrajectoryGroups)
	}
}

// TestExportRefusesHostPaths checks that a row naming a path under a
// host directory fails the projection (the check looks for JSON strings
// that start with the directory, in rows and in observation texts).
func TestExportRefusesHostPaths(t *testing.T) {
	f := newFixture(t)
	// Declared paths start with source_assets/: treat it as a host
	// directory to see the check fire.
	p := export.NewProjector(f.eng, f.val, "source_assets")
	_, err := p.Project(context.Background(), f.recs[0])
	if err == nil || !strings.Contains(err.Error(), "names a host path under source_assets/") {
		t.Fatalf("host path not refused: %v", err)
	}
	// The real dataset root never appears: paths are repository-relative.
	if _, err := export.NewProjector(f.eng, f.val, f.root, "/").Project(context.Background(), f.recs[0]); err != nil {
		t.Fatal(err)
	}
}
