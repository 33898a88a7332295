package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/geodisaster/engine/scoring"
	"github.com/geodisaster/engine/workers"
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
	res = unreplayed(rec)
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
	ans, err := s.runChain(ctx, rec.GTChain)
	if err != nil {
		return fail(err)
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

// unreplayed is rec's result before its replay succeeds: an error with a
// null answer.
func unreplayed(rec workers.Record) RecordResult {
	return RecordResult{ID: rec.ID, QuestionType: rec.QuestionType, Family: rec.Family, Status: "error", Answer: json.RawMessage("null")}
}

// runChain makes the calls of a GT chain in order, each required to
// produce the output handle the chain declares, and returns the answer:
// the one a Terminate or FinalAnswer step resolved, else the published
// AnswerRef, revalidated. A ReplayTrace attached to ctx sees every call.
func (s *Session) runChain(ctx context.Context, chain []workers.Step) (json.RawMessage, error) {
	terminated := false
	trace := contextReplayTrace(ctx)
	for i, step := range chain {
		out, err := s.Call(ctx, step.Tool, step.Args)
		if err != nil {
			return nil, fmt.Errorf("step %d %s: %w", i+1, step.Tool, err)
		}
		if step.Output != "" && out.Handle != step.Output {
			return nil, fmt.Errorf("step %d %s produced handle %q, the chain declares %q", i+1, step.Tool, out.Handle, step.Output)
		}
		if trace != nil && trace.StepDone != nil {
			if err := trace.StepDone(i, s, out); err != nil {
				return nil, fmt.Errorf("step %d %s: %w", i+1, step.Tool, err)
			}
		}
		if step.Tool == ToolTerminate || step.Tool == ToolFinalAnswer {
			terminated = true
		}
	}
	if terminated {
		return s.Terminal(), nil
	}
	return s.Resolve(AnswerRef)
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
			results[i] = unreplayed(sel[i])
			results[i].Error = &msg
		}
	}
	sort.Slice(results, func(i, j int) bool { return results[i].ID < results[j].ID })
	return results
}

// ReplayTrace is a set of hooks that Engine.ReplayRecord calls while it
// replays a record, for callers that need more than the scored result:
// the dataset projections record what the runtime returned after every
// call. Attach it to the context with WithReplayTrace (the pattern of
// net/http/httptrace); a nil hook is skipped.
type ReplayTrace struct {
	// StepDone is called after each successful call of the GT chain with
	// the step's index in the chain, the session and the call's result.
	// It may read the session and Fork it, but must not call it. A
	// non-nil error fails the record's replay with that error.
	StepDone func(step int, s *Session, res *CallResult) error
}

type replayTraceKey struct{}

// WithReplayTrace returns a context carrying t for Engine.ReplayRecord.
func WithReplayTrace(ctx context.Context, t *ReplayTrace) context.Context {
	return context.WithValue(ctx, replayTraceKey{}, t)
}

// contextReplayTrace returns the ReplayTrace attached to ctx, or nil.
func contextReplayTrace(ctx context.Context) *ReplayTrace {
	t, _ := ctx.Value(replayTraceKey{}).(*ReplayTrace)
	return t
}
