package htmlreport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/scoring"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/families"
)

// ReplayInput is what FromReplay reads.
type ReplayInput struct {
	// Report is the replay's report (report.json).
	Report *runtime.Report
	// Results are the per-record results (results.jsonl with details).
	Results []runtime.RecordResult
	// Records are the replayed records with their gold answers; with
	// them a failure shows the expected and got values at its first
	// differing path, without them only the scorer's reason.
	Records []workers.Record
	// OutDir is the replay's output directory (the page's directory; its
	// artifacts/ holds the generated files). Empty: no thumbnails.
	OutDir string
	// Generated is the page's date (the zero time shows "unknown").
	Generated time.Time
	// Thumbnails caps the artifact previews.
	Thumbnails ThumbnailOptions
}

// FromReplay builds the page of a replay (or merge), whose output
// directory holds a trace per record: provenance from the report (with
// the command that regenerates a generated corpus), family and type rows
// with the report's counts plus the schema-valid answers counted against
// the families' embedded answer schemas, every failed record with its
// first differing field and a link to its trace, every read-gate denial (up to MaxDenials),
// artifact previews and per-type timing. Its output depends only on its
// input.
func FromReplay(ctx context.Context, in ReplayInput) (*Page, error) {
	rep := in.Report
	if rep == nil {
		return nil, fmt.Errorf("htmlreport: no report")
	}
	p := &Page{
		Title: "GeoDisaster replay report",
		Provenance: Provenance{
			Engine: rep.Engine, CorpusPath: rep.Corpus.Path, CorpusSHA256: rep.Corpus.SHA256, CorpusRegenerate: rep.Corpus.Regenerate,
			Status: rep.Corpus.Status, StatusNote: rep.Corpus.Note, Generated: in.Generated,
			Workers: rep.Workers, WallSeconds: rep.WallSeconds, Records: rep.Records,
			ToolCalls: rep.ToolCalls, ReadDenials: rep.ReadDenials, ReadPolicy: rep.ReadPolicy,
		},
		ValidCounted: true,
		Links:        []string{"report.json", "results.jsonl", "traces/", "artifacts/"},
	}
	results := append([]runtime.RecordResult(nil), in.Results...)
	sort.SliceStable(results, func(i, j int) bool { return results[i].ID < results[j].ID })

	valid, noSchema, err := countValid(results)
	if err != nil {
		return nil, err
	}
	familyValid := map[string]int{}
	types := workers.QuestionTypes()
	sort.SliceStable(types, func(i, j int) bool { return types[i].Number < types[j].Number })
	for _, q := range types {
		t := rep.ByType[q.ID]
		if t == nil {
			t = &runtime.Tally{Status: runtime.StatusNotRun}
		}
		row := rowOf(q.ID, t, valid[q.ID])
		row.Family = string(q.Family)
		if noSchema[q.ID] {
			row.Note = "no answer schema: not counted as schema-valid"
		}
		familyValid[string(q.Family)] += valid[q.ID]
		p.Types = append(p.Types, row)
	}
	for _, f := range workers.Families() {
		t := rep.ByFamily[string(f)]
		if t == nil {
			t = &runtime.Tally{Status: runtime.StatusNotRun}
		}
		p.Families = append(p.Families, rowOf(string(f), t, familyValid[string(f)]))
	}

	p.Failures = failures(rep, results, in.Records)
	for _, r := range results {
		for _, d := range r.Denials {
			if len(p.Denials) == MaxDenials {
				p.DenialsOmitted++
				continue
			}
			p.Denials = append(p.Denials, DenialRow{ID: r.ID, QuestionType: r.QuestionType, Call: d.Call, Tool: d.Tool, Path: shorten(d.Path), Reason: shorten(d.Reason)})
		}
	}
	p.Timing = timing(types, results)

	if in.OutDir != "" {
		srcs := make([]ArtifactSource, 0, len(results))
		rank := map[string]int{}
		for _, q := range types {
			rank[q.ID] = q.Number
		}
		for _, r := range results {
			srcs = append(srcs, ArtifactSource{ID: r.ID, QuestionType: r.QuestionType})
		}
		sort.SliceStable(srcs, func(i, j int) bool { return rank[srcs[i].QuestionType] < rank[srcs[j].QuestionType] })
		p.Thumbnails, p.ThumbnailsOmitted, err = Thumbnails(ctx, in.OutDir, srcs, in.Thumbnails)
		if err != nil {
			return nil, err
		}
	}
	return p, nil
}

func rowOf(name string, t *runtime.Tally, valid int) Row {
	return Row{Name: name, Records: t.Records, Executed: t.Executed, Valid: valid, Correct: t.Correct, Errors: t.Errors, Status: t.Status}
}

// countValid counts, per type, the executed answers that validate against
// the type's answer schema; noSchema names types without one.
func countValid(results []runtime.RecordResult) (map[string]int, map[string]bool, error) {
	valid, noSchema := map[string]int{}, map[string]bool{}
	for _, r := range results {
		if r.Status != "ok" {
			continue
		}
		s, err := families.CompiledSchema(r.QuestionType)
		if errors.Is(err, families.ErrNoSchema) {
			noSchema[r.QuestionType] = true
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("htmlreport: %w", err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(r.Answer))
		if err == nil && s.Validate(inst) == nil {
			valid[r.QuestionType]++
		}
	}
	return valid, noSchema, nil
}

// failures lists the report's failed records with their first differing
// field; gold comes from recs when given.
func failures(rep *runtime.Report, results []runtime.RecordResult, recs []workers.Record) []Failure {
	byID := make(map[string]*runtime.RecordResult, len(results))
	for i := range results {
		byID[results[i].ID] = &results[i]
	}
	gold := make(map[string][]byte, len(recs))
	for _, r := range recs {
		gold[r.ID] = r.Answer
	}
	out := make([]Failure, 0, len(rep.FailedRecords))
	for _, fr := range rep.FailedRecords {
		f := Failure{ID: fr.ID, QuestionType: fr.QuestionType, Error: shorten(fr.Error), Trace: runtime.TraceHref(fr.ID)}
		if fr.Error == "" {
			f.Path, f.Reason, _ = strings.Cut(fr.Reason, ": ")
			res, g := byID[fr.ID], gold[fr.ID]
			if res != nil && g != nil {
				v := scoring.ScoreV2(g, res.Answer, scoring.DefaultAbsTol)
				if !v.Correct {
					f.Path, f.Reason = v.Path, v.Reason
					f.Expected, f.Got = valueAt(g, v.Path), valueAt(res.Answer, v.Path)
				}
			}
			f.Path, f.Reason = shorten(f.Path), shorten(f.Reason)
		}
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// timing sums wall time per type, in specification order.
func timing(types []workers.QuestionType, results []runtime.RecordResult) []Timing {
	per := map[string]*Timing{}
	for _, r := range results {
		t := per[r.QuestionType]
		if t == nil {
			t = &Timing{Name: r.QuestionType}
			per[r.QuestionType] = t
		}
		t.Records++
		t.TotalMS += r.WallMS
		t.MaxMS = max(t.MaxMS, r.WallMS)
	}
	var out []Timing
	seen := map[string]bool{}
	add := func(name string) {
		if t := per[name]; t != nil && !seen[name] {
			seen[name] = true
			t.MeanMS = t.TotalMS / float64(t.Records)
			out = append(out, *t)
		}
	}
	for _, q := range types {
		add(q.ID)
	}
	var rest []string
	for name := range per {
		if !seen[name] {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	for _, name := range rest {
		add(name)
	}
	return out
}

// WriteReplay builds the replay's page (FromReplay) and writes it to
// in.OutDir/report.html.
func WriteReplay(ctx context.Context, in ReplayInput) error {
	if in.OutDir == "" {
		return fmt.Errorf("htmlreport: no output directory")
	}
	p, err := FromReplay(ctx, in)
	if err != nil {
		return err
	}
	return WriteFile(filepath.Join(in.OutDir, FileName), p)
}
