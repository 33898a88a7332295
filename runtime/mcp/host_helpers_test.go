package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/mcp"
	"github.com/geodisaster/engine/workers"
)

// memEpisodes is an EpisodeWriter keeping the session logs in memory.
type memEpisodes struct {
	mu   sync.Mutex
	logs []*mcp.SessionLog
	fail bool
}

func (m *memEpisodes) WriteEpisode(l *mcp.SessionLog) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail {
		return errors.New("disk full")
	}
	m.logs = append(m.logs, l)
	return nil
}

func (m *memEpisodes) all() []*mcp.SessionLog {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*mcp.SessionLog(nil), m.logs...)
}

// testServer is a host served on a loopback port.
type testServer struct {
	URL  string
	Addr string
}

// startHost serves the corpus's gold-free records with a Host on a
// loopback port, through the host's own http.Server.
func startHost(t *testing.T, c *corpus, opts mcp.HostOptions) (*mcp.Host, *testServer) {
	t.Helper()
	recs := make([]workers.Record, 0, len(c.gold))
	for _, g := range c.gold {
		recs = append(recs, c.tests[g.ID])
	}
	h, err := mcp.NewHost(newEngine(t, c.root), recs, opts)
	if err != nil {
		t.Fatal(err)
	}
	addr := mcp.ServeLoopback(t, h)
	return h, &testServer{URL: "http://" + addr, Addr: addr}
}

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// dialHTTP opens an MCP client session at url with the go-sdk client.
func dialHTTP(ctx context.Context, url, token, name string) (*sdk.ClientSession, error) {
	hc := &http.Client{Transport: http.DefaultTransport}
	if token != "" {
		hc.Transport = bearer{token, http.DefaultTransport}
	}
	tr := &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1, DisableStandaloneSSE: true}
	return sdk.NewClient(&sdk.Implementation{Name: name, Version: "1"}, nil).Connect(ctx, tr, nil)
}

// callRaw calls a tool and returns the text the client received and
// whether it is a tool error.
func callRaw(ctx context.Context, cs *sdk.ClientSession, tool string, args any) (string, bool, error) {
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", false, err
	}
	if len(res.Content) == 0 {
		return "", res.IsError, fmt.Errorf("%s: empty result", tool)
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		return "", res.IsError, fmt.Errorf("%s: content %T", tool, res.Content[0])
	}
	return tc.Text, res.IsError, nil
}

// callJSON calls a tool and returns its JSON answer (or structured
// error) and whether it was a tool error.
func callJSON(ctx context.Context, cs *sdk.ClientSession, tool string, args any) (map[string]any, bool, error) {
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return nil, false, err
	}
	out := map[string]any{}
	if res.IsError {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &out); err != nil {
			return nil, true, fmt.Errorf("%s: structured error: %v", tool, err)
		}
		return out, true, nil
	}
	if len(res.Content) == 0 {
		return nil, false, fmt.Errorf("%s: empty result", tool)
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		return nil, false, fmt.Errorf("%s: content %T", tool, res.Content[0])
	}
	if err := json.Unmarshal([]byte(tc.Text), &out); err != nil {
		return nil, false, fmt.Errorf("%s: result is not JSON: %v", tool, err)
	}
	return out, false, nil
}

// agentRun is one scripted agent's session.
type agentRun struct {
	// Steps are the calls played (the multi-agent form adds the
	// TaskComplete that ends each delegation) and Texts what the client
	// received for each.
	Steps     []workers.Step
	Texts     []string
	Answer    json.RawMessage
	Handles   []string // result handles, in call order
	Artifacts []string // artifact names written
	Session   string   // the runtime session id (orchestrator: from its specialist endpoints)
	Latencies []time.Duration
	Clients   []*sdk.ClientSession // the owner first, then specialists
}

// owners maps each worker to the specialist that owns it.
func owners() map[string]workers.Role {
	m := map[string]workers.Role{}
	for _, info := range workers.Tools() {
		m[info.Name] = info.Role
	}
	return m
}

// openAgent initializes the agent's sessions: the single agent, or the
// orchestrator and its three specialists at the endpoints its
// specialists resource names.
func openAgent(ctx context.Context, base string, rec workers.Record, form mcp.Agent, token string) (*agentRun, error) {
	endpoint := mcp.SingleEndpoint(rec.ID)
	if form == mcp.AgentOrchestrator {
		endpoint = mcp.OrchestratorEndpoint(rec.ID)
	}
	cs, err := dialHTTP(ctx, base+endpoint, token, "scripted-"+string(form))
	if err != nil {
		return nil, fmt.Errorf("%s: connect: %w", endpoint, err)
	}
	run := &agentRun{Clients: []*sdk.ClientSession{cs}}
	q, isErr, err := callJSON(ctx, cs, mcp.ToolGetQuestion, nil)
	if err != nil || isErr {
		return run, fmt.Errorf("GetQuestion: %v %v", err, q)
	}
	if q["id"] != rec.ID {
		return run, fmt.Errorf("GetQuestion: record %v, want %s", q["id"], rec.ID)
	}
	if form != mcp.AgentOrchestrator {
		return run, nil
	}
	rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.SpecialistsURI})
	if err != nil {
		return run, fmt.Errorf("%s: %w", mcp.SpecialistsURI, err)
	}
	sp := map[string]string{}
	if err := json.Unmarshal([]byte(rr.Contents[0].Text), &sp); err != nil {
		return run, fmt.Errorf("%s: %w", mcp.SpecialistsURI, err)
	}
	for _, role := range []workers.Role{workers.RoleGA, workers.RolePA, workers.RoleVRA} {
		path := sp[string(role)]
		if path == "" {
			return run, fmt.Errorf("%s names no %s endpoint: %v", mcp.SpecialistsURI, role, sp)
		}
		parts := strings.Split(path, "/")
		run.Session = parts[len(parts)-2]
		c, err := dialHTTP(ctx, base+path, token, "scripted-"+string(role))
		if err != nil {
			return run, fmt.Errorf("%s: connect: %w", path, err)
		}
		run.Clients = append(run.Clients, c)
	}
	return run, nil
}

// client returns the session a step goes to: the single agent's, or the
// specialist owning the tool (TaskComplete: the last specialist).
func (r *agentRun) client(tool string, last *workers.Role, own map[string]workers.Role) *sdk.ClientSession {
	if len(r.Clients) == 1 {
		return r.Clients[0]
	}
	role, ok := own[tool]
	if !ok {
		role = *last
	}
	*last = role
	switch role {
	case workers.RoleGA:
		return r.Clients[1]
	case workers.RolePA:
		return r.Clients[2]
	}
	return r.Clients[3]
}

// solve plays the record's GT chain as the agent's tool calls (a
// scripted stand-in for a model: the server holds only the gold-free
// inputs) and finishes with the form's terminal tool.
func (r *agentRun) solve(ctx context.Context, gold workers.Record) error {
	if err := r.play(ctx, gold); err != nil {
		return err
	}
	return r.finish(ctx)
}

// delegated returns the calls of a GT chain in the multi-agent form: a
// specialist ends each of its runs of steps with TaskComplete, as the
// dataset's multi-agent episodes do (the chain's own TaskComplete ends
// the last run).
func delegated(chain []workers.Step, own map[string]workers.Role) []workers.Step {
	var out []workers.Step
	for i, s := range chain {
		if i > 0 {
			prev, ok1 := own[chain[i-1].Tool]
			cur, ok2 := own[s.Tool]
			if ok1 && ok2 && prev != cur {
				out = append(out, workers.Step{Tool: runtime.ToolTaskComplete, Args: map[string]any{"status": "TASK_COMPLETE"}})
			}
		}
		out = append(out, s)
	}
	return out
}

// play makes the GT chain's calls (in the multi-agent form, delegated).
func (r *agentRun) play(ctx context.Context, gold workers.Record) error {
	own := owners()
	r.Steps = gold.GTChain
	if len(r.Clients) > 1 {
		r.Steps = delegated(gold.GTChain, own)
	}
	var last workers.Role
	for k, step := range r.Steps {
		cs := r.client(step.Tool, &last, own)
		start := time.Now()
		text, isErr, err := callRaw(ctx, cs, step.Tool, step.Args)
		r.Latencies = append(r.Latencies, time.Since(start))
		r.Texts = append(r.Texts, text)
		if err != nil || isErr {
			return fmt.Errorf("step %d %s: %v %s", k+1, step.Tool, err, text)
		}
		out := map[string]any{}
		if err := json.Unmarshal([]byte(text), &out); err != nil {
			return fmt.Errorf("step %d %s: %v", k+1, step.Tool, err)
		}
		if h, _ := out["handle"].(string); h != "" {
			r.Handles = append(r.Handles, h)
		}
		if arts, ok := out["artifacts"].([]any); ok {
			for _, a := range arts {
				if m, ok := a.(map[string]any); ok {
					r.Artifacts = append(r.Artifacts, fmt.Sprint(m["name"]))
				}
			}
		}
	}
	return nil
}

// finish calls the form's terminal tool and keeps the resolved answer.
func (r *agentRun) finish(ctx context.Context) error {
	finish := runtime.ToolFinalAnswer
	if len(r.Clients) > 1 {
		finish = runtime.ToolTerminate
	}
	start := time.Now()
	out, isErr, err := callJSON(ctx, r.Clients[0], finish, map[string]any{"answer_ref": runtime.AnswerRef})
	r.Latencies = append(r.Latencies, time.Since(start))
	if err != nil || isErr {
		return fmt.Errorf("%s: %v %v", finish, err, out)
	}
	b, err := json.Marshal(out["answer"])
	if err != nil {
		return err
	}
	r.Answer = b
	return nil
}

// close ends every client session (the owner last).
func (r *agentRun) close() {
	for i := len(r.Clients) - 1; i >= 0; i-- {
		r.Clients[i].Close()
	}
}

// replayAnswers replays every record and returns its answers by id.
func replayAnswers(t *testing.T, c *corpus, recs []workers.Record) map[string]json.RawMessage {
	t.Helper()
	eng := newEngine(t, c.root)
	out := map[string]json.RawMessage{}
	for _, g := range recs {
		rep := eng.ReplayRecord(context.Background(), g)
		if rep.Status != "ok" {
			t.Fatalf("replay %s: %v", g.ID, *rep.Error)
		}
		out[g.ID] = rep.Answer
	}
	return out
}
