package core

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// Options configures a corpus.
type Options struct {
	// Types restricts generation to these question types (all supported
	// types when empty).
	Types []string
	// PerType is the number of records per type (default 6).
	PerType int
	// Full uses the specification's per-type record counts and input sizes.
	Full bool
	// Seed varies the pseudo-random content.
	Seed uint64
	// Workers is the number of records generated in parallel (default 1).
	// Every record draws from its own random stream and writes its own
	// files, so the corpus is byte-identical for any number of workers.
	Workers int
	// UserShaped writes inputs the way users have them rather than as the
	// release packages them: cached OSM features of the multi-hazard D
	// types as LineString and Polygon geometries (besides Points), xBD
	// building labels as a GeoJSON FeatureCollection, and routing chips
	// in EPSG:4326 instead of a UTM zone.
	UserShaped bool
	// Progress, when not nil, is called after each record is generated
	// with the records done and the total (from one goroutine at a time).
	Progress func(done, total int)
}

// Manifest describes a generated corpus; it is written as corpus.json.
type Manifest struct {
	Generator string         `json:"generator"`
	Status    string         `json:"status"`
	Seed      uint64         `json:"seed"`
	Full      bool           `json:"full"`
	Records   int            `json:"records"`
	ByType    map[string]int `json:"by_type"`
	Files     int            `json:"files"`
	// RecordsSHA256 is the SHA-256 of records.jsonl.
	RecordsSHA256 string `json:"records_sha256"`
	// UserShaped reports Options.UserShaped.
	UserShaped bool `json:"user_shaped,omitempty"`
	// BySplit counts each split's records, and DuplicateGroups and
	// DuplicateRecords the groups of path-renamed copies and their
	// records (full corpora only).
	BySplit          map[string]int `json:"by_split,omitempty"`
	DuplicateGroups  int            `json:"duplicate_groups,omitempty"`
	DuplicateRecords int            `json:"duplicate_records,omitempty"`
}

// Type generates the records of one question type.
type Type struct {
	// Full is the specification's record count for the type.
	Full int
	// Tests is the number of public-reference test records of the type,
	// as its section of the specification states ("Records: 48 AOIs — 43
	// train and 5 test", ...). A full corpus (Options.Full) splits the
	// type so (FullSplit).
	Tests int
	// Gen generates record number i.
	Gen func(g *Gen, i int) (workers.Record, error)
	// Copies says which records of a full corpus are path-renamed copies
	// of others; Sample then names record i's sample.
	Copies Copies
	Sample func(i int) string
}

// Types maps question types to their generators.
type Types map[string]Type

// Add adds a family's types.
func (t Types) Add(family Types) {
	for k, v := range family {
		t[k] = v
	}
}

// Supported returns the question types of t in the kernel's type order.
func (t Types) Supported() []string {
	var out []string
	for _, q := range workers.QuestionTypes() {
		if _, ok := t[q.ID]; ok {
			out = append(out, q.ID)
		}
	}
	return out
}

// Generate writes a corpus of the given types into dir: records.jsonl
// (full records), test_inputs.jsonl (the gold-free projection),
// corpus.json and the input files.
func Generate(ctx context.Context, dir string, gens Types, opts Options) (*Manifest, error) {
	types := opts.Types
	if len(types) == 0 {
		types = gens.Supported()
	}
	per := opts.PerType
	if per <= 0 {
		per = 6
	}
	m := &Manifest{Generator: "geodisaster synth", Status: runtime.StatusFixture, Seed: opts.Seed, Full: opts.Full, ByType: map[string]int{}, UserShaped: opts.UserShaped}
	type job struct {
		t   string
		i   int
		gen Type
		qt  workers.QuestionType
	}
	var jobs []job
	// A full corpus splits each type as its section states and holds the
	// release's duplicate-trajectory groups as path-renamed copies: job k
	// with copyOf[k] = s is a copy of job s, made once s is generated.
	var splits []string
	copyOf := map[int]int{}
	weights := map[int]float64{}
	for _, t := range types {
		tg, ok := gens[t]
		if !ok {
			return nil, fmt.Errorf("synth: question type %q is not supported (supported: %s)", t, strings.Join(gens.Supported(), ", "))
		}
		qt, _ := workers.LookupQuestionType(t)
		n := per
		if opts.Full {
			n = tg.Full
		}
		first := len(jobs)
		for i := 0; i < n; i++ {
			jobs = append(jobs, job{t: t, i: i, gen: tg, qt: qt})
			if opts.Full {
				splits = append(splits, FullSplit(i, n, tg.Tests))
			}
		}
		if opts.Full && tg.Sample != nil {
			for _, g := range tg.Copies.Groups(splits[first:]) {
				for _, i := range g {
					weights[first+i] = 1 / float64(len(g))
				}
				for _, i := range g[1:] {
					copyOf[first+i] = first + g[0]
				}
			}
		}
	}
	// Each job owns its random stream, its record and its file set; the
	// results are assembled in job order, so output does not depend on
	// scheduling.
	recs := make([]workers.Record, len(jobs))
	fileSets := make([]map[string]bool, len(jobs))
	errs := make([]error, len(jobs))
	var progressMu sync.Mutex
	progressDone := 0
	// finish sets a generated record's type, split, weight and group.
	finish := func(k int, rec workers.Record) (workers.Record, error) {
		j := jobs[k]
		rec.QuestionType = j.t
		rec.Family = string(j.qt.Family)
		switch {
		case opts.Full:
			rec.Split = splits[k]
		case rec.Split == "":
			rec.Split = "train"
			if j.i%10 == 9 {
				rec.Split = "test"
			}
		}
		if w, ok := weights[k]; ok {
			rec.TrainingWeight = w
		}
		if rec.TrainingWeight == 0 {
			rec.TrainingWeight = 1
		}
		if rec.SplitGroupID == "" {
			rec.SplitGroupID = rec.SampleID
		}
		if err := rec.Validate(true); err != nil {
			return workers.Record{}, fmt.Errorf("synth: generated an invalid record: %w", err)
		}
		return rec, nil
	}
	run := func(k int) {
		j := jobs[k]
		if err := ctx.Err(); err != nil {
			errs[k] = err
			return
		}
		if opts.Progress != nil {
			defer func() {
				progressMu.Lock()
				progressDone++
				opts.Progress(progressDone, len(jobs))
				progressMu.Unlock()
			}()
		}
		fileSets[k] = map[string]bool{}
		if _, isCopy := copyOf[k]; isCopy {
			return // made from its source below
		}
		g := NewGen(dir, opts.Full, opts.UserShaped, rand.New(rand.NewPCG(opts.Seed, uint64(j.qt.Number)<<32|uint64(j.i))), fileSets[k])
		rec, err := j.gen.Gen(g, j.i)
		if err != nil {
			errs[k] = fmt.Errorf("synth: %s record %d: %w", j.t, j.i, err)
			return
		}
		recs[k], errs[k] = finish(k, rec)
	}
	nw := max(1, min(opts.Workers, len(jobs)))
	if nw == 1 {
		for k := range jobs {
			if run(k); errs[k] != nil {
				return nil, errs[k]
			}
		}
	} else {
		var next atomic.Int64
		var failed atomic.Bool
		var wg sync.WaitGroup
		for w := 0; w < nw; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for !failed.Load() {
					k := int(next.Add(1)) - 1
					if k >= len(jobs) {
						return
					}
					if run(k); errs[k] != nil {
						failed.Store(true)
					}
				}
			}()
		}
		wg.Wait()
		for k := range jobs {
			if errs[k] != nil {
				return nil, errs[k]
			}
		}
	}
	for k := range jobs {
		src, ok := copyOf[k]
		if !ok {
			continue
		}
		rec, err := CopyRecord(dir, recs[src], jobs[k].gen.Sample(jobs[k].i), fileSets[k])
		if err == nil {
			recs[k], err = finish(k, rec)
		}
		if err != nil {
			return nil, fmt.Errorf("synth: %s record %d (a copy of record %d): %w", jobs[k].t, jobs[k].i, jobs[src].i, err)
		}
	}
	if opts.Full {
		m.BySplit = map[string]int{}
		for _, r := range recs {
			m.BySplit[r.Split]++
		}
		sources := map[int]bool{}
		for _, src := range copyOf {
			sources[src] = true
		}
		m.DuplicateGroups, m.DuplicateRecords = len(sources), len(sources)+len(copyOf)
	}
	files := map[string]bool{}
	for k, j := range jobs {
		m.ByType[j.t]++
		for f := range fileSets[k] {
			files[f] = true
		}
	}
	m.Records = len(recs)
	m.Files = len(files)
	recPath := filepath.Join(dir, "records.jsonl")
	sum, err := WriteJSONL(recPath, recs)
	if err != nil {
		return nil, err
	}
	m.RecordsSHA256 = sum
	test := make([]workers.Record, len(recs))
	for i, r := range recs {
		test[i] = r.TestInput()
	}
	if _, err := WriteJSONL(filepath.Join(dir, "test_inputs.jsonl"), test); err != nil {
		return nil, err
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "corpus.json"), append(b, '\n'), 0o644); err != nil {
		return nil, err
	}
	return m, nil
}
