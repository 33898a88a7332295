package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/episode"
	"github.com/geodisaster/engine/workers"
)

// Agent is one of the spec's two published agent forms (section 3).
type Agent string

// The agent forms a server can serve.
const (
	// AgentSingle is the single agent: it plans, calls every worker and
	// finishes with FinalAnswer(answer_ref=...).
	AgentSingle Agent = episode.FormSingle
	// AgentOrchestrator is the multi-agent form: the orchestrator (ORC)
	// finishes with Terminate(answer_ref=...); its specialists (GA, PA,
	// VRA) call their own workers and TaskComplete only.
	AgentOrchestrator Agent = episode.FormOrchestrator
)

// ToolGetQuestion is the server's own tool returning the question and the
// initial handles (the same JSON as the QuestionURI resource).
const ToolGetQuestion = episode.ToolGetQuestion

// Resource URIs the server exposes.
const (
	// QuestionURI is the question, its type and the initial handles.
	QuestionURI = "geodisaster://session/question"
	// HandlesURI lists every handle of the session with its lineage.
	HandlesURI = "geodisaster://session/handles"
	// AuditURI is the session's audit: calls, reads, denials, refusals.
	AuditURI = "geodisaster://session/audit"
	// SpecialistsURI names, for an orchestrator a Host serves, the
	// endpoints where its GA, PA and VRA specialists join its session:
	// {"GA": path, "PA": path, "VRA": path}.
	SpecialistsURI = "geodisaster://session/specialists"
)

// Options configures a Server.
type Options struct {
	// Agent is the agent form (default AgentSingle).
	Agent Agent
	// Role, when set, makes the server a multi-agent specialist that exposes
	// only its own workers and TaskComplete (Agent must be
	// AgentOrchestrator or empty).
	Role workers.Role
	// Logger receives the server's structured logs (calls, refusals,
	// denials); nil discards them.
	Logger *slog.Logger
	// Version is reported to clients as the implementation version.
	Version string
	// Limits bounds the session; a zero field is no limit.
	Limits Limits
	// ArtifactDir, when set, is the session's own artifact directory
	// (runtime.SessionOptions.ArtifactDir); empty: the engine's default.
	ArtifactDir string

	// Set by Host for the sessions it serves.
	sessionID   string                  // the MCP session id (GetSessionID)
	specialists map[workers.Role]string // endpoint of each specialist of an orchestrator
	observe     func(tool, outcome string, d time.Duration)
	onTerminal  func()
	slots       chan struct{}   // bounds calls running at once, across sessions
	stop        context.Context // cancels running calls when done
}

// Limits bounds one session (all the views of a multi-agent session
// together). A zero field is no limit. A call past a limit is a tool error
// of category "limit" naming the limit; the session stays readable.
type Limits struct {
	// ToolCalls bounds the tools/call requests of the session, refused
	// and failed ones included.
	ToolCalls int `json:"tool_calls"`
	// ReadBytes bounds the declared-file bytes the session loads (each
	// file once; runtime.SessionLimits).
	ReadBytes int64 `json:"read_bytes"`
	// ArtifactBytes bounds the bytes of the artifacts it writes.
	ArtifactBytes int64 `json:"artifact_bytes"`
	// WallTime bounds the session's age: no call starts after it, and a
	// running call's context ends with it.
	WallTime time.Duration `json:"wall_time_ns"`
}

// Limit names beyond runtime.LimitReadBytes and runtime.LimitArtifactBytes.
const (
	LimitToolCalls = "tool_calls"
	LimitWallTime  = "wall_time"
)

// Refusal records a tool call the server refused before it reached the
// runtime: a tool outside this server's role or agent form, or arguments
// that are not a JSON object.
type Refusal struct {
	Tool   string       `json:"tool"`
	Role   workers.Role `json:"role,omitempty"`
	Reason string       `json:"reason"`
}

// Audit is a snapshot of a session's accountability record.
type Audit struct {
	RecordID string              `json:"record_id"`
	Agent    Agent               `json:"agent"`
	Role     workers.Role        `json:"role,omitempty"`
	Calls    []runtime.CallTrace `json:"calls"`
	Denials  []runtime.Denial    `json:"denials"`
	Refusals []Refusal           `json:"refusals"`
	// Answer is the answer resolved by Terminate or FinalAnswer (null
	// before).
	Answer json.RawMessage `json:"answer"`
}

// Server serves one runtime session (one record) over the Model Context
// Protocol. Every MCP client connected to it drives that same session;
// calls are serialized. Create it with New; Specialist adds the
// multi-agent specialists' views of the same session.
type Server struct {
	opts    Options
	log     *slog.Logger
	eng     *runtime.Engine
	srv     *sdk.Server
	tools   []string        // exposed tools, in listing order
	exposed map[string]bool // exposed tool names
	sh      *shared
	owner   bool // Close ends the session

	// initialized is the client session this server's initialize
	// answered; it is kept because the SDK forgets a session as soon as it
	// closes, which a client may do right after initialize returns.
	initMu      sync.Mutex
	initialized *sdk.ServerSession
}

// initializedSession returns the client session that completed
// initialize with this server, or nil.
func (s *Server) initializedSession() *sdk.ServerSession {
	s.initMu.Lock()
	defer s.initMu.Unlock()
	return s.initialized
}

// shared is the session state every view of one session uses.
type shared struct {
	mu         sync.Mutex // guards everything below
	sess       *runtime.Session
	refusals   []Refusal
	exchanges  []Exchange
	clients    []ClientInfo
	opened     time.Time
	toolCalls  int
	limitHits  []string // limits that refused a call, in order
	terminated bool     // Terminate or FinalAnswer resolved the answer
	notified   bool     // Options.onTerminal was called
}

// New opens a session on the gold-free projection of rec and returns a
// server exposing, for opts.Agent and opts.Role: GetQuestion, the workers
// (all 18, or the role's), TaskComplete, and Terminate (orchestrator) or
// FinalAnswer (single agent). A specialist gets neither terminal tool.
func New(eng *runtime.Engine, rec workers.Record, opts Options) (*Server, error) {
	if eng == nil {
		return nil, errors.New("mcp server: nil engine")
	}
	if opts.Agent == "" {
		opts.Agent = AgentSingle
		if opts.Role != "" {
			opts.Agent = AgentOrchestrator
		}
	}
	switch opts.Agent {
	case AgentSingle, AgentOrchestrator:
	default:
		return nil, fmt.Errorf("mcp server: unknown agent form %q (allowed: single, orc)", opts.Agent)
	}
	switch opts.Role {
	case "", workers.RoleGA, workers.RolePA, workers.RoleVRA:
	default:
		return nil, fmt.Errorf("mcp server: unknown role %q (allowed: GA, PA, VRA)", opts.Role)
	}
	if opts.Role != "" && opts.Agent != AgentOrchestrator {
		return nil, fmt.Errorf("mcp server: role %s is a multi-agent specialist; it needs agent form orc, not %s", opts.Role, opts.Agent)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	sess, err := eng.NewSessionWith(rec, runtime.SessionOptions{
		ArtifactDir: opts.ArtifactDir,
		Limits:      runtime.SessionLimits{ReadBytes: opts.Limits.ReadBytes, ArtifactBytes: opts.Limits.ArtifactBytes},
	})
	if err != nil {
		return nil, fmt.Errorf("mcp server: opening session for record %q: %w", rec.ID, err)
	}
	s, err := newView(eng, &shared{sess: sess, opened: time.Now()}, opts, true)
	if err != nil {
		sess.Close()
		return nil, err
	}
	return s, nil
}

// Specialist returns the view of this orchestrator's session for a
// multi-agent specialist (GA, PA or VRA): its own MCP server exposing
// GetQuestion, the role's workers and TaskComplete over the same handles,
// so that the orchestrator delegates each analytical step to the
// specialist and terminates on the reference it publishes (spec section
// 3). Only an orchestrator server (agent form orc, no role) has
// specialists; closing a specialist leaves the session open.
func (s *Server) Specialist(role workers.Role) (*Server, error) {
	if s.opts.Agent != AgentOrchestrator || s.opts.Role != "" {
		return nil, fmt.Errorf("mcp server: only the orchestrator's server has specialists (this one serves agent %s, role %q)", s.opts.Agent, s.opts.Role)
	}
	if role == "" {
		return nil, errors.New("mcp server: a specialist needs a role (GA, PA or VRA)")
	}
	return s.specialist(role, "")
}

// specialist is Specialist with the MCP session id its server assigns
// ("" for the SDK's default).
func (s *Server) specialist(role workers.Role, sessionID string) (*Server, error) {
	if role == "" {
		return nil, errors.New("mcp server: a specialist needs a role (GA, PA or VRA)")
	}
	opts := s.opts
	opts.Role = role
	opts.sessionID = sessionID
	opts.specialists = nil
	return newView(s.eng, s.sh, opts, false)
}

// newView builds the MCP server of one agent form and role over sh.
func newView(eng *runtime.Engine, sh *shared, opts Options, owner bool) (*Server, error) {
	switch opts.Role {
	case "", workers.RoleGA, workers.RolePA, workers.RoleVRA:
	default:
		return nil, fmt.Errorf("mcp server: unknown role %q (allowed: GA, PA, VRA)", opts.Role)
	}
	rec := sh.sess.Record()
	s := &Server{
		opts:    opts,
		log:     opts.Logger.With("record", rec.ID, "agent", string(opts.Agent), "role", string(opts.Role)),
		eng:     eng,
		sh:      sh,
		owner:   owner,
		exposed: map[string]bool{},
	}
	so := &sdk.ServerOptions{Instructions: s.instructions(), Capabilities: &sdk.ServerCapabilities{}}
	if id := opts.sessionID; id != "" {
		so.GetSessionID = func() string { return id }
	}
	s.srv = sdk.NewServer(&sdk.Implementation{Name: "geodisaster", Title: "GeoDisaster engine", Version: opts.Version}, so)
	if err := s.addTools(); err != nil {
		return nil, err
	}
	s.addResources()
	// The outer middleware sees every request first: it records the
	// client, times each tool call and counts the session's calls.
	s.srv.AddReceivingMiddleware(s.account, s.refuseOthers)
	return s, nil
}

// MCPServer returns the underlying SDK server (to connect transports of
// the caller's choice).
func (s *Server) MCPServer() *sdk.Server { return s.srv }

// Tools returns the names of the exposed tools in listing order.
func (s *Server) Tools() []string { return append([]string(nil), s.tools...) }

// Run serves one MCP connection over t until the client disconnects or
// ctx is cancelled.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	return s.srv.Run(ctx, t)
}

// HTTPHandler returns a streamable-HTTP handler for the server; every
// client session it accepts drives this server's one runtime session.
func (s *Server) HTTPHandler() http.Handler {
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.srv },
		&sdk.StreamableHTTPOptions{Logger: s.log})
}

// Audit returns a snapshot of the session's calls, denials, refusals and
// resolved answer.
func (s *Server) Audit() Audit {
	s.sh.mu.Lock()
	defer s.sh.mu.Unlock()
	a := Audit{
		RecordID: s.sh.sess.Record().ID,
		Agent:    s.opts.Agent,
		Role:     s.opts.Role,
		Calls:    append([]runtime.CallTrace{}, s.sh.sess.Trace()...),
		Denials:  append([]runtime.Denial{}, s.sh.sess.Denials()...),
		Refusals: append([]Refusal{}, s.sh.refusals...),
		Answer:   json.RawMessage("null"),
	}
	if t := s.sh.sess.Terminal(); t != nil {
		a.Answer = append(json.RawMessage(nil), t...)
	}
	return a
}

// Close ends the runtime session (removing a temporary artifact
// directory); on a specialist's view it does nothing.
func (s *Server) Close() error {
	if !s.owner {
		return nil
	}
	s.sh.mu.Lock()
	defer s.sh.mu.Unlock()
	return s.sh.sess.Close()
}

// terminalTool is the finishing tool of the server's form ("" for a
// specialist).
func (s *Server) terminalTool() string { return s.form().TerminalTool() }

func (s *Server) instructions() string {
	var b strings.Builder
	rec := s.sh.sess.Record()
	fmt.Fprintf(&b, "GeoDisaster session for record %s (question type %s). ", rec.ID, rec.QuestionType)
	fmt.Fprintf(&b, "Read the question and the initial handles with the %s tool or the %s resource. ", ToolGetQuestion, QuestionURI)
	b.WriteString("Each worker call names handles of this session and returns a new handle with its evidence; reads are limited to the files of the handles a call opens (" + runtime.ReadPolicy + "). ")
	b.WriteString("When the answer validates the runtime publishes " + runtime.AnswerRef + ". ")
	switch t := s.terminalTool(); t {
	case "":
		fmt.Fprintf(&b, "You are the %s specialist: close your subgoal with TaskComplete(status=TASK_COMPLETE); only the orchestrator terminates.", s.opts.Role)
	default:
		fmt.Fprintf(&b, "Call TaskComplete(status=TASK_COMPLETE), then finish with %s(answer_ref=%s).", t, runtime.AnswerRef)
	}
	if sp := s.opts.specialists; len(sp) > 0 {
		fmt.Fprintf(&b, " Your specialists join this session over MCP at GA %s, PA %s and VRA %s (paths on this server); delegate each worker call to its owner.", sp[workers.RoleGA], sp[workers.RolePA], sp[workers.RoleVRA])
	}
	return b.String()
}

// addTools registers GetQuestion, the form's workers and runtime tools.
func (s *Server) addTools() error {
	reg := s.eng.Registry()
	s.expose(ToolGetQuestion)
	s.srv.AddTool(&sdk.Tool{
		Name:        ToolGetQuestion,
		Description: "Returns this session's question, question type and initial handles (with their file cards). Takes no arguments and reads no files.",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false},
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
	}, s.getQuestion)
	for _, info := range workers.Tools() {
		if s.opts.Role != "" && info.Role != s.opts.Role {
			continue
		}
		schema, err := ToolSchema(reg, info.Name)
		if err != nil {
			return fmt.Errorf("mcp server: %w", err)
		}
		s.expose(info.Name)
		s.srv.AddTool(&sdk.Tool{Name: info.Name, Description: toolDescription(reg, info), InputSchema: schema}, s.callTool(info.Name))
	}
	s.expose(runtime.ToolTaskComplete)
	s.srv.AddTool(&sdk.Tool{
		Name:        runtime.ToolTaskComplete,
		Description: "Closes a subgoal; carries no answer. The runtime then tries the question type's answer projection and reports " + runtime.AnswerRef + " when it is published.",
		InputSchema: map[string]any{
			"type":                 "object",
			"properties":           map[string]any{"status": map[string]any{"type": "string", "enum": []string{"TASK_COMPLETE"}}},
			"additionalProperties": false,
		},
	}, s.callTool(runtime.ToolTaskComplete))
	if t := s.terminalTool(); t != "" {
		who := "the single agent"
		if t == runtime.ToolTerminate {
			who = "the multi-agent orchestrator (ORC)"
		}
		s.expose(t)
		s.srv.AddTool(&sdk.Tool{
			Name:        t,
			Description: "Ends the session for " + who + ": resolves the published answer reference, revalidates it against the question type's schema and returns the resolved answer.",
			InputSchema: map[string]any{
				"type":                 "object",
				"properties":           map[string]any{"answer_ref": map[string]any{"type": "string", "enum": []string{runtime.AnswerRef}}},
				"required":             []string{"answer_ref"},
				"additionalProperties": false,
			},
		}, s.callTool(t))
	}
	return nil
}

func (s *Server) expose(name string) {
	s.tools = append(s.tools, name)
	s.exposed[name] = true
}

// refuseOthers answers a call of a known tool this server does not expose
// (another role's worker, a terminal tool of the other form, Terminate
// from a specialist) with a tool error naming the reason, and logs it.
func (s *Server) refuseOthers(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		p, ok := req.GetParams().(*sdk.CallToolParamsRaw)
		if !ok || s.exposed[p.Name] {
			return next(ctx, method, req)
		}
		reason := s.refusalReason(p.Name)
		if reason == "" {
			return next(ctx, method, req) // unknown tool: the SDK's protocol error
		}
		s.sh.mu.Lock()
		s.sh.refusals = append(s.sh.refusals, Refusal{Tool: p.Name, Role: s.opts.Role, Reason: reason})
		s.sh.mu.Unlock()
		s.log.Warn("tool call refused", "tool", p.Name, "reason", reason)
		return errorResult(p.Name, "refused", reason), nil
	}
}

// refusalReason explains why a known tool is not served here ("" for a
// name that is no tool at all).
func (s *Server) refusalReason(tool string) string {
	if info, ok := workers.LookupTool(tool); ok {
		return fmt.Sprintf("%s belongs to the %s specialist; this server serves role %s only", tool, info.Role, s.opts.Role)
	}
	switch tool {
	case runtime.ToolTerminate, runtime.ToolFinalAnswer:
		if s.opts.Role != "" {
			return fmt.Sprintf("the %s specialist cannot end the session (%s is the orchestrator's); close the subgoal with TaskComplete", s.opts.Role, tool)
		}
		return fmt.Sprintf("%s is not the finishing tool of agent form %s; finish with %s(answer_ref=%s)", tool, s.opts.Agent, s.terminalTool(), runtime.AnswerRef)
	}
	return ""
}

// callTool runs a worker or runtime tool through the session.
func (s *Server) callTool(tool string) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		args, err := decodeArgs(req.Params.Arguments)
		if err != nil {
			reason := fmt.Sprintf("%s: %v", tool, err)
			s.sh.mu.Lock()
			s.sh.refusals = append(s.sh.refusals, Refusal{Tool: tool, Role: s.opts.Role, Reason: reason})
			s.sh.mu.Unlock()
			s.log.Warn("tool call refused", "tool", tool, "reason", reason)
			return errorResult(tool, "argument", reason), nil
		}
		return s.run(ctx, tool, args), nil
	}
}

// run makes one runtime call under the session's lock (and a call slot
// when the host bounds them) and returns its result.
func (s *Server) run(ctx context.Context, tool string, args map[string]any) *sdk.CallToolResult {
	s.sh.mu.Lock()
	defer s.sh.mu.Unlock()
	if s.opts.stop != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(s.opts.stop, cancel)()
	}
	if wall := s.opts.Limits.WallTime; wall > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, s.sh.opened.Add(wall))
		defer cancel()
	}
	if s.opts.slots != nil {
		select {
		case s.opts.slots <- struct{}{}:
			defer func() { <-s.opts.slots }()
		case <-ctx.Done():
			return s.failure(ctx, tool, ctx.Err())
		}
	}
	before := len(s.sh.sess.Denials())
	res, err := s.sh.sess.Call(ctx, tool, args)
	for _, d := range s.sh.sess.Denials()[before:] {
		s.log.Warn("read denied", "tool", d.Tool, "call", d.Call, "path", d.Path, "reason", d.Reason)
	}
	if ex := exchangeOf(ctx); ex != nil {
		ex.Call = len(s.sh.sess.Trace())
	}
	if err != nil {
		return s.failure(ctx, tool, err)
	}
	var artifacts []workers.Artifact
	if tr := s.sh.sess.Trace(); len(tr) > 0 {
		artifacts = tr[len(tr)-1].Artifacts
	}
	out := episode.NewObservation(s.form(), tool, res, artifacts)
	if res.Answer != nil {
		s.sh.terminated = true
	}
	s.log.Info("tool call", "tool", tool, "handle", res.Handle, "published", res.Published)
	r, _ := jsonResult(out)
	return r
}

// failure turns a failed call into its tool error; a call that ran out of
// the session's wall time or budget is a "limit" error naming the limit.
// The caller holds the session's lock.
func (s *Server) failure(ctx context.Context, tool string, err error) *sdk.CallToolResult {
	cat := category(err)
	var le *runtime.LimitError
	switch {
	case errors.As(err, &le):
		s.sh.limitHits = append(s.sh.limitHits, le.Limit)
	case s.opts.Limits.WallTime > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded) && time.Since(s.sh.opened) >= s.opts.Limits.WallTime:
		cat = "limit"
		s.sh.limitHits = append(s.sh.limitHits, LimitWallTime)
		err = fmt.Errorf("session limit %s exceeded: the session opened %s ago, its limit is %s (%w)", LimitWallTime, time.Since(s.sh.opened).Round(time.Millisecond), s.opts.Limits.WallTime, err)
	case s.opts.stop != nil && s.opts.stop.Err() != nil:
		cat = "shutdown"
		err = fmt.Errorf("the server is shutting down: %w", err)
	}
	s.log.Warn("tool call failed", "tool", tool, "category", cat, "err", err)
	return errorResult(tool, cat, err.Error())
}

// decodeArgs parses a call's arguments as a JSON object (numbers as
// float64, as the workers expect).
func decodeArgs(raw json.RawMessage) (map[string]any, error) {
	trimmed := strings.TrimSpace(string(raw))
	if trimmed == "" || trimmed == "null" {
		return map[string]any{}, nil
	}
	var args map[string]any
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, fmt.Errorf("arguments must be a JSON object: %v", err)
	}
	if args == nil {
		return map[string]any{}, nil
	}
	return args, nil
}

// category classifies a call error for clients: "limit" (a session
// limit), "denied" (read gate), "argument" (validation), "unknown_handle",
// "terminated", or "failed".
func category(err error) string {
	var ae *workers.ArgError
	switch {
	case errors.As(err, new(*runtime.LimitError)):
		return "limit"
	case errors.Is(err, runtime.ErrDenied):
		return "denied"
	case strings.Contains(err.Error(), "unknown handle"):
		return "unknown_handle"
	case errors.As(err, &ae):
		return "argument"
	case strings.Contains(err.Error(), "already terminated"):
		return "terminated"
	}
	return "failed"
}

// errorResult is a tool error (isError) whose text is the reason and whose
// structured content is {"tool","error","category"}.
func errorResult(tool, cat, reason string) *sdk.CallToolResult {
	return &sdk.CallToolResult{
		IsError:           true,
		Content:           []sdk.Content{&sdk.TextContent{Text: reason}},
		StructuredContent: map[string]any{"tool": tool, "error": reason, "category": cat},
	}
}

// jsonResult returns v as both JSON text content and structured content.
func jsonResult(v any) (*sdk.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return errorResult("", "failed", "result is not JSON-encodable: "+err.Error()), nil
	}
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
	}, nil
}

// form is the episode form of the server's agent form and role.
func (s *Server) form() episode.Form {
	return episode.Form{Agent: string(s.opts.Agent), Role: s.opts.Role}
}

// question is the question and initial handles shown to the agent (the
// user message of an episode of this form).
func (s *Server) question() episode.QuestionView {
	return episode.NewQuestionView(s.sh.sess.Record(), s.form(), s.Tools())
}

func (s *Server) getQuestion(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	if _, err := decodeArgs(req.Params.Arguments); err != nil {
		return errorResult(ToolGetQuestion, "argument", ToolGetQuestion+": "+err.Error()), nil
	}
	return jsonResult(s.question())
}

// handleView is one handle of the session.
type handleView struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Tool    string   `json:"tool,omitempty"`
	Parents []string `json:"parents,omitempty"`
	Files   []string `json:"files,omitempty"`
}

// handles lists the initial handles then the result handles in call order.
func (s *Server) handles() []handleView {
	s.sh.mu.Lock()
	defer s.sh.mu.Unlock()
	rec := s.sh.sess.Record()
	names := slices.Sorted(maps.Keys(rec.Handles))
	var out []handleView
	for _, n := range names {
		h := rec.Handles[n]
		v := handleView{Name: n, Kind: h.Kind}
		for _, f := range h.Files {
			v.Files = append(v.Files, f.Path)
		}
		out = append(out, v)
	}
	for _, c := range s.sh.sess.Trace() {
		if c.Output == "" {
			continue
		}
		kind := c.Output
		if i := strings.LastIndexByte(kind, '_'); i > 0 {
			kind = kind[:i]
		}
		out = append(out, handleView{Name: c.Output, Kind: kind, Tool: c.Tool, Parents: c.Inputs})
	}
	return out
}

// addResources registers the question, handles and audit resources.
func (s *Server) addResources() {
	add := func(uri, name, desc string, get func() any) {
		s.srv.AddResource(&sdk.Resource{URI: uri, Name: name, Description: desc, MIMEType: "application/json"},
			func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
				b, err := json.MarshalIndent(get(), "", "  ")
				if err != nil {
					return nil, fmt.Errorf("resource %s: %w", uri, err)
				}
				return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
			})
	}
	add(QuestionURI, "question", "The question, its type and the initial handles with their file cards.", func() any { return s.question() })
	add(HandlesURI, "handles", "Every handle of the session: the initial handles, then each result handle with the tool that made it and the handles it consumed.", func() any { return s.handles() })
	add(AuditURI, "audit", "The session's calls (with the files each read and their SHA-256), read denials, refused calls and the resolved answer.", func() any { return s.Audit() })
	if len(s.opts.specialists) > 0 {
		add(SpecialistsURI, "specialists", "The endpoints (paths on this server) where the GA, PA and VRA specialists join this orchestrator's session.", func() any { return s.opts.specialists })
	}
}
