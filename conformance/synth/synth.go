// Package synth generates deterministic, GeoDisaster-shaped corpora: records
// in the engine's record format and their input files at the
// specification's relative paths. The same options always produce
// byte-identical files.
//
// Gold answers are computed by the generator directly from the arrays it
// creates (never by running the workers; where the spec's arithmetic is
// the worker's, through the family package's exported rule); the
// native-stack oracle in conformance/oracle recomputes them independently
// from the written files.
//
// Each family's generators live in their own package
// (conformance/synth/<family>) on the shared core
// (conformance/synth/internal/core, the corpus writer); families lists
// them, the one registration point.
package synth

import (
	"context"

	"github.com/geodisaster/engine/conformance/synth/deforestation"
	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/conformance/synth/multihazard"
	"github.com/geodisaster/engine/conformance/synth/routing"
	"github.com/geodisaster/engine/conformance/synth/sen1flood"
	"github.com/geodisaster/engine/conformance/synth/xbd"
)

// Options configures a corpus.
type Options = core.Options

// Manifest describes a generated corpus; it is written as corpus.json.
type Manifest = core.Manifest

// families lists every family's generators.
var families = []func() core.Types{deforestation.Types, multihazard.Types, xbd.Types, routing.Types, sen1flood.Types}

// generators returns the generators of every supported question type.
func generators() core.Types {
	out := core.Types{}
	for _, f := range families {
		out.Add(f())
	}
	return out
}

// SupportedTypes returns the question types the generator can produce.
func SupportedTypes() []string { return generators().Supported() }

// Generate writes a corpus into dir: records.jsonl (full records),
// test_inputs.jsonl (the gold-free projection), corpus.json and the input
// files.
func Generate(ctx context.Context, dir string, opts Options) (*Manifest, error) {
	return core.Generate(ctx, dir, generators(), opts)
}

// Sen1FloodRealChips lists the chips Sen1FloodRealCorpus derives from a
// real S1Portable.tif (sen1flood.RealChips).
var Sen1FloodRealChips = sen1flood.RealChips

// Sen1FloodLabelGridChips lists the chips Sen1FloodLabelGridCorpus
// derives from the real chip (sen1flood.LabelGridChips).
var Sen1FloodLabelGridChips = sen1flood.LabelGridChips

// Sen1FloodRealCorpus writes records of the five Sen1Floods11 types over a
// real hydrated S1Portable.tif and its deterministic variants into dir
// (sen1flood.RealCorpus). It returns the SHA-256 of records.jsonl.
func Sen1FloodRealCorpus(ctx context.Context, dir, sample string, portable []byte) (string, error) {
	return sen1flood.RealCorpus(ctx, dir, sample, portable)
}

// Sen1FloodLabelGridCorpus writes records of types 42 and 43 over a real
// hydrated S1Portable.tif and its variants, their known-water rasters from
// the chip's hand labels (sen1flood.LabelGridCorpus). It returns the
// SHA-256 of records.jsonl.
func Sen1FloodLabelGridCorpus(ctx context.Context, dir, sample string, portable, labelHand []byte) (string, error) {
	return sen1flood.LabelGridCorpus(ctx, dir, sample, portable, labelHand)
}
