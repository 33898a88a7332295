package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/geodisaster/engine/conformance/synth"
	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// serveCorpus writes a one-record corpus of qtype and moves the gold out
// of the dataset root; it returns the root and the gold record.
func serveCorpus(t *testing.T, qtype string) (string, workers.Record) {
	t.Helper()
	root, _, recs := serveCorpusOf(t, qtype)
	return root, recs[0]
}

// serveCorpusOf writes a corpus of one record per type and moves the gold
// out of the dataset root; it returns the root, the gold file and the
// gold records.
func serveCorpusOf(t *testing.T, qtypes ...string) (string, string, []workers.Record) {
	t.Helper()
	root := t.TempDir()
	if _, err := synth.Generate(context.Background(), root, synth.Options{Types: qtypes, PerType: 1}); err != nil {
		t.Fatal(err)
	}
	gold := filepath.Join(t.TempDir(), "records.jsonl")
	if err := os.Rename(filepath.Join(root, "records.jsonl"), gold); err != nil {
		t.Fatal(err)
	}
	recs, err := workers.ReadRecordsFile(gold, true)
	if err != nil {
		t.Fatal(err)
	}
	return root, gold, recs
}

// lockedBuffer is a bytes.Buffer safe for a writer and a reader in
// different goroutines.
// stdioServe is "geodisaster serve" over stdio, run in this process, with
// an MCP client session connected to it.
type stdioServe struct {
	cs     *sdk.ClientSession
	stdin  *io.PipeWriter
	stderr *lockedBuffer
	done   chan int
}

// startStdioServe runs serve with args and connects client to it.
func startStdioServe(t *testing.T, client string, args ...string) *stdioServe {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stdioServe{stdin: inW, stderr: &lockedBuffer{}, done: make(chan int, 1)}
	go func() {
		s.done <- run(context.Background(), kit.IO{Stdin: inR, Stdout: outW, Stderr: s.stderr}, append([]string{"serve"}, args...))
		outW.Close()
	}()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: client, Version: "1"}, nil).
		Connect(context.Background(), &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, s.stderr.String())
	}
	s.cs = cs
	return s
}

// stop closes the session and stdin; serve must then exit 0.
func (s *stdioServe) stop(t *testing.T) {
	t.Helper()
	s.cs.Close()
	s.stdin.Close()
	select {
	case code := <-s.done:
		if code != kit.ExitOK {
			t.Fatalf("serve exit %d\n%s", code, s.stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not exit after stdin closed")
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func toolText(t *testing.T, res *sdk.CallToolResult) string {
	t.Helper()
	if len(res.Content) == 0 {
		t.Fatal("empty tool result")
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("content %T", res.Content[0])
	}
	return tc.Text
}

// solveWith replays the record's chain as tool calls and finishes with
// the single agent's FinalAnswer; it returns the resolved answer.
func solveWith(t *testing.T, cs *sdk.ClientSession, rec workers.Record) json.RawMessage {
	t.Helper()
	ctx := context.Background()
	for i, step := range rec.GTChain {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: step.Tool, Arguments: step.Args})
		if err != nil || res.IsError {
			t.Fatalf("step %d %s: %v %v", i+1, step.Tool, err, res)
		}
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: runtime.ToolFinalAnswer, Arguments: map[string]any{"answer_ref": runtime.AnswerRef}})
	if err != nil || res.IsError {
		t.Fatalf("FinalAnswer: %v %v", err, res)
	}
	var out struct{ Answer json.RawMessage }
	if err := json.Unmarshal([]byte(toolText(t, res)), &out); err != nil {
		t.Fatal(err)
	}
	return out.Answer
}

func sameJSON(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	bx, _ := json.Marshal(x)
	by, _ := json.Marshal(y)
	return bytes.Equal(bx, by)
}

func TestServeStdio(t *testing.T) {
	root, gold := serveCorpus(t, "wildfire_a")
	auditPath := filepath.Join(t.TempDir(), "audit.json")
	srv := startStdioServe(t, "serve-test", "--dataset-root", root, "--input", filepath.Join(root, "test_inputs.jsonl"), "--record", gold.ID, "--audit", auditPath)
	cs := srv.cs
	// A traversal attempt is a tool error with the reason.
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "ReadData",
		Arguments: map[string]any{"question": "question_1", "handle": "../records.jsonl", "role": "wildfire"}})
	if err != nil || !res.IsError || !strings.Contains(toolText(t, res), "unknown handle") {
		t.Fatalf("traversal: %v %v", err, res)
	}
	got := solveWith(t, cs, gold)
	srv.stop(t)
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	rep := eng.ReplayRecord(context.Background(), gold)
	if !sameJSON(t, got, rep.Answer) {
		t.Fatalf("serve answer %s, replay %s", got, rep.Answer)
	}
	var audit struct {
		Calls   []json.RawMessage
		Denials []json.RawMessage
		Answer  json.RawMessage
	}
	if err := json.Unmarshal([]byte(readFile(t, auditPath)), &audit); err != nil {
		t.Fatal(err)
	}
	if len(audit.Denials) != 0 || len(audit.Calls) != len(gold.GTChain)+2 || !sameJSON(t, audit.Answer, rep.Answer) {
		t.Fatalf("audit: %d calls, %d denials, answer %s", len(audit.Calls), len(audit.Denials), audit.Answer)
	}
	if log := srv.stderr.String(); !strings.Contains(log, "unknown handle") || !strings.Contains(log, "session ended") {
		t.Fatalf("stderr log lacks the failed call or the summary:\n%s", log)
	}
}

// TestServeHTTP runs the multi-agent form over streamable HTTP: the
// orchestrator at / and each specialist of the same session at /GA, /PA,
// /VRA; every worker call goes to its owner, the orchestrator terminates.
func TestServeHTTP(t *testing.T) {
	root, gold := serveCorpus(t, "xbd_q1")
	ctx := context.Background()
	srv := serveOrcHTTP(t, root, filepath.Join(root, "test_inputs.jsonl"), gold.ID)
	dial := func(path string) *sdk.ClientSession {
		cs := srv.dial(path)
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	orc := dial("/")
	roles := map[string]*sdk.ClientSession{"GA": dial("/GA"), "PA": dial("/PA"), "VRA": dial("/VRA")}
	owner := map[string]string{}
	for _, info := range workers.Tools() {
		owner[info.Name] = string(info.Role)
	}
	last := ""
	for i, step := range gold.GTChain {
		role := owner[step.Tool]
		if role == "" {
			role = last
		}
		res, err := roles[role].CallTool(ctx, &sdk.CallToolParams{Name: step.Tool, Arguments: step.Args})
		if err != nil || res.IsError {
			t.Fatalf("step %d %s by %s: %v %v", i+1, step.Tool, role, err, res)
		}
		last = role
	}
	res, err := roles["GA"].CallTool(ctx, &sdk.CallToolParams{Name: runtime.ToolTerminate, Arguments: map[string]any{"answer_ref": runtime.AnswerRef}})
	if err != nil || !res.IsError || !strings.Contains(toolText(t, res), "cannot end the session") {
		t.Fatalf("GA specialist terminating: %v %v", err, res)
	}
	res, err = orc.CallTool(ctx, &sdk.CallToolParams{Name: runtime.ToolTerminate, Arguments: map[string]any{"answer_ref": runtime.AnswerRef}})
	if err != nil || res.IsError {
		t.Fatalf("Terminate: %v %v", err, res)
	}
	var got struct{ Answer json.RawMessage }
	if err := json.Unmarshal([]byte(toolText(t, res)), &got); err != nil {
		t.Fatal(err)
	}
	orc.Close()
	for _, cs := range roles {
		cs.Close()
	}
	srv.stop()
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	if rep := eng.ReplayRecord(context.Background(), gold); !sameJSON(t, got.Answer, rep.Answer) {
		t.Fatalf("serve answer %s, replay %s", got.Answer, rep.Answer)
	}
}

// httpServe is a "serve --agent orc --http" run on a free loopback port.
type httpServe struct {
	t      *testing.T
	ctx    context.Context
	cancel context.CancelFunc
	addr   string
	stderr *lockedBuffer
	done   chan int
}

// serveOrcHTTP starts serving record id's multi-agent form over HTTP.
func serveOrcHTTP(t *testing.T, root, inputs, id string) *httpServe {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &httpServe{t: t, addr: l.Addr().String(), stderr: &lockedBuffer{}, done: make(chan int, 1)}
	l.Close()
	s.ctx, s.cancel = context.WithCancel(context.Background())
	t.Cleanup(s.cancel)
	go func() {
		s.done <- run(s.ctx, kit.IO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: s.stderr},
			[]string{"serve", "--dataset-root", root, "--input", inputs, "--record", id, "--agent", "orc", "--http", s.addr})
	}()
	return s
}

// dial connects an MCP client to the endpoint at path, waiting for the
// server to listen.
func (s *httpServe) dial(path string) *sdk.ClientSession {
	s.t.Helper()
	for i := 0; ; i++ {
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "serve-test" + path, Version: "1"}, nil).
			Connect(s.ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + s.addr + path}, nil)
		if err == nil {
			return cs
		}
		if i == 200 {
			s.t.Fatalf("connect %s: %v\n%s", path, err, s.stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop ends the server and requires a clean exit.
func (s *httpServe) stop() {
	s.t.Helper()
	s.cancel()
	if code := <-s.done; code != kit.ExitOK {
		s.t.Fatalf("serve exit %d\n%s", code, s.stderr.String())
	}
}

func TestServeRefusals(t *testing.T) {
	root, gold := serveCorpus(t, "wildfire_a")
	goldFile := filepath.Join(t.TempDir(), "records.jsonl")
	if err := workers.WriteRecords(mustCreate(t, goldFile), []workers.Record{gold}); err != nil {
		t.Fatal(err)
	}
	inputs := filepath.Join(root, "test_inputs.jsonl")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--input", goldFile, "--record", gold.ID}, kit.ExitCannotRun, "not a gold-free test-input projection"},
		{[]string{"--input", inputs, "--record", "nope"}, kit.ExitCannotRun, "no record with id"},
		{[]string{"--input", inputs, "--record", gold.ID, "--http", "0.0.0.0:0"}, kit.ExitUsage, "loopback"},
		{[]string{"--input", inputs, "--record", gold.ID, "--agent", "single", "--role", "GA"}, kit.ExitUsage, "specialist"},
		{[]string{"--input", inputs, "--record", gold.ID, "--role", "XX"}, kit.ExitUsage, "--role"},
		{[]string{"--input", inputs}, kit.ExitUsage, "missing required flag --record"},
	} {
		code, _, stderr := runCLI(t, "", append([]string{"serve", "--dataset-root", root}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("serve %v: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, tc.code, tc.msg)
		}
	}
}

func mustCreate(t *testing.T, path string) io.Writer {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestServeEveryRecordAndScoreEpisodes serves every record of a corpus
// from one process, solves each in a single-agent session, leaves one
// more session open unanswered, shuts down by cancelling (as SIGINT or
// SIGTERM do), and scores the episode directory: attempt 1 is all
// correct, attempt 2 holds the unanswered session as an error.
func TestServeEveryRecordAndScoreEpisodes(t *testing.T) {
	root, goldPath, gold := serveCorpusOf(t, "wildfire_a", "xbd_q1", "sen1_flood_b")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	epDir := filepath.Join(t.TempDir(), "episodes")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, kit.IO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr},
			[]string{"serve", "--dataset-root", root, "--input", filepath.Join(root, "test_inputs.jsonl"), "--http", addr, "--episodes", epDir, "--limit-calls", "50"})
	}()
	dial := func(id string) *sdk.ClientSession {
		for i := 0; ; i++ {
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "serve-all-test", Version: "1"}, nil).
				Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + addr + "/records/" + id, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
			if err == nil {
				return cs
			}
			if i == 100 {
				t.Fatalf("connect: %v\n%s", err, stderr.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gold {
		cs := dial(g.ID)
		got := solveWith(t, cs, g)
		if rep := eng.ReplayRecord(context.Background(), g); !sameJSON(t, got, rep.Answer) {
			t.Fatalf("%s: served answer %s, replay %s", g.ID, got, rep.Answer)
		}
		cs.Close()
	}
	open := dial(gold[0].ID) // left open: the shutdown ends it
	if res, err := open.CallTool(ctx, &sdk.CallToolParams{Name: "GetQuestion"}); err != nil || res.IsError {
		t.Fatalf("GetQuestion: %v %v", err, res)
	}
	cancel()
	select {
	case code := <-done:
		if code != kit.ExitOK {
			t.Fatalf("serve exit %d\n%s", code, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not stop\n%s", stderr.String())
	}
	open.Close()
	if log := stderr.String(); !strings.Contains(log, "server stopped") || !strings.Contains(log, `"end":"shutdown"`) { // slog JSON: stderr is not a terminal
		t.Fatalf("log lacks the shutdown:\n%s", log)
	}

	code, out, errOut := runCLI(t, "", "score", "--gold", goldPath, "--pred", epDir, "--json")
	if code != kit.ExitOK {
		t.Fatalf("score: exit %d: %s", code, errOut)
	}
	var rep struct {
		Episodes int
		Attempts []struct {
			Records []struct {
				ID        string
				Predicted bool
				Correct   bool
				Reason    string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Episodes != len(gold)+1 || len(rep.Attempts) != 2 {
		t.Fatalf("%d episodes, %d attempts:\n%s", rep.Episodes, len(rep.Attempts), out)
	}
	for _, r := range rep.Attempts[0].Records {
		if !r.Correct {
			t.Errorf("attempt 1, %s: %s", r.ID, r.Reason)
		}
	}
	for _, r := range rep.Attempts[1].Records {
		switch {
		case r.ID == gold[0].ID && (!r.Predicted || r.Correct || !strings.Contains(r.Reason, "without an answer")):
			t.Errorf("attempt 2, the unanswered session: %+v", r)
		case r.ID != gold[0].ID && (r.Predicted || r.Reason != "missing prediction"):
			t.Errorf("attempt 2, %s: %+v", r.ID, r)
		}
	}
	code, out, _ = runCLI(t, "", "score", "--gold", goldPath, "--pred", epDir)
	if code != kit.ExitOK || !strings.Contains(out, "== attempt 2 of 2") || !strings.Contains(out, fmt.Sprintf("%d episodes of %d records", len(gold)+1, len(gold))) {
		t.Fatalf("score text: exit %d\n%s", code, out)
	}
	// A session record that is not one, or whose episode is gone, is
	// refused with the file's name.
	stray := filepath.Join(epDir, "stray.session.json")
	os.WriteFile(stray, []byte(`{"hello":1}`), 0o644)
	if code, _, errOut := runCLI(t, "", "score", "--gold", goldPath, "--pred", epDir); code == kit.ExitOK || !strings.Contains(errOut, "stray.session.json: not a session record") {
		t.Fatalf("stray file: exit %d %s", code, errOut)
	}
	os.Remove(stray)
	eps, _ := filepath.Glob(filepath.Join(epDir, "*", "*.jsonl"))
	if len(eps) != len(gold) {
		t.Fatalf("%d episode rows for %d answered sessions", len(eps), len(gold))
	}
	os.Remove(eps[0])
	if code, _, errOut := runCLI(t, "", "score", "--gold", goldPath, "--pred", epDir); code == kit.ExitOK || !strings.Contains(errOut, "its episode") {
		t.Fatalf("missing episode: exit %d %s", code, errOut)
	}
}

// TestServeEveryRecordRefusals checks the flags of serving every record.
func TestServeEveryRecordRefusals(t *testing.T) {
	root, _ := serveCorpus(t, "wildfire_a")
	inputs := filepath.Join(root, "test_inputs.jsonl")
	shortToken := filepath.Join(t.TempDir(), "token")
	os.WriteFile(shortToken, []byte("short\n"), 0o600)
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--http", "127.0.0.1:0"}, kit.ExitUsage, "missing required flag --episodes"},
		{[]string{"--http", "0.0.0.0:0", "--episodes", t.TempDir()}, kit.ExitUsage, "requires --token-file"},
		{[]string{"--http", ":0", "--episodes", t.TempDir()}, kit.ExitUsage, "requires --token-file"},
		{[]string{"--http", "127.0.0.1:0", "--episodes", t.TempDir(), "--agent", "orc"}, kit.ExitUsage, "apply to one record"},
		{[]string{"--http", "127.0.0.1:0", "--episodes", t.TempDir(), "--token-file", shortToken}, kit.ExitCannotRun, "use at least 16"},
		{[]string{"--http", "127.0.0.1:0", "--episodes", t.TempDir(), "--limit-read", "12 parsecs"}, kit.ExitUsage, "unknown unit"},
		{[]string{"--http", "127.0.0.1:0", "--episodes", t.TempDir(), "--max-sessions", "0"}, kit.ExitUsage, "--max-sessions"},
	} {
		code, _, stderr := runCLI(t, "", append([]string{"serve", "--dataset-root", root, "--input", inputs}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("serve %v: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, tc.code, tc.msg)
		}
	}
	for in, want := range map[string]int64{"0": 0, "1048576": 1 << 20, "512MiB": 512 << 20, "2GiB": 2 << 30, "3 GB": 3e9, "7KB": 7000} {
		if got, err := parseByteSize(in); err != nil || got != want {
			t.Errorf("parseByteSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MiB", "-1", "1.5GiB", "99999999999TiB"} {
		if _, err := parseByteSize(in); err == nil {
			t.Errorf("parseByteSize(%q) accepted", in)
		}
	}
}
