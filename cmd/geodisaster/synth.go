package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/geodisaster/engine/conformance/synth"
)

func init() {
	register(command{name: "synth", summary: "generate a deterministic GeoDisaster-shaped corpus", run: runSynth})
}

func runSynth(ctx context.Context, cio cmdIO, args []string) error {
	fs := newFlagSet("synth", "--out DIR [--types t1,t2] [--per-type N] [--full] [--seed S] [--workers N] [--json]", cio.stderr)
	out := fs.String("out", "", "output directory (required)")
	types := fs.String("types", "", "comma-separated question types (default: every supported type)")
	per := fs.Int("per-type", 6, "records per type")
	full := fs.Bool("full", false, "use the specification's per-type record counts and input sizes")
	seed := fs.Uint64("seed", defaultCorpusSeed, "random seed")
	nworkers := fs.Int("workers", defaultWorkers(), "records generated in parallel (the output is byte-identical for any value)")
	asJSON := fs.Bool("json", false, "print the corpus manifest as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usagef("synth: --out is required")
	}
	if *per < 1 {
		return usagef("synth: --per-type must be >= 1")
	}
	if *nworkers < 1 {
		return usagef("synth: --workers must be >= 1")
	}
	opts := synth.Options{PerType: *per, Full: *full, Seed: *seed, Workers: *nworkers}
	if *types != "" {
		opts.Types = strings.Split(*types, ",")
	}
	m, err := synth.Generate(ctx, *out, opts)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(cio.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	}
	fmt.Fprintf(cio.stdout, "wrote %d records (%d files) to %s; records.jsonl sha256 %s\n", m.Records, m.Files, *out, m.RecordsSHA256)
	return nil
}
