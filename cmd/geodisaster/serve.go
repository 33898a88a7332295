package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/mcp"
	"github.com/geodisaster/engine/workers"
)

func init() {
	register(command{name: "serve", summary: "serve one gold-free agent session over MCP (stdio, or streamable HTTP on loopback)", run: runServe})
}

// drainWait bounds how long serve keeps answering requests already read
// after the client closes its input.
const drainWait = 10 * time.Minute

const serveUsage = "--dataset-root DIR --input TEST_INPUTS.jsonl --record ID [--agent single|orc] [--role GA|PA|VRA] [--http ADDR] [--artifact-dir DIR] [--audit FILE]"

// runServe opens one session on a gold-free record and serves it over the
// Model Context Protocol: on stdin/stdout by default (stdout carries only
// the protocol; logs go to stderr), or as streamable HTTP on a loopback
// address with --http.
func runServe(ctx context.Context, cio cmdIO, args []string) error {
	fs := newFlagSet("serve", serveUsage, cio.stderr)
	fs.Description = `Opens one gold-free session on a record and serves it over the Model
Context Protocol: on stdin/stdout by default (stdout carries only the
protocol; logs go to stderr), or as streamable HTTP on a loopback address.`
	fs.Example("geodisaster serve --dataset-root corpus --input corpus/test_inputs.jsonl --record sen1_flood_a__synth_s1_a_000", "one single-agent session over stdio")
	fs.Example("geodisaster serve --dataset-root corpus --input corpus/test_inputs.jsonl --record ID --agent orc --http 127.0.0.1:8765", "an orchestrator session with its specialists at /GA, /PA and /VRA")
	root := fs.String("dataset-root", "", "gold-free dataset root every declared path resolves under")
	input := fs.String("input", "", "gold-free test-input JSONL (test_inputs.jsonl); files carrying answers or GT chains are refused")
	recordID := fs.String("record", "", "id of the record to serve")
	fs.Require("dataset-root", "input", "record")
	agent := fs.String("agent", "", "agent form: single (finishes with FinalAnswer) or orc (finishes with Terminate); default single, or orc with --role")
	role := fs.String("role", "", "serve one multi-agent specialist: GA, PA or VRA (its workers and TaskComplete only; it cannot terminate)")
	httpAddr := fs.String("http", "", "serve streamable HTTP on this loopback address (127.0.0.1:PORT, [::1]:PORT or localhost:PORT) instead of stdio; with --agent orc the specialists of the same session are served at /GA, /PA and /VRA")
	artifactDir := fs.String("artifact-dir", "", "keep generated artifacts under DIR/<record id>/ (default: a temporary directory removed at exit)")
	auditPath := fs.String("audit", "", "write the session's audit (calls, reads, denials, refusals, answer) as JSON to FILE at exit")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("serve: unexpected arguments %v", fs.Args())
	}
	opts := mcp.Options{Agent: mcp.Agent(*agent), Role: workers.Role(*role), Logger: cio.log, Version: version()}
	switch opts.Agent {
	case "", mcp.AgentSingle, mcp.AgentOrchestrator:
	default:
		return usagef("serve: --agent must be single or orc, got %q", *agent)
	}
	switch opts.Role {
	case "", workers.RoleGA, workers.RolePA, workers.RoleVRA:
	default:
		return usagef("serve: --role must be GA, PA or VRA, got %q", *role)
	}
	if opts.Role != "" && opts.Agent == mcp.AgentSingle {
		return usagef("serve: --role %s is a multi-agent specialist; it cannot be combined with --agent single", *role)
	}
	var ln net.Listener
	if *httpAddr != "" {
		if err := checkLoopback(*httpAddr); err != nil {
			return usageError{err}
		}
		l, err := net.Listen("tcp", *httpAddr)
		if err != nil {
			return fmt.Errorf("serve: listening on %s: %w", *httpAddr, err)
		}
		ln = l
		defer ln.Close()
	}

	rec, err := mcp.ReadTestInput(*input, *recordID)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if _, err := os.Stat(filepath.Join(*root, "records.jsonl")); err == nil {
		cio.log.Warn("the dataset root holds records.jsonl (gold); the read gate keeps it unreadable, but a fair run mounts only the gold-free bundle", "dataset_root", *root)
	}
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: *root, ArtifactDir: *artifactDir, Logger: cio.log})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	srv, err := mcp.New(eng, rec, opts)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer srv.Close()
	cio.log.Info("serving", "record", rec.ID, "question_type", rec.QuestionType, "tools", len(srv.Tools()), "transport", transportName(*httpAddr))

	var serveErr error
	if ln != nil {
		handler, err := httpHandler(srv, opts)
		if err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		serveErr = serveHTTP(ctx, cio, handler, ln)
	} else {
		t := mcp.Sequential(&sdk.IOTransport{Reader: io.NopCloser(cio.stdin), Writer: nopWriteCloser{cio.stdout}}, drainWait)
		serveErr = srv.Run(ctx, t)
		if errors.Is(serveErr, context.Canceled) || errors.Is(serveErr, io.EOF) {
			serveErr = nil
		}
	}
	a := srv.Audit()
	cio.log.Info("session ended", "record", rec.ID, "calls", len(a.Calls), "denials", len(a.Denials), "refusals", len(a.Refusals), "answered", string(a.Answer) != "null")
	if *auditPath != "" {
		b, err := json.MarshalIndent(a, "", "  ")
		if err == nil {
			err = os.WriteFile(*auditPath, append(b, '\n'), 0o644)
		}
		if err != nil {
			return errors.Join(serveErr, fmt.Errorf("serve: writing audit %s: %w", *auditPath, err))
		}
	}
	if serveErr != nil {
		return fmt.Errorf("serve: %w", serveErr)
	}
	return nil
}

func transportName(httpAddr string) string {
	if httpAddr != "" {
		return "streamable-http"
	}
	return "stdio"
}

// checkLoopback accepts only host:port addresses on a loopback interface.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("serve: --http %q: %v", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("serve: --http %q: the server listens on a loopback address only (127.0.0.1, [::1] or localhost)", addr)
	}
	return nil
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

// serveHTTP serves streamable HTTP on ln until ctx is cancelled.
func serveHTTP(ctx context.Context, cio cmdIO, handler http.Handler, ln net.Listener) error {
	hs := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	cio.log.Info("listening", "url", "http://"+ln.Addr().String()+"/")
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		// Open event streams keep connections busy: close them.
		cio.log.Info("closing open HTTP connections", "reason", err)
		hs.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// nopWriteCloser makes stdout an io.WriteCloser whose Close leaves the
// stream open.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
