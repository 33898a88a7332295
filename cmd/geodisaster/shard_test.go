package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/internal/testdir"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// TestMain lets a test run this test binary as the geodisaster command
// (GEODISASTER_TEST_AS_CLI=1), so that signals and exit codes are those
// of a real process.
func TestMain(m *testing.M) {
	if os.Getenv("GEODISASTER_TEST_AS_CLI") == "1" {
		main()
		return
	}
	code := m.Run()
	sharedCorpusDir.Remove()
	sharedShardsDir.Remove()
	os.Exit(code)
}

var sharedCorpusDir testdir.Once

// sharedCorpus is a synthetic corpus of every type (5 records each, seed
// 3), generated once for the tests of this file; its records.jsonl path.
func sharedCorpus(t *testing.T) string {
	t.Helper()
	dir := sharedCorpusDir.Dir(t, "geodisaster-shard-test-", func(dir string) error {
		if code, _, e := cli(t, "synth", "--out", dir, "--per-type", "5", "--seed", "3"); code != kit.ExitOK {
			return fmt.Errorf("synth: exit %d: %s", code, e)
		}
		return nil
	})
	return filepath.Join(dir, "records.jsonl")
}

var sharedShardsDir testdir.Once

// sharedShards are the four shards of sharedCorpus's replay (replay
// --shard i/4), replayed once for the tests that only read them.
func sharedShards(t *testing.T) []string {
	t.Helper()
	in := sharedCorpus(t)
	dirs := make([]string, 4)
	base := sharedShardsDir.Dir(t, "geodisaster-shards-test-", func(base string) error {
		for i := range dirs {
			d := filepath.Join(base, fmt.Sprintf("shard-%d", i))
			if code, _, e := cli(t, "replay", "--input", in, "--output-dir", d, "--shard", fmt.Sprintf("%d/4", i)); code != kit.ExitOK {
				return fmt.Errorf("shard %d/4: exit %d: %s", i, code, e)
			}
		}
		return nil
	})
	for i := range dirs {
		dirs[i] = filepath.Join(base, fmt.Sprintf("shard-%d", i))
	}
	return dirs
}

// replayShards replays in into n shard directories under a new directory
// and returns them by index.
func replayShards(t *testing.T, in string, n int, extra ...string) []string {
	t.Helper()
	base := t.TempDir()
	dirs := make([]string, n)
	for i := range dirs {
		dirs[i] = filepath.Join(base, fmt.Sprintf("shard-%d", i))
		args := append([]string{"replay", "--input", in, "--output-dir", dirs[i], "--shard", fmt.Sprintf("%d/%d", i, n)}, extra...)
		if code, _, e := cli(t, args...); code != kit.ExitOK {
			t.Fatalf("shard %d/%d: exit %d: %s", i, n, code, e)
		}
	}
	return dirs
}

// requireNothingComplete fails when dir holds a manifest, results or a
// report (a refused or killed run must leave none).
func requireNothingComplete(t *testing.T, dir string) {
	t.Helper()
	for _, name := range []string{runtime.ManifestFile, runtime.ResultsFile, runtime.ReportFile, runtime.ReportHTMLFile, runtime.TracesDir} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s exists after a refused or interrupted run (%v)", filepath.Join(dir, name), err)
		}
	}
}

func TestMergeRefusesIncompleteOrForeignShards(t *testing.T) {
	in := sharedCorpus(t)
	shards := sharedShards(t)
	// A shard of another corpus: the same records with one gold answer
	// changed (another SHA-256).
	otherDir := t.TempDir()
	recs, err := workers.ReadRecordsFile(in, true)
	if err != nil {
		t.Fatal(err)
	}
	recs[0].Answer = json.RawMessage(`{"changed":true}`)
	other := filepath.Join(otherDir, "records.jsonl")
	if err := workers.WriteRecords(mustCreate(t, other), recs); err != nil {
		t.Fatal(err)
	}
	foreign1 := replayShard(t, other, filepath.Dir(in), t.TempDir(), 1, 4)
	// A shard that did not finish: a directory without a manifest.
	unfinished := filepath.Join(t.TempDir(), "shard-1")
	if err := os.MkdirAll(filepath.Join(unfinished, ".incomplete-123", "artifacts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		reason []string
	}{
		{"missing shard", []string{shards[0], shards[2], shards[3]}, []string{"shard 1/4 is missing"}},
		{"two missing", []string{shards[0], shards[2]}, []string{"2 of 4 shards are missing: 1/4, 3/4"}},
		{"duplicated shard", []string{shards[0], shards[1], shards[2], shards[3], shards[2]}, []string{"shard 2/4 appears 2 times: " + shards[2] + ", " + shards[2]}},
		{"shard of another corpus", []string{shards[0], foreign1, shards[2], shards[3]}, []string{foreign1 + " is shard 1/4 of another corpus", "shard 1/4 is missing"}},
		{"unfinished shard", []string{shards[0], unfinished, shards[2], shards[3]}, []string{unfinished + " has no manifest.json: not a finished shard", "shard 1/4 is missing"}},
		{"shard never ran", []string{shards[0], filepath.Join(otherDir, "shard-1"), shards[2], shards[3]}, []string{filepath.Join(otherDir, "shard-1") + " does not exist", "shard 1/4 is missing"}},
		{"wrong --input", append([]string{"--input", other}, shards...), []string{"no shard replayed the corpus with SHA-256", "the shards replayed"}},
		{"missing --input", append([]string{"--input", filepath.Join(otherDir, "absent.jsonl")}, shards...), []string{"--input", "absent.jsonl"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "merged")
			code, stdout, stderr := cli(t, append([]string{"merge", "--output-dir", out}, tc.args...)...)
			if code != kit.ExitCannotRun {
				t.Errorf("exit %d, want %d\n%s%s", code, kit.ExitCannotRun, stdout, stderr)
			}
			for _, r := range tc.reason {
				if !strings.Contains(stderr, r) {
					t.Errorf("stderr lacks %q:\n%s", r, stderr)
				}
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused merge created %s (%v)", out, err)
			}
		})
	}
	// The same four shards merge; a merge's output is not a shard.
	merged := filepath.Join(t.TempDir(), "merged")
	if code, _, e := cli(t, append([]string{"merge", "--output-dir", merged, "--input", in}, shards...)...); code != kit.ExitOK {
		t.Fatalf("complete merge: exit %d: %s", code, e)
	}
	if code, _, e := cli(t, "merge", "--output-dir", t.TempDir()+"/m", merged); code != kit.ExitCannotRun || !strings.Contains(e, "is a merge's output, not a shard") {
		t.Errorf("merging a merge: exit %d: %s", code, e)
	}
	// A shard whose results.jsonl changed after its manifest was written
	// (a copy: the shared shards stay as replayed).
	tampered := testdir.Copy(t, shards[3])
	b := readFile(t, filepath.Join(tampered, runtime.ResultsFile))
	if err := os.WriteFile(filepath.Join(tampered, runtime.ResultsFile), []byte(strings.Replace(b, `"correct":true`, `"correct":false`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "merged")
	if code, _, e := cli(t, "merge", "--output-dir", out, shards[0], shards[1], shards[2], tampered); code != kit.ExitCannotRun || !strings.Contains(e, "results.jsonl is not the file its manifest names") {
		t.Errorf("tampered shard: exit %d: %s", code, e)
	}
	requireNothingComplete(t, out)
}

// TestReplayRerunReplacesTheOldOutput reruns a replay of other records
// into the same directory: nothing of the first run survives.
func TestReplayRerunReplacesTheOldOutput(t *testing.T) {
	in := sharedCorpus(t)
	out := t.TempDir()
	if code, _, e := cli(t, "replay", "--input", in, "--type", "area_estimation", "--output-dir", out); code != kit.ExitOK {
		t.Fatalf("first run: %s", e)
	}
	if code, _, e := cli(t, "replay", "--input", in, "--type", "wildfire_a", "--output-dir", out); code != kit.ExitOK {
		t.Fatalf("rerun: %s", e)
	}
	for _, sub := range []string{runtime.TracesDir, runtime.ArtifactsDir} {
		ents, err := os.ReadDir(filepath.Join(out, sub))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		for _, e := range ents {
			if strings.Contains(e.Name(), "area_estimation") {
				t.Errorf("%s/%s of the first run survived the rerun", sub, e.Name())
			}
		}
	}
	m, err := runtime.ReadManifest(out)
	if err != nil || m.Filters.Type != "wildfire_a" || m.Replayed.Records != 5 {
		t.Fatalf("manifest after the rerun: %+v %v", m, err)
	}
	// Every output has one mode.
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := d.Info()
		want := runtime.OutputFileMode
		if d.IsDir() {
			want = runtime.OutputDirMode
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s has mode %v, want %v", p, fi.Mode().Perm(), want)
		}
		return nil
	})
	// A directory holding something else is refused, and kept as it is.
	mine := t.TempDir()
	if err := os.WriteFile(filepath.Join(mine, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, e := cli(t, "replay", "--input", in, "--type", "wildfire_a", "--output-dir", mine); code != kit.ExitCannotRun || !strings.Contains(e, "notes.txt") {
		t.Errorf("replay into a foreign directory: exit %d: %s", code, e)
	}
	if ents, _ := os.ReadDir(mine); len(ents) != 1 {
		t.Errorf("the refused directory now holds %d entries", len(ents))
	}
}

func TestReplayShardFromEnv(t *testing.T) {
	in := sharedCorpus(t)
	base := t.TempDir()
	t.Setenv("GEODISASTER_TEST_INDEX", "2")
	if code, _, e := cli(t, "replay", "--input", in, "--type", "wildfire_a", "--shard-count", "3", "--shard-from-env", "GEODISASTER_TEST_INDEX", "--output-dir", filepath.Join(base, "shard-{shard}")); code != kit.ExitOK {
		t.Fatalf("exit %d: %s", code, e)
	}
	m, err := runtime.ReadManifest(filepath.Join(base, "shard-2"))
	if err != nil || m.Shard != (runtime.Shard{Index: 2, Count: 3}) {
		t.Fatalf("manifest %+v %v", m, err)
	}
	for _, tc := range []struct {
		env  string
		args []string
		msg  string
	}{
		{"3", []string{"--shard-count", "3", "--shard-from-env", "GEODISASTER_TEST_INDEX"}, "is not a shard index 0..2"},
		{"x", []string{"--shard-count", "3", "--shard-from-env", "GEODISASTER_TEST_INDEX"}, "is not a shard index"},
		{"", []string{"--shard-count", "3", "--shard-from-env", "GEODISASTER_TEST_INDEX"}, "is not set"},
		{"1", []string{"--shard-from-env", "GEODISASTER_TEST_INDEX"}, "go together"},
		{"1", []string{"--shard", "1/3", "--shard-count", "3"}, "excludes"},
	} {
		t.Setenv("GEODISASTER_TEST_INDEX", tc.env)
		out := filepath.Join(t.TempDir(), "o")
		code, _, e := cli(t, append([]string{"replay", "--input", in, "--output-dir", out}, tc.args...)...)
		if code != kit.ExitUsage || !strings.Contains(e, tc.msg) {
			t.Errorf("%v with %q: exit %d: %s", tc.args, tc.env, code, e)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a usage error created %s", out)
		}
	}
}

// TestReplayKilledMidRun runs replay as a real process, stops it with
// SIGTERM (clean stop, exit 143) and with SIGKILL while it replays, and
// requires that neither leaves a manifest or anything that looks
// complete, that merge names the killed shard, and that a rerun into the
// same directory completes it.
func TestReplayKilledMidRun(t *testing.T) {
	if testing.Short() {
		t.Skip("replays a corpus in a child process")
	}
	in := sharedCorpus(t)
	shards := replayShards(t, in, 2)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "shard-1")
			cmd := exec.Command(os.Args[0], "replay", "--input", in, "--workers", "1", "--shard", "1/2", "--output-dir", dir)
			cmd.Env = append(os.Environ(), "GEODISASTER_TEST_AS_CLI=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait until it has written artifacts into its stage.
			deadline := time.Now().Add(60 * time.Second)
			for {
				stages, _ := filepath.Glob(filepath.Join(dir, ".incomplete-*", "artifacts", "*"))
				if len(stages) >= 3 {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatalf("no artifacts after 60 s: %s", stderr.String())
				}
				time.Sleep(5 * time.Millisecond)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("the replay was not stopped (it finished first?): %v\n%s", err, stderr.String())
			}
			if sig == syscall.SIGTERM && ee.ExitCode() != kit.ExitTerminated {
				t.Errorf("SIGTERM: exit %d, want %d\n%s", ee.ExitCode(), kit.ExitTerminated, stderr.String())
			}
			requireNothingComplete(t, dir)
			left, _ := filepath.Glob(filepath.Join(dir, ".incomplete-*"))
			if sig == syscall.SIGTERM && len(left) != 0 {
				t.Errorf("a cleanly stopped replay left its stage %v", left)
			}
			merged := filepath.Join(t.TempDir(), "merged")
			code, _, e := cli(t, "merge", "--output-dir", merged, shards[0], dir)
			if code != kit.ExitCannotRun || !strings.Contains(e, dir+" has no manifest.json") || !strings.Contains(e, "shard 1/2 is missing") {
				t.Errorf("merge with the killed shard: exit %d: %s", code, e)
			}
			requireNothingComplete(t, merged)
			// The rerun, as documented, completes the shard.
			if code, _, e := cli(t, "replay", "--input", in, "--shard", "1/2", "--output-dir", dir); code != kit.ExitOK {
				t.Fatalf("rerun: exit %d: %s", code, e)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".incomplete-*")); len(left) != 0 {
				t.Errorf("the rerun left %v", left)
			}
			if a, b := readFile(t, filepath.Join(dir, runtime.ResultsFile)), readFile(t, filepath.Join(shards[1], runtime.ResultsFile)); a != b {
				t.Error("the rerun shard differs from an uninterrupted one")
			}
		})
	}
}

// TestReportLinksFailuresToTraces replays a corpus whose gold answer of
// one record was changed: exit 1, and report.html links the failing row
// to the record's trace file, which exists.
func TestReportLinksFailuresToTraces(t *testing.T) {
	in := sharedCorpus(t)
	recs, err := workers.ReadRecordsFile(in, true)
	if err != nil {
		t.Fatal(err)
	}
	var sel []workers.Record
	for _, r := range recs {
		if r.QuestionType == "wildfire_a" {
			sel = append(sel, r)
		}
	}
	sel[0].Answer = json.RawMessage(`{"not":"the answer"}`)
	edited := filepath.Join(t.TempDir(), "records.jsonl")
	if err := workers.WriteRecords(mustCreate(t, edited), sel); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, _, e := cli(t, "replay", "--input", edited, "--dataset-root", filepath.Dir(in), "--output-dir", out)
	if code != kit.ExitFailure || !strings.Contains(e, "1 of 5 records failed") {
		t.Fatalf("exit %d: %s", code, e)
	}
	href := runtime.TraceHref(sel[0].ID)
	page := readFile(t, filepath.Join(out, runtime.ReportHTMLFile))
	if !strings.Contains(page, `<a href="`+href+`"`) {
		t.Errorf("report.html does not link %s", href)
	}
	if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(runtime.TraceFile(sel[0].ID)))); err != nil {
		t.Error(err)
	}
	abs, _ := filepath.Abs(edited)
	if !strings.Contains(page, abs) {
		t.Errorf("report.html does not name the corpus %s", abs)
	}
	// The shards of a failing replay merge to the same exit code.
	shards := replayShardsAllowFailure(t, edited, filepath.Dir(in), 2)
	if code, _, e := cli(t, append([]string{"merge", "--output-dir", filepath.Join(t.TempDir(), "m"), "--input", edited}, shards...)...); code != kit.ExitFailure || !strings.Contains(e, "1 of 5 records failed") {
		t.Errorf("merge of failing shards: exit %d: %s", code, e)
	}
}

// replayShardsAllowFailure replays the n shards of in (paths under root)
// into a new directory; records may fail.
func replayShardsAllowFailure(t *testing.T, in, root string, n int) []string {
	t.Helper()
	base := t.TempDir()
	var dirs []string
	for i := 0; i < n; i++ {
		dirs = append(dirs, replayShard(t, in, root, base, i, n))
	}
	return dirs
}

// replayShard replays shard i/n of in (paths under root) into
// base/shard-i and returns that directory; records may fail.
func replayShard(t *testing.T, in, root, base string, i, n int) string {
	t.Helper()
	d := filepath.Join(base, fmt.Sprintf("shard-%d", i))
	if code, _, e := cli(t, "replay", "--input", in, "--dataset-root", root, "--output-dir", d, "--shard", fmt.Sprintf("%d/%d", i, n)); code != kit.ExitOK && code != kit.ExitFailure {
		t.Fatalf("shard %d: exit %d: %s", i, code, e)
	}
	return d
}

// requireRegenerable runs the command a report of the embedded default
// corpus gives to regenerate it and requires the same SHA-256; the page
// in out must give the command too.
func requireRegenerable(t *testing.T, stdout, out string) {
	t.Helper()
	var rep runtime.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	args := strings.Fields(rep.Corpus.Regenerate)
	if len(args) < 3 || args[0] != "geodisaster" {
		t.Fatalf("regenerate %q", rep.Corpus.Regenerate)
	}
	dir := t.TempDir()
	for i, a := range args {
		if a == "DIR" {
			args[i] = dir
		}
	}
	if code, _, e := cli(t, args[1:]...); code != kit.ExitOK {
		t.Fatalf("%v: %s", args, e)
	}
	id, err := identifyCorpus(filepath.Join(dir, "records.jsonl"))
	if err != nil || id.SHA256 != rep.Corpus.SHA256 {
		t.Fatalf("regenerated corpus %s, the report's %s (%v)", id.SHA256, rep.Corpus.SHA256, err)
	}
	if page := readFile(t, filepath.Join(out, runtime.ReportHTMLFile)); !strings.Contains(page, rep.Corpus.Regenerate) {
		t.Error("report.html does not say how to regenerate the corpus")
	}
}
