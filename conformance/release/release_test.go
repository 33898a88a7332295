package release

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/internal/testdir"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// fixtureTypes is a small cross-family selection of synth-supported types
// (one or two per family, including Sen1Floods11 for the hydration path).
var fixtureTypes = []string{"baseline_canopy_assessment", "wildfire_a", "xbd_q5", "nearest_shelter", "sen1_flood_e"}

// fixture is one pristine fixture per test binary; tests copy it before
// tampering.
var fixture testdir.Once

func pristineFixture(t *testing.T) string {
	t.Helper()
	return fixture.Dir(t, "release-fixture-", func(dir string) error {
		types := []string{}
		supported := map[string]bool{}
		for _, s := range synth.SupportedTypes() {
			supported[s] = true
		}
		for _, ty := range fixtureTypes {
			if supported[ty] {
				types = append(types, ty)
			}
		}
		if _, err := BuildFixture(context.Background(), dir, synth.Options{Types: types, PerType: 2, Seed: 7}); err != nil {
			return fmt.Errorf("BuildFixture: %w", err)
		}
		return nil
	})
}

// copyFixture copies the pristine fixture into a fresh directory.
func copyFixture(t *testing.T) string {
	t.Helper()
	return testdir.Copy(t, pristineFixture(t))
}

func TestMain(m *testing.M) {
	code := m.Run()
	fixture.Remove()
	os.Exit(code)
}

func runRelease(t *testing.T, opts Options) *Report {
	t.Helper()
	if opts.Workers == 0 {
		opts.Workers = 2
	}
	rep, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return rep
}

func check(rep *Report, name string) Check {
	for _, c := range rep.Checks {
		if c.Name == name {
			return c
		}
	}
	return Check{}
}

func TestNoReleaseRootIsResourceBlocked(t *testing.T) {
	for _, root := range []string{"", filepath.Join(t.TempDir(), "absent"), t.TempDir()} {
		rep := runRelease(t, Options{ReleaseRoot: root})
		if rep.Status != runtime.StatusResourceBlocked {
			t.Fatalf("root %q: status %s, want RESOURCE_BLOCKED", root, rep.Status)
		}
		if len(rep.StatusReasons) == 0 {
			t.Errorf("root %q: no reason given", root)
		}
		if len(rep.Types) != 43 {
			t.Fatalf("%d type rows, want 43", len(rep.Types))
		}
		for _, ty := range rep.Types {
			if ty.Status != runtime.StatusResourceBlocked {
				t.Errorf("root %q: type %s is %s, want RESOURCE_BLOCKED", root, ty.QuestionType, ty.Status)
			}
		}
		if rep.FactSummary[FactOK] != 0 || rep.FactSummary[FactMismatch] != 0 || rep.FactSummary[FactNotCheckable] != len(rep.Facts) {
			t.Errorf("root %q: facts %v, want all not checkable", root, rep.FactSummary)
		}
	}
}

func TestFixtureReleaseIsFixture(t *testing.T) {
	root := pristineFixture(t)
	rep := runRelease(t, Options{ReleaseRoot: root})
	if rep.Status != runtime.StatusFixture {
		t.Fatalf("status %s (%v), want FIXTURE", rep.Status, rep.StatusReasons)
	}
	if c := check(rep, "checksum"); c.Status != CheckFail || !strings.Contains(c.Detail, CanonicalSHA256) {
		t.Errorf("checksum check %+v: a fixture's digest is not canonical", c)
	}
	for _, name := range []string{"fixture_manifest", "inventory", "test_inputs", "paths", "hydration_manifest", "adapter"} {
		if c := check(rep, name); c.Status != CheckPass {
			t.Errorf("check %s: %s %s", name, c.Status, c.Detail)
		}
	}
	if h := rep.Hydration; h == nil || h.Entries == 0 || h.Verified != h.Entries {
		t.Errorf("hydration report %+v: every pinned Sen1Floods11 file should verify", h)
	}
	if len(rep.Adapter.Unmapped) != 0 {
		t.Errorf("our own record format left unmapped fields: %+v", rep.Adapter.Unmapped)
	}
	ran := 0
	for _, ty := range rep.Types {
		if ty.Records == 0 {
			if ty.Status != runtime.StatusNotRun {
				t.Errorf("type %s without records is %s", ty.QuestionType, ty.Status)
			}
			continue
		}
		ran++
		if ty.Status != runtime.StatusFixture || ty.Executed != ty.Records || ty.Valid != ty.Records || ty.Correct != ty.Records || ty.GoldSchemaValid != ty.Records {
			t.Errorf("type %s: %+v", ty.QuestionType, ty)
		}
	}
	if ran == 0 {
		t.Fatal("no type ran")
	}
	if rep.FactSummary[FactNotCheckable] != len(rep.Facts) || len(rep.Facts) == 0 {
		t.Errorf("facts %v: on a FIXTURE corpus every fact must be not checkable", rep.FactSummary)
	}
	var buf bytes.Buffer
	if err := rep.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "corpus status FIXTURE") {
		t.Errorf("table lacks the status:\n%s", buf.String())
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Fatal(err)
	}
}

func TestTamperedRecordsRefused(t *testing.T) {
	root := copyFixture(t)
	p := filepath.Join(root, filepath.FromSlash(CanonicalRecordsPath))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// Drop the last record: the digest no longer matches the fixture's
	// manifest and the inventory shrinks.
	lines := strings.SplitAfter(strings.TrimRight(string(b), "\n"), "\n")
	if err := os.WriteFile(p, []byte(strings.Join(lines[:len(lines)-1], "")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := runRelease(t, Options{ReleaseRoot: root})
	// Edited generated material stays FIXTURE (never DEGRADED, which is
	// for a real but partial corpus) and does not verify.
	if rep.Status != runtime.StatusFixture || rep.CorpusVerified {
		t.Fatalf("status %s verified %v, want an unverified FIXTURE", rep.Status, rep.CorpusVerified)
	}
	joined := strings.Join(rep.StatusReasons, "\n")
	for _, want := range []string{"checksum", "inventory", CanonicalSHA256} {
		if !strings.Contains(joined, want) {
			t.Errorf("reasons lack %q:\n%s", want, joined)
		}
	}
	if c := check(rep, "fixture_manifest"); c.Status != CheckFail || !strings.Contains(c.Detail, "the fixture manifest pins") {
		t.Errorf("fixture manifest check %+v", c)
	}
	for _, ty := range rep.Types {
		if ty.Status == runtime.StatusReal || ty.Status == runtime.StatusDegraded {
			t.Errorf("type %s is %s on a tampered fixture", ty.QuestionType, ty.Status)
		}
	}
}

func TestTamperedInputRefused(t *testing.T) {
	root := copyFixture(t)
	rec, victim := inputFile(t, root)
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(victim)), []byte("tampered"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := runRelease(t, Options{ReleaseRoot: root})
	if rep.Status != runtime.StatusFixture || rep.CorpusVerified {
		t.Fatalf("status %s verified %v, want an unverified FIXTURE", rep.Status, rep.CorpusVerified)
	}
	if c := check(rep, "fixture_manifest"); c.Status != CheckFail || !strings.Contains(c.Detail, victim) {
		t.Errorf("fixture manifest check %+v should name %s", c, victim)
	}
	if ty := rep.row(rec.QuestionType); ty.Status != runtime.StatusFailed || ty.MismatchTotal == 0 {
		t.Errorf("type %s with a tampered input: %+v", rec.QuestionType, ty)
	}
}

// TestInventoryGate pretends the fixture's digest is canonical: the
// inventory (86 or so records, not 2,921) must still refuse REAL, and with
// a matching expected inventory the gate opens.
func TestInventoryGate(t *testing.T) {
	root := pristineFixture(t)
	sum, _, err := fileSHA256(filepath.Join(root, filepath.FromSlash(CanonicalRecordsPath)))
	if err != nil {
		t.Fatal(err)
	}
	rep := runRelease(t, Options{ReleaseRoot: root, CanonicalSHA256: sum})
	// The canonical records (by the overridden digest) with a partial
	// release: DEGRADED, the one rung for a real but partial corpus.
	if rep.Status != runtime.StatusDegraded || rep.CorpusVerified {
		t.Fatalf("canonical records, wrong inventory: %s verified %v, want an unverified DEGRADED", rep.Status, rep.CorpusVerified)
	}
	if c := check(rep, "inventory"); c.Status != CheckFail || !strings.Contains(c.Detail, "want 2921") {
		t.Errorf("inventory check %+v", c)
	}
	if !strings.Contains(strings.Join(rep.StatusReasons, "\n"), "inventory") {
		t.Errorf("reasons %v lack the inventory", rep.StatusReasons)
	}

	inv := *rep.Inventory
	rep = runRelease(t, Options{ReleaseRoot: root, CanonicalSHA256: sum, ExpectedInventory: &inv})
	if rep.Status != runtime.StatusReal || !rep.CorpusVerified {
		t.Fatalf("gate with matching digest and inventory: %s %v", rep.Status, rep.StatusReasons)
	}
	if !strings.Contains(strings.Join(rep.StatusReasons, "\n"), "canonical digest overridden") {
		t.Errorf("an overridden digest must be disclosed: %v", rep.StatusReasons)
	}
	// On a "REAL" corpus the facts are checked: the small corpus cannot
	// match the published counts.
	if rep.FactSummary[FactMismatch] == 0 {
		t.Errorf("facts %v: expected mismatches against the published population", rep.FactSummary)
	}
	// ... and sen1_flood_e is replayed twice: its artifacts reproduce.
	if ty := rep.row("sen1_flood_e"); ty.Records > 0 {
		if ty.Repeated != ty.Records || ty.Reproduced != ty.Records {
			t.Errorf("sen1_flood_e: repeated %d reproduced %d of %d", ty.Repeated, ty.Reproduced, ty.Records)
		}
		for _, f := range rep.Facts {
			if f.ID == "t43.artifacts_reproduce" && (f.Status != FactMismatch || !strings.HasPrefix(f.Observed, fmt.Sprintf("%d of %d", ty.Records, ty.Records))) {
				t.Errorf("%+v", f)
			}
		}
	}
}

// TestReferenceArtifacts pins replay products in the canonical records'
// provenance: matching digests are counted, a wrong digest fails the type
// and names the locator.
func TestReferenceArtifacts(t *testing.T) {
	root := copyFixture(t)
	p := filepath.Join(root, filepath.FromSlash(CanonicalRecordsPath))
	recs, err := workers.ReadRecordsFile(p, true)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: root, ArtifactDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	pinned := 0
	var target string
	for i := range recs {
		if recs[i].QuestionType != "sen1_flood_e" {
			continue
		}
		target = recs[i].QuestionType
		res := eng.ReplayRecord(context.Background(), recs[i])
		var refs []map[string]any
		for _, c := range res.Calls {
			for _, a := range c.Artifacts {
				sum := a.SHA256
				if pinned == 0 {
					sum = strings.Repeat("0", 64) // one wrong pin
				}
				refs = append(refs, map[string]any{"locator": "generated-artifact://reference/" + recs[i].ID + "/" + a.Name, "sha256": sum})
				pinned++
			}
		}
		refs = append(refs, map[string]any{"locator": "generated-artifact://reference/x/not_ours.png", "sha256": strings.Repeat("1", 64)})
		recs[i].Provenance, _ = json.Marshal(map[string]any{"replay_products": refs})
	}
	if target == "" {
		t.Skip("no sen1_flood_e record in the fixture")
	}
	var sb strings.Builder
	if err := workers.WriteRecords(&sb, recs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := runRelease(t, Options{ReleaseRoot: root})
	ty := rep.row(target)
	if ty.ReferenceArtifacts != pinned+2 || ty.ArtifactsMatched != pinned-1 || ty.ArtifactsDiffer != 1 || ty.ArtifactsUnmatched != 2 {
		t.Errorf("artifacts: %d pinned, %+v", pinned, ty)
	}
	if ty.Status != runtime.StatusFailed {
		t.Errorf("status %s: a differing reference artifact must fail the type", ty.Status)
	}
	found := false
	for _, m := range ty.Mismatches {
		if m.Stage == "artifact" && strings.HasPrefix(m.Path, "generated-artifact://reference/") {
			found = true
		}
	}
	if !found {
		t.Errorf("mismatches %+v lack the artifact", ty.Mismatches)
	}
}

func TestUnhydratedSen1FloodIsResourceBlocked(t *testing.T) {
	root := copyFixture(t)
	if err := os.RemoveAll(filepath.Join(root, filepath.FromSlash(Sen1FloodAssetsPrefix))); err != nil {
		t.Fatal(err)
	}
	rep := runRelease(t, Options{ReleaseRoot: root})
	ty := rep.row("sen1_flood_e")
	if ty.Records == 0 {
		t.Skip("synth produced no sen1_flood_e records")
	}
	if ty.Status != runtime.StatusResourceBlocked || ty.Blocked != ty.Records || ty.Executed != 0 {
		t.Errorf("unhydrated sen1_flood_e: %+v", ty)
	}
	if rep.Paths.HydrationPending == 0 || rep.Hydration == nil || rep.Hydration.Pending == 0 {
		t.Errorf("paths %+v hydration %+v: pending Sen1Floods11 files not reported", rep.Paths, rep.Hydration)
	}
	if c := check(rep, "paths"); c.Status != CheckPass {
		t.Errorf("absent Sen1Floods11 payload is hydration, not a path failure: %+v", c)
	}
	// The fixture manifest pins the removed files, so it no longer verifies.
	if rep.Status != runtime.StatusFixture || rep.CorpusVerified {
		t.Errorf("status %s verified %v", rep.Status, rep.CorpusVerified)
	}
}

func TestSymlinkEscapeRefused(t *testing.T) {
	root := copyFixture(t)
	rec, victim := inputFile(t, root)
	outside := filepath.Join(t.TempDir(), "outside.bin")
	full := filepath.Join(root, filepath.FromSlash(victim))
	b, _ := os.ReadFile(full)
	if err := os.WriteFile(outside, b, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(full)
	if err := os.Symlink(outside, full); err != nil {
		t.Skipf("symlinks unsupported: %v", err)
	}
	rep := runRelease(t, Options{ReleaseRoot: root})
	c := check(rep, "paths")
	if c.Status != CheckFail || !strings.Contains(c.Detail, "outside the release root") {
		t.Errorf("paths check %+v: a symlink out of the root must fail", c)
	}
	if rep.Status != runtime.StatusFixture || rep.CorpusVerified {
		t.Errorf("status %s verified %v, want an unverified FIXTURE", rep.Status, rep.CorpusVerified)
	}
	// The record is replayed and the runtime's read gate refuses the
	// symlink: the type fails rather than passing as "blocked".
	if ty := rep.row(rec.QuestionType); ty.Status != runtime.StatusFailed || ty.Executed == ty.Records {
		t.Errorf("type %s with an escaping input: %+v", rec.QuestionType, ty)
	}
}

// TestReleaseRoot runs REAL mode on the release named by
// GEODISASTER_RELEASE_ROOT.
func TestReleaseRoot(t *testing.T) {
	root := os.Getenv("GEODISASTER_RELEASE_ROOT")
	if root == "" {
		t.Skip("RESOURCE_BLOCKED: set GEODISASTER_RELEASE_ROOT to a GeoDisaster release root to run REAL-mode conformance")
	}
	rep := runRelease(t, Options{ReleaseRoot: root, Workers: 4})
	var buf bytes.Buffer
	if err := rep.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + buf.String())
	if rep.Status != runtime.StatusReal {
		t.Fatalf("release at %s is %s, not REAL: %v", root, rep.Status, rep.StatusReasons)
	}
	for _, ty := range rep.Types {
		if ty.Status != runtime.StatusReal {
			t.Errorf("type %s: %s %s", ty.QuestionType, ty.Status, ty.StatusReason)
		}
	}
	if rep.FactSummary[FactMismatch] > 0 {
		t.Errorf("%d published facts mismatch", rep.FactSummary[FactMismatch])
	}
}

// TestForeignLayoutIsReported gives the adapter records of a layout it
// does not know: nothing is guessed, every field is reported unmapped, the
// corpus (not the canonical release, vouched for by no manifest) is an
// unverified FIXTURE and no type pretends to have run.
func TestForeignLayoutIsReported(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, filepath.FromSlash(CanonicalRecordsPath))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	lines := `{"id":"a","qtype":"wildfire_a","inputs":{"x":"source_assets/x.tif"},"chain":"ReadData(question_1, x_1)"}
{"id":"b","qtype":"wildfire_b","inputs":{"x":"source_assets/y.tif"},"chain":"ReadData(question_1, x_1)"}
`
	if err := os.WriteFile(p, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := runRelease(t, Options{ReleaseRoot: root})
	if rep.Status != runtime.StatusFixture || rep.CorpusVerified {
		t.Fatalf("status %s verified %v", rep.Status, rep.CorpusVerified)
	}
	if c := check(rep, "adapter"); c.Status != CheckFail {
		t.Errorf("adapter check %+v", c)
	}
	unmapped := map[string]int{}
	for _, u := range rep.Adapter.Unmapped {
		unmapped[u.Field] = u.Records
	}
	for _, f := range []string{"qtype", "inputs", "chain"} {
		if unmapped[f] != 2 {
			t.Errorf("unmapped %v: want %s in 2 records", rep.Adapter.Unmapped, f)
		}
	}
	if len(rep.Adapter.Errors) != 2 || rep.Replayed != 0 {
		t.Errorf("errors %+v, replayed %d", rep.Adapter.Errors, rep.Replayed)
	}
	for _, ty := range rep.Types {
		if ty.Status != runtime.StatusNotRun || !strings.Contains(ty.StatusReason, "could not be mapped") {
			t.Errorf("%s: %s %q", ty.QuestionType, ty.Status, ty.StatusReason)
			break
		}
	}
}

// inputFile returns the first canonical record of the release at root
// and the path of the first file of its first input handle (by name).
func inputFile(t *testing.T, root string) (workers.Record, string) {
	t.Helper()
	recs, err := workers.ReadRecordsFile(filepath.Join(root, filepath.FromSlash(CanonicalRecordsPath)), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range workers.SortedKeys(recs[0].Handles) {
		if h := recs[0].Handles[name]; h.Kind == "input" {
			return recs[0], h.Files[0].Path
		}
	}
	t.Fatalf("record %s has no input handle", recs[0].ID)
	return workers.Record{}, ""
}
