package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/geodisaster/engine/internal/atomicfile"
	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/mcp"
	"github.com/geodisaster/engine/workers"
)

func init() {
	register(kit.Command{Name: "serve", Summary: "serve gold-free agent sessions over MCP: one record over stdio, or every record over streamable HTTP", Run: runServe, SignalIsStop: true})
}

// drainWait bounds how long serve keeps answering requests already read
// after the client closes its input.
const drainWait = 10 * time.Minute

const serveUsage = `--dataset-root DIR --input TEST_INPUTS.jsonl (--record ID | --http ADDR --episodes DIR) [flags]`

const serveDescription = `Serves gold-free agent sessions over the Model Context Protocol: every
record of the test inputs over streamable HTTP (see docs/serve.md), or one
record (--record) over stdin/stdout (stdout carries only the protocol; logs
go to stderr) or streamable HTTP.

Every record (--http ADDR --episodes DIR):
  single agent:   http://ADDR/records/<id>        (a new session per MCP initialize)
  orchestrator:   http://ADDR/records/<id>/orc    (its resource geodisaster://session/specialists names the GA, PA, VRA endpoints)
  status:         http://ADDR/status (JSON), /metrics (Prometheus), /records (the records)
Each ended session writes its episode under DIR; score them with
geodisaster score --gold records.jsonl --pred DIR.`

// serveFlags are serve's flags.
type serveFlags struct {
	root, input, record, agent, role, httpAddr  string
	artifactDir, auditPath, episodes, tokenFile string
	limits                                      mcp.Limits
	maxSessions, callSlots                      int
	idle, requestTimeout, grace                 time.Duration
	maxRequest                                  int64
}

// runServe serves gold-free sessions over the Model Context Protocol: one
// record on stdin/stdout (stdout carries only the protocol; logs go to
// stderr) or as streamable HTTP with --record, or every record of the
// test inputs over streamable HTTP without --record.
func runServe(ctx context.Context, cio kit.IO, args []string) error {
	fs := kit.NewFlagSet("serve", serveUsage)
	fs.Description = serveDescription
	fs.Example("geodisaster serve --dataset-root bundle --input bundle/test_inputs.jsonl --http 127.0.0.1:8765 --episodes episodes/", "every record over streamable HTTP; then geodisaster score --gold records.jsonl --pred episodes/")
	fs.Example("geodisaster serve --dataset-root bundle --input bundle/test_inputs.jsonl --record ID", "one single-agent session over stdio")
	fs.Example("geodisaster serve --dataset-root bundle --input bundle/test_inputs.jsonl --record ID --agent orc --http 127.0.0.1:8765", "one orchestrator session with its specialists over HTTP")
	fs.ExitCodes = []string{"0    also a clean shutdown on SIGINT or SIGTERM (a signal is serve's normal stop)"}
	var f serveFlags
	fs.StringVar(&f.root, "dataset-root", "", "gold-free dataset root every declared path resolves under (required)")
	fs.StringVar(&f.input, "input", "", "gold-free test-input JSONL (test_inputs.jsonl); files carrying answers or GT chains are refused (required)")
	fs.StringVar(&f.record, "record", "", "serve only this record: over stdio, or over --http at every path; without it --http serves every record")
	fs.StringVar(&f.agent, "agent", "", "with --record: agent form single (finishes with FinalAnswer) or orc (finishes with Terminate); default single, or orc with --role")
	fs.StringVar(&f.role, "role", "", "with --record: serve one multi-agent specialist, GA, PA or VRA (its workers and TaskComplete only)")
	fs.StringVar(&f.httpAddr, "http", "", "serve streamable HTTP on ADDR (host:port) instead of stdio; a non-loopback address needs --token-file")
	fs.StringVar(&f.tokenFile, "token-file", "", "require every HTTP request to carry \"Authorization: Bearer TOKEN\", TOKEN being this file's content (required to bind a non-loopback address)")
	fs.StringVar(&f.episodes, "episodes", "", "write each ended session to DIR/<record id>/: its episode (<session id>.jsonl, the dataset's format) and its record (<session id>.session.json: how it ended, the resolved answer, the audit); required when serving every record")
	fs.StringVar(&f.artifactDir, "artifact-dir", "", "keep generated artifacts under DIR (every record: DIR/<session id>/; --record: DIR/<record id>/); default: a temporary directory per session, removed when it ends")
	fs.StringVar(&f.auditPath, "audit", "", "with --record: write the session's audit (calls, reads, denials, refusals, answer) as JSON to FILE at exit")
	fs.IntVar(&f.limits.ToolCalls, "limit-calls", 500, "tool calls a session may make (0: no limit)")
	fs.Var(byteSizeFlag{&f.limits.ReadBytes}, "limit-read", "declared-file bytes a session may load, e.g. 2GiB (0: no limit; default 2GiB)")
	fs.Var(byteSizeFlag{&f.limits.ArtifactBytes}, "limit-artifacts", "artifact bytes a session may write, e.g. 1GiB (0: no limit; default 1GiB)")
	fs.DurationVar(&f.limits.WallTime, "limit-wall", time.Hour, "wall time a session may run (0: no limit)")
	fs.IntVar(&f.maxSessions, "max-sessions", 64, "sessions open at once (an orchestrator and its specialists are one)")
	fs.DurationVar(&f.idle, "idle-timeout", 10*time.Minute, "close a session after this long without a request")
	fs.Var(byteSizeFlag{&f.maxRequest}, "max-request", "largest HTTP request body (default 1MiB)")
	fs.DurationVar(&f.requestTimeout, "request-timeout", 30*time.Second, "time a client has to send one request; slower ones are disconnected")
	fs.IntVar(&f.callSlots, "call-slots", 0, "tool calls running at once across sessions (default: the number of CPUs)")
	fs.DurationVar(&f.grace, "shutdown-grace", 30*time.Second, "on SIGINT or SIGTERM, time running calls get to finish before every session is closed")
	f.limits.ReadBytes, f.limits.ArtifactBytes, f.maxRequest = 2<<30, 1<<30, 1<<20
	if err := fs.ParseNoOperands(args); err != nil {
		return err
	}
	// --record, or --http with --episodes: which flags are required depends
	// on the form, so they are checked here, every missing one at once.
	var missing []string
	if f.root == "" {
		missing = append(missing, "--dataset-root")
	}
	if f.input == "" {
		missing = append(missing, "--input")
	}
	switch {
	case f.record == "" && f.httpAddr == "":
		missing = append(missing, "--record (over stdio; or serve every record with --http ADDR --episodes DIR)")
	case f.record == "" && f.episodes == "":
		missing = append(missing, "--episodes (serving every record, each ended session writes its episode there)")
	}
	if len(missing) > 0 {
		return kit.MissingFlags("serve", missing...)
	}
	switch {
	case f.record == "" && (f.agent != "" || f.role != "" || f.auditPath != ""):
		return kit.Usagef("serve: --agent, --role and --audit apply to one record (--record); serving every record, clients choose the agent form by endpoint")
	case f.limits.ToolCalls < 0 || f.limits.WallTime < 0 || f.maxSessions < 1 || f.idle <= 0 || f.requestTimeout <= 0 || f.callSlots < 0 || f.grace < 0:
		return kit.Usagef("serve: --limit-calls, --limit-wall, --call-slots and --shutdown-grace must not be negative; --max-sessions, --idle-timeout and --request-timeout must be positive")
	case f.maxRequest <= 0:
		return kit.Usagef("serve: --max-request must be positive")
	}
	token, err := serveToken(f.tokenFile)
	if err != nil {
		return err
	}
	var ln net.Listener
	if f.httpAddr != "" {
		if err := checkBindAddr(f.httpAddr, token != ""); err != nil {
			return &kit.UsageError{Err: err}
		}
		l, err := net.Listen("tcp", f.httpAddr)
		if err != nil {
			return fmt.Errorf("serve: listening on %s: %w", f.httpAddr, err)
		}
		ln = l
		defer ln.Close()
	} else if token != "" {
		return kit.Usagef("serve: --token-file applies to --http")
	}
	// SIGTERM, as a service manager sends it, shuts down as SIGINT does.
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()
	if f.record == "" {
		return serveAll(ctx, cio, f, token, ln)
	}
	return serveOne(ctx, cio, f, token, ln)
}

// serveToken reads the bearer token file ("" without one).
func serveToken(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("serve: reading the token file: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	switch {
	case tok == "":
		return "", fmt.Errorf("serve: token file %s is empty", path)
	case len(tok) < 16:
		return "", fmt.Errorf("serve: the token in %s is %d characters; use at least 16 (e.g. openssl rand -hex 32)", path, len(tok))
	case strings.ContainsAny(tok, " \t\r\n"):
		return "", fmt.Errorf("serve: the token in %s contains white space", path)
	}
	return tok, nil
}

// serveAll serves every record of the test inputs over streamable HTTP
// until ctx ends, then shuts down gracefully.
func serveAll(ctx context.Context, cio kit.IO, f serveFlags, token string, ln net.Listener) error {
	recs, err := mcp.ReadTestInputs(f.input)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	warnGoldInRoot(cio, f.root)
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: f.root, Logger: cio.Log})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	episodes, err := mcp.NewEpisodeDir(f.episodes)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	host, err := mcp.NewHost(eng, recs, mcp.HostOptions{
		Logger: cio.Log, Version: version(), Limits: f.limits, MaxSessions: f.maxSessions,
		IdleTimeout: f.idle, MaxRequestBytes: f.maxRequest, RequestTimeout: f.requestTimeout,
		MaxConcurrentCalls: f.callSlots, ArtifactDir: f.artifactDir,
		Episodes: episodes, Token: token,
	})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	hs := host.HTTPServer()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	cio.Log.Info("serving every record", "records", len(recs), "url", "http://"+ln.Addr().String()+"/records/<id>", "episodes", f.episodes, "auth", token != "")
	var serveErr error
	select {
	case serveErr = <-errc:
	case <-ctx.Done():
	}
	cio.Log.Info("shutting down", "open_sessions", len(host.Sessions()), "grace", f.grace)
	gctx, cancel := context.WithTimeout(context.Background(), f.grace)
	if err := host.Shutdown(gctx); err != nil {
		cio.Log.Warn("running calls were cancelled at the end of the shutdown grace", "err", err)
	}
	cancel()
	stopHTTP(cio, hs, errc, serveErr == nil)
	st := host.Status()
	cio.Log.Info("server stopped", "sessions", st.Sessions.Opened, "ended", st.Sessions.Ended, "calls", st.Calls.Total, "episodes", st.Episodes.Written, "episode_errors", st.Episodes.Failed)
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", serveErr)
	}
	if st.Episodes.Failed > 0 {
		return fmt.Errorf("serve: %d episode(s) could not be written (see the log)", st.Episodes.Failed)
	}
	return nil
}

// serveOne serves one record's session over stdio or streamable HTTP.
func serveOne(ctx context.Context, cio kit.IO, f serveFlags, token string, ln net.Listener) error {
	opts := mcp.Options{Agent: mcp.Agent(f.agent), Role: workers.Role(f.role), Logger: cio.Log, Version: version(), Limits: f.limits}
	switch opts.Agent {
	case "", mcp.AgentSingle, mcp.AgentOrchestrator:
	default:
		return kit.Usagef("serve: --agent must be single or orc, got %q", f.agent)
	}
	switch opts.Role {
	case "", workers.RoleGA, workers.RolePA, workers.RoleVRA:
	default:
		return kit.Usagef("serve: --role must be GA, PA or VRA, got %q", f.role)
	}
	if opts.Role != "" && opts.Agent == mcp.AgentSingle {
		return kit.Usagef("serve: --role %s is a multi-agent specialist; it cannot be combined with --agent single", f.role)
	}
	rec, err := mcp.ReadTestInput(f.input, f.record)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	warnGoldInRoot(cio, f.root)
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: f.root, ArtifactDir: f.artifactDir, Logger: cio.Log})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	opened := time.Now()
	srv, err := mcp.New(eng, rec, opts)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer srv.Close()
	cio.Log.Info("serving", "record", rec.ID, "question_type", rec.QuestionType, "tools", len(srv.Tools()), "transport", transportName(f.httpAddr))

	var serveErr error
	if ln != nil {
		handler, err := httpHandler(srv, opts)
		if err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		if token != "" {
			handler = mcp.RequireBearer(token, handler)
		}
		serveErr = serveHTTP(ctx, cio, handler, ln)
	} else {
		t := mcp.Sequential(&sdk.IOTransport{Reader: io.NopCloser(cio.Stdin), Writer: nopWriteCloser{cio.Stdout}}, drainWait)
		serveErr = srv.Run(ctx, t)
		if errors.Is(serveErr, context.Canceled) || errors.Is(serveErr, io.EOF) {
			serveErr = nil
		}
	}
	a := srv.Audit()
	cio.Log.Info("session ended", "record", rec.ID, "calls", len(a.Calls), "denials", len(a.Denials), "refusals", len(a.Refusals), "answered", string(a.Answer) != "null")
	var errs []error
	if serveErr != nil {
		errs = append(errs, fmt.Errorf("serve: %w", serveErr))
	}
	if f.auditPath != "" {
		b, err := json.MarshalIndent(a, "", "  ")
		if err == nil {
			err = atomicfile.WriteFile(f.auditPath, append(b, '\n'), 0o644, false)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("serve: writing audit %s: %w", f.auditPath, err))
		}
	}
	if f.episodes != "" {
		end := mcp.EndClientClosed
		if srv.Terminated() {
			end = mcp.EndAnswered
		}
		log := &mcp.SessionLog{SessionID: rand.Text(), Record: rec, Agent: opts.Agent, Opened: opened, Ended: time.Now(), End: end,
			Clients: srv.Clients(), Exchanges: srv.Transcript(), Audit: a, Usage: srv.Usage()}
		if log.Agent == "" {
			log.Agent = mcp.AgentSingle
			if opts.Role != "" {
				log.Agent = mcp.AgentOrchestrator
			}
		}
		episodes, err := mcp.NewEpisodeDir(f.episodes)
		if err == nil {
			err = episodes.WriteEpisode(log)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("serve: writing the episode: %w", err))
		}
	}
	return errors.Join(errs...)
}

// warnGoldInRoot warns when the dataset root holds the gold records file.
func warnGoldInRoot(cio kit.IO, root string) {
	if _, err := os.Stat(filepath.Join(root, "records.jsonl")); err == nil {
		cio.Log.Warn("the dataset root holds records.jsonl (gold); the read gate keeps it unreadable, but a fair run mounts only the gold-free bundle", "dataset_root", root)
	}
}

func transportName(httpAddr string) string {
	if httpAddr != "" {
		return "streamable-http"
	}
	return "stdio"
}

// checkBindAddr accepts a host:port on a loopback interface, or any
// host:port when the server requires a bearer token.
func checkBindAddr(addr string, hasToken bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("serve: --http %q: %v", addr, err)
	}
	if hasToken || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("serve: --http %q is not a loopback address (127.0.0.1, [::1] or localhost): binding elsewhere requires --token-file, a bearer token every request must carry", addr)
}

// httpHandler serves the agent's MCP endpoint at every path; the
// orchestrator's server also serves its specialists' views of the same
// session at /GA, /PA and /VRA, so that one process runs the whole
// multi-agent form.
func httpHandler(srv *mcp.Server, opts mcp.Options) (http.Handler, error) {
	if opts.Agent != mcp.AgentOrchestrator || opts.Role != "" {
		return srv.HTTPHandler(), nil
	}
	mux := http.NewServeMux()
	mux.Handle("/", srv.HTTPHandler())
	for _, role := range []workers.Role{workers.RoleGA, workers.RolePA, workers.RoleVRA} {
		sp, err := srv.Specialist(role)
		if err != nil {
			return nil, err
		}
		mux.Handle("/"+string(role), sp.HTTPHandler())
	}
	return mux, nil
}

// newHTTPServer bounds what a client can hold: headers must arrive within
// 10 s and an idle keep-alive connection is closed after 2 minutes (the
// handler bounds request bodies itself).
func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
}

// serveHTTP serves streamable HTTP on ln until ctx is cancelled.
func serveHTTP(ctx context.Context, cio kit.IO, handler http.Handler, ln net.Listener) error {
	hs := newHTTPServer(handler)
	cio.Log.Info("listening", "url", "http://"+ln.Addr().String()+"/")
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	stopHTTP(cio, hs, errc, true)
	return nil
}

// stopHTTP shuts the HTTP server down, closing connections still open
// after 5 s (open event streams keep them busy), and collects Serve's
// result when it is still running.
func stopHTTP(cio kit.IO, hs *http.Server, errc <-chan error, running bool) {
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		cio.Log.Info("closing open HTTP connections", "reason", err)
		hs.Close()
	}
	if running {
		if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
			cio.Log.Warn("http server", "err", err)
		}
	}
}

// byteSizeFlag is a flag.Value for a byte count: an integer with an
// optional unit B, KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB
// (powers of 1024).
type byteSizeFlag struct{ p *int64 }

var _ flag.Value = byteSizeFlag{}

func (b byteSizeFlag) String() string {
	if b.p == nil {
		return "0"
	}
	return strconv.FormatInt(*b.p, 10)
}

func (b byteSizeFlag) Set(s string) error {
	n, err := parseByteSize(s)
	if err != nil {
		return err
	}
	*b.p = n
	return nil
}

func parseByteSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	num, unit := t[:i], strings.TrimSpace(t[i:])
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || num == "" {
		return 0, fmt.Errorf("%q is not a byte count (e.g. 1048576, 512MiB, 2GiB)", s)
	}
	mult := map[string]int64{"": 1, "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
		"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("%q: unknown unit %q (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)", s, unit)
	}
	if n > (1<<63-1)/mult {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n * mult, nil
}

// nopWriteCloser makes stdout an io.WriteCloser whose Close leaves the
// stream open.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
