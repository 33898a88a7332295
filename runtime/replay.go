package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/geodisaster/engine/scoring"
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

// RecordResult is one line of results.jsonl.
type RecordResult struct {
	ID           string          `json:"id"`
	QuestionType string          `json:"question_type"`
	Family       string          `json:"family"`
	Status       string          `json:"status"` // "ok" or "error"
	Answer       json.RawMessage `json:"answer"`
	Correct      bool            `json:"correct"`
	Error        *string         `json:"error"`

	// Details kept out of results.jsonl.
	Reason  string      `json:"-"` // scorer's first failing path and reason
	Calls   []CallTrace `json:"-"`
	Denials []Denial    `json:"-"`
	WallMS  float64     `json:"-"`
}

// ReplayRecord executes a record's GT chain in a fresh gold-free session,
// resolves the published answer reference and scores it against the
// record's gold answer with geodisaster_structured_answer_v2. It never
// returns an error: failures are reported in the result, and a failed
// record is never scored correct. A ReplayTrace attached to ctx
// (WithReplayTrace) sees every call.
func (e *Engine) ReplayRecord(ctx context.Context, rec workers.Record) (res RecordResult) {
	start := time.Now()
	res = RecordResult{ID: rec.ID, QuestionType: rec.QuestionType, Family: rec.Family, Status: "error", Answer: json.RawMessage("null")}
	fail := func(err error) RecordResult {
		msg := err.Error()
		res.Error = &msg
		res.Correct = false
		res.Answer = json.RawMessage("null")
		res.WallMS = float64(time.Since(start).Microseconds()) / 1000
		return res
	}
	if err := rec.Validate(true); err != nil {
		return fail(err)
	}
	s, err := e.NewSession(rec)
	if err != nil {
		return fail(err)
	}
	// The session's buffers go back to the engine's pool once nothing of
	// it is used any more: after Close and after the trace is taken.
	defer s.recycle()
	defer s.Close()
	defer func() {
		res.Calls = s.Trace()
		res.Denials = s.Denials()
	}()
	terminated := false
	trace := ContextReplayTrace(ctx)
	for i, step := range rec.GTChain {
		out, err := s.Call(ctx, step.Tool, step.Args)
		if err != nil {
			return fail(fmt.Errorf("step %d %s: %w", i+1, step.Tool, err))
		}
		if step.Output != "" && out.Handle != step.Output {
			return fail(fmt.Errorf("step %d %s produced handle %q, the chain declares %q", i+1, step.Tool, out.Handle, step.Output))
		}
		if trace != nil && trace.StepDone != nil {
			if err := trace.StepDone(i, s, out); err != nil {
				return fail(fmt.Errorf("step %d %s: %w", i+1, step.Tool, err))
			}
		}
		if step.Tool == ToolTerminate || step.Tool == ToolFinalAnswer {
			terminated = true
		}
	}
	var ans json.RawMessage
	if terminated {
		ans = s.Terminal()
	} else {
		ans, err = s.Resolve(AnswerRef)
		if err != nil {
			return fail(err)
		}
	}
	res.Status = "ok"
	res.Answer = ans
	v := scoring.ScoreV2(rec.Answer, ans, scoring.DefaultAbsTol)
	res.Correct = v.Correct
	if !v.Correct {
		res.Reason = v.Path + ": " + v.Reason
	}
	res.WallMS = float64(time.Since(start).Microseconds()) / 1000
	return res
}

// ReplayOptions selects and runs records.
type ReplayOptions struct {
	// Workers bounds the records replayed concurrently (>= 1).
	Workers int
	// Family and Type filter records when non-empty.
	Family, Type string
	// ShardIndex and ShardCount select a deterministic partition by id
	// (ShardCount 0 or 1 means all records).
	ShardIndex, ShardCount int
	// Progress is called after each record (from one goroutine at a time).
	Progress func(done, total int)
}

// ShardOf returns the shard (0..n-1) a record id belongs to: the first 8
// bytes of SHA-256(id) as a big-endian integer modulo n.
func ShardOf(id string, n int) int {
	if n <= 1 {
		return 0
	}
	s := sha256.Sum256([]byte(id))
	return int(binary.BigEndian.Uint64(s[:8]) % uint64(n))
}

// Select returns the records the options select, in input order.
func (o ReplayOptions) Select(recs []workers.Record) []workers.Record {
	var out []workers.Record
	for _, r := range recs {
		if o.Family != "" && r.Family != o.Family {
			continue
		}
		if o.Type != "" && r.QuestionType != o.Type {
			continue
		}
		if o.ShardCount > 1 && ShardOf(r.ID, o.ShardCount) != o.ShardIndex {
			continue
		}
		out = append(out, r)
	}
	return out
}

// Replay replays the selected records with up to opts.Workers in parallel
// and returns their results sorted by id. Once ctx is cancelled no record
// is started any more: those not started fail with ctx's error, and the
// caller, which sees ctx.Err(), should not take the results for a
// complete replay.
func (e *Engine) Replay(ctx context.Context, recs []workers.Record, opts ReplayOptions) []RecordResult {
	sel := opts.Select(recs)
	n := max(opts.Workers, 1)
	results := make([]RecordResult, len(sel))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = e.ReplayRecord(ctx, sel[i])
				mu.Lock()
				done++
				if opts.Progress != nil {
					opts.Progress(done, len(sel))
				}
				mu.Unlock()
			}
		}()
	}
	started := make([]bool, len(sel))
dispatch:
	for i := range sel {
		select {
		case jobs <- i:
			started[i] = true
		case <-ctx.Done():
			break dispatch
		}
	}
	close(jobs)
	wg.Wait()
	for i, ok := range started {
		if !ok {
			msg := "not replayed: " + context.Cause(ctx).Error()
			results[i] = RecordResult{ID: sel[i].ID, QuestionType: sel[i].QuestionType, Family: sel[i].Family, Status: "error", Answer: json.RawMessage("null"), Error: &msg}
		}
	}
	sort.Slice(results, func(i, j int) bool { return results[i].ID < results[j].ID })
	return results
}

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
