package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/conformance/release"
	"github.com/geodisaster/engine/conformance/synth"
	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/runtime"
)

// replayStatus replays input and returns the corpus status and note of
// report.json.
func replayStatus(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	out := t.TempDir()
	code, stdout, stderr := cli(t, append([]string{"replay", "--json", "--output-dir", out}, args...)...)
	var rep struct {
		Corpus  struct{ Status, Note string }
		Records int
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("replay %v: exit %d: %v\n%s", args, code, err, stderr)
	}
	return rep.Corpus.Status, rep.Corpus.Note, code
}

func smallCorpus(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if code, _, e := cli(t, "synth", "--out", dir, "--types", "baseline_canopy_assessment,xbd_q5", "--per-type", "1", "--seed", "4"); code != kit.ExitOK {
		t.Fatalf("synth: %s", e)
	}
	return dir
}

// Synthetic material is never above FIXTURE, whatever sits beside it.
func TestStatusSyntheticWithoutManifestIsFixture(t *testing.T) {
	dir := smallCorpus(t)
	if err := os.Remove(filepath.Join(dir, "corpus.json")); err != nil {
		t.Fatal(err)
	}
	if s, note, _ := replayStatus(t, "--input", filepath.Join(dir, "records.jsonl")); s != runtime.StatusFixture || !strings.Contains(note, "not the canonical release") {
		t.Errorf("no manifest: %s (%s), want FIXTURE", s, note)
	}
}

func TestStatusManifestClaimingRealIsIgnored(t *testing.T) {
	dir := smallCorpus(t)
	p := filepath.Join(dir, "corpus.json")
	var m map[string]any
	readJSON(t, p, &m)
	m["status"] = runtime.StatusReal
	b, _ := json.Marshal(m)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if s, _, _ := replayStatus(t, "--input", filepath.Join(dir, "records.jsonl")); s != runtime.StatusFixture {
		t.Errorf("a manifest claiming REAL: %s, want FIXTURE", s)
	}
}

func TestStatusEditedSyntheticRecordsAreFixture(t *testing.T) {
	dir := smallCorpus(t)
	p := filepath.Join(dir, "records.jsonl")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, note, _ := replayStatus(t, "--input", p); s != runtime.StatusFixture || !strings.Contains(note, "edited") {
		t.Errorf("edited records: %s (%s), want FIXTURE", s, note)
	}
}

// A --make-fixture corpus replays from its records path (the dataset root
// defaults to its release root) as FIXTURE, every record correct.
func TestStatusMakeFixtureReplaysAsFixture(t *testing.T) {
	root := filepath.Join(t.TempDir(), "rel")
	if code, _, e := cli(t, "conformance", "--make-fixture", root, "--per-type", "1"); code != kit.ExitOK {
		t.Fatalf("make-fixture: %s", e)
	}
	s, note, code := replayStatus(t, "--input", filepath.Join(root, filepath.FromSlash(release.CanonicalRecordsPath)), "--type", "xbd_q5")
	if s != runtime.StatusFixture || code != kit.ExitOK || !strings.Contains(note, "synthetic corpus") {
		t.Errorf("make-fixture replay: %s (%s), exit %d; want FIXTURE, exit 0", s, note, code)
	}
}

// Only the canonical release's digest reaches REAL; DEGRADED is left to
// conformance, which verifies the rest of a real release.
func TestCorpusStatusRule(t *testing.T) {
	m := &synth.Manifest{Generator: "geodisaster synth", Status: runtime.StatusReal, RecordsSHA256: "abc"}
	for _, c := range []struct {
		sum  string
		m    *synth.Manifest
		want string
	}{
		{release.CanonicalSHA256, nil, runtime.StatusReal},
		{release.CanonicalSHA256, m, runtime.StatusReal},
		{"abc", m, runtime.StatusFixture},
		{"def", m, runtime.StatusFixture},
		{"def", nil, runtime.StatusFixture},
	} {
		if got, _ := corpusStatus(c.sum, c.m); got != c.want {
			t.Errorf("corpusStatus(%s, %v) = %s, want %s", c.sum, c.m != nil, got, c.want)
		}
	}
}
