package runtime

import (
	"math"

	"github.com/geodisaster/engine/workers"
)

// Conformance statuses, strongest first (DESIGN.md "Conformance and
// honesty"). Only REAL may back a published number.
const (
	StatusReal            = "REAL"
	StatusDegraded        = "DEGRADED"
	StatusFixture         = "FIXTURE"
	StatusFailed          = "FAILED"
	StatusNotRun          = "NOT_RUN"
	StatusResourceBlocked = "RESOURCE_BLOCKED"
)

// Tally counts results of one type or family.
type Tally struct {
	Records  int    `json:"records"`
	Executed int    `json:"executed"`
	Correct  int    `json:"correct"`
	Errors   int    `json:"errors"`
	Status   string `json:"status"`
}

// Report summarizes a replay per type and per family, with denominators
// and the conformance status of each; it invents no overall score.
type Report struct {
	Engine      string            `json:"engine"`
	Corpus      CorpusInfo        `json:"corpus"`
	Workers     int               `json:"workers"`
	WallSeconds float64           `json:"wall_seconds"`
	Records     int               `json:"records"`
	ReadPolicy  string            `json:"read_policy"`
	ReadDenials int               `json:"read_denials"`
	ToolCalls   int               `json:"tool_calls"`
	ByFamily    map[string]*Tally `json:"by_family"`
	ByType      map[string]*Tally `json:"by_type"`
	// RecordSeconds is, per family, the sum of its records' wall-clock
	// replay times (each from session start to score). With N workers the
	// sums over all families add up to about N times WallSeconds; they show
	// where the time goes, not an elapsed time. Families without records
	// are absent.
	RecordSeconds map[string]float64 `json:"record_seconds_by_family"`
	FailedRecords []FailedRecord     `json:"failed_records"`
}

// FailedRecord names a record that errored or was scored incorrect.
type FailedRecord struct {
	ID           string `json:"id"`
	QuestionType string `json:"question_type"`
	Error        string `json:"error,omitempty"`
	Reason       string `json:"reason,omitempty"`
}

// CorpusInfo identifies the replayed corpus.
type CorpusInfo struct {
	// Path is the records file's absolute path (for a corpus generated
	// for the run and deleted after it, a description).
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Status string `json:"status"`
	Note   string `json:"note,omitempty"`
	// Regenerate, for a corpus that was generated and not kept, is the
	// command that writes it again (same SHA-256).
	Regenerate string `json:"regenerate,omitempty"`
}

// NewReport tallies results. Every one of the 43 types and 5 families
// appears; those without records are NOT_RUN. A type or family with any
// failed or incorrect record is FAILED; otherwise it carries the corpus
// status.
func NewReport(results []RecordResult, corpus CorpusInfo) *Report {
	r := &Report{Corpus: corpus, ReadPolicy: ReadPolicy, ByFamily: map[string]*Tally{}, ByType: map[string]*Tally{}, RecordSeconds: map[string]float64{}, FailedRecords: []FailedRecord{}}
	for _, q := range workers.QuestionTypes() {
		r.ByType[q.ID] = &Tally{}
	}
	for _, f := range workers.Families() {
		r.ByFamily[string(f)] = &Tally{}
	}
	for _, res := range results {
		r.Records++
		r.ReadDenials += len(res.Denials)
		r.ToolCalls += len(res.Calls)
		r.RecordSeconds[res.Family] += res.WallMS / 1000
		for _, t := range []*Tally{r.ByType[res.QuestionType], r.ByFamily[res.Family]} {
			if t == nil {
				continue
			}
			t.Records++
			if res.Status == "ok" {
				t.Executed++
			} else {
				t.Errors++
			}
			if res.Correct {
				t.Correct++
			}
		}
		if res.Status != "ok" || !res.Correct {
			fr := FailedRecord{ID: res.ID, QuestionType: res.QuestionType, Reason: res.Reason}
			if res.Error != nil {
				fr.Error = *res.Error
			}
			r.FailedRecords = append(r.FailedRecords, fr)
		}
	}
	for f, sec := range r.RecordSeconds {
		r.RecordSeconds[f] = math.Round(sec*1000) / 1000
	}
	for _, m := range []map[string]*Tally{r.ByType, r.ByFamily} {
		for _, t := range m {
			switch {
			case t.Records == 0:
				t.Status = StatusNotRun
			case t.Errors > 0 || t.Correct < t.Records:
				t.Status = StatusFailed
			default:
				t.Status = corpus.Status
			}
		}
	}
	return r
}
