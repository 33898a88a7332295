// Command crossarch prints the SHA-256 of everything the engine produces
// for a synthetic corpus, so that two builds (linux/amd64 and linux/arm64
// under qemu-user-static, see .ci/steps/crossarch.sh) can be compared line
// by line: DESIGN.md requires byte-identical artifacts on every OS and
// architecture.
//
// It synthesizes a corpus (conformance/synth, fixed seed), replays every
// record's GT chain in a gold-free session and prints, sorted:
//
//	input    PATH SHA256      every file of the synthesized corpus
//	answer   ID STATUS SHA256 the resolved answer JSON of each record
//	artifact ID/NAME SHA256   every generated artifact (masks, GeoJSON, PNG, ...)
//
// then a summary line "total LINES SHA256" over the lines above. Exit
// status 1 when a record fails to replay or is scored incorrect.
//
// Usage:
//
//	go run ./conformance/crossarch [--per-type N] [--types t1,t2] [--seed S]
//	go run ./conformance/crossarch --synth-only DIR [--per-type N] [--types t1,t2] [--seed S]
//	go run ./conformance/crossarch --corpus DIR
//
// --synth-only writes the corpus and prints only its input lines;
// --corpus replays an existing corpus (so that two architectures replay
// byte-identical inputs) and prints only answer and artifact lines.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "crossarch:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("crossarch", flag.ContinueOnError)
	per := fl.Int("per-type", 1, "records per question type")
	types := fl.String("types", "", "comma-separated question types (default: every synthesized type)")
	seed := fl.Uint64("seed", 1, "synthesis seed")
	corpusDir := fl.String("corpus", "", "replay this existing corpus instead of synthesizing one")
	synthOnly := fl.String("synth-only", "", "synthesize the corpus into this directory, print its input lines and stop")
	keep := fl.String("artifacts", "", "keep the generated artifacts in this directory (default: a temporary directory)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %v", fl.Args())
	}
	work, err := os.MkdirTemp("", "crossarch-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	corpus := *corpusDir
	var lines []string
	if corpus == "" {
		corpus = filepath.Join(work, "corpus")
		if *synthOnly != "" {
			corpus = *synthOnly
		}
		opts := synth.Options{PerType: *per, Seed: *seed}
		if *types != "" {
			opts.Types = strings.Split(*types, ",")
		}
		if _, err := synth.Generate(ctx, corpus, opts); err != nil {
			return fmt.Errorf("synthesizing the corpus: %w", err)
		}
		inputs, err := hashTree(corpus)
		if err != nil {
			return err
		}
		for _, h := range inputs {
			lines = append(lines, "input "+h)
		}
		if *synthOnly != "" {
			return printLines(stdout, lines)
		}
	}
	artifacts := filepath.Join(work, "artifacts")
	if *keep != "" {
		artifacts = *keep
	}
	recs, err := workers.ReadRecordsFile(filepath.Join(corpus, "records.jsonl"), true)
	if err != nil {
		return err
	}
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: corpus, ArtifactDir: artifacts})
	if err != nil {
		return err
	}
	failed := 0
	for _, rec := range recs {
		res := eng.ReplayRecord(ctx, rec)
		status := "correct"
		switch {
		case res.Status != "ok":
			status = "error"
			failed++
			fmt.Fprintf(os.Stderr, "crossarch: %s: %s\n", rec.ID, *res.Error)
		case !res.Correct:
			status = "incorrect"
			failed++
			fmt.Fprintf(os.Stderr, "crossarch: %s: incorrect: %s\n", rec.ID, res.Reason)
		}
		sum := sha256.Sum256(res.Answer)
		lines = append(lines, fmt.Sprintf("answer %s %s %s", rec.ID, status, hex.EncodeToString(sum[:])))
	}
	if _, err := os.Stat(artifacts); err == nil {
		arts, err := hashTree(artifacts)
		if err != nil {
			return err
		}
		for _, h := range arts {
			lines = append(lines, "artifact "+h)
		}
	}
	if err := printLines(stdout, lines); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d records failed or were incorrect", failed, len(recs))
	}
	return nil
}

// printLines prints the lines sorted, then "total N SHA256" over them.
func printLines(w io.Writer, lines []string) error {
	sort.Strings(lines)
	all := sha256.New()
	for _, l := range lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
		io.WriteString(all, l+"\n")
	}
	_, err := fmt.Fprintf(w, "total %d %s\n", len(lines), hex.EncodeToString(all.Sum(nil)))
	return err
}

// hashTree returns "REL SHA256" for every regular file under dir, with
// slash-separated relative paths.
func hashTree(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		out = append(out, filepath.ToSlash(rel)+" "+hex.EncodeToString(sum[:]))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("hashing %s: %w", dir, err)
	}
	return out, nil
}
