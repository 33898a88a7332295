package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

func init() {
	register(kit.Command{Name: "merge", Summary: "merge the shards of a replay into one results.jsonl, report.json and report.html, refusing gaps", Run: runMerge})
}

const mergeUsage = `--output-dir OUT [--input RECORDS] SHARD_DIR...`

const mergeDescription = `Merges the outputs of sharded replays (geodisaster replay --shard i/n) into
one results.jsonl, report.json and report.html, with every shard's traces
and artifacts; the result equals the unsharded run's.

Checks every shard's manifest.json first: the shards 0..n-1 of one replay,
each exactly once, of one corpus (the SHA-256 of --input when given), one n,
one set of filters and one engine, whose record ids are disjoint and
together exactly the replayed records. Each missing, duplicated, unfinished
or foreign shard is named and nothing is written (exit 5). Otherwise OUT is
written like a replay's output directory (manifest.json last) and equals
the unsharded replay's results.jsonl; exit 1 when some records failed.`

func runMerge(ctx context.Context, cio kit.IO, args []string) error {
	fs := kit.NewFlagSet("merge", mergeUsage)
	fs.Description = mergeDescription
	fs.Example("geodisaster merge --output-dir merged shard0 shard1 shard2 shard3", "")
	fs.Example("geodisaster merge --output-dir merged --input corpus/records.jsonl shard*", "with expected values of failed fields in report.html")
	out := fs.String("output-dir", "", "merged output directory")
	input := fs.String("input", "", "the replayed records JSONL (optional, checked by SHA-256): report.html then shows expected values of failed fields")
	fs.Require("output-dir")
	if _, err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return kit.Usagef("merge: --output-dir must name a directory")
	}
	if fs.NArg() == 0 {
		return kit.Usagef("merge: name at least one shard directory")
	}
	return kit.InterruptedOr(ctx, merge(ctx, cio, *out, *input, fs.Args()))
}

func merge(ctx context.Context, cio kit.IO, out, input string, dirs []string) error {
	// Everything is read and checked before anything is written.
	for _, d := range dirs {
		if sameDir(d, out) {
			return fmt.Errorf("merge: --output-dir %s is one of the shard directories", out)
		}
	}
	var recs []workers.Record
	var wantSHA string
	if input != "" {
		corpus, err := identifyCorpus(input)
		if err != nil {
			return fmt.Errorf("merge: --input: %w", err)
		}
		if recs, err = workers.ReadRecordsFile(input, true); err != nil {
			return fmt.Errorf("merge: --input: %w", err)
		}
		wantSHA = corpus.SHA256
	}
	// The bar counts shards: checked and loaded, then their artifacts copied.
	bar := kit.NewProgress(cio.Stderr, 2*len(dirs), "merge")
	defer bar.Finish()
	set, err := runtime.CheckShards(dirs, wantSHA)
	if err != nil {
		return fmt.Errorf("merge: %w%s", err, mergeHint(err))
	}
	results, traces, err := set.Load()
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	bar.Add(len(dirs))
	m0 := set.Manifests[0]
	if input != "" {
		// The --input file is the shards' corpus (same SHA-256); its
		// records give the page the expected values.
		replayed := make(map[string]bool, len(results))
		for _, r := range results {
			replayed[r.ID] = true
		}
		kept := recs[:0]
		for _, r := range recs {
			if replayed[r.ID] {
				kept = append(kept, r)
			}
		}
		recs = kept
	}
	rep := runtime.NewReport(results, m0.Corpus)
	rep.Engine = m0.Engine
	for i, d := range set.Dirs {
		// The run totals: workers add up, the wall time is the slowest
		// shard's.
		var sr runtime.Report
		if err := runtime.ReadVerifiedJSON(d, runtime.ReportFile, set.Manifests[i], &sr); err != nil {
			return fmt.Errorf("merge: %s: %w", d, err)
		}
		rep.Workers += sr.Workers
		rep.WallSeconds = max(rep.WallSeconds, sr.WallSeconds)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	err = writeRunDir(ctx, "merge", out, func(od *runtime.OutputDir) (*runtime.Manifest, error) {
		if err := od.WriteTraceBytes(traces); err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		for _, d := range set.Dirs {
			if err := od.AddArtifacts(d); err != nil {
				return nil, fmt.Errorf("merge: artifacts of %s: %w", d, err)
			}
			bar.Add(1)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
		}
		if err := writeReplayOutputs(ctx, od, results, rep, recs, false); err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		return set.MergedManifest(results), nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(cio.Stdout, "merged %d records from %d shards into %s\n", len(results), len(set.Dirs), out)
	if len(rep.FailedRecords) > 0 {
		return kit.Failedf("merge: %d of %d records failed or were scored incorrect (see %s)", len(rep.FailedRecords), rep.Records, filepath.Join(out, runtime.ReportFile))
	}
	return nil
}

// mergeHint tells how to complete a refused set of shards.
func mergeHint(err error) string {
	var mr *runtime.MergeRefusedError
	if !errors.As(err, &mr) {
		return ""
	}
	return "\nrerun each missing or unfinished shard i of n into its own directory (geodisaster replay --shard i/n --output-dir DIR ...; see docs/sharding.md), then merge again"
}

// sameDir reports whether a and b name the same existing directory or
// the same path.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}
