package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	goruntime "runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// HostOptions configures a Host. Zero fields take the defaults below.
type HostOptions struct {
	// Logger receives the host's and its sessions' logs; nil discards them.
	Logger *slog.Logger
	// Version is reported to clients as the implementation version.
	Version string
	// Limits bounds every runtime session (an orchestrator and its
	// specialists share one session and its limits).
	Limits Limits
	// MaxSessions bounds the runtime sessions open at once (default 64);
	// an initialize past it is refused with HTTP 503.
	MaxSessions int
	// MaxSpecialists bounds the specialist MCP sessions that join one
	// orchestrator's session (default 12).
	MaxSpecialists int
	// IdleTimeout closes a session that has had no request for so long
	// (default 10 minutes); a running call keeps it open.
	IdleTimeout time.Duration
	// MaxRequestBytes bounds an HTTP request body (default 1 MiB); a
	// larger one is refused with HTTP 413.
	MaxRequestBytes int64
	// RequestTimeout bounds the time to receive one request body
	// (default 30 s); a slower client gets HTTP 408 and is disconnected.
	RequestTimeout time.Duration
	// MaxConcurrentCalls bounds the tool calls running at once across all
	// sessions (default GOMAXPROCS); others wait for a slot.
	MaxConcurrentCalls int
	// ArtifactDir, when set, keeps each session's artifacts in
	// ArtifactDir/<session id>/; otherwise each session writes to a
	// temporary directory removed when it ends.
	ArtifactDir string
	// Episodes records every ended session (nil: none are recorded).
	Episodes EpisodeWriter
	// Token, when set, is required on every request as
	// "Authorization: Bearer TOKEN".
	Token string
}

func (o *HostOptions) defaults() {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = 64
	}
	if o.MaxSpecialists <= 0 {
		o.MaxSpecialists = 12
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 10 * time.Minute
	}
	if o.MaxRequestBytes <= 0 {
		o.MaxRequestBytes = 1 << 20
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = 30 * time.Second
	}
	if o.MaxConcurrentCalls <= 0 {
		o.MaxConcurrentCalls = max(1, goMaxProcs())
	}
}

// SingleEndpoint is the path of record id's single-agent endpoint: every
// MCP session initialized there is a new single-agent session.
func SingleEndpoint(id string) string { return "/records/" + url.PathEscape(id) }

// OrchestratorEndpoint is the path of record id's multi-agent endpoint:
// every MCP session initialized there is a new orchestrator (ORC) session.
func OrchestratorEndpoint(id string) string { return SingleEndpoint(id) + "/orc" }

// SpecialistEndpoint is the path where the GA, PA or VRA specialist joins
// the orchestrator session sessionID of record id (the orchestrator's
// specialists resource, SpecialistsURI, and its instructions give these
// paths).
func SpecialistEndpoint(id, sessionID string, role workers.Role) string {
	return OrchestratorEndpoint(id) + "/" + url.PathEscape(sessionID) + "/" + string(role)
}

// Host serves every record of a gold-free test-input file over streamable
// HTTP, many isolated sessions at once (see the package documentation for
// its endpoints). Create it with NewHost, serve it as an http.Handler and
// end it with Shutdown.
type Host struct {
	eng   *runtime.Engine
	opts  HostOptions
	log   *slog.Logger
	recs  map[string]workers.Record
	ids   []string
	m     *metrics
	slots chan struct{}
	mux   *http.ServeMux
	// stop ends the calls still running when Shutdown's grace is over.
	stop       context.Context
	cancelStop context.CancelFunc
	reaperStop chan struct{}
	reaperDone chan struct{}

	mu       sync.Mutex
	teams    map[string]*team // open runtime sessions by session id
	views    map[string]*view // open MCP sessions by Mcp-Session-Id
	draining bool
	shutOnce sync.Once
}

// team is one runtime session: a single agent, or an orchestrator with
// the specialists that joined it. Its fields are guarded by Host.mu.
type team struct {
	id       string
	rec      workers.Record
	agent    Agent
	owner    *Server
	views    map[string]*view
	opened   time.Time
	last     time.Time // last request started or ended
	inflight int       // POST requests being served
	end      string    // how it ended, once it has
	closing  bool
	episode  sync.Once
}

// view is one MCP session: the owner of a team or a specialist.
type view struct {
	id      string
	team    *team
	role    workers.Role
	path    string // the endpoint it was initialized at
	srv     *Server
	handler http.Handler
	ss      *sdk.ServerSession
}

// NewHost returns a host serving recs (the gold-free test inputs: a
// record carrying an answer, a GT chain or provenance is refused) with
// the engine's dataset root.
func NewHost(eng *runtime.Engine, recs []workers.Record, opts HostOptions) (*Host, error) {
	if eng == nil {
		return nil, errors.New("mcp host: nil engine")
	}
	if len(recs) == 0 {
		return nil, errors.New("mcp host: no records to serve")
	}
	opts.defaults()
	h := &Host{
		eng:        eng,
		opts:       opts,
		log:        opts.Logger,
		recs:       make(map[string]workers.Record, len(recs)),
		m:          newMetrics(),
		slots:      make(chan struct{}, opts.MaxConcurrentCalls),
		teams:      map[string]*team{},
		views:      map[string]*view{},
		reaperStop: make(chan struct{}),
		reaperDone: make(chan struct{}),
	}
	for i := range recs {
		r := &recs[i]
		if field := goldField(r); field != "" {
			return nil, fmt.Errorf("mcp host: record %q carries %q: serve the gold-free test-input projection", r.ID, field)
		}
		if err := r.Validate(false); err != nil {
			return nil, fmt.Errorf("mcp host: %w", err)
		}
		if _, dup := h.recs[r.ID]; dup {
			return nil, fmt.Errorf("mcp host: duplicate record id %q", r.ID)
		}
		h.recs[r.ID] = *r
		h.ids = append(h.ids, r.ID)
	}
	h.stop, h.cancelStop = context.WithCancel(context.Background())
	mux := http.NewServeMux()
	mux.HandleFunc("GET /metrics", h.serveMetrics)
	mux.HandleFunc("GET /status", h.serveStatus)
	mux.HandleFunc("GET /records", h.serveRecords)
	mux.HandleFunc("/records/{id}", h.serveEndpoint)
	mux.HandleFunc("/records/{id}/orc", h.serveEndpoint)
	mux.HandleFunc("/records/{id}/orc/{session}/{role}", h.serveEndpoint)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		h.reject(w, http.StatusNotFound, "not_found", fmt.Sprintf("no endpoint %s: sessions are served at /records/<id> (single agent) and /records/<id>/orc (orchestrator); see GET /records", r.URL.Path))
	})
	h.mux = mux
	go h.reap()
	return h, nil
}

// ServeHTTP serves the host's endpoints, checking the bearer token first
// when one is set.
func (h *Host) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if rebound(r) {
		h.reject(w, http.StatusForbidden, "host_header", fmt.Sprintf("Host %q is not a loopback name: a loopback server answers only requests addressed to it (DNS rebinding protection)", r.Host))
		return
	}
	if h.opts.Token != "" && !Authorized(r, h.opts.Token) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="geodisaster"`)
		h.reject(w, http.StatusUnauthorized, "unauthorized", unauthorizedMsg)
		return
	}
	h.mux.ServeHTTP(w, r)
}

// rebound reports a request that reached a loopback listener with a Host
// header naming another host, as a web page's script does after DNS
// rebinding.
func rebound(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil || !loopbackHost(local.String()) {
		return false
	}
	return !loopbackHost(r.Host)
}

// loopbackHost reports whether host[:port] names the loopback interface.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

const unauthorizedMsg = "missing or wrong bearer token (Authorization: Bearer TOKEN)"

// Authorized reports whether r carries "Authorization: Bearer token"
// (compared in constant time).
func Authorized(r *http.Request, token string) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && token != "" && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(token)) == 1
}

// RequireBearer serves next only to requests carrying the bearer token;
// others get HTTP 401 with a JSON-RPC error saying so.
func RequireBearer(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !Authorized(r, token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="geodisaster"`)
			writeRPCError(w, http.StatusUnauthorized, jsonrpc.ID{}, codeRefused, unauthorizedMsg)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// HTTPServer returns an http.Server for the host that also bounds what a
// client can hold before a request reaches it: its headers must arrive
// within RequestTimeout, and an idle keep-alive connection is closed
// after 2 minutes (request bodies are bounded by the host itself).
func (h *Host) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: h.opts.RequestTimeout,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(h.log.Handler(), slog.LevelWarn),
	}
}

// JSON-RPC error codes of the host's own refusals (the implementation-
// defined server error range).
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeRefused        = -32000
)

// reject answers a request refused before it reached a session: HTTP
// status, and a JSON-RPC error object whose message says why (clients
// surface it), counted under reason.
func (h *Host) reject(w http.ResponseWriter, status int, reason, msg string) {
	h.rejectID(w, status, reason, jsonrpc.ID{}, codeRefused, msg)
}

func (h *Host) rejectID(w http.ResponseWriter, status int, reason string, id jsonrpc.ID, code int64, msg string) {
	h.m.add(func(m *metrics) { m.rejected[reason]++ })
	writeRPCError(w, status, id, code, msg)
}

// writeRPCError answers with HTTP status and a JSON-RPC error response
// (its id null when the request's is unknown, as JSON-RPC 2.0 says).
func writeRPCError(w http.ResponseWriter, status int, id jsonrpc.ID, code int64, msg string) {
	writeRPCErrorData(w, status, id, code, msg, nil)
}

func writeRPCErrorData(w http.ResponseWriter, status int, id jsonrpc.ID, code int64, msg string, data any) {
	type rpcError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data,omitempty"`
	}
	body, err := json.Marshal(struct {
		JSONRPC string   `json:"jsonrpc"`
		ID      any      `json:"id"`
		Error   rpcError `json:"error"`
	}{"2.0", id.Raw(), rpcError{code, msg, data}})
	if err != nil {
		body = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"refused"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// serveEndpoint serves an MCP endpoint: a new session for an initialize
// without a session id, else the request of the session it names.
func (h *Host) serveEndpoint(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	rec, ok := h.recs[id]
	if !ok {
		h.reject(w, http.StatusNotFound, "unknown_record", fmt.Sprintf("no record %q on this server (GET /records lists them)", id))
		return
	}
	agent, role := AgentSingle, workers.Role("")
	team := r.PathValue("session")
	switch {
	case team != "":
		agent = AgentOrchestrator
		role = workers.Role(r.PathValue("role"))
		switch role {
		case workers.RoleGA, workers.RolePA, workers.RoleVRA:
		default:
			h.reject(w, http.StatusNotFound, "not_found", fmt.Sprintf("no specialist %q: the orchestrator's specialists are GA, PA and VRA", role))
			return
		}
	case r.Pattern == "/records/{id}/orc":
		agent = AgentOrchestrator
	}
	var body []byte
	if r.Method == http.MethodPost {
		if body, ok = h.readBody(w, r); !ok {
			return
		}
	}
	sid := r.Header.Get("Mcp-Session-Id")
	if sid == "" {
		if r.Method != http.MethodPost {
			h.reject(w, http.StatusBadRequest, "no_session", "no Mcp-Session-Id header: a session starts with a POST of an initialize request")
			return
		}
		h.create(w, r, body, rec, agent, team, role)
		return
	}
	h.mu.Lock()
	v := h.views[sid]
	if v == nil || v.path != r.URL.Path || v.handler == nil {
		h.mu.Unlock()
		h.reject(w, http.StatusNotFound, "unknown_session", fmt.Sprintf("unknown session %q at %s (expired, closed, or never opened here); initialize a new one", sid, r.URL.Path))
		return
	}
	t := v.team
	counted := r.Method == http.MethodPost
	if counted {
		t.inflight++
		t.last = time.Now()
	}
	h.mu.Unlock()
	if counted {
		defer func() {
			h.mu.Lock()
			t.inflight--
			t.last = time.Now()
			h.mu.Unlock()
		}()
	}
	v.handler.ServeHTTP(w, r)
}

// readBody reads a POST body within the size and time bounds, answering
// the request itself when it cannot.
func (h *Host) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	max := h.opts.MaxRequestBytes
	if r.ContentLength > max {
		h.reject(w, http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("request body of %d bytes exceeds the server's limit of %d", r.ContentLength, max))
		return nil, false
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(h.opts.RequestTimeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err == nil {
		_ = rc.SetReadDeadline(time.Time{})
	} else {
		// The rest of the body is not wanted: reads fail at once, so the
		// connection closes after the answer instead of draining it.
		_ = rc.SetReadDeadline(time.Now())
		w.Header().Set("Connection", "close")
	}
	if err != nil {
		var mbe *http.MaxBytesError
		var ne net.Error
		switch {
		case errors.As(err, &mbe):
			h.reject(w, http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("request body exceeds the server's limit of %d bytes", max))
		case errors.As(err, &ne) && ne.Timeout():
			h.reject(w, http.StatusRequestTimeout, "slow_client", fmt.Sprintf("request body not received within %s", h.opts.RequestTimeout))
		default:
			h.reject(w, http.StatusBadRequest, "unreadable", "reading the request body: "+err.Error())
		}
		return nil, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return body, true
}

// create opens a new MCP session (and, for a single agent or an
// orchestrator, a new runtime session) for an initialize request.
func (h *Host) create(w http.ResponseWriter, r *http.Request, body []byte, rec workers.Record, agent Agent, teamID string, role workers.Role) {
	msg, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		h.rejectID(w, http.StatusBadRequest, "malformed", jsonrpc.ID{}, codeParse, "malformed JSON-RPC message: "+err.Error())
		return
	}
	req, ok := msg.(*jsonrpc.Request)
	if ok && req.Method == "server/discover" && req.IsCall() {
		// A client probing for the sessionless protocol (SEP-2575) learns
		// that these sessions start with initialize.
		writeRPCErrorData(w, http.StatusBadRequest, req.ID, sdk.CodeUnsupportedProtocolVersion,
			"this server keeps sessions: start one with initialize", sdk.UnsupportedProtocolVersionData{Supported: sessionVersions(), Requested: r.Header.Get("Mcp-Protocol-Version")})
		return
	}
	if !ok || req.Method != "initialize" || !req.IsCall() {
		var rid jsonrpc.ID
		if ok {
			rid = req.ID
		}
		h.rejectID(w, http.StatusBadRequest, "no_session", rid, codeInvalidRequest, "no Mcp-Session-Id header: a session starts with an initialize request")
		return
	}
	now := time.Now()
	h.mu.Lock()
	if h.draining {
		h.mu.Unlock()
		h.rejectID(w, http.StatusServiceUnavailable, "shutting_down", req.ID, codeRefused, "the server is shutting down and opens no new sessions")
		return
	}
	var t *team
	if role == "" {
		if len(h.teams) >= h.opts.MaxSessions {
			h.mu.Unlock()
			h.rejectID(w, http.StatusServiceUnavailable, "capacity", req.ID, codeRefused, fmt.Sprintf("the server is at capacity (%d open sessions); retry later", h.opts.MaxSessions))
			return
		}
		t = &team{id: newID(), rec: rec, agent: agent, views: map[string]*view{}, opened: now, last: now}
		h.teams[t.id] = t
	} else {
		t = h.teams[teamID]
		if t == nil || t.agent != AgentOrchestrator || t.rec.ID != rec.ID || t.owner == nil || t.closing {
			h.mu.Unlock()
			h.rejectID(w, http.StatusNotFound, "unknown_session", req.ID, codeRefused, fmt.Sprintf("no open orchestrator session %q of record %q to join", teamID, rec.ID))
			return
		}
		if len(t.views) > h.opts.MaxSpecialists {
			h.mu.Unlock()
			h.rejectID(w, http.StatusTooManyRequests, "capacity", req.ID, codeRefused, fmt.Sprintf("the orchestrator session already has %d specialist sessions", h.opts.MaxSpecialists))
			return
		}
	}
	v := &view{id: newID(), team: t, role: role, path: r.URL.Path}
	t.inflight++
	owner := t.owner
	h.mu.Unlock()

	var srv *Server
	if role == "" {
		opts := Options{
			Agent: agent, Logger: h.log.With("session", t.id), Version: h.opts.Version, Limits: h.opts.Limits,
			sessionID: v.id, observe: h.m.observeCall, slots: h.slots, stop: h.stop,
			onTerminal: func() { h.answered(t) },
		}
		if h.opts.ArtifactDir != "" {
			opts.ArtifactDir = filepath.Join(h.opts.ArtifactDir, t.id)
		}
		if agent == AgentOrchestrator {
			opts.specialists = map[workers.Role]string{}
			for _, ro := range []workers.Role{workers.RoleGA, workers.RolePA, workers.RoleVRA} {
				opts.specialists[ro] = SpecialistEndpoint(rec.ID, t.id, ro)
			}
		}
		srv, err = New(h.eng, rec, opts)
	} else {
		srv, err = owner.specialist(role, v.id)
	}
	if err != nil {
		h.mu.Lock()
		t.inflight--
		if role == "" {
			delete(h.teams, t.id)
		}
		h.mu.Unlock()
		h.log.Error("opening a session failed", "record", rec.ID, "err", err)
		h.rejectID(w, http.StatusInternalServerError, "open_failed", req.ID, codeRefused, "opening the session failed: "+err.Error())
		return
	}
	v.srv = srv
	v.handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv.srv },
		&sdk.StreamableHTTPOptions{Logger: h.log, MaxRequestBodyBytes: h.opts.MaxRequestBytes})
	h.mu.Lock()
	if role == "" {
		t.owner = srv
	}
	t.views[v.id] = v
	h.views[v.id] = v
	h.mu.Unlock()

	v.handler.ServeHTTP(w, r)

	// The session initialize opened, even if the client has already
	// closed it again (its episode is then written by viewClosed).
	ss := srv.initializedSession()
	h.mu.Lock()
	t.inflight--
	t.last = time.Now()
	if ss == nil || ss.InitializeParams() == nil || t.closing {
		delete(h.views, v.id)
		delete(t.views, v.id)
		if role == "" && !t.closing {
			delete(h.teams, t.id)
			h.mu.Unlock()
			srv.Close() // never initialized: no episode
			return
		}
		h.mu.Unlock()
		if ss != nil {
			ss.Close()
		}
		return
	}
	v.ss = ss
	h.mu.Unlock()
	h.m.add(func(m *metrics) {
		m.mcpOpen++
		if role == "" {
			m.opened[string(agent)]++
		}
	})
	h.log.Info("session opened", "session", t.id, "record", rec.ID, "agent", string(agent), "role", string(role))
	go func() {
		ss.Wait()
		h.viewClosed(v)
	}()
}

// viewClosed forgets a closed MCP session; the owner's closing ends its
// runtime session.
func (h *Host) viewClosed(v *view) {
	h.mu.Lock()
	delete(h.views, v.id)
	delete(v.team.views, v.id)
	h.mu.Unlock()
	if v.role == "" {
		h.finish(v.team, EndClientClosed)
	}
}

// answered records the episode of a session whose answer was just
// resolved (before the client receives it).
func (h *Host) answered(t *team) {
	h.mu.Lock()
	if t.end == "" {
		t.end = EndAnswered
	}
	h.mu.Unlock()
	h.writeEpisode(t)
}

// finish ends a runtime session: it closes every MCP session of it,
// writes its episode (unless its answer already did) and closes the
// runtime session. The first reason given is the one recorded. The session
// stays listed (Sessions, the capacity count) until its episode is written
// and it is closed, so that no session is reported gone before it is
// recorded.
func (h *Host) finish(t *team, end string) {
	h.mu.Lock()
	if t.end == "" {
		t.end = end
	}
	if t.closing {
		h.mu.Unlock()
		return
	}
	t.closing = true
	var sessions []*sdk.ServerSession
	for _, v := range t.views {
		delete(h.views, v.id)
		if v.ss != nil {
			sessions = append(sessions, v.ss)
		}
	}
	owner, agent, reason := t.owner, t.agent, t.end
	h.mu.Unlock()
	for _, ss := range sessions {
		ss.Close()
	}
	defer func() {
		h.mu.Lock()
		delete(h.teams, t.id)
		h.mu.Unlock()
	}()
	if owner == nil {
		return
	}
	h.writeEpisode(t)
	if err := owner.Close(); err != nil {
		h.log.Warn("closing a session", "session", t.id, "err", err)
	}
	h.m.add(func(m *metrics) { m.ended[[2]string{string(agent), reason}]++ })
	h.log.Info("session ended", "session", t.id, "record", t.rec.ID, "agent", string(agent), "end", reason)
}

// writeEpisode hands the session to the episode writer, once.
func (h *Host) writeEpisode(t *team) {
	if h.opts.Episodes == nil {
		return
	}
	t.episode.Do(func() {
		h.mu.Lock()
		owner, end := t.owner, t.end
		h.mu.Unlock()
		if owner == nil {
			return
		}
		log := &SessionLog{
			SessionID: t.id, Record: t.rec, Agent: t.agent, Opened: t.opened, Ended: time.Now(), End: end,
			Clients: owner.Clients(), Exchanges: owner.Transcript(), Audit: owner.Audit(), Usage: owner.Usage(),
		}
		if err := h.opts.Episodes.WriteEpisode(log); err != nil {
			h.m.add(func(m *metrics) { m.epErrors++ })
			h.log.Error("writing an episode failed", "session", t.id, "record", t.rec.ID, "err", err)
			return
		}
		h.m.add(func(m *metrics) { m.episodes++ })
	})
}

// reap closes idle sessions and those past their wall time.
func (h *Host) reap() {
	defer close(h.reaperDone)
	every := min(h.opts.IdleTimeout/4, time.Second)
	tick := time.NewTicker(max(every, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-h.reaperStop:
			return
		case <-tick.C:
		}
		now := time.Now()
		var expired []*team
		h.mu.Lock()
		for _, t := range h.teams {
			if t.owner == nil || t.closing {
				continue
			}
			idle := t.inflight == 0 && now.Sub(t.last) >= h.opts.IdleTimeout
			// Past its wall time a session answers every call with the
			// limit's error; it is closed once its client had time to
			// read one.
			overdue := h.opts.Limits.WallTime > 0 && now.Sub(t.opened) >= h.opts.Limits.WallTime+min(h.opts.IdleTimeout, time.Minute)
			if idle || overdue {
				expired = append(expired, t)
			}
		}
		h.mu.Unlock()
		for _, t := range expired {
			h.finish(t, EndExpired)
		}
	}
}

// Shutdown stops opening sessions, lets the requests being served finish
// until ctx ends (then cancels the calls still running), and ends every
// session, writing its episode. It returns ctx's error when the grace was
// not enough for every request to finish by itself.
func (h *Host) Shutdown(ctx context.Context) error {
	var err error
	h.shutOnce.Do(func() {
		h.mu.Lock()
		h.draining = true
		h.mu.Unlock()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
	wait:
		for h.inflight() > 0 {
			select {
			case <-ctx.Done():
				err = ctx.Err()
				break wait
			case <-tick.C:
			}
		}
		h.cancelStop()
		close(h.reaperStop)
		<-h.reaperDone
		h.mu.Lock()
		teams := make([]*team, 0, len(h.teams))
		for _, t := range h.teams {
			teams = append(teams, t)
		}
		h.mu.Unlock()
		for _, t := range teams {
			h.finish(t, EndShutdown)
		}
	})
	return err
}

func (h *Host) inflight() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, t := range h.teams {
		n += t.inflight
	}
	return n
}

// Status returns the host's status document (also served at GET /status).
func (h *Host) Status() Status {
	var st Status
	st.Version, st.Records, st.Limits = h.opts.Version, len(h.ids), h.opts.Limits
	h.mu.Lock()
	st.Draining = h.draining
	st.Sessions.Active = map[string]int{string(AgentSingle): 0, string(AgentOrchestrator): 0}
	for _, t := range h.teams {
		if t.owner != nil {
			st.Sessions.Active[string(t.agent)]++
		}
	}
	for _, v := range h.views {
		if v.ss != nil {
			st.Sessions.MCPActive++
		}
	}
	h.mu.Unlock()
	h.m.status(&st)
	return st
}

func (h *Host) serveStatus(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, h.Status())
}

func (h *Host) serveMetrics(w http.ResponseWriter, r *http.Request) {
	st := h.Status()
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	h.m.writePrometheus(w, st.Sessions.Active, st.Sessions.MCPActive, st.Draining)
}

// recordEntry is one line of GET /records.
type recordEntry struct {
	ID           string `json:"id"`
	QuestionType string `json:"question_type"`
	Family       string `json:"family"`
	Split        string `json:"split,omitempty"`
	Single       string `json:"single"`
	Orchestrator string `json:"orchestrator"`
}

func (h *Host) serveRecords(w http.ResponseWriter, r *http.Request) {
	out := make([]recordEntry, 0, len(h.ids))
	for _, id := range h.ids {
		rec := h.recs[id]
		out = append(out, recordEntry{ID: id, QuestionType: rec.QuestionType, Family: rec.Family, Split: rec.Split,
			Single: SingleEndpoint(id), Orchestrator: OrchestratorEndpoint(id)})
	}
	writeJSON(w, map[string]any{"records": out})
}

func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(append(b, '\n'))
}

// Sessions lists the open runtime sessions' ids, sorted.
func (h *Host) Sessions() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]string, 0, len(h.teams))
	for id, t := range h.teams {
		if t.owner != nil {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// sessionVersions are the protocol versions of sessions with initialize
// (those before the sessionless 2026-07-28).
func sessionVersions() []string {
	var out []string
	for _, v := range sdk.SupportedProtocolVersions() {
		if v < "2026-07-28" {
			out = append(out, v)
		}
	}
	return out
}

// newID returns a random session id (128 bits and more, base32).
func newID() string { return rand.Text() }

func goMaxProcs() int { return goruntime.GOMAXPROCS(0) }
