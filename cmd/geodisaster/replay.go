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
	register(command{name: "replay", summary: "execute GT chains, project and score answers (no flags: embedded default corpus)", run: runReplay})
}

// defaultCorpusSeed seeds the embedded default corpus.
const defaultCorpusSeed = 1

func runReplay(ctx context.Context, cio cmdIO, args []string) error {
	fs := newFlagSet("replay", "[--dataset-root DIR --input FILE] [--family F] [--type T] [--workers N] [--shard i/n] [--output-dir OUT] [--json]", cio.stderr)
	fs.Description = `Executes every selected record's GT chain in a gold-free session, resolves
ANSWER_JSON:answer_1 and scores it with geodisaster_structured_answer_v2.
Writes OUT/results.jsonl, OUT/report.json, OUT/report.html, OUT/artifacts/<id>/
and OUT/traces/<id>.json. Without --input it synthesizes and replays the
embedded default corpus (FIXTURE). The corpus status is REAL only for the
canonical release records; anything else is FIXTURE at best.`
	fs.Example("geodisaster replay", "replay the embedded default corpus")
	fs.Example("geodisaster replay --input corpus/records.jsonl --workers 4 --output-dir out", "replay a corpus written by geodisaster synth")
	fs.Example("geodisaster replay --input REL/data/core/geodisaster_2921_source_with_splits.jsonl --type sen1_flood_e", "one type of a release root (paths resolve under REL)")
	fs.Example("geodisaster replay --input corpus/records.jsonl --shard 0/4 --output-dir shard0", "one of four shards (see geodisaster merge)")
	root := fs.String("dataset-root", "", "dataset root every declared path resolves under (default: the release root for REL/data/core/*.jsonl, else the input file's directory)")
	input := fs.String("input", "", "records JSONL with GT chains and gold answers (default: the embedded synthetic corpus)")
	family := fs.String("family", "", "replay only this family")
	qtype := fs.String("type", "", "replay only this question type")
	nworkers := fs.Int("workers", defaultWorkers(), "records replayed in parallel")
	shard := fs.String("shard", "", "replay shard i of n (i/n, 0-based), partitioned by record id")
	out := fs.String("output-dir", "replay-out", "where results.jsonl, report.json, artifacts/ and traces/ go")
	asJSON := fs.Bool("json", false, "print report.json to stdout instead of tables")
	cpuProfile := fs.String("cpuprofile", "", "write a pprof CPU profile of the replay to this file")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("replay: unexpected arguments %v", fs.Args())
	}
	if *nworkers < 1 {
		return usagef("replay: --workers must be >= 1")
	}
	opts := runtime.ReplayOptions{Workers: *nworkers, Family: *family, Type: *qtype}
	if *shard != "" {
		i, n, err := parseShard(*shard)
		if err != nil {
			return usagef("replay: %v", err)
		}
		opts.ShardIndex, opts.ShardCount = i, n
	}
	if *family != "" && !validFamily(*family) {
		return usagef("replay: unknown family %q", *family)
	}
	if *qtype != "" {
		if _, ok := workers.LookupQuestionType(*qtype); !ok {
			return usagef("replay: unknown question type %q", *qtype)
		}
	}
	if *input == "" && *root != "" {
		return usagef("replay: --dataset-root needs --input")
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	if *input == "" {
		tmp, err := os.MkdirTemp("", "geodisaster-default-corpus-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		cio.log.Info("synthesizing the embedded default corpus", "dir", tmp, "types", len(synth.SupportedTypes()))
		bar := kit.NewProgress(cio.stderr, -1, "synth")
		_, err = synth.Generate(ctx, tmp, synth.Options{Seed: defaultCorpusSeed, Workers: *nworkers, Progress: bar.Func()})
		bar.Finish()
		if err != nil {
			return err
		}
		*input = filepath.Join(tmp, "records.jsonl")
		*root = tmp
	}
	if *root == "" {
		*root = defaultDatasetRoot(*input)
	}
	recs, err := runtime.ReadRecordsFile(*input, true)
	if err != nil {
		return err
	}
	corpus, err := identifyCorpus(*input)
	if err != nil {
		return err
	}
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: *root, ArtifactDir: filepath.Join(*out, "artifacts"), Logger: cio.log})
	if err != nil {
		return err
	}
	sel := opts.Select(recs)
	if len(sel) == 0 {
		return fmt.Errorf("replay: no record of %s matches the filters", *input)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	bar := kit.NewProgress(cio.stderr, len(sel), "replay")
	opts.Progress = bar.Func()
	cio.log.Info("replaying", "records", len(sel), "workers", *nworkers, "input", *input)
	start := time.Now()
	results := eng.Replay(ctx, recs, opts)
	bar.Finish()
	rep := runtime.NewReport(results, corpus)
	rep.Engine = version()
	rep.Workers = *nworkers
	rep.WallSeconds = time.Since(start).Seconds()
	if err := writeReplayOutputs(*out, results, rep, true); err != nil {
		return err
	}
	if err := htmlreport.WriteReplay(ctx, htmlreport.ReplayInput{Report: rep, Results: results, Records: sel, OutDir: *out, Generated: time.Now()}); err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(cio.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		printReport(cio.stdout, rep, *out)
	}
	if len(rep.FailedRecords) > 0 {
		return fmt.Errorf("replay: %d of %d records failed or were scored incorrect (see %s)", len(rep.FailedRecords), rep.Records, filepath.Join(*out, "report.json"))
	}
	return nil
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

// writeReplayOutputs writes results.jsonl, report.json and, when
// withTraces, one trace file per record.
func writeReplayOutputs(out string, results []runtime.RecordResult, rep *runtime.Report, withTraces bool) error {
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	for i := range results {
		if err := enc.Encode(&results[i]); err != nil {
			return err
		}
	}
	if err := writeFileAtomic(filepath.Join(out, "results.jsonl"), []byte(sb.String())); err != nil {
		return err
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(out, "report.json"), append(b, '\n')); err != nil {
		return err
	}
	if !withTraces {
		return nil
	}
	traces := filepath.Join(out, "traces")
	if err := os.MkdirAll(traces, 0o755); err != nil {
		return err
	}
	for _, r := range results {
		tb, err := json.MarshalIndent(map[string]any{"id": r.ID, "calls": r.Calls, "denials": r.Denials, "wall_ms": r.WallMS, "reason": r.Reason}, "", " ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(traces, traceName(r.ID)+".json"), tb, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// traceName maps a record id to a safe file name.
func traceName(id string) string {
	return strings.Map(func(c rune) rune {
		if c == '/' || c == '\\' || c == 0 {
			return '_'
		}
		return c
	}, id)
}

// writeFileAtomic writes via a temporary file and rename.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func printReport(w io.Writer, rep *runtime.Report, out string) {
	fmt.Fprintf(w, "corpus %s  status %s  sha256 %s\n", rep.Corpus.Path, rep.Corpus.Status, rep.Corpus.SHA256)
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
