// Package releasepage renders a release conformance report
// (conformance/release.Report) as the same self-contained report.html a
// replay writes, for "geodisaster conformance --output-dir OUT":
//
//	err := releasepage.Write(ctx, releasepage.Input{Report: rep, OutDir: out, Workers: n, Generated: time.Now()})
//
// It lives apart from htmlreport so that the page package itself depends
// on nothing above runtime.
package releasepage

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/geodisaster/engine/conformance/release"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/htmlreport"
)

// Input is what FromRelease reads.
type Input struct {
	// Report is the conformance report.
	Report *release.Report
	// OutDir is where report.html goes; its artifacts/ holds the replay's
	// generated files. Empty: no thumbnails (and Write refuses).
	OutDir string
	// Workers is the replay's parallelism (the report does not keep it).
	Workers int
	// Generated is the page's date.
	Generated time.Time
	// Thumbnails caps the artifact previews.
	Thumbnails htmlreport.ThumbnailOptions
}

// FromRelease builds the page: provenance and status reasons, one row per
// question type with the report's denominators and statuses, family rows
// summed from them, the listed mismatches (the report keeps a few per
// type; the rest are counted in the notes) and previews of the generated
// artifacts. The report keeps neither read-gate denials nor timings; the
// page says so.
func FromRelease(ctx context.Context, in Input) (*htmlreport.Page, error) {
	rep := in.Report
	if rep == nil {
		return nil, fmt.Errorf("releasepage: no report")
	}
	p := &htmlreport.Page{
		Title: "GeoDisaster release conformance report",
		Provenance: htmlreport.Provenance{
			Engine: rep.Engine, CorpusPath: filepath.Join(rep.ReleaseRoot, rep.CanonicalFile.Path), CorpusSHA256: rep.CanonicalFile.SHA256,
			Status: rep.Status, StatusNote: statusNote(rep), Generated: in.Generated, Workers: in.Workers,
			WallSeconds: rep.WallSeconds, Records: rep.Records,
		},
		ValidCounted:       true,
		DenialsNotRecorded: true,
		Links:              []string{"report.json", "report.txt", "artifacts/"},
	}
	for _, r := range rep.StatusReasons {
		p.Notes = append(p.Notes, "not REAL: "+r)
	}
	for _, c := range rep.Checks {
		if c.Status != "pass" {
			p.Notes = append(p.Notes, fmt.Sprintf("check %s: %s — %s", c.Name, c.Status, c.Detail))
		}
	}
	fams := map[string]*htmlreport.Row{}
	var famOrder []string
	for _, t := range rep.Types {
		row := htmlreport.Row{Name: t.QuestionType, Family: t.Family, Records: t.Records, Executed: t.Executed, Valid: t.Valid,
			Correct: t.Correct, Errors: t.Records - t.Executed, Status: t.Status, Note: t.StatusReason}
		p.Types = append(p.Types, row)
		f := fams[t.Family]
		if f == nil {
			f = &htmlreport.Row{Name: t.Family}
			fams[t.Family] = f
			famOrder = append(famOrder, t.Family)
		}
		f.Records += row.Records
		f.Executed += row.Executed
		f.Valid += row.Valid
		f.Correct += row.Correct
		f.Errors += row.Errors
		f.Status = familyStatus(f.Status, t.Status)
		for _, m := range t.Mismatches {
			fl := htmlreport.Failure{ID: m.ID, QuestionType: t.QuestionType, Path: m.Path, Reason: m.Stage + ": " + m.Reason}
			if m.Stage == "execute" || m.Stage == "adapt" || m.Stage == "blocked" {
				fl.Reason, fl.Error = "", m.Stage+": "+m.Reason
			}
			p.Failures = append(p.Failures, fl)
		}
		if extra := t.MismatchTotal - len(t.Mismatches); extra > 0 {
			p.Notes = append(p.Notes, fmt.Sprintf("%s: %d more failing records are counted but not listed in report.json", t.QuestionType, extra))
		}
	}
	for _, f := range famOrder {
		p.Families = append(p.Families, *fams[f])
	}
	if in.OutDir != "" {
		srcs, err := artifactSources(filepath.Join(in.OutDir, "artifacts"), rep.Types)
		if err != nil {
			return nil, err
		}
		p.Thumbnails, p.ThumbnailsOmitted, err = htmlreport.Thumbnails(ctx, in.OutDir, srcs, in.Thumbnails)
		if err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Write builds the page and writes it to in.OutDir/report.html.
func Write(ctx context.Context, in Input) error {
	if in.OutDir == "" {
		return fmt.Errorf("releasepage: no output directory")
	}
	p, err := FromRelease(ctx, in)
	if err != nil {
		return err
	}
	return htmlreport.WriteFile(filepath.Join(in.OutDir, htmlreport.FileName), p)
}

func statusNote(rep *release.Report) string {
	switch rep.Status {
	case runtime.StatusReal:
		return "the canonical corpus verified"
	case runtime.StatusResourceBlocked:
		return "the corpus is absent here; nothing was replayed"
	}
	return "may not back a published number"
}

// familyStatus folds a type's status into its family's: FAILED over
// RESOURCE_BLOCKED over the corpus status over NOT_RUN.
func familyStatus(cur, t string) string {
	rank := func(s string) int {
		switch s {
		case runtime.StatusFailed:
			return 3
		case runtime.StatusResourceBlocked:
			return 2
		case "", runtime.StatusNotRun:
			return 0
		}
		return 1
	}
	if rank(t) > rank(cur) || cur == "" {
		return t
	}
	return cur
}

// artifactSources lists the record directories under dir, each assigned
// to the question type its name starts with (the longest such id), in
// specification and name order; a directory no type prefixes is skipped.
func artifactSources(dir string, types []*release.TypeReport) ([]htmlreport.ArtifactSource, error) {
	ents, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	rank := map[string]int{}
	for i, t := range types {
		rank[t.QuestionType] = i
	}
	var out []htmlreport.ArtifactSource
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		best := ""
		for _, t := range types {
			if strings.HasPrefix(e.Name(), t.QuestionType) && len(t.QuestionType) > len(best) {
				best = t.QuestionType
			}
		}
		if best != "" {
			out = append(out, htmlreport.ArtifactSource{ID: e.Name(), QuestionType: best})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if rank[out[i].QuestionType] != rank[out[j].QuestionType] {
			return rank[out[i].QuestionType] < rank[out[j].QuestionType]
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}
