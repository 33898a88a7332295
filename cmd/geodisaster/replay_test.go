package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	kit "github.com/geodisaster/engine/internal/cli"
)

// cli runs the CLI with empty stdin.
func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runCLI(t, "", args...)
}

func TestReplayDefaultCorpusIsFixtureAndCorrect(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := cli(t, "replay", "--output-dir", out, "--json")
	if code != kit.ExitOK {
		t.Fatalf("replay exit %d\n%s\n%s", code, stdout, stderr)
	}
	var rep struct {
		Corpus      struct{ Status string }
		Records     int
		ReadDenials int                                                 `json:"read_denials"`
		ByType      map[string]struct{ Records, Executed, Correct int } `json:"by_type"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Corpus.Status != "FIXTURE" {
		t.Fatalf("embedded corpus status %q, want FIXTURE", rep.Corpus.Status)
	}
	if rep.ReadDenials != 0 {
		t.Fatalf("%d read denials in a GT replay", rep.ReadDenials)
	}
	for _, typ := range []string{"baseline_canopy_assessment", "wildfire_a"} {
		tt := rep.ByType[typ]
		if tt.Records == 0 || tt.Correct != tt.Records || tt.Executed != tt.Records {
			t.Errorf("%s: %+v", typ, tt)
		}
	}
	lines := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(out, "results.jsonl"))), "\n")
	if len(lines) != rep.Records {
		t.Fatalf("results.jsonl has %d lines, report %d records", len(lines), rep.Records)
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "question_type", "family", "status", "answer", "correct", "error"} {
		if _, ok := first[k]; !ok {
			t.Errorf("results.jsonl line lacks %q", k)
		}
	}
	if len(first) != 7 {
		t.Errorf("results.jsonl line has extra keys: %v", first)
	}
	requireRegenerable(t, stdout, out)
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readJSON decodes the JSON file p into v.
func readJSON(t *testing.T, p string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(readFile(t, p)), v); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
}

// TestShardsMergeToUnsharded replays a corpus whole and in four shards and
// requires the merged results and per-type report to equal the whole run.
func TestShardsMergeToUnsharded(t *testing.T) {
	in := sharedCorpus(t)
	whole := t.TempDir()
	if code, _, e := cli(t, "replay", "--input", in, "--output-dir", whole); code != kit.ExitOK {
		t.Fatalf("replay: %s", e)
	}
	shards := sharedShards(t)
	merged := t.TempDir()
	if code, _, e := cli(t, append([]string{"merge", "--output-dir", merged, "--input", in}, shards...)...); code != kit.ExitOK {
		t.Fatalf("merge: %s", e)
	}
	if html := readFile(t, filepath.Join(merged, "report.html")); !strings.Contains(html, "sen1_flood_e") || !strings.Contains(html, "<html") {
		t.Fatalf("merged report.html lacks the type rows (%d bytes)", len(html))
	}
	// --input must be the corpus the shards replayed.
	other := filepath.Join(t.TempDir(), "records.jsonl")
	if err := os.WriteFile(other, []byte(readFile(t, in)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, e := cli(t, append([]string{"merge", "--output-dir", t.TempDir(), "--input", other}, shards...)...); code == kit.ExitOK || !strings.Contains(e, "SHA-256") {
		t.Fatalf("merge with another corpus as --input: exit %d, %s", code, e)
	}
	if a, b := readFile(t, filepath.Join(whole, "results.jsonl")), readFile(t, filepath.Join(merged, "results.jsonl")); a != b {
		t.Fatalf("merged results differ from the unsharded run:\n%s\nvs\n%s", a, b)
	}
	strip := func(p string) string {
		var m map[string]any
		if err := json.Unmarshal([]byte(readFile(t, p)), &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "wall_seconds")
		delete(m, "workers")
		// Per-family record times are measured, not replayed: same
		// families, different seconds.
		secs, ok := m["record_seconds_by_family"].(map[string]any)
		if !ok || len(secs) == 0 {
			t.Fatalf("%s: no record_seconds_by_family", p)
		}
		fams := make([]string, 0, len(secs))
		for f := range secs {
			fams = append(fams, f)
		}
		sort.Strings(fams)
		m["record_seconds_by_family"] = fams
		b, _ := json.Marshal(m)
		return string(b)
	}
	if a, b := strip(filepath.Join(whole, "report.json")), strip(filepath.Join(merged, "report.json")); a != b {
		t.Fatalf("merged report differs:\n%s\n%s", a, b)
	}
	// Artifacts and traces of every record are present after the merge.
	ents, _ := os.ReadDir(filepath.Join(merged, "traces"))
	wents, _ := os.ReadDir(filepath.Join(whole, "traces"))
	if len(ents) != len(wents) {
		t.Fatalf("merged %d traces, whole run %d", len(ents), len(wents))
	}
}

func TestReplayUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"replay", "--workers", "0"},
		{"replay", "--shard", "4/4"},
		{"replay", "--type", "nope"},
		{"replay", "--family", "nope"},
		{"replay", "extra"},
		{"nosuchcommand"},
	} {
		if code, _, _ := cli(t, args...); code != kit.ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, kit.ExitUsage)
		}
	}
	if code, _, e := cli(t, "replay", "--input", filepath.Join(t.TempDir(), "missing.jsonl")); code != kit.ExitCannotRun || !strings.Contains(e, "missing.jsonl") {
		t.Errorf("missing input: exit %d %s", code, e)
	}
}
