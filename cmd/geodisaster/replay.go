package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/geodisaster/engine/conformance/synth"
	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/htmlreport"
	"github.com/geodisaster/engine/workers"
)

func init() {
	register(kit.Command{Name: "replay", Summary: "execute GT chains, project and score answers (no flags: embedded default corpus)", Run: runReplay})
}

// The embedded default corpus: synth's output for this seed and size,
// and the command that writes the same corpus (same SHA-256) again.
const (
	defaultCorpusSeed    = 1
	defaultCorpusPerType = 6
	defaultCorpusCommand = "geodisaster synth --out DIR --seed 1 --per-type 6"
)

// replayUsage is replay's synopsis.
const replayUsage = `[--dataset-root DIR --input FILE] [--family F] [--type T] [--workers N]
       [--shard i/n | --shard-count n --shard-from-env VAR] [--output-dir OUT] [--json]`

const replayDescription = `Executes every selected record's GT chain in a gold-free session, resolves
ANSWER_JSON:answer_1 and scores it with geodisaster_structured_answer_v2.
Without --input it synthesizes and replays the embedded default corpus
(FIXTURE). The corpus status is REAL only for the canonical release
records; anything else is FIXTURE at best.

OUT receives results.jsonl, report.json, report.html, traces/, artifacts/
and, written last, manifest.json: the proof that the run finished. A run
into an earlier output directory replaces it entirely; a directory holding
anything else is refused. An interrupted run (SIGINT, SIGTERM) leaves no
manifest and nothing that looks complete. With --shard-from-env, "{shard}"
in --output-dir becomes the shard index.

Unless GOGC or GOMEMLIMIT is set, a replay keeps Go's soft memory limit at
256 MiB or twice its live heap plus 16 MiB, whichever is larger: it
bounds the RSS of a run whose live data is small and lets one that holds
more grow as the default collector would.`

func runReplay(ctx context.Context, cio kit.IO, args []string) error {
	fs := kit.NewFlagSet("replay", replayUsage)
	fs.Description = replayDescription
	fs.Example("geodisaster replay", "replay the embedded default corpus")
	fs.Example("geodisaster replay --input corpus/records.jsonl --workers 4 --output-dir out", "replay a corpus written by geodisaster synth")
	fs.Example("geodisaster replay --input REL/data/core/geodisaster_2921_source_with_splits.jsonl --type sen1_flood_e", "one type of a release root (paths resolve under REL)")
	fs.Example("geodisaster replay --input corpus/records.jsonl --shard 0/4 --output-dir shard0", "one of four shards (see geodisaster merge)")
	fs.Example("geodisaster replay --input corpus/records.jsonl --shard-count 4 --shard-from-env SLURM_ARRAY_TASK_ID --output-dir 'shard{shard}'", "the shard of a Slurm array task or indexed Kubernetes Job (docs/sharding.md)")
	root := fs.String("dataset-root", "", "dataset root every declared path resolves under (default: the release root for REL/data/core/*.jsonl, else the input file's directory)")
	input := fs.String("input", "", "records JSONL with GT chains and gold answers (default: the embedded synthetic corpus)")
	family := fs.String("family", "", "replay only this family")
	qtype := fs.String("type", "", "replay only this question type")
	nworkers := fs.Int("workers", kit.DefaultWorkers(), "records replayed in parallel")
	shard := fs.String("shard", "", "replay shard i of n (i/n, 0-based), partitioned by record id")
	shardCount := fs.Int("shard-count", 0, "with --shard-from-env: the number of shards n")
	shardEnv := fs.String("shard-from-env", "", "read the shard index from this environment variable (JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID); needs --shard-count")
	out := fs.String("output-dir", "replay-out", "where results.jsonl, report.json, report.html, artifacts/, traces/ and manifest.json go")
	asJSON := fs.Bool("json", false, "print report.json to stdout instead of tables")
	cpuProfile := fs.String("cpuprofile", "", "write a pprof CPU profile of the replay to this file")
	if err := fs.ParseNoOperands(args); err != nil {
		return err
	}
	if *nworkers < 1 {
		return kit.Usagef("replay: --workers must be >= 1")
	}
	opts := runtime.ReplayOptions{Workers: *nworkers, Family: *family, Type: *qtype}
	i, n, err := resolveShard(*shard, *shardEnv, *shardCount, os.Getenv)
	if err != nil {
		return &kit.UsageError{Err: fmt.Errorf("replay: %w", err)}
	}
	opts.ShardIndex, opts.ShardCount = i, n
	if *shardEnv != "" {
		*out = strings.ReplaceAll(*out, "{shard}", strconv.Itoa(i))
	}
	if *family != "" && !validFamily(*family) {
		return kit.Usagef("replay: unknown family %q", *family)
	}
	if *qtype != "" {
		if _, ok := workers.LookupQuestionType(*qtype); !ok {
			return kit.Usagef("replay: unknown question type %q", *qtype)
		}
	}
	if *input == "" && *root != "" {
		return kit.Usagef("replay: --dataset-root needs --input")
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	defer startHeapLimit(100 * time.Millisecond)()
	err = replay(ctx, cio, replayJob{input: *input, root: *root, out: *out, opts: opts, asJSON: *asJSON})
	return kit.InterruptedOr(ctx, err)
}

// replayJob is one replay's resolved arguments.
type replayJob struct {
	input, root, out string
	opts             runtime.ReplayOptions
	asJSON           bool
}

func replay(ctx context.Context, cio kit.IO, job replayJob) error {
	var regenerate string
	if job.input == "" {
		tmp, err := os.MkdirTemp("", "geodisaster-default-corpus-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		cio.Log.Info("synthesizing the embedded default corpus", "dir", tmp, "types", len(synth.SupportedTypes()))
		bar := kit.NewProgress(cio.Stderr, -1, "synth")
		_, err = synth.Generate(ctx, tmp, synth.Options{Seed: defaultCorpusSeed, PerType: defaultCorpusPerType, Workers: job.opts.Workers, Progress: bar.Func()})
		bar.Finish()
		if err != nil {
			return err
		}
		job.input, job.root = filepath.Join(tmp, "records.jsonl"), tmp
		regenerate = defaultCorpusCommand
	}
	if job.root == "" {
		job.root = defaultDatasetRoot(job.input)
	}
	recs, err := workers.ReadRecordsFile(job.input, true)
	if err != nil {
		return err
	}
	corpus, err := identifyCorpus(job.input)
	if err != nil {
		return err
	}
	if regenerate != "" {
		corpus.Path, corpus.Regenerate = "embedded default corpus (generated for the run, then deleted)", regenerate
	} else if abs, err := filepath.Abs(job.input); err == nil {
		corpus.Path = abs
	}
	all := job.opts
	all.ShardIndex, all.ShardCount = 0, 0
	if len(all.Select(recs)) == 0 {
		return fmt.Errorf("replay: no record of %s matches the filters", job.input)
	}
	sel := job.opts.Select(recs)
	var rep *runtime.Report
	err = writeRunDir(ctx, "replay", job.out, func(od *runtime.OutputDir) (*runtime.Manifest, error) {
		eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: job.root, ArtifactDir: filepath.Join(od.Stage(), runtime.ArtifactsDir), Logger: cio.Log})
		if err != nil {
			return nil, err
		}
		bar := kit.NewProgress(cio.Stderr, len(sel), "replay")
		job.opts.Progress = bar.Func()
		cio.Log.Info("replaying", "records", len(sel), "workers", job.opts.Workers, "input", job.input, "shard", runtime.Shard{Index: job.opts.ShardIndex, Count: max(job.opts.ShardCount, 1)}.String())
		start := time.Now()
		results := eng.Replay(ctx, recs, job.opts)
		bar.Finish()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		rep = runtime.NewReport(results, corpus)
		rep.Engine = version()
		rep.Workers = job.opts.Workers
		rep.WallSeconds = time.Since(start).Seconds()
		if err := writeReplayOutputs(ctx, od, results, rep, sel, true); err != nil {
			return nil, err
		}
		return runtime.NewManifest(rep.Engine, corpus, recs, job.opts, results), nil
	})
	if err != nil {
		return err
	}
	if job.asJSON {
		if err := kit.WriteJSON(cio.Stdout, rep); err != nil {
			return err
		}
	} else {
		printReport(cio.Stdout, rep, job.out)
	}
	if len(rep.FailedRecords) > 0 {
		return kit.Failedf("replay: %d of %d records failed or were scored incorrect (see %s)", len(rep.FailedRecords), rep.Records, filepath.Join(job.out, runtime.ReportFile))
	}
	return nil
}

// resolveShard returns the shard (i, n) of --shard i/n, or of
// --shard-from-env VAR with --shard-count n; (0, 0) for an unsharded run.
func resolveShard(shard, envVar string, count int, getenv func(string) string) (int, int, error) {
	switch {
	case shard != "" && (envVar != "" || count != 0):
		return 0, 0, fmt.Errorf("--shard excludes --shard-from-env and --shard-count")
	case shard != "":
		return parseShard(shard)
	case envVar == "" && count == 0:
		return 0, 0, nil
	case envVar == "" || count < 1:
		return 0, 0, fmt.Errorf("--shard-from-env VAR and --shard-count n (n >= 1) go together")
	}
	v := strings.TrimSpace(getenv(envVar))
	if v == "" {
		return 0, 0, fmt.Errorf("--shard-from-env: %s is not set (not running as an indexed job or array task?)", envVar)
	}
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 || i >= count {
		return 0, 0, fmt.Errorf("--shard-from-env: %s=%q is not a shard index 0..%d of --shard-count %d", envVar, v, count-1, count)
	}
	return i, count, nil
}

func parseShard(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("--shard must be i/n with 0 <= i < n, got %q", s)
	}
	return i, n, nil
}

func validFamily(f string) bool {
	for _, x := range workers.Families() {
		if string(x) == f {
			return true
		}
	}
	return false
}

// identifyCorpus hashes the records file and decides its status on the
// ladder (corpusStatus): REAL only for the canonical release records,
// FIXTURE for everything else, whatever manifest sits beside it.
func identifyCorpus(input string) (runtime.CorpusInfo, error) {
	f, err := os.Open(input)
	if err != nil {
		return runtime.CorpusInfo{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return runtime.CorpusInfo{}, err
	}
	info := runtime.CorpusInfo{Path: input, SHA256: hex.EncodeToString(h.Sum(nil))}
	info.Status, info.Note = corpusStatus(info.SHA256, synthManifestBeside(input))
	return info, nil
}

// writeRunDir creates the output directory out of a replay or merge, lets
// fill write the outputs into its stage and commits the manifest fill
// returns (written last). When fill fails, ctx is done or the commit
// fails, the directory is aborted: nothing that looks complete is left.
// Errors of the directory itself are prefixed with cmd.
func writeRunDir(ctx context.Context, cmd, out string, fill func(od *runtime.OutputDir) (*runtime.Manifest, error)) error {
	od, err := runtime.CreateOutputDir(out)
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	committed := false
	defer func() {
		if !committed {
			od.Abort()
		}
	}()
	m, err := fill(od)
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err := od.Commit(m); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	committed = true
	return nil
}

// writeReplayOutputs writes results.jsonl, report.json, report.html and,
// when withTraces, one trace per record into od's stage; recs are the
// replayed records (their gold answers show on the page).
func writeReplayOutputs(ctx context.Context, od *runtime.OutputDir, results []runtime.RecordResult, rep *runtime.Report, recs []workers.Record, withTraces bool) error {
	b, err := runtime.EncodeResults(results)
	if err != nil {
		return err
	}
	if err := od.WriteFile(runtime.ResultsFile, b); err != nil {
		return err
	}
	if b, err = json.MarshalIndent(rep, "", "  "); err != nil {
		return err
	}
	if err := od.WriteFile(runtime.ReportFile, append(b, '\n')); err != nil {
		return err
	}
	if withTraces {
		if err := od.WriteTraces(results); err != nil {
			return err
		}
	}
	return htmlreport.WriteReplay(ctx, htmlreport.ReplayInput{Report: rep, Results: results, Records: recs, OutDir: od.Stage(), Generated: time.Now()})
}

func printReport(w io.Writer, rep *runtime.Report, out string) {
	fmt.Fprintf(w, "corpus %s  status %s  sha256 %s\n", rep.Corpus.Path, rep.Corpus.Status, rep.Corpus.SHA256)
	if rep.Corpus.Regenerate != "" {
		fmt.Fprintf(w, "regenerate the corpus with: %s\n", rep.Corpus.Regenerate)
	}
	fmt.Fprintf(w, "records %d  tool calls %d  read denials %d  workers %d  wall %.2fs\n\n", rep.Records, rep.ToolCalls, rep.ReadDenials, rep.Workers, rep.WallSeconds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "family\trecords\texecuted\tcorrect\tstatus\trecord-seconds")
	for _, f := range workers.Families() {
		t := rep.ByFamily[string(f)]
		fmt.Fprintf(tw, "%s\t%d\t%d/%d\t%d/%d\t%s\t%.2f\n", f, t.Records, t.Executed, t.Records, t.Correct, t.Records, t.Status, rep.RecordSeconds[string(f)])
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "type\trecords\texecuted\tcorrect\tstatus")
	types := workers.QuestionTypes()
	sort.SliceStable(types, func(i, j int) bool { return types[i].Number < types[j].Number })
	for _, q := range types {
		t := rep.ByType[q.ID]
		if t.Records == 0 {
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d/%d\t%d/%d\t%s\n", q.ID, t.Records, t.Executed, t.Records, t.Correct, t.Records, t.Status)
	}
	tw.Flush()
	notRun := 0
	for _, t := range rep.ByType {
		if t.Records == 0 {
			notRun++
		}
	}
	fmt.Fprintf(w, "\n%d question types have no records in this corpus (NOT_RUN).\n", notRun)
	for _, f := range rep.FailedRecords {
		fmt.Fprintf(w, "FAILED %s: %s%s\n", f.ID, f.Error, f.Reason)
	}
	fmt.Fprintf(w, "outputs in %s\n", out)
}
