package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/geodisaster/engine/conformance/release"
	"github.com/geodisaster/engine/conformance/release/releasepage"
	"github.com/geodisaster/engine/conformance/synth"
	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/runtime"
)

const conformanceUsage = `[--release-root DIR] [--workers N] [--output-dir OUT] [--json]
       geodisaster conformance --make-fixture DIR [--per-type N | --full] [--seed S]`

const conformanceDescription = `REAL-mode conformance against the published GeoDisaster release: verifies
data/core/geodisaster_2921_source_with_splits.jsonl against the canonical
SHA-256, the inventory (2,921 records, 43 types, 2,629 train / 292 test),
every declared path and the Sen1Floods11 hydration manifest; adapts the
canonical records, replays every GT chain, scores the resolved answers under
the scoring policy and checks the spec's published per-type facts. Prints
one row per question type with denominators (no overall score).

Status ladder: REAL only for the verified canonical corpus; DEGRADED for
the canonical records when another part of the release is partial (paths,
hydration, inventory); FIXTURE for everything else, generated material or of
unverified origin, whatever manifest sits beside it; RESOURCE_BLOCKED when
there is no release root. Never a pass without a corpus.

--make-fixture DIR writes a release-shaped synthetic corpus (synth records
at the release's paths, gold-free test inputs, a Sen1Floods11 hydration
manifest and its own checksum manifest) for a FIXTURE run.`

// conformanceExitCodes are the command's exit codes beyond the shared ones
// (internal/cli).
var conformanceExitCodes = []string{
	"0    every type with records passed at the corpus status (REAL or FIXTURE)",
	"1    a record failed, was invalid or incorrect, or a published fact mismatched",
	"3    RESOURCE_BLOCKED: no release root, no canonical file, or a type's inputs are absent (unhydrated Sen1Floods11)",
	"4    the corpus did not verify: DEGRADED (canonical records, partial release) or a FIXTURE whose own manifest does not verify; the reasons are printed",
}

func init() {
	register(kit.Command{Name: "conformance", Summary: "REAL-mode conformance against a GeoDisaster release root (RESOURCE_BLOCKED without one)", Run: runConformance})
}

// runConformance runs conformanceMain and turns its exit code into an
// error of the matching kind once every output has been written.
func runConformance(ctx context.Context, cio kit.IO, args []string) error {
	code, err := conformanceMain(ctx, cio, args)
	if err != nil {
		return kit.InterruptedOr(ctx, err)
	}
	switch code {
	case kit.ExitOK:
		return nil
	case kit.ExitFailure:
		return kit.Failedf("conformance: some types FAILED (see the table or report.json)")
	}
	return kit.CodeError{Code: code, Msg: fmt.Sprintf("conformance: exit %d (%s)", code, conformanceCodeName(code))}
}

func conformanceCodeName(code int) string {
	switch code {
	case kit.ExitResourceBlocked:
		return runtime.StatusResourceBlocked
	case kit.ExitNotVerified:
		return "corpus not verified, " + runtime.StatusDegraded
	}
	return "failure"
}

// conformanceMain parses flags, runs the conformance and writes its
// outputs; it returns the command's exit code.
func conformanceMain(ctx context.Context, cio kit.IO, args []string) (int, error) {
	fs := kit.NewFlagSet("conformance", conformanceUsage)
	fs.Description = conformanceDescription
	fs.ExitCodes = conformanceExitCodes
	fs.Example("geodisaster conformance", "RESOURCE_BLOCKED without a release (exit 3)")
	fs.Example("geodisaster conformance --release-root REL --workers 4 --output-dir out", "the published release")
	fs.Example("geodisaster conformance --make-fixture /tmp/rel && geodisaster conformance --release-root /tmp/rel", "a FIXTURE run on generated material")
	root := fs.String("release-root", "", "GeoDisaster release root (holds data/core/geodisaster_2921_source_with_splits.jsonl)")
	nworkers := fs.Int("workers", kit.DefaultWorkers(), "records replayed in parallel")
	out := fs.String("output-dir", "", "write report.json, report.txt and artifacts/ here")
	asJSON := fs.Bool("json", false, "print the JSON report instead of tables")
	makeFixture := fs.String("make-fixture", "", "write a release-shaped synthetic corpus into this (new or empty) directory and exit")
	perType := fs.Int("per-type", 3, "with --make-fixture: records per question type")
	full := fs.Bool("full", false, "with --make-fixture: the spec's per-type record counts (2,921 records)")
	seed := fs.Uint64("seed", 1, "with --make-fixture: synth seed")
	if _, err := fs.Parse(args); err != nil {
		return kit.ExitUsage, err
	}
	if fs.NArg() > 0 {
		return kit.ExitUsage, kit.Usagef("conformance: unexpected arguments %v", fs.Args())
	}
	if *makeFixture != "" {
		if *root != "" {
			return kit.ExitUsage, kit.Usagef("conformance: --make-fixture and --release-root are exclusive")
		}
		if ents, err := os.ReadDir(*makeFixture); err == nil && len(ents) > 0 {
			return kit.ExitUsage, kit.Usagef("conformance: --make-fixture %s is not empty", *makeFixture)
		}
		bar := kit.NewProgress(cio.Stderr, -1, "fixture")
		m, err := release.BuildFixture(ctx, *makeFixture, synth.Options{PerType: *perType, Full: *full, Seed: *seed, Workers: *nworkers, Progress: bar.Func()})
		bar.Finish()
		if err != nil {
			return kit.ExitFailure, err
		}
		fmt.Fprintf(cio.Stdout, "wrote a FIXTURE release of %d records (%d types, %d train, %d test) to %s; records sha256 %s\n",
			m.Inventory.Records, m.Inventory.Types, m.Inventory.Train, m.Inventory.Test, *makeFixture, m.RecordsSHA256)
		return kit.ExitOK, nil
	}
	if *nworkers < 1 {
		return kit.ExitUsage, kit.Usagef("conformance: --workers must be >= 1")
	}
	bar := kit.NewProgress(cio.Stderr, -1, "conformance")
	opts := release.Options{ReleaseRoot: *root, Workers: *nworkers, Logger: cio.Log}
	if bar != nil {
		opts.Progress = func(stage string, done, total int) {
			bar.Describe(stage)
			bar.Set(done, total)
		}
	}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return kit.ExitFailure, fmt.Errorf("conformance: %w", err)
		}
		opts.ArtifactDir = filepath.Join(*out, "artifacts")
	}
	rep, err := release.Run(ctx, opts)
	bar.Finish()
	if err != nil {
		return kit.ExitFailure, err
	}
	rep.Engine = version()
	if *out != "" {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return kit.ExitFailure, fmt.Errorf("conformance: %w", err)
		}
		if err := runtime.WriteFileAtomic(filepath.Join(*out, "report.json"), append(b, '\n')); err != nil {
			return kit.ExitFailure, fmt.Errorf("conformance: %w", err)
		}
		if err := releasepage.Write(ctx, releasepage.Input{Report: rep, OutDir: *out, Workers: *nworkers, Generated: time.Now()}); err != nil {
			return kit.ExitFailure, fmt.Errorf("conformance: report.html: %w", err)
		}
		f, err := os.Create(filepath.Join(*out, "report.txt"))
		if err != nil {
			return kit.ExitFailure, fmt.Errorf("conformance: %w", err)
		}
		werr := rep.WriteTable(f)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return kit.ExitFailure, fmt.Errorf("conformance: report.txt: %w", werr)
		}
	}
	if *asJSON {
		if err := kit.WriteJSON(cio.Stdout, rep); err != nil {
			return kit.ExitFailure, err
		}
	} else if err := rep.WriteTable(cio.Stdout); err != nil {
		return kit.ExitFailure, err
	}
	return conformanceExitCode(rep), nil
}

// conformanceExitCode maps a report to the documented exit code.
func conformanceExitCode(rep *release.Report) int {
	switch {
	case rep.Status == runtime.StatusResourceBlocked:
		return kit.ExitResourceBlocked
	case rep.Status == runtime.StatusDegraded || !rep.CorpusVerified:
		return kit.ExitNotVerified
	}
	code := kit.ExitOK
	for _, t := range rep.Types {
		switch t.Status {
		case runtime.StatusFailed:
			return kit.ExitFailure
		case runtime.StatusResourceBlocked:
			code = kit.ExitResourceBlocked
		}
	}
	if rep.Records == 0 {
		return kit.ExitResourceBlocked
	}
	if code == kit.ExitOK && rep.FactSummary[release.FactMismatch] > 0 {
		// A corpus-level fact mismatched (type-level ones already made
		// their type FAILED). With absent inputs (code 3) the replay facts
		// cannot hold, so 3 stands.
		return kit.ExitFailure
	}
	return code
}
