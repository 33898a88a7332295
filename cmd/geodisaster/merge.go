package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/htmlreport"
)

func init() {
	register(command{name: "merge", summary: "merge sharded replay outputs into one results.jsonl, report.json and report.html", run: runMerge})
}

// shardReport is the part of a shard's report.json that merging keeps.
type shardReport struct {
	Engine      string             `json:"engine"`
	Corpus      runtime.CorpusInfo `json:"corpus"`
	Workers     int                `json:"workers"`
	WallSeconds float64            `json:"wall_seconds"`
	ReadDenials int                `json:"read_denials"`
	ToolCalls   int                `json:"tool_calls"`
}

func runMerge(ctx context.Context, cio cmdIO, args []string) error {
	fs := newFlagSet("merge", "--output-dir OUT [--input RECORDS] SHARD_DIR...", cio.stderr)
	fs.Description = `Merges the outputs of sharded replays (geodisaster replay --shard i/n) into
one results.jsonl, report.json and report.html, with every shard's traces
and artifacts; the result equals the unsharded run. Shards of different
corpora are refused.`
	fs.Example("geodisaster merge --output-dir merged shard0 shard1 shard2 shard3", "")
	fs.Example("geodisaster merge --output-dir merged --input corpus/records.jsonl shard*", "with expected values of failed fields in report.html")
	out := fs.String("output-dir", "", "merged output directory")
	input := fs.String("input", "", "the replayed records JSONL (optional): report.html then shows expected values of failed fields")
	fs.Require("output-dir")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("merge: name at least one shard directory")
	}
	bar := kit.NewProgress(cio.stderr, fs.NArg(), "merge")
	defer bar.Finish()
	var results []runtime.RecordResult
	seen := map[string]string{}
	var corpus runtime.CorpusInfo
	var denials, calls, workers int
	var wall float64
	for i, dir := range fs.Args() {
		var sr shardReport
		b, err := os.ReadFile(filepath.Join(dir, "report.json"))
		if err != nil {
			return fmt.Errorf("merge: shard %s: %w", dir, err)
		}
		if err := json.Unmarshal(b, &sr); err != nil {
			return fmt.Errorf("merge: shard %s report.json: %w", dir, err)
		}
		if i == 0 {
			corpus = sr.Corpus
		} else if sr.Corpus.SHA256 != corpus.SHA256 {
			return fmt.Errorf("merge: shard %s replayed corpus %s, the first shard %s", dir, sr.Corpus.SHA256, corpus.SHA256)
		}
		denials += sr.ReadDenials
		calls += sr.ToolCalls
		workers += sr.Workers
		wall = max(wall, sr.WallSeconds)
		f, err := os.Open(filepath.Join(dir, "results.jsonl"))
		if err != nil {
			return fmt.Errorf("merge: shard %s: %w", dir, err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 256<<20)
		line := 0
		for sc.Scan() {
			line++
			var r runtime.RecordResult
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				f.Close()
				return fmt.Errorf("merge: %s/results.jsonl line %d: %w", dir, line, err)
			}
			if prev, dup := seen[r.ID]; dup {
				f.Close()
				return fmt.Errorf("merge: record %s appears in shards %s and %s", r.ID, prev, dir)
			}
			seen[r.ID] = dir
			results = append(results, r)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return fmt.Errorf("merge: %s/results.jsonl: %w", dir, err)
		}
		// Copy per-record traces and artifacts.
		for _, sub := range []string{"traces", "artifacts"} {
			if err := copyTree(filepath.Join(dir, sub), filepath.Join(*out, sub)); err != nil {
				return fmt.Errorf("merge: %w", err)
			}
		}
		bar.Add(1)
	}
	sort.Slice(results, func(i, j int) bool { return results[i].ID < results[j].ID })
	// The scorer's reasons and the records' replay times live in the
	// per-record traces.
	for i := range results {
		var tr struct {
			Reason  string              `json:"reason"`
			WallMS  float64             `json:"wall_ms"`
			Calls   []runtime.CallTrace `json:"calls"`
			Denials []runtime.Denial    `json:"denials"`
		}
		if b, err := os.ReadFile(filepath.Join(*out, "traces", traceName(results[i].ID)+".json")); err == nil && json.Unmarshal(b, &tr) == nil {
			results[i].Reason, results[i].WallMS = tr.Reason, tr.WallMS
			results[i].Calls, results[i].Denials = tr.Calls, tr.Denials
		}
	}
	rep := runtime.NewReport(results, corpus)
	rep.Engine = version()
	rep.Workers = workers
	rep.WallSeconds = wall
	rep.ReadDenials = denials
	rep.ToolCalls = calls
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	if err := writeReplayOutputs(*out, results, rep, false); err != nil {
		return err
	}
	var recs []runtime.Record
	if *input != "" {
		all, err := runtime.ReadRecordsFile(*input, true)
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		if id, err := identifyCorpus(*input); err != nil {
			return fmt.Errorf("merge: %w", err)
		} else if id.SHA256 != corpus.SHA256 {
			return fmt.Errorf("merge: --input %s has SHA-256 %s, the shards replayed %s", *input, id.SHA256, corpus.SHA256)
		}
		for _, r := range all {
			if _, ok := seen[r.ID]; ok {
				recs = append(recs, r)
			}
		}
	}
	if err := htmlreport.WriteReplay(ctx, htmlreport.ReplayInput{Report: rep, Results: results, Records: recs, OutDir: *out, Generated: time.Now()}); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	fmt.Fprintf(cio.stdout, "merged %d records from %d shards into %s\n", len(results), fs.NArg(), *out)
	return nil
}

// copyTree copies regular files from src into dst, keeping relative paths;
// a missing src is not an error.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && p == src {
				return filepath.SkipDir
			}
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}
