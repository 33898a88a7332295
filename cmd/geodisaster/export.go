package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"text/tabwriter"

	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/episode"
	"github.com/geodisaster/engine/runtime/export"
)

func init() {
	register(kit.Command{Name: "export", Summary: "project canonical records into the dataset's episodes and SFT rows (--verify: the zero-drift check)", Run: runExport})
}

const exportDescription = `Replays every record of RECORDS.jsonl once (gold-free sessions, as replay
does) and writes the spec's generated projections (section 6) under OUT:

  data/core/geodisaster_2921_{train,test}.jsonl       core train/test files
  data/multi_agent/episodes/{train,test}.jsonl        full multi-agent episodes
  data/single_agent/episodes/{train,test}.jsonl       full single-agent episodes
  data/multi_agent/sft_train/{orc,ga,pa,vra}.jsonl    multi-agent role-SFT turns
  data/multi_agent/sft_test/{orc,ga,pa,vra}.jsonl
  data/single_agent/sft_{train,test}/single_agent.jsonl  single-agent SFT turns
  export.json                                          summary, file digests

A core row is the record's canonical line, byte for byte; every other row
is validated against its JSON Schema (docs/episodes.md) before it is
written. The files appear only when every record projected. A record
whose replay fails or scores incorrect fails the export.

--verify OUT checks an export against RECORDS.jsonl: the core files hold
each split's canonical records; ids, splits, weights, group ids, tool
sequences and arguments, answer references and handles equal the
canonical source, no gold in any model-visible message, every
SFT row present. It names the first drifting record and field (exit 1).`

func runExport(ctx context.Context, cio kit.IO, args []string) error {
	fs := kit.NewFlagSet("export", "--dataset-root DIR --input RECORDS.jsonl --output-dir OUT [--workers N] [--json]\n       geodisaster export --verify OUT --input RECORDS.jsonl [--json]")
	fs.Description = exportDescription
	fs.Example("geodisaster synth --full --out /tmp/full", "")
	fs.Example("geodisaster export --dataset-root /tmp/full --input /tmp/full/records.jsonl --output-dir /tmp/full-export --json", "")
	fs.Example("geodisaster export --verify /tmp/full-export --input /tmp/full/records.jsonl", "the zero-drift check")
	root := fs.String("dataset-root", "", "dataset root every declared path resolves under (default: the input file's directory)")
	input := fs.String("input", "", "canonical records JSONL with GT chains, gold answers and splits (required)")
	out := fs.String("output-dir", "", "where the projections go (required unless --verify)")
	verify := fs.String("verify", "", "check the export in this directory against --input instead of exporting")
	nworkers := fs.Int("workers", kit.DefaultWorkers(), "records replayed and projected in parallel")
	asJSON := fs.Bool("json", false, "print the summary (or the drift report) as JSON")
	if err := fs.ParseNoOperands(args); err != nil {
		return err
	}
	switch {
	case *input == "":
		return kit.Usagef("export: --input is required")
	case *verify != "" && (*out != "" || *root != ""):
		return kit.Usagef("export: --verify takes only --input (and --json)")
	case *verify == "" && *out == "":
		return kit.Usagef("export: --output-dir is required")
	case *nworkers < 1:
		return kit.Usagef("export: --workers must be >= 1")
	}
	canon, err := export.ReadCanonical(*input)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if len(canon.Records) == 0 {
		return fmt.Errorf("export: %s holds no records", *input)
	}
	val, err := episode.NewValidator()
	if err != nil {
		return err
	}
	if *verify != "" {
		return exportVerify(cio, *verify, canon, val, *asJSON)
	}
	if *root == "" {
		*root = filepath.Dir(*input)
	}
	corpus, err := identifyCorpus(*input)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	artifacts, err := os.MkdirTemp(*out, ".artifacts-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(artifacts)
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: *root, ArtifactDir: artifacts, Logger: cio.Log})
	if err != nil {
		return err
	}
	absRoot, _ := filepath.Abs(*root)
	absArtifacts, _ := filepath.Abs(artifacts)
	p := export.NewProjector(eng, val, absRoot, absArtifacts)
	opts := export.Options{OutputDir: *out, Workers: *nworkers, Input: corpus}
	bar := kit.NewProgress(cio.Stderr, len(canon.Records), "export")
	opts.Progress = bar.Func()
	cio.Log.Info("exporting", "records", len(canon.Records), "input", *input, "output_dir", *out, "workers", *nworkers)
	m, err := export.Export(ctx, p, canon, opts)
	bar.Finish()
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if m.CrossSplitTrajectoryGroups > 0 {
		cio.Log.Warn("trajectory groups cross the split; run audit-splits", "groups", m.CrossSplitTrajectoryGroups)
	}
	if *asJSON {
		return kit.WriteJSON(cio.Stdout, m.Summary)
	}
	return printExportSummary(cio.Stdout, m, *out)
}

func printExportSummary(w io.Writer, m *export.Manifest, out string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "projection\ttrain\ttest\tfiles")
	for _, name := range export.Projections() {
		ps := m.Projections[name]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s, %s\n", name, ps.Train, ps.Test, ps.Files[0], ps.Files[1])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%d records; %d SFT rows; %d terminal targets", m.Records, m.SFTRows, m.TerminalTargets)
	actions := make([]string, 0, len(m.TerminalActions))
	for a := range m.TerminalActions {
		actions = append(actions, a)
	}
	sort.Strings(actions)
	for _, a := range actions {
		fmt.Fprintf(w, "; %d %s", m.TerminalActions[a], a)
	}
	fmt.Fprintf(w, "\n%d duplicate-trajectory groups within a split (%d records), %d across splits\n", m.DuplicateTrajectoryGroups, m.DuplicateTrajectoryRecords, m.CrossSplitTrajectoryGroups)
	fmt.Fprintf(w, "wrote %s\n", filepath.Join(out, export.ManifestFile))
	return nil
}

func exportVerify(cio kit.IO, dir string, canon *export.Canonical, val *episode.Validator, asJSON bool) error {
	rep, err := export.Verify(dir, canon, val)
	if err != nil {
		return fmt.Errorf("export --verify: %w", err)
	}
	if asJSON {
		if err := kit.WriteJSON(cio.Stdout, rep); err != nil {
			return err
		}
	} else if rep.OK {
		rows := 0
		for _, n := range rep.Rows {
			rows += n
		}
		fmt.Fprintf(cio.Stdout, "PASS: %d rows in %d files, zero drift from the %d canonical records\n", rows, len(rep.Rows), rep.Records)
	} else {
		fmt.Fprintf(cio.Stdout, "FAIL: %d drift(s); the first:\n  %s\n", len(rep.Drifts), rep.Drifts[0])
		for i, d := range rep.Drifts[1:] {
			if i == 9 {
				fmt.Fprintf(cio.Stdout, "  ... %d more (use --json)\n", len(rep.Drifts)-10)
				break
			}
			fmt.Fprintf(cio.Stdout, "  %s\n", d)
		}
	}
	if !rep.OK {
		return kit.Failedf("export --verify: the export drifts from the canonical source: %s", rep.Drifts[0].String())
	}
	return nil
}
