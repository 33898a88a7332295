// Package htmlreport renders a replay or conformance report as one
// self-contained HTML page a person can read: provenance, per-family and
// per-type tables with their denominators and statuses, every failing
// record with its first differing field, read-gate denials, thumbnails of
// generated artifacts and a per-type timing chart.
//
// The page has no script and fetches nothing: its style sheet, its
// thumbnails (downscaled PNGs as data URIs) and its chart (inline SVG) are
// all inside the file; thumbnails link to the full artifacts by relative
// path. Statuses are words, never colours alone. The output is a pure
// function of the Page: only the provenance's Generated time varies between
// two renderings of the same run.
//
// A replay builds its Page with FromReplay; any other producer (the
// conformance command) fills a Page itself, adds thumbnails with
// Thumbnails and writes it with WriteFile.
package htmlreport

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/geodisaster/engine/internal/atomicfile"
)

// FileName is the page's name in an output directory.
const FileName = "report.html"

// Page is everything the report shows. Slices are rendered in their order;
// FromReplay orders them deterministically.
type Page struct {
	// Title heads the page (default "GeoDisaster replay report").
	Title string
	// Provenance identifies the run.
	Provenance Provenance
	// Families and Types are the tables' rows. A row with Records == 0 is
	// shown as not run.
	Families []Row
	// Types: see Families.
	Types []Row
	// ValidCounted says whether Row.Valid was counted (schema-valid
	// answers); when false the column says "not checked".
	ValidCounted bool
	// Failures lists failed or incorrect records.
	Failures []Failure
	// Denials lists read-gate denials.
	Denials []DenialRow
	// DenialsOmitted counts denials beyond MaxDenials that are not listed.
	DenialsOmitted int
	// DenialsNotRecorded says the producer kept no denials (the section
	// says so instead of claiming none).
	DenialsNotRecorded bool
	// Thumbnails are inline previews of generated artifacts.
	Thumbnails []Thumbnail
	// ThumbnailsOmitted counts candidate artifacts that were not inlined
	// (per-type and size caps); they are still in the artifacts directory.
	ThumbnailsOmitted int
	// Timing has one entry per type with records.
	Timing []Timing
	// Notes are extra lines shown under the provenance (status reasons).
	Notes []string
	// Links are files beside the page (relative paths such as
	// "report.json") listed in its footer.
	Links []string
}

// Provenance identifies a run.
type Provenance struct {
	// Engine is the engine version.
	Engine string
	// CorpusPath is the replayed records file (or release root).
	CorpusPath string
	// CorpusSHA256 is its SHA-256.
	CorpusSHA256 string
	// CorpusRegenerate is, for a generated corpus that was not kept, the
	// command that writes it again (empty otherwise).
	CorpusRegenerate string
	// Status is the corpus's rung of the status ladder.
	Status string
	// StatusNote explains the status.
	StatusNote string
	// Generated is when the page was written (the only field that varies
	// between renderings of one run).
	Generated time.Time
	// Workers is the replay's parallelism.
	Workers int
	// WallSeconds is the run's duration.
	WallSeconds float64
	// Records, ToolCalls and ReadDenials are the run's totals (ToolCalls
	// 0: not shown).
	Records, ToolCalls, ReadDenials int
	// ReadPolicy names the read gate's policy.
	ReadPolicy string
}

// Row is one family's or type's counts; every count's denominator is
// Records.
type Row struct {
	// Name is the family or question type id.
	Name string
	// Family is a type's family (empty for family rows).
	Family string
	// Records is the denominator.
	Records int
	// Executed counts chains that ran to completion.
	Executed int
	// Valid counts answers that validate against the type's schema.
	Valid int
	// Correct counts answers equal to gold under the scoring policy.
	Correct int
	// Errors counts records whose execution failed.
	Errors int
	// Status is the row's rung of the status ladder.
	Status string
	// Note explains the status (optional).
	Note string
}

// Failure is one failed or incorrect record.
type Failure struct {
	// ID and QuestionType identify the record.
	ID, QuestionType string
	// Path is the first differing JSON path of the answer ("" when the
	// record did not execute).
	Path string
	// Expected and Got are the gold and predicted values at Path as
	// compact JSON, shortened ("(absent)" when missing).
	Expected, Got string
	// Reason is the scorer's reason.
	Reason string
	// Error is the execution error, if any.
	Error string
	// Trace is the relative URL of the record's trace file (empty: none).
	Trace string
}

// DenialRow is one read refused by the read gate.
type DenialRow struct {
	// ID and QuestionType identify the record.
	ID, QuestionType string
	// Call is the 1-based tool call; Tool its tool.
	Call int
	// Tool: see Call.
	Tool string
	// Path is the refused path; Reason why.
	Path, Reason string
}

// Thumbnail is an inline preview of one artifact.
type Thumbnail struct {
	// ID and QuestionType identify the record that produced it.
	ID, QuestionType string
	// Name is the artifact's file name.
	Name string
	// Href is the full file's path relative to the page.
	Href string
	// Kind says what it is ("diagnostic map", "route overlay", "mask",
	// "image").
	Kind string
	// DataURI is the downscaled PNG.
	DataURI template.URL
	// Width and Height are the preview's displayed size in CSS pixels (a
	// tiny artifact is enlarged by a whole factor); SourceWidth and
	// SourceHeight the artifact's size.
	Width, Height, SourceWidth, SourceHeight int
}

// Timing is one type's wall time.
type Timing struct {
	// Name is the question type.
	Name string
	// Records counts timed records.
	Records int
	// TotalMS, MeanMS and MaxMS are wall milliseconds per record.
	TotalMS, MeanMS, MaxMS float64
}

// Limits keeping the page small for the full 2,921-record corpus.
const (
	// MaxDenials is the most denials listed.
	MaxDenials = 500
	// MaxValueChars is the longest expected/got value, reason or error
	// shown; longer ones are cut with an ellipsis.
	MaxValueChars = 160
)

//go:embed report.html.tmpl style.css
var assets embed.FS

// Write renders p to w.
func Write(w io.Writer, p *Page) error {
	t, err := template.New("report.html.tmpl").Funcs(funcs()).ParseFS(assets, "report.html.tmpl")
	if err != nil {
		return err
	}
	css, err := assets.ReadFile("style.css")
	if err != nil {
		return err
	}
	v := view{Page: p, CSS: template.CSS(css), Chart: chart(p.Timing)}
	if v.Title == "" {
		v.Title = "GeoDisaster replay report"
	}
	return t.Execute(w, v)
}

// WriteFile renders p to path atomically (a temporary file and rename).
func WriteFile(path string, p *Page) error {
	var buf bytes.Buffer
	if err := Write(&buf, p); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, buf.Bytes(), 0o644, false)
}

// view is the template's data.
type view struct {
	*Page
	CSS   template.CSS
	Chart barChart
}

func funcs() template.FuncMap {
	return template.FuncMap{
		"frac": func(n, d int) string { return fmt.Sprintf("%d / %d", n, d) },
		"ms":   func(v float64) string { return fmt.Sprintf("%.1f", v) },
		"secs": func(v float64) string { return fmt.Sprintf("%.2f", v) },
		"when": func(t time.Time) string {
			if t.IsZero() {
				return "unknown"
			}
			return t.UTC().Format(time.RFC3339)
		},
		"lower":   strings.ToLower,
		"orDash":  func(s string) string { return orDash(s) },
		"statusc": statusClass,
	}
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// statusClass maps a status word to a CSS class; colour and symbol follow
// the ladder and only ever double the word: a green check for REAL alone
// (the one rung that may back a published number), amber for DEGRADED, a
// neutral blue hollow mark for FIXTURE (generated material: it ran, it
// proves nothing about the release), red for FAILED, grey for NOT_RUN and
// RESOURCE_BLOCKED.
func statusClass(s string) string {
	switch s {
	case "REAL":
		return "st-pass"
	case "DEGRADED":
		return "st-warn"
	case "FIXTURE":
		return "st-fixture"
	case "FAILED":
		return "st-fail"
	}
	return "st-none"
}

// shorten cuts s to at most MaxValueChars runes.
func shorten(s string) string {
	r := []rune(s)
	if len(r) <= MaxValueChars {
		return s
	}
	return string(r[:MaxValueChars-1]) + "…"
}
