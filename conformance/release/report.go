package release

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// ReportFormat identifies the conformance report format.
const ReportFormat = "geodisaster_release_conformance_v1"

// Report is the outcome of a conformance run: the corpus status with its
// reasons, every verification check, the adapter's findings, one row per
// question type and every published fact. It has deliberately no overall
// score.
type Report struct {
	// Format is ReportFormat.
	Format string `json:"format"`
	// Engine is the engine version (set by the command).
	Engine string `json:"engine,omitempty"`
	// ReleaseRoot is the root as given.
	ReleaseRoot string `json:"release_root"`
	// Status is the corpus status: REAL, DEGRADED, FIXTURE or
	// RESOURCE_BLOCKED.
	Status string `json:"status"`
	// StatusReasons says why the status is not REAL; with REAL it is
	// empty unless a caller overrode the canonical digest or inventory.
	StatusReasons []string `json:"status_reasons"`
	// CorpusVerified is true when the corpus verified for its rung: every
	// REAL gate for the canonical records, the fixture's own manifest
	// (and nothing but the canonical digest failing) for generated
	// material. DEGRADED corpora and FIXTURE corpora that were edited or
	// lack their manifest are not verified (the command exits 4).
	CorpusVerified bool `json:"corpus_verified"`
	// CanonicalFile is the canonical records file with its digest.
	CanonicalFile FileDigest `json:"canonical_file"`
	// Checks are the verification steps in order.
	Checks []Check `json:"checks"`
	// Inventory is the corpus census.
	Inventory *Inventory `json:"inventory,omitempty"`
	// ExpectedInventory is what the census must be for REAL.
	ExpectedInventory Inventory `json:"expected_inventory"`
	// Paths is the path inventory.
	Paths *PathInventory `json:"paths,omitempty"`
	// Hydration is the Sen1Floods11 hydration manifest's verification.
	Hydration *HydrationReport `json:"hydration,omitempty"`
	// Adapter reports the canonical-record mapping.
	Adapter *AdaptResult `json:"adapter,omitempty"`
	// MappingTable is the adapter's mapping table (MappingTable()).
	MappingTable []FieldMapping `json:"mapping_table"`
	// Policy names the scoring policy used and where it came from.
	Policy PolicyInfo `json:"policy"`
	// Records counts canonical records; Replayed those replayed.
	Records int `json:"records"`
	// Replayed counts records replayed (once each).
	Replayed int `json:"replayed"`
	// Types has one row per question type, in specification order.
	Types []*TypeReport `json:"types"`
	// Facts are the published facts, each checked or not checkable.
	Facts []FactResult `json:"facts"`
	// FactSummary counts the facts by status.
	FactSummary map[string]int `json:"fact_summary"`
	// WallSeconds is the run's duration.
	WallSeconds float64 `json:"wall_seconds"`
}

// FileDigest is a file with its SHA-256 and the digest it must have.
type FileDigest struct {
	// Path is repository-relative.
	Path string `json:"path"`
	// SHA256 is the file's digest (empty when absent).
	SHA256 string `json:"sha256,omitempty"`
	// Expected is the digest it must have to be REAL.
	Expected string `json:"expected_sha256"`
	// Bytes is the file's size.
	Bytes int64 `json:"bytes,omitempty"`
}

// PolicyInfo identifies the scoring policy.
type PolicyInfo struct {
	// Name is the policy's name.
	Name string `json:"name"`
	// Source says whether the release's file or the embedded policy was
	// used.
	Source string `json:"source"`
}

// TypeReport is one question type's conformance row.
type TypeReport struct {
	// Ordinal is the type's position in the spec (1..43).
	Ordinal int `json:"ordinal"`
	// QuestionType is the type's id.
	QuestionType string `json:"question_type"`
	// Family is the type's family.
	Family string `json:"family"`
	// Status is the type's rung of the ladder: the corpus status when
	// every record was replayed, valid and correct and no published fact
	// mismatched; FAILED otherwise; NOT_RUN without records;
	// RESOURCE_BLOCKED when the corpus or the type's inputs are absent.
	Status string `json:"status"`
	// StatusReason explains a status other than the corpus status.
	StatusReason string `json:"status_reason,omitempty"`
	// Records is the denominator of every count below.
	Records int `json:"records"`
	// Blocked counts records not replayed because an input is absent.
	Blocked int `json:"blocked"`
	// AdaptErrors counts records the adapter could not map.
	AdaptErrors int `json:"adapt_errors"`
	// Executed counts chains that ran to completion; Valid resolved
	// answers that validate against the type's schema; Correct answers
	// equal to gold under the scoring policy.
	Executed int `json:"executed"`
	// Valid: see Executed.
	Valid int `json:"valid"`
	// Correct: see Executed.
	Correct int `json:"correct"`
	// GoldSchemaValid counts gold answers that validate against our
	// schema (how well our reading of the answer contract fits).
	GoldSchemaValid int `json:"gold_schema_valid"`
	// ReferenceArtifacts counts replay products the canonical records pin
	// by digest; ArtifactsMatched those our replay reproduced byte for
	// byte, ArtifactsDiffer those it wrote with another digest and
	// ArtifactsUnmatched those it wrote under no such name.
	ReferenceArtifacts int `json:"reference_artifacts"`
	// ArtifactsMatched: see ReferenceArtifacts.
	ArtifactsMatched int `json:"artifacts_matched"`
	// ArtifactsDiffer: see ReferenceArtifacts.
	ArtifactsDiffer int `json:"artifacts_differ"`
	// ArtifactsUnmatched: see ReferenceArtifacts.
	ArtifactsUnmatched int `json:"artifacts_unmatched"`
	// Repeated counts records replayed a second time to check that their
	// artifacts reproduce; Reproduced those whose artifact digests were
	// identical in both runs (types with a published reproducibility fact,
	// REAL corpus only).
	Repeated int `json:"repeated"`
	// Reproduced: see Repeated.
	Reproduced int `json:"reproduced"`
	// Facts counts this type's published facts by status.
	Facts map[string]int `json:"facts"`
	// Mismatches lists records that failed, with the first differing
	// field (at most a few per type; see MismatchTotal).
	Mismatches []Mismatch `json:"mismatches"`
	// MismatchTotal counts every mismatch, listed or not.
	MismatchTotal int `json:"mismatch_total"`
}

// Mismatch is one failed record.
type Mismatch struct {
	// ID is the record.
	ID string `json:"id"`
	// Stage is adapt, blocked, execute, schema, score, artifact or
	// reproduce.
	Stage string `json:"stage"`
	// Path is the first differing JSON path of the answer (score stage).
	Path string `json:"path,omitempty"`
	// Reason says what differs.
	Reason string `json:"reason"`
}

// mismatchLimit bounds the mismatches listed per type.
const mismatchLimit = 5

func (t *TypeReport) addMismatch(m Mismatch) {
	t.MismatchTotal++
	if len(t.Mismatches) < mismatchLimit {
		t.Mismatches = append(t.Mismatches, m)
	}
}

// WriteTable writes the report as text tables: the corpus verdict and its
// checks, the per-type table with denominators, fact results other than
// ok, and the adapter's unmapped fields.
func (r *Report) WriteTable(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("release root %s\ncorpus status %s\n", orNone(r.ReleaseRoot), r.Status)
	for _, reason := range r.StatusReasons {
		ew.printf("  not REAL: %s\n", reason)
	}
	ew.printf("canonical %s sha256 %s (canonical %s)\n", r.CanonicalFile.Path, orNone(r.CanonicalFile.SHA256), r.CanonicalFile.Expected)
	if r.Policy.Name != "" {
		ew.printf("policy %s (%s)\n", r.Policy.Name, r.Policy.Source)
	}
	ew.printf("\n")
	if len(r.Checks) > 0 {
		tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "check\tstatus\tgates REAL\tdetail")
		for _, c := range r.Checks {
			fmt.Fprintf(tw, "%s\t%s\t%v\t%s\n", c.Name, c.Status, c.GatesReal, truncate(c.Detail, 160))
		}
		tw.Flush()
		ew.printf("\n")
	}
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\ttype\tstatus\trecords\tblocked\texecuted\tvalid\tcorrect\tgold schema\tfacts ok/mismatch/n.c.\tfirst mismatch or reason")
	for _, t := range r.Types {
		first := ""
		if len(t.Mismatches) > 0 {
			m := t.Mismatches[0]
			first = m.ID + " " + m.Stage + " " + m.Path + " " + m.Reason
		} else if t.StatusReason != "" {
			first = t.StatusReason
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d\t%d/%d\t%d/%d\t%d/%d\t%d/%d\t%d/%d/%d\t%s\n", t.Ordinal, t.QuestionType, t.Status, t.Records, t.Blocked,
			t.Executed, t.Records, t.Valid, t.Records, t.Correct, t.Records, t.GoldSchemaValid, t.Records,
			t.Facts[FactOK], t.Facts[FactMismatch], t.Facts[FactNotCheckable], truncate(first, 100))
	}
	tw.Flush()
	ew.printf("\npublished facts: %d ok, %d mismatch, %d not checkable\n", r.FactSummary[FactOK], r.FactSummary[FactMismatch], r.FactSummary[FactNotCheckable])
	for _, f := range r.Facts {
		if f.Status == FactMismatch {
			ew.printf("  MISMATCH %s: expected %s, observed %s; %s\n    spec: %q\n", f.ID, f.Expected, f.Observed, f.Detail, f.Quote)
		}
	}
	if r.Adapter != nil {
		for _, u := range r.Adapter.Unmapped {
			ew.printf("adapter: unmapped field %s in %d records (first %s)\n", u.Field, u.Records, u.FirstID)
		}
		for _, d := range r.Adapter.Derived {
			ew.printf("adapter: derived %s in %d records (%s)\n", d.Field, d.Records, d.Rule)
		}
		if n := len(r.Adapter.Errors); n > 0 {
			ew.printf("adapter: %d records could not be mapped; first: line %d %s: %s\n", n, r.Adapter.Errors[0].Line, r.Adapter.Errors[0].ID, r.Adapter.Errors[0].Err)
		}
	}
	return ew.err
}

type errWriter struct {
	w   io.Writer
	err error
}

// Write writes p unless an earlier write failed.
func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, a ...any) { fmt.Fprintf(e, format, a...) }

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func truncate(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
