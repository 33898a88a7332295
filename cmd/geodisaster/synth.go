package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/geodisaster/engine/conformance/synth"
	kit "github.com/geodisaster/engine/internal/cli"
)

func init() {
	register(kit.Command{Name: "synth", Summary: "generate a deterministic GeoDisaster-shaped corpus", Run: runSynth})
}

func runSynth(ctx context.Context, cio kit.IO, args []string) error {
	fs := kit.NewFlagSet("synth", "--out DIR [--types t1,t2] [--per-type N] [--full] [--seed S] [--workers N] [--json]")
	fs.Description = `Writes a deterministic synthetic corpus into DIR: records.jsonl (full
records with GT chains and gold answers), test_inputs.jsonl (the gold-free
projection), corpus.json (its manifest) and the input files at the
specification's relative paths. The same options give byte-identical files.
Replays of it are FIXTURE: generated material never backs a published number.`
	fs.Example("geodisaster synth --out /tmp/c", "every supported type, 6 records each")
	fs.Example("geodisaster synth --out /tmp/full --full", "the specification's 2,921 records at full size (about a minute)")
	fs.Example("geodisaster synth --out /tmp/c --types sen1_flood_a,xbd_q1 --per-type 2 --seed 7", "")
	out := fs.String("out", "", "output directory")
	types := fs.String("types", "", "comma-separated question types (default: every supported type)")
	per := fs.Int("per-type", 6, "records per type")
	full := fs.Bool("full", false, "use the specification's per-type record counts and input sizes")
	seed := fs.Uint64("seed", defaultCorpusSeed, "random seed")
	nworkers := fs.Int("workers", kit.DefaultWorkers(), "records generated in parallel (the output is byte-identical for any value)")
	asJSON := fs.Bool("json", false, "print the corpus manifest as JSON")
	fs.Require("out")
	if err := fs.ParseNoOperands(args); err != nil {
		return err
	}
	if *per < 1 {
		return kit.Usagef("synth: --per-type must be >= 1")
	}
	if *nworkers < 1 {
		return kit.Usagef("synth: --workers must be >= 1")
	}
	opts := synth.Options{PerType: *per, Full: *full, Seed: *seed, Workers: *nworkers}
	if *types != "" {
		opts.Types = strings.Split(*types, ",")
	}
	bar := kit.NewProgress(cio.Stderr, -1, "synth")
	opts.Progress = bar.Func()
	m, err := synth.Generate(ctx, *out, opts)
	bar.Finish()
	if err != nil {
		return err
	}
	if *asJSON {
		return kit.WriteJSON(cio.Stdout, m)
	}
	fmt.Fprintf(cio.Stdout, "wrote %d records (%d files) to %s; records.jsonl sha256 %s\n", m.Records, m.Files, *out, m.RecordsSHA256)
	return nil
}
