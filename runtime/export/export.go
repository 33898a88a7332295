package export

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/episode"
	"github.com/geodisaster/engine/scoring"
	"github.com/geodisaster/engine/workers"
)

// ManifestFile is the export's manifest, written last, relative to the
// output directory.
const ManifestFile = "export.json"

// Splits are the splits every projection has a file for.
var Splits = []string{"train", "test"}

// layout is where each projection's rows go, "{split}" standing for the
// split. The multi-agent role-SFT rows are stored only in
// data/multi_agent/sft_train/ and data/multi_agent/sft_test/ (spec section
// 6); the core files sit beside the canonical file, named like it (core.go);
// docs/episodes.md describes the others.
var layout = map[string]string{
	CoreTasks:           "data/core/geodisaster_2921_{split}.jsonl",
	MultiAgentEpisodes:  "data/multi_agent/episodes/{split}.jsonl",
	SingleAgentEpisodes: "data/single_agent/episodes/{split}.jsonl",
	ORCSFT:              "data/multi_agent/sft_{split}/orc.jsonl",
	GASFT:               "data/multi_agent/sft_{split}/ga.jsonl",
	PASFT:               "data/multi_agent/sft_{split}/pa.jsonl",
	VRASFT:              "data/multi_agent/sft_{split}/vra.jsonl",
	SingleAgentSFT:      "data/single_agent/sft_{split}/single_agent.jsonl",
}

// File returns where a projection's rows of one split go, relative to the
// output directory ("" for an unknown projection).
func File(name, split string) string {
	pattern, ok := layout[name]
	if !ok {
		return ""
	}
	return strings.Replace(pattern, "{split}", split, 1)
}

// ProjectionSummary counts one projection's rows per split.
type ProjectionSummary struct {
	Train int      `json:"train"`
	Test  int      `json:"test"`
	Files []string `json:"files"`
}

// Summary describes an export.
type Summary struct {
	Projections map[string]*ProjectionSummary `json:"projections"`
	// Records counts the canonical records projected.
	Records int `json:"records"`
	// SFTRows counts the rows of the five SFT projections.
	SFTRows int `json:"sft_rows"`
	// TerminalTargets counts the SFT rows whose target is a terminal
	// action; TerminalActions lists those actions (each is
	// reference-only).
	TerminalTargets int            `json:"terminal_targets"`
	TerminalActions map[string]int `json:"terminal_actions"`
	// SplitContract is the split contract of the trajectory groups.
	SplitContract string `json:"split_contract"`
	// DuplicateTrajectoryGroups counts the within-split groups of more
	// than one record with the same trajectory_content_group_id, and
	// DuplicateTrajectoryRecords their records.
	DuplicateTrajectoryGroups  int `json:"duplicate_trajectory_groups"`
	DuplicateTrajectoryRecords int `json:"duplicate_trajectory_records"`
	// CrossSplitTrajectoryGroups counts trajectory groups with records in
	// both splits.
	CrossSplitTrajectoryGroups int `json:"cross_split_trajectory_groups"`
}

func (ps *ProjectionSummary) add(split string, rows int) {
	if split == "train" {
		ps.Train += rows
	} else {
		ps.Test += rows
	}
}

// FileInfo is one written file in the manifest.
type FileInfo struct {
	Rows   int    `json:"rows"`
	SHA256 string `json:"sha256"`
}

// Manifest is export.json: the summary, the canonical input and every
// file with its row count and digest.
type Manifest struct {
	Summary
	Input runtime.CorpusInfo  `json:"input"`
	Files map[string]FileInfo `json:"files"`
}

// Options configures Export.
type Options struct {
	// OutputDir receives the files (created if needed). Files of an
	// earlier export there are replaced.
	OutputDir string
	// Workers bounds the records projected concurrently (>= 1).
	Workers int
	// Input identifies the canonical records file in the manifest.
	Input runtime.CorpusInfo
	// Progress is called after each record is written.
	Progress func(done, total int)
}

// Export projects every canonical record (each replayed once) into the
// layout of File and writes the manifest. Rows keep the input's record
// order. The
// files appear only when every record projected: they are written under a
// temporary directory inside OutputDir and moved into place at the end,
// the manifest last; on error nothing of the run is left, and the manifest
// of an earlier export is removed first, so no stale manifest vouches for
// files being replaced.
func Export(ctx context.Context, p *Projector, canon *Canonical, opts Options) (*Manifest, error) {
	recs := canon.Records
	if len(recs) == 0 {
		return nil, errors.New("export: no records")
	}
	if err := os.MkdirAll(opts.OutputDir, 0o755); err != nil {
		return nil, err
	}
	if err := os.Remove(filepath.Join(opts.OutputDir, ManifestFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	tmp, err := os.MkdirTemp(opts.OutputDir, ".export-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	writers := map[string]*episode.Writer{}
	abort := func() {
		for _, w := range writers {
			w.Abort()
		}
	}
	for _, name := range Projections() {
		for _, split := range Splits {
			rel := File(name, split)
			if err := os.MkdirAll(filepath.Join(tmp, filepath.Dir(rel)), 0o755); err != nil {
				abort()
				return nil, err
			}
			w, err := episode.Create(filepath.Join(tmp, rel), rowType(name))
			if err != nil {
				abort()
				return nil, err
			}
			writers[rel] = w
		}
	}
	m := &Manifest{Summary: newSummary(), Input: opts.Input, Files: map[string]FileInfo{}}
	groups := map[string]map[string]int{} // trajectory group -> split -> records
	next := 0                             // the canonical line of the next record written
	err = project(ctx, p, recs, opts, func(rp *RecordProjection) error {
		if err := writers[File(CoreTasks, rp.Split)].WriteLine(episode.RawLine(canon.Lines[next])); err != nil {
			return err
		}
		next++
		for _, name := range Projections() {
			rel := File(name, rp.Split)
			for _, l := range rp.Lines[name] {
				if err := writers[rel].WriteLine(l); err != nil {
					return err
				}
			}
		}
		m.count(rp)
		g := rp.Single.TrajectoryContentGroupID
		if groups[g] == nil {
			groups[g] = map[string]int{}
		}
		groups[g][rp.Split]++
		return nil
	})
	if err != nil {
		abort()
		return nil, err
	}
	for _, bySplit := range groups {
		if len(bySplit) > 1 {
			m.CrossSplitTrajectoryGroups++
		}
		for _, n := range bySplit {
			if n > 1 {
				m.DuplicateTrajectoryGroups++
				m.DuplicateTrajectoryRecords += n
			}
		}
	}
	rels := slices.Sorted(maps.Keys(writers))
	for _, rel := range rels {
		w := writers[rel]
		if err := w.Close(); err != nil {
			delete(writers, rel)
			abort()
			return nil, err
		}
		delete(writers, rel)
		m.Files[rel] = FileInfo{Rows: w.Rows(), SHA256: w.SHA256()}
	}
	for _, rel := range rels {
		dst := filepath.Join(opts.OutputDir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := os.Rename(filepath.Join(tmp, rel), dst); err != nil {
			return nil, err
		}
	}
	if err := writeManifest(filepath.Join(opts.OutputDir, ManifestFile), m); err != nil {
		return nil, err
	}
	return m, nil
}

func newSummary() Summary {
	s := Summary{Projections: map[string]*ProjectionSummary{}, TerminalActions: map[string]int{}, SplitContract: scoring.SplitContract}
	for _, name := range Projections() {
		ps := &ProjectionSummary{}
		for _, split := range Splits {
			ps.Files = append(ps.Files, File(name, split))
		}
		s.Projections[name] = ps
	}
	return s
}

// count adds a record's rows to the summary.
func (m *Manifest) count(rp *RecordProjection) {
	m.Records++
	m.Projections[CoreTasks].add(rp.Split, 1) // the record itself
	for name, lines := range rp.Lines {
		m.Projections[name].add(rp.Split, len(lines))
		if rowType(name) == episode.TurnRow {
			m.SFTRows += len(lines)
		}
	}
	for _, t := range []episode.Turn{lastTurn(rp.Single.Turns()), lastTurn(rp.Multi.OrchestratorTurns())} {
		m.TerminalTargets++
		m.TerminalActions[t.Target.Tool+"(answer_ref="+fmt.Sprint(t.Target.Args["answer_ref"])+")"]++
	}
}

func lastTurn(ts []episode.Turn) episode.Turn { return ts[len(ts)-1] }

// project runs p over recs with opts.Workers goroutines and hands each
// record's projection to write in input order. At most a few records wait
// for their turn to be written, so memory stays bounded.
func project(ctx context.Context, p *Projector, recs []workers.Record, opts Options, write func(*RecordProjection) error) error {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait() // after cancel: no worker outlives the export
	defer cancel()
	n := max(opts.Workers, 1)
	type result struct {
		rp  *RecordProjection
		err error
	}
	done := make([]chan result, len(recs))
	for i := range done {
		done[i] = make(chan result, 1)
	}
	window := make(chan struct{}, 2*n+4) // records dispatched and not yet written
	jobs := make(chan int)
	go func() {
		defer close(jobs)
		for i := range recs {
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				rp, err := p.Project(ctx, recs[i])
				done[i] <- result{rp, err}
			}
		}()
	}
	for i := range recs {
		var r result
		select {
		case r = <-done[i]:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
		<-window
		if r.err == nil {
			r.err = write(r.rp)
		}
		if r.err != nil {
			return r.err
		}
		if opts.Progress != nil {
			opts.Progress(i+1, len(recs))
		}
	}
	return nil
}

func writeManifest(path string, m *Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return runtime.WriteFileAtomic(path, append(b, '\n'))
}
