package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/geodisaster/engine/conformance/hydrate"
)

func init() {
	register(command{name: "hydrate", summary: "derive the Sen1Floods11 S1Portable.tif inputs, checksum-verified", run: runHydrate})
}

// runHydrate implements "hydrate sen1floods11 --source DIR|URL --dest DIR
// [--verify-only] [--json]" (spec sections 8 and 10).
func runHydrate(ctx context.Context, cio cmdIO, args []string) error {
	usage := "sen1floods11 --source DIR|URL --dest DIR [--verify-only] [--json]"
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fs := newFlagSet("hydrate", usage, cio.stderr)
		hydrateFlags(fs.String, fs.Bool)
		fs.Usage()
		if len(args) == 0 {
			return usagef("hydrate: name the dataset (sen1floods11)")
		}
		return nil
	}
	if args[0] != "sen1floods11" {
		return usagef("hydrate: unknown dataset %q (supported: sen1floods11)", args[0])
	}
	fs := newFlagSet("hydrate sen1floods11", usage, cio.stderr)
	source, dest, verify, asJSON := hydrateFlags(fs.String, fs.Bool)
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if *dest == "" {
		return usagef("hydrate: --dest is required")
	}
	if *source == "" && !*verify {
		return usagef("hydrate: --source is required unless --verify-only")
	}
	m, err := hydrate.PinnedManifest()
	if err != nil {
		return err
	}
	st, err := hydrate.Run(ctx, m, hydrate.Options{Source: *source, Dest: *dest, VerifyOnly: *verify})
	if *asJSON {
		enc := json.NewEncoder(cio.stdout)
		enc.SetIndent("", "  ")
		if jerr := enc.Encode(map[string]any{"files": st, "ok": err == nil}); jerr != nil {
			return jerr
		}
	} else {
		for _, s := range st {
			fmt.Fprintf(cio.stdout, "%-8s %s sha256 %s\n", s.Status, s.Path, s.SHA256)
		}
	}
	if err != nil {
		// Bytes that differ from the pinned manifest are a check that
		// mismatched (exit 1); anything else could not run (exit 5).
		var ce *hydrate.ChecksumError
		if errors.As(err, &ce) {
			return failedf("hydrate: %w", err)
		}
		return interruptedOr(ctx, fmt.Errorf("hydrate: %w", err))
	}
	if !*asJSON {
		fmt.Fprintf(cio.stdout, "%d chip(s) verified against the pinned manifest\n", len(st))
	}
	return nil
}

func hydrateFlags(str func(string, string, string) *string, boolean func(string, bool, string) *bool) (source, dest *string, verify, asJSON *bool) {
	source = str("source", "", "local folder or http(s) base URL laid out like the official bucket (S1Hand/<chip>_S1Hand.tif) or as <chip>/S1Hand.tif")
	dest = str("dest", "", "dataset root; files go to source_assets/sen1_flood/<chip>/S1Portable.tif")
	verify = boolean("verify-only", false, "only verify the hydrated files against the pinned manifest")
	asJSON = boolean("json", false, "print the file statuses as JSON")
	return
}
