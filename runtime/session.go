package runtime

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/geodisaster/engine/internal/team"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/families"
)

// AnswerRef is the reference every record's terminal action uses.
const AnswerRef = "ANSWER_JSON:answer_1"

// Runtime-level tools that are not workers.
const (
	ToolTaskComplete = "TaskComplete"
	ToolTerminate    = "Terminate"
	ToolFinalAnswer  = "FinalAnswer"
)

// Config configures sessions.
type Config struct {
	// DatasetRoot is the strict data root; every declared path resolves
	// under it and nothing else is readable.
	DatasetRoot string
	// ArtifactDir is where generated files go (one subdirectory per
	// session); empty means a temporary directory per session.
	ArtifactDir string
	// Logger receives structured logs; nil discards them.
	Logger *slog.Logger
}

// Engine holds what sessions share: the worker registry and answer schemas.
// It is safe for concurrent use.
type Engine struct {
	cfg      Config
	root     dataRoot
	registry *workers.Registry
	answers  *answerContracts
	bufs     *bufferPool
}

// NewEngine prepares an engine for a dataset root.
func NewEngine(cfg Config) (*Engine, error) {
	root, err := newDataRoot(cfg.DatasetRoot)
	if err != nil {
		return nil, err
	}
	reg, err := families.NewRegistry()
	if err != nil {
		return nil, err
	}
	ac, err := newAnswerContracts()
	if err != nil {
		return nil, err
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Engine{cfg: cfg, root: root, registry: reg, answers: ac, bufs: newBufferPool(poolLimit)}, nil
}

// Registry returns the engine's worker registry.
func (e *Engine) Registry() *workers.Registry { return e.registry }

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

type fileEntry struct {
	data  []byte
	sum   string
	ds    *raster.Dataset
	info  *workers.RasterInfo
	mu    sync.Mutex
	bands map[int]*raster.Band
	// prefetch, when set, is decoding some bands since the file was read.
	prefetch *bandPrefetch
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
	names := make([]string, 0, len(rec.Handles))
	for n := range rec.Handles {
		names = append(names, n)
	}
	sort.Strings(names)
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

func safeName(id string) string { return unsafeChars.ReplaceAllString(id, "_") }

// workers.Record returns the session's gold-free record.
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
	v, parsed, err := s.eng.registry.Resolve(tool, args)
	if err != nil {
		return nil, err
	}
	env := &callEnv{s: s, ctx: ctx, tr: tr, allowed: map[string]workers.FileCard{}, opened: map[string]bool{}}
	result, err := runWorker(v, env, parsed)
	if err != nil {
		return nil, err
	}
	if result == nil {
		return nil, fmt.Errorf("%s returned no result", tool)
	}
	kind := v.Output
	if kind == "" {
		info, _ := workers.LookupTool(tool)
		kind = info.Output
	}
	result.Kind = kind
	s.counters[kind]++
	name := kind + "_" + strconv.Itoa(s.counters[kind])
	parents := make([]string, 0, len(env.opened))
	for p := range env.opened {
		parents = append(parents, p)
	}
	sort.Strings(parents)
	s.handles[name] = &workers.Handle{Name: name, Kind: kind, Parents: parents, Result: result}
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

// Resolve returns the answer behind a published reference after
// revalidating it against the question type's schema.
func (s *Session) Resolve(ref string) (json.RawMessage, error) {
	name, ok := strings.CutPrefix(ref, "ANSWER_JSON:")
	if !ok {
		return nil, fmt.Errorf("answer reference %q must look like %s", ref, AnswerRef)
	}
	ans, ok := s.answers[name]
	if !ok {
		return nil, fmt.Errorf("answer reference %q is not published in this session", ref)
	}
	// Bytes equal to those that passed the schema when they were
	// published pass it again (the same schema, a deterministic check);
	// anything else is validated afresh.
	if !bytes.Equal(ans, s.published[name]) {
		if err := s.eng.answers.validate(s.rec.QuestionType, ans); err != nil {
			return nil, fmt.Errorf("answer reference %q fails revalidation: %w", ref, err)
		}
	}
	return ans, nil
}

// Terminal returns the answer resolved by Terminate or FinalAnswer.
func (s *Session) Terminal() json.RawMessage { return s.terminal }

// project tries the type's answer projection and publishes answer_1 when
// the complete answer validates; it returns the published reference.
func (s *Session) project() string {
	ans, err := s.eng.answers.project(s.rec.QuestionType, &View{s: s})
	if err != nil || ans == nil {
		if err != nil {
			s.log.Debug("projection not published", "err", err)
		}
		return ""
	}
	s.answers["answer_1"] = ans
	if s.published == nil {
		s.published = map[string][]byte{}
	}
	s.published["answer_1"] = bytes.Clone(ans)
	return AnswerRef
}

// View is the read-only session state an answer projection sees.
type View struct{ s *Session }

// Latest returns the most recent result handle of a kind, or nil.
func (v *View) Latest(kind string) *workers.Handle {
	n := v.s.counters[kind]
	if n == 0 {
		return nil
	}
	return v.s.handles[kind+"_"+strconv.Itoa(n)]
}

// Completed reports whether TaskComplete(status=TASK_COMPLETE) was called.
func (v *View) Completed() bool {
	for _, st := range v.s.completed {
		if st == "TASK_COMPLETE" {
			return true
		}
	}
	return false
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// callEnv implements workers.Env for one call.
type callEnv struct {
	s       *Session
	ctx     context.Context
	tr      *CallTrace
	allowed map[string]workers.FileCard
	opened  map[string]bool
}

func (e *callEnv) Context() context.Context { return e.ctx }

func (e *callEnv) Logger() *slog.Logger { return e.s.log.With("call", e.tr.Index, "tool", e.tr.Tool) }

// Open authorizes the file cards reachable from the handle's lineage.
func (e *callEnv) Open(name string) (*workers.Handle, error) {
	h, ok := e.s.handles[name]
	if !ok {
		return nil, fmt.Errorf("%s: unknown handle %q", e.tr.Tool, name)
	}
	e.opened[name] = true
	seen := map[string]bool{}
	stack := []string{name}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		hh := e.s.handles[n]
		if hh == nil {
			continue
		}
		for _, f := range hh.Files {
			e.allowed[f.Path] = f
		}
		stack = append(stack, hh.Parents...)
	}
	return h, nil
}

func (e *callEnv) deny(path, reason string) error {
	e.s.denials = append(e.s.denials, Denial{Call: e.tr.Index, Tool: e.tr.Tool, Path: path, Reason: reason})
	return fmt.Errorf("%w: %s: %s", ErrDenied, path, reason)
}

// entry reads a declared file once per session through the gate.
func (e *callEnv) entry(path string) (*fileEntry, error) {
	card, ok := e.allowed[path]
	if !ok {
		return nil, e.deny(path, "not a file card of a handle opened by this call")
	}
	if fe, ok := e.s.files[path]; ok {
		e.tr.Reads = append(e.tr.Reads, ReadTrace{Path: path, SHA256: fe.sum, Size: int64(len(fe.data))})
		return fe, nil
	}
	real, err := e.s.eng.root.resolve(path)
	if err != nil {
		if errors.Is(err, ErrDenied) {
			return nil, e.deny(path, err.Error())
		}
		return nil, err
	}
	if max := e.s.limits.ReadBytes; max > 0 {
		st, err := os.Stat(real)
		if err != nil {
			return nil, fmt.Errorf("reading declared file %s: %w", path, err)
		}
		if err := checkLimit(LimitReadBytes, max, e.s.readBytes, st.Size(), path); err != nil {
			return nil, err
		}
	}
	var pf *bandPrefetch
	var read func([]byte)
	if bands, ok := e.s.prefetchHints[path]; ok {
		delete(e.s.prefetchHints, path)
		read = func(data []byte) { pf = startPrefetch(data, bands, e.s.allocZeroed) }
	}
	data, sum, err := readHashed(real, e.s.alloc, read)
	hexsum := hex.EncodeToString(sum[:])
	if err == nil && card.SHA256 != "" && card.SHA256 != hexsum {
		err = fmt.Errorf("declared file %s: SHA-256 %s does not match its file card (%s)", path, hexsum, card.SHA256)
	} else if err != nil {
		err = fmt.Errorf("reading declared file %s: %w", path, err)
	}
	if err != nil {
		if pf != nil {
			pf.stop()
		}
		return nil, err
	}
	fe := &fileEntry{data: data, sum: hexsum, bands: map[int]*raster.Band{}, prefetch: pf}
	if pf != nil {
		fe.ds, fe.info = pf.ds, pf.info
	}
	e.s.files[path] = fe
	e.s.readBytes += int64(len(data))
	e.tr.Reads = append(e.tr.Reads, ReadTrace{Path: path, SHA256: hexsum, Size: int64(len(data))})
	return fe, nil
}

var _ workers.FileHasher = (*callEnv)(nil)

var _ workers.TeamEnv = (*callEnv)(nil)

// Team implements workers.TeamEnv: one helper for all the session's calls,
// so it is awake when a call's first parallel step comes.
func (e *callEnv) Team() *team.Team {
	if e.s.team == nil {
		e.s.team = team.New()
	}
	return e.s.team
}

func (e *callEnv) ReadFile(path string) ([]byte, error) {
	fe, err := e.entry(path)
	if err != nil {
		return nil, err
	}
	return fe.data, nil
}

// FileSHA256 implements workers.FileHasher: the digest computed when the
// session first read the file (no read is traced; the caller has read the
// file through ReadFile).
func (e *callEnv) FileSHA256(path string) (string, bool) {
	if _, ok := e.allowed[path]; !ok {
		return "", false
	}
	fe, ok := e.s.files[path]
	if !ok {
		return "", false
	}
	return fe.sum, true
}

func (e *callEnv) open(path string) (*fileEntry, error) {
	fe, err := e.entry(path)
	if err != nil {
		return nil, err
	}
	fe.mu.Lock()
	defer fe.mu.Unlock()
	if fe.ds == nil {
		ds, err := raster.OpenReaderAt(bytes.NewReader(fe.data), int64(len(fe.data)))
		if err != nil {
			return nil, fmt.Errorf("declared raster %s: %w", path, err)
		}
		info := rasterInfo(ds)
		fe.ds, fe.info = ds, &info
	}
	return fe, nil
}

func (e *callEnv) RasterInfo(path string) (workers.RasterInfo, error) {
	fe, err := e.open(path)
	if err != nil {
		return workers.RasterInfo{}, err
	}
	return *fe.info, nil
}

func (e *callEnv) Band(path string, band int) (*raster.Band, workers.RasterInfo, error) {
	fe, err := e.open(path)
	if err != nil {
		return nil, workers.RasterInfo{}, err
	}
	if band < 1 || band > fe.info.Count {
		return nil, workers.RasterInfo{}, fmt.Errorf("declared raster %s has %d bands, band %d requested", path, fe.info.Count, band)
	}
	fe.mu.Lock()
	defer fe.mu.Unlock()
	if b, ok := fe.bands[band]; ok {
		return b, *fe.info, nil
	}
	if fe.prefetch != nil {
		b, ok, err := fe.prefetch.band(e.ctx, band)
		if err != nil {
			return nil, workers.RasterInfo{}, fmt.Errorf("declared raster %s band %d: %w", path, band, err)
		}
		if ok {
			fe.bands[band] = b
			return b, *fe.info, nil
		}
	}
	bs, err := fe.ds.ReadBandsAlloc(e.ctx, []int{band}, raster.Window{Width: fe.info.Width, Height: fe.info.Height}, e.s.allocZeroed)
	if err != nil {
		return nil, workers.RasterInfo{}, fmt.Errorf("declared raster %s band %d: %w", path, band, err)
	}
	fe.bands[band] = bs[0]
	return bs[0], *fe.info, nil
}

// WriteArtifact implements workers.Env. A large artifact is hashed on
// another core while its file is written; a caller's sum replaces the
// hashing.
func (e *callEnv) WriteArtifact(name string, data []byte, sum func() [32]byte) (workers.Artifact, error) {
	if sum != nil {
		art, err := e.writeArtifact(name, data)
		if err != nil {
			return workers.Artifact{}, err
		}
		return withSHA256(art, nil, sum())
	}
	var digest [32]byte
	hash := func() { digest = sha256.Sum256(data) }
	var art workers.Artifact
	var err error
	switch {
	case len(data) < 64<<10:
		hash()
		art, err = e.writeArtifact(name, data)
	case e.s.team != nil:
		// The session's helper is awake (a goroutine started here would
		// wait for an idle core to wake up, or for the helper to yield).
		e.s.team.Both(hash, func() { art, err = e.writeArtifact(name, data) })
	default:
		done := make(chan struct{})
		go func() {
			hash()
			close(done)
		}()
		art, err = e.writeArtifact(name, data)
		<-done
	}
	return withSHA256(art, err, digest)
}

// withSHA256 completes an artifact written by writeArtifact with its
// digest.
func withSHA256(art workers.Artifact, err error, sum [32]byte) (workers.Artifact, error) {
	if err != nil {
		return workers.Artifact{}, err
	}
	art.SHA256 = hex.EncodeToString(sum[:])
	return art, nil
}

// writeArtifact writes data to a temporary file and renames it into place
// (an existing artifact of that name, from an earlier run into the same
// directory, is removed first: renaming over it makes ext4 flush the new
// file synchronously). An existing artifact that already holds exactly
// data (a rerun into the same directory; names are content-addressed) is
// kept as it is: comparing it costs less than writing, and replacing it
// would create and delete an inode per artifact, which makes every later
// file creation slower on ext4 (its inode allocator steps over recently
// deleted inodes). The returned artifact has no SHA256: the caller, which
// may hash data while it is written, fills it in.
func (e *callEnv) writeArtifact(name string, data []byte) (workers.Artifact, error) {
	if err := workers.CheckRelativePath(name); err != nil || strings.Contains(name, "/") {
		return workers.Artifact{}, fmt.Errorf("artifact name %q must be a plain file name", name)
	}
	s := e.s
	if err := checkLimit(LimitArtifactBytes, s.limits.ArtifactBytes, s.artifactBytes, int64(len(data)), "artifact "+name); err != nil {
		return workers.Artifact{}, err
	}
	if s.artifactDir == "" {
		dir, err := os.MkdirTemp("", "geodisaster-artifacts-")
		if err != nil {
			return workers.Artifact{}, err
		}
		s.artifactDir, s.tempArtifact = dir, true
	}
	if !s.artifactDirMade {
		if err := os.MkdirAll(s.artifactDir, 0o755); err != nil {
			return workers.Artifact{}, fmt.Errorf("artifact directory: %w", err)
		}
		s.artifactDirMade = true
	}
	final := filepath.Join(s.artifactDir, name)
	written := func() workers.Artifact {
		return workers.Artifact{
			Locator: "generated-artifact://" + safeName(s.rec.ID) + "/" + name,
			Name:    name, Size: int64(len(data)),
		}
	}
	same, exists := sameFileContent(final, data)
	if same {
		s.artifactBytes += int64(len(data))
		return written(), nil
	}
	tmp, err := os.CreateTemp(s.artifactDir, "."+name+".tmp-*")
	if err != nil {
		return workers.Artifact{}, err
	}
	_, werr := tmp.Write(data)
	merr := tmp.Chmod(OutputFileMode) // CreateTemp makes 0600; outputs are all OutputFileMode
	cerr := tmp.Close()
	if werr != nil || merr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return workers.Artifact{}, fmt.Errorf("writing artifact %s: %v", name, errors.Join(werr, merr, cerr))
	}
	// An artifact new to the directory has nothing to remove first.
	if exists {
		if err := os.Remove(final); err != nil && !errors.Is(err, os.ErrNotExist) {
			os.Remove(tmp.Name())
			return workers.Artifact{}, err
		}
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		os.Remove(tmp.Name())
		return workers.Artifact{}, err
	}
	s.artifactBytes += int64(len(data))
	return written(), nil
}

// sameFileContent reports whether path is a regular file (not a symbolic
// link) whose bytes equal data, and whether anything exists at path. Any
// error reads as not the same (and as existing unless path is absent).
func sameFileContent(path string, data []byte) (same, exists bool) {
	li, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, false
	}
	return sameRegularFile(path, li, err, data), true
}

func sameRegularFile(path string, li os.FileInfo, err error, data []byte) bool {
	if err != nil || !li.Mode().IsRegular() || li.Size() != int64(len(data)) {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !os.SameFile(li, fi) {
		return false
	}
	bp := compareBufPool.Get().(*[]byte)
	defer compareBufPool.Put(bp)
	buf := *bp
	for rest := data; len(rest) > 0; {
		n, err := io.ReadFull(f, buf[:min(len(buf), len(rest))])
		if err != nil || !bytes.Equal(buf[:n], rest[:n]) {
			return false
		}
		rest = rest[n:]
	}
	n, _ := f.Read(buf[:1]) // the file must end where data does
	return n == 0
}

// compareBufPool recycles sameFileContent's read buffer.
var compareBufPool = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

// readHashed is os.ReadFile(name) with the SHA-256 of the bytes read. A
// large file is read in chunks while another goroutine hashes the chunks
// already read, into a buffer from alloc (make when nil). When read is not nil it is called with the file's bytes
// once they are all read and before their digest is complete; it must not
// modify them.
func readHashed(name string, alloc func(int) []byte, read func([]byte)) ([]byte, [32]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, [32]byte{}, err
	}
	defer f.Close()
	size := 0
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && int64(int(fi.Size())) == fi.Size() {
		size = int(fi.Size())
	}
	const chunk = 256 << 10
	if size < 2*chunk {
		b := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
		if _, err := b.ReadFrom(f); err != nil {
			return nil, [32]byte{}, err
		}
		data := b.Bytes()
		if read != nil {
			read(data)
		}
		return data, sha256.Sum256(data), nil
	}
	// As os.ReadFile: one byte more than the size, so reaching EOF does
	// not grow the buffer. The hasher receives the end offset of each
	// chunk read; the reader keeps appending beyond it.
	var data []byte
	if alloc != nil {
		data = alloc(size + 1)[:0]
	} else {
		data = make([]byte, 0, size+1)
	}
	ends := make(chan int, size/chunk+2)
	hashed := make(chan [32]byte, 1)
	buf := data[:cap(data)]
	go func() {
		h := sha256.New()
		done := 0
		for end := range ends {
			h.Write(buf[done:end])
			done = end
		}
		var sum [32]byte
		h.Sum(sum[:0])
		hashed <- sum
	}()
	var rerr error
	for {
		if len(data) == cap(data) {
			// The file grew since Stat: read the rest and hash it all
			// once the hasher has stopped reading data.
			close(ends)
			<-hashed
			rest, err := io.ReadAll(f)
			if err != nil {
				return nil, [32]byte{}, err
			}
			data = append(data, rest...)
			if read != nil {
				read(data)
			}
			return data, sha256.Sum256(data), nil
		}
		n, err := f.Read(data[len(data):min(cap(data), len(data)+chunk)])
		data = data[:len(data)+n]
		if n > 0 {
			ends <- len(data)
		}
		if err != nil {
			if err != io.EOF {
				rerr = err
			}
			break
		}
	}
	close(ends)
	if rerr == nil && read != nil {
		read(data)
	}
	sum := <-hashed
	if rerr != nil {
		return nil, [32]byte{}, rerr
	}
	return data, sum, nil
}
