package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/geodisaster/engine/conformance/hydrate"
	kit "github.com/geodisaster/engine/internal/cli"
)

func init() {
	register(kit.Command{Name: "hydrate", Summary: "derive the Sen1Floods11 S1Portable.tif inputs, checksum-verified", Run: runHydrate})
}

// runHydrate implements "hydrate sen1floods11 --source DIR|URL --dest DIR
// [--verify-only] [--json]" (spec sections 8 and 10).
func runHydrate(ctx context.Context, cio kit.IO, args []string) error {
	fs := kit.NewFlagSet("hydrate", "sen1floods11 --source DIR|URL --dest DIR [--verify-only] [--json]")
	fs.Description = `Derives the portable Sen1Floods11 inputs the benchmark reads
(source_assets/sen1_flood/<chip>/S1Portable.tif: S1Hand.tif with finite
nodata -9999) from the official chips, verifying every file against the
pinned manifest. Existing files with other content are never overwritten.`
	fs.Example("geodisaster hydrate sen1floods11 --source ../shared/data/sen1floods11 --dest REL", "from a local folder")
	fs.Example("geodisaster hydrate sen1floods11 --dest REL --verify-only", "check an earlier hydration")
	source := fs.String("source", "", "local folder or http(s) base URL laid out like the official bucket (S1Hand/<chip>_S1Hand.tif) or as <chip>/S1Hand.tif (required unless --verify-only)")
	dest := fs.String("dest", "", "dataset root; files go to source_assets/sen1_flood/<chip>/S1Portable.tif (required)")
	verify := fs.Bool("verify-only", false, "only verify the hydrated files against the pinned manifest")
	asJSON := fs.Bool("json", false, "print the file statuses as JSON")
	if _, err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() == 0:
		return kit.Usagef("hydrate: name the dataset (sen1floods11)")
	case fs.Arg(0) != "sen1floods11":
		return kit.Usagef("hydrate: unknown dataset %q (supported: sen1floods11)", fs.Arg(0))
	case fs.NArg() > 1:
		return kit.Usagef("hydrate: unexpected arguments %q", fs.Args()[1:])
	}
	var missing []string
	if *source == "" && !*verify {
		missing = append(missing, "--source (or --verify-only)")
	}
	if *dest == "" {
		missing = append(missing, "--dest")
	}
	if len(missing) > 0 {
		return kit.MissingFlags("hydrate", missing...)
	}
	m, err := hydrate.PinnedManifest()
	if err != nil {
		return err
	}
	bar := kit.NewProgress(cio.Stderr, len(m.Chips), "hydrate")
	st, err := hydrate.Run(ctx, m, hydrate.Options{Source: *source, Dest: *dest, VerifyOnly: *verify, Progress: bar.Func()})
	bar.Finish()
	if *asJSON {
		if jerr := kit.WriteJSON(cio.Stdout, map[string]any{"files": st, "ok": err == nil}); jerr != nil {
			return jerr
		}
	} else {
		for _, s := range st {
			fmt.Fprintf(cio.Stdout, "%-8s %s sha256 %s\n", s.Status, s.Path, s.SHA256)
		}
	}
	if err != nil {
		// Bytes that differ from the pinned manifest are a check that
		// mismatched (exit 1); anything else could not run (exit 5).
		var ce *hydrate.ChecksumError
		if errors.As(err, &ce) {
			return kit.Failedf("hydrate: %w", err)
		}
		return kit.InterruptedOr(ctx, fmt.Errorf("hydrate: %w", err))
	}
	if !*asJSON {
		fmt.Fprintf(cio.Stdout, "%d chip(s) verified against the pinned manifest\n", len(st))
	}
	return nil
}
