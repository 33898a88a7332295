package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/geodisaster/engine/internal/team"
	"github.com/geodisaster/engine/workers"
)

// AnswerRef is the reference every record's terminal action uses.
const AnswerRef = "ANSWER_JSON:answer_1"

// Runtime-level tools that are not workers.
const (
	ToolTaskComplete = "TaskComplete"
	ToolTerminate    = "Terminate"
	ToolFinalAnswer  = "FinalAnswer"
)

// Session is one agent session over one record: the question, the initial
// handles and every result handle. A Session is not safe for concurrent
// calls.
type Session struct {
	eng      *Engine
	rec      workers.Record
	log      *slog.Logger
	handles  map[string]*workers.Handle
	counters map[string]int
	trace    []CallTrace
	denials  []Denial
	answers  map[string]json.RawMessage
	// published holds a private copy of each answer as it passed its
	// schema, so Resolve revalidates only bytes that changed since.
	published    map[string][]byte
	completed    []string // statuses passed to TaskComplete
	terminal     json.RawMessage
	artifactDir  string
	tempArtifact bool
	// artifactDirMade is set once artifactDir is known to exist.
	artifactDirMade bool
	files           map[string]*fileEntry // decoded-file cache by path
	// prefetchHints are the bands workers.BandPrefetcher declared for
	// files not read yet.
	prefetchHints map[string][]int
	bufs          sessionBuffers
	// team is the workers' helper for short parallel steps, shared by the
	// session's calls (created at first use, closed by Close).
	team *team.Team
	// limits bound the bytes loaded and written (NewSessionWith);
	// readBytes and artifactBytes are what the session has used.
	limits                   SessionLimits
	readBytes, artifactBytes int64
}

// NewSession opens a session on the gold-free projection of rec.
func (e *Engine) NewSession(rec workers.Record) (*Session, error) {
	rec = rec.TestInput()
	if err := rec.Validate(false); err != nil {
		return nil, err
	}
	s := &Session{
		eng:      e,
		rec:      rec,
		log:      e.cfg.Logger.With("record", rec.ID),
		handles:  map[string]*workers.Handle{},
		counters: map[string]int{},
		answers:  map[string]json.RawMessage{},
		files:    map[string]*fileEntry{},
	}
	names := slices.Sorted(maps.Keys(rec.Handles))
	for _, n := range names {
		h := rec.Handles[n]
		s.handles[n] = &workers.Handle{Name: n, Kind: h.Kind, Files: h.Files}
	}
	if e.cfg.ArtifactDir != "" {
		s.artifactDir = filepath.Join(e.cfg.ArtifactDir, safeName(rec.ID))
	}
	return s, nil
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// safeName maps a record id to a file name (and an artifact locator's
// directory).
func safeName(id string) string { return unsafeChars.ReplaceAllString(id, "_") }

// Record returns the session's gold-free record.
func (s *Session) Record() workers.Record { return s.rec }

// Trace returns the calls made so far.
func (s *Session) Trace() []CallTrace { return s.trace }

// Denials returns the refused reads so far.
func (s *Session) Denials() []Denial { return s.denials }

// Handle returns a handle by name.
func (s *Session) Handle(name string) (*workers.Handle, bool) {
	h, ok := s.handles[name]
	return h, ok
}

// Close stops band prefetches still running and the workers' helper, and
// removes a temporary artifact directory.
func (s *Session) Close() error {
	s.stopPrefetches()
	if s.team != nil {
		s.team.Close()
		s.team = nil
	}
	if s.tempArtifact && s.artifactDir != "" {
		return os.RemoveAll(s.artifactDir)
	}
	return nil
}

// CallTrace records one tool call.
type CallTrace struct {
	Index     int                `json:"index"`
	Tool      string             `json:"tool"`
	Args      map[string]any     `json:"args"`
	Inputs    []string           `json:"input_handles"`
	Output    string             `json:"output_handle,omitempty"`
	Reads     []ReadTrace        `json:"reads"`
	Artifacts []workers.Artifact `json:"artifacts"`
	Published string             `json:"published,omitempty"`
	WallMS    float64            `json:"wall_ms"`
	Error     string             `json:"error,omitempty"`
}

// ReadTrace records one authorized file read.
type ReadTrace struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// CallResult is what a call returns to its caller (the agent or replay).
type CallResult struct {
	// Handle is the new output handle ("" for runtime tools).
	Handle string `json:"handle,omitempty"`
	// Evidence is the worker's observation.
	Evidence map[string]any `json:"evidence,omitempty"`
	// Published is AnswerRef when this call made the answer available.
	Published string `json:"published,omitempty"`
	// Answer is the resolved answer (Terminate and FinalAnswer only).
	Answer json.RawMessage `json:"answer,omitempty"`
}

// Call executes one tool call: a worker, TaskComplete, Terminate or
// FinalAnswer. After a successful worker or TaskComplete call the runtime
// tries the question type's answer projection and publishes AnswerRef when
// the whole answer validates.
func (s *Session) Call(ctx context.Context, tool string, args map[string]any) (*CallResult, error) {
	start := time.Now()
	tr := CallTrace{Index: len(s.trace) + 1, Tool: tool, Args: args, Reads: []ReadTrace{}, Artifacts: []workers.Artifact{}}
	res, err := s.call(ctx, &tr, tool, args)
	tr.WallMS = float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		tr.Error = err.Error()
		s.log.Debug("call failed", "tool", tool, "err", err)
	} else {
		tr.Published = res.Published
	}
	s.trace = append(s.trace, tr)
	return res, err
}

func (s *Session) call(ctx context.Context, tr *CallTrace, tool string, args map[string]any) (*CallResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.terminal != nil {
		return nil, errors.New("session already terminated")
	}
	if args == nil {
		args = map[string]any{}
	}
	switch tool {
	case ToolTaskComplete:
		return s.taskComplete(args)
	case ToolTerminate, ToolFinalAnswer:
		return s.finish(tool, args)
	}
	return s.callWorker(ctx, tr, tool, args)
}

// callWorker runs a worker through a fresh callEnv, keeps its result as the
// next handle of its kind and tries the answer projection.
func (s *Session) callWorker(ctx context.Context, tr *CallTrace, tool string, args map[string]any) (*CallResult, error) {
	v, parsed, err := s.eng.registry.Resolve(tool, args)
	if err != nil {
		return nil, err
	}
	env := newCallEnv(s, ctx, tr)
	result, err := runWorker(v, env, parsed)
	if err != nil {
		return nil, err
	}
	if result == nil {
		return nil, fmt.Errorf("%s returned no result", tool)
	}
	parents := env.openedHandles()
	name := s.addResult(outputKind(v), parents, result)
	tr.Inputs = parents
	tr.Output = name
	tr.Artifacts = append(tr.Artifacts, result.Artifacts...)
	out := &CallResult{Handle: name, Evidence: result.Evidence}
	out.Published = s.project()
	return out, nil
}

// runWorker runs a worker variant, turning a panic (a bug) into an error so
// that it never escapes the session and the replay goes on.
func runWorker(v *workers.Variant, env workers.Env, a workers.Args) (res *workers.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("%s: internal error (worker panicked: %v)", v.Tool, p)
		}
	}()
	return v.Run(env, a)
}

// outputKind is the handle kind a variant's results have: its own, else
// its tool's.
func outputKind(v *workers.Variant) string {
	if v.Output != "" {
		return v.Output
	}
	info, _ := workers.LookupTool(v.Tool)
	return info.Output
}

// addResult keeps result as the next handle of kind, <kind>_<n>, derived
// from parents, and returns its name.
func (s *Session) addResult(kind string, parents []string, result *workers.Result) string {
	result.Kind = kind
	s.counters[kind]++
	name := kind + "_" + strconv.Itoa(s.counters[kind])
	s.handles[name] = &workers.Handle{Name: name, Kind: kind, Parents: parents, Result: result}
	return name
}

// taskComplete closes a specialist subgoal; it carries no answer.
func (s *Session) taskComplete(args map[string]any) (*CallResult, error) {
	status := "TASK_COMPLETE"
	for k, v := range args {
		if k != "status" {
			return nil, fmt.Errorf("%s: unknown argument %q (allowed: status)", ToolTaskComplete, k)
		}
		str, ok := v.(string)
		if !ok || str != "TASK_COMPLETE" {
			return nil, fmt.Errorf("%s: argument \"status\": unsupported value %s (allowed: TASK_COMPLETE)", ToolTaskComplete, jsonString(v))
		}
		status = str
	}
	s.completed = append(s.completed, status)
	return &CallResult{Evidence: map[string]any{"status": status}, Published: s.project()}, nil
}

// finish resolves and revalidates the referenced answer (Terminate for the
// multi-agent orchestrator, FinalAnswer for the single agent).
func (s *Session) finish(tool string, args map[string]any) (*CallResult, error) {
	for k := range args {
		if k != "answer_ref" {
			return nil, fmt.Errorf("%s: unknown argument %q (allowed: answer_ref)", tool, k)
		}
	}
	ref, _ := args["answer_ref"].(string)
	if ref == "" {
		return nil, fmt.Errorf("%s: argument \"answer_ref\": required, e.g. %s", tool, AnswerRef)
	}
	ans, err := s.Resolve(ref)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	s.terminal = ans
	return &CallResult{Answer: ans}, nil
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
