package runtime_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/runtime"
)

func TestOutputDirReplacesAnEarlierRunAndRefusesForeignFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	write := func(ids ...string) {
		t.Helper()
		od, err := runtime.CreateOutputDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var results []runtime.RecordResult
		for _, id := range ids {
			results = append(results, runtime.RecordResult{ID: id, Status: "ok", Answer: []byte("1"), Correct: true})
		}
		b, err := runtime.EncodeResults(results)
		if err != nil {
			t.Fatal(err)
		}
		if err := od.WriteFile(runtime.ResultsFile, b); err != nil {
			t.Fatal(err)
		}
		if err := od.WriteTraces(results); err != nil {
			t.Fatal(err)
		}
		// Before Commit nothing is visible and there is no manifest.
		if _, err := os.Stat(filepath.Join(dir, runtime.ResultsFile)); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("results visible before Commit: %v", err)
		}
		m := &runtime.Manifest{Format: runtime.ManifestFormat, Shard: runtime.Shard{Index: 0, Count: 1},
			Corpus: runtime.CorpusInfo{SHA256: strings.Repeat("a", 64)}, Selected: runtime.DigestIDs(ids), Replayed: runtime.DigestIDs(ids)}
		if err := od.Commit(m); err != nil {
			t.Fatal(err)
		}
	}
	write("a", "b/c")
	// A killed run's stage is left behind; the next run removes it, and
	// every entry of the first run.
	if err := os.MkdirAll(filepath.Join(dir, ".incomplete-999", "artifacts"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("d")
	ents, _ := os.ReadDir(filepath.Join(dir, runtime.TracesDir))
	if len(ents) != 1 || ents[0].Name() != "d.json" {
		t.Errorf("traces after the rerun: %v", ents)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".incomplete-*")); len(left) != 0 {
		t.Errorf("stages left: %v", left)
	}
	m, err := runtime.ReadManifest(dir)
	if err != nil || m.Replayed != runtime.DigestIDs([]string{"d"}) || m.Files[runtime.ResultsFile].Bytes == 0 {
		t.Fatalf("manifest %+v %v", m, err)
	}
	// Foreign entries: refused, nothing removed, the manifest kept.
	if err := os.WriteFile(filepath.Join(dir, "mine.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var fe *runtime.ForeignEntriesError
	if _, err := runtime.CreateOutputDir(dir); !errors.As(err, &fe) || fe.Entries[0] != "mine.txt" {
		t.Fatalf("foreign entry: %v", err)
	}
	if _, err := runtime.ReadManifest(dir); err != nil {
		t.Errorf("a refused run touched the directory: %v", err)
	}
	// Abort leaves neither outputs nor a manifest.
	os.Remove(filepath.Join(dir, "mine.txt"))
	od, err := runtime.CreateOutputDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	od.WriteFile(runtime.ResultsFile, []byte("{}\n"))
	// A second run into the directory while this one writes is refused.
	if _, err := runtime.CreateOutputDir(dir); err == nil || !strings.Contains(err.Error(), "another replay or merge is writing") {
		t.Errorf("concurrent run: %v", err)
	}
	od.Abort()
	if ents, _ := os.ReadDir(dir); len(ents) != 1 || ents[0].Name() != ".lock" {
		t.Errorf("after Abort the directory holds %v, want only its lock file", ents)
	}
	// Released: the next run may start.
	od, err = runtime.CreateOutputDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	od.Abort()
}

func TestTraceNames(t *testing.T) {
	if got := runtime.TraceFile(`a/b\c`); got != "traces/a_b_c.json" {
		t.Errorf("TraceFile %q", got)
	}
	if got := runtime.TraceHref("t/x#1?%"); got != "traces/t_x%231%3F%25.json" {
		t.Errorf("TraceHref %q", got)
	}
	// Two ids with one trace file name are an error, not an overwrite.
	od, err := runtime.CreateOutputDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer od.Abort()
	if err := od.WriteTraces([]runtime.RecordResult{{ID: "a/b"}, {ID: "a_b"}}); err == nil || !strings.Contains(err.Error(), "already another record's") {
		t.Errorf("colliding trace names: %v", err)
	}
}
