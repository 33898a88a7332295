package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/geodisaster/engine/conformance/release"
	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/runtime"
)

// corpusStatus decides a replayed corpus's rung of the status ladder from
// what can be proven about its records file, whose SHA-256 is sum: REAL
// only when the records are the canonical release (release.CanonicalSHA256);
// everything else is FIXTURE at best. A manifest beside the records
// (manifest, nil when absent) only explains where generated material came
// from; it can never raise the status, whatever it claims, and DEGRADED
// (a real but partial corpus) is left to the conformance command, which
// verifies the release's other parts.
func corpusStatus(sum string, manifest *synth.Manifest) (status, note string) {
	switch {
	case sum == release.CanonicalSHA256:
		return runtime.StatusReal, "the canonical release records (SHA-256 verified); geodisaster conformance verifies the rest of the release"
	case manifest != nil && manifest.RecordsSHA256 == sum:
		return runtime.StatusFixture, fmt.Sprintf("synthetic corpus from %s (seed %d); may not back a published number", manifest.Generator, manifest.Seed)
	case manifest != nil:
		return runtime.StatusFixture, "records differ from the synthetic manifest beside them (edited generated material); may not back a published number"
	}
	return runtime.StatusFixture, "not the canonical release (SHA-256 differs): material of unverified origin counts as generated; may not back a published number"
}

// synthManifestBeside reads the generator's manifest kept with a records
// file: corpus.json beside it (geodisaster synth), or
// data/core/synth_corpus.json in a release-shaped fixture (conformance
// --make-fixture). It returns nil when there is none or it does not parse.
func synthManifestBeside(input string) *synth.Manifest {
	dir := filepath.Dir(input)
	for _, name := range []string{"corpus.json", "synth_corpus.json"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		var m synth.Manifest
		if json.Unmarshal(b, &m) == nil && m.Generator != "" {
			return &m
		}
	}
	return nil
}

// defaultDatasetRoot is the dataset root of a records file when
// --dataset-root is not given: the release root for a file at a release's
// records path (REL/data/core/geodisaster_2921_source_with_splits.jsonl or
// its test inputs), whose declared paths are relative to REL; otherwise the
// file's directory, where geodisaster synth writes records.jsonl.
func defaultDatasetRoot(input string) string {
	abs, err := filepath.Abs(input)
	if err != nil {
		return filepath.Dir(input)
	}
	slash := filepath.ToSlash(abs)
	for _, rel := range []string{release.CanonicalRecordsPath, release.TestInputsPath} {
		if strings.HasSuffix(slash, "/"+rel) {
			root := filepath.FromSlash(strings.TrimSuffix(slash, "/"+rel))
			if root == "" {
				root = string(filepath.Separator)
			}
			return root
		}
	}
	return filepath.Dir(input)
}
