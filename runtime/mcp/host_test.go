package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/episode"
	"github.com/geodisaster/engine/runtime/mcp"
	"github.com/geodisaster/engine/workers"
)

// TestHostServesEveryRecord solves records of every family through one
// host, alternating the single agent and the orchestrator with its
// specialists, and checks the answers equal replay's, the episodes and
// the metrics.
func TestHostServesEveryRecord(t *testing.T) {
	types := []string{"forest_loss_detection", "wildfire_d", "xbd_q4", "visual_overlay", "sen1_flood_d", "drought_b"}
	c := newCorpus(t, types)
	eps := &memEpisodes{}
	h, ts := startHost(t, c, mcp.HostOptions{Episodes: eps})
	want := replayAnswers(t, c, c.gold)
	val, err := episode.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i, gold := range c.gold {
		form := mcp.AgentSingle
		if i%2 == 1 {
			form = mcp.AgentOrchestrator
		}
		run, err := openAgent(ctx, ts.URL, c.tests[gold.ID], form, "")
		if err != nil {
			t.Fatalf("%s %s: %v", gold.ID, form, err)
		}
		if err := run.solve(ctx, gold); err != nil {
			t.Fatalf("%s %s: %v", gold.ID, form, err)
		}
		if canonical(t, run.Answer) != canonical(t, want[gold.ID]) {
			t.Fatalf("%s %s: answer %s, replay %s", gold.ID, form, run.Answer, want[gold.ID])
		}
		// The episode is written when the answer is resolved, before the
		// client receives it.
		logs := eps.all()
		if len(logs) != i+1 {
			t.Fatalf("%d episodes after %d answered sessions", len(logs), i+1)
		}
		l := logs[i]
		if l.Record.ID != gold.ID || l.Agent != form || l.End != mcp.EndAnswered || canonical(t, l.Audit.Answer) != canonical(t, want[gold.ID]) {
			t.Fatalf("episode: record %s agent %s end %s answer %s", l.Record.ID, l.Agent, l.End, l.Audit.Answer)
		}
		if len(l.Audit.Denials) != 0 || len(l.Audit.Refusals) != 0 || len(l.Audit.Calls) != len(run.Steps)+1 {
			t.Fatalf("episode audit: %d calls, denials %v, refusals %v", len(l.Audit.Calls), l.Audit.Denials, l.Audit.Refusals)
		}
		// Exchanges: GetQuestion, then one per call, each linked to its
		// runtime call; the orchestrator's calls went to the owners.
		if len(l.Exchanges) != len(run.Steps)+2 || l.Exchanges[0].Tool != mcp.ToolGetQuestion {
			t.Fatalf("%d exchanges: %+v", len(l.Exchanges), l.Exchanges)
		}
		own := owners()
		for k, ex := range l.Exchanges[1:] {
			if ex.Call != k+1 || ex.IsError {
				t.Fatalf("exchange %d: %+v", k+1, ex)
			}
			wantActor := string(mcp.AgentSingle)
			if form == mcp.AgentOrchestrator {
				wantActor = "ORC"
				if r, ok := own[ex.Tool]; ok {
					wantActor = string(r)
				} else if ex.Tool == runtime.ToolTaskComplete {
					wantActor = l.Exchanges[k].Actor
				}
			}
			if ex.Actor != wantActor {
				t.Fatalf("exchange %d %s by %s, want %s", k+1, ex.Tool, ex.Actor, wantActor)
			}
		}
		if form == mcp.AgentOrchestrator && (len(l.Clients) != 4 || run.Session != l.SessionID) {
			t.Fatalf("clients %+v, session %s (episode %s)", l.Clients, run.Session, l.SessionID)
		}
		checkEpisode(t, val, l, c.tests[gold.ID], run)
		run.close()
	}
	// Closing the clients ends the sessions, as answered.
	waitFor(t, func() bool { return len(h.Sessions()) == 0 })
	st := h.Status()
	if st.Sessions.Ended[mcp.EndAnswered] != int64(len(c.gold)) || st.Episodes.Written != int64(len(c.gold)) || st.Calls.ByOutcome["ok"] == 0 || st.Calls.ByOutcome["ok"] != st.Calls.Total {
		t.Fatalf("status: %+v", st)
	}
	if st.LatencyMS.Window != int(st.Calls.Total) || st.LatencyMS.P99 < st.LatencyMS.P50 || st.LatencyMS.P50 <= 0 {
		t.Fatalf("latency: %+v", st.LatencyMS)
	}
	body := get(t, ts.URL+"/metrics", "")
	for _, want := range []string{
		"# TYPE geodisaster_sessions_active gauge",
		`geodisaster_sessions_active{agent="single"} 0`,
		`geodisaster_sessions_ended_total{agent="orc",end="answered"} 3`,
		`geodisaster_tool_calls_total{tool="FinalAnswer",outcome="ok"} 3`,
		`geodisaster_tool_call_duration_seconds{quantile="0.99"}`,
		"geodisaster_tool_call_duration_seconds_count ",
		"geodisaster_episodes_written_total 6",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q:\n%s", want, body)
		}
	}
	var recs struct {
		Records []struct{ ID, Single, Orchestrator string }
	}
	if err := json.Unmarshal([]byte(get(t, ts.URL+"/records", "")), &recs); err != nil || len(recs.Records) != len(c.gold) || recs.Records[0].Single != mcp.SingleEndpoint(recs.Records[0].ID) {
		t.Fatalf("/records: %v %+v", err, recs)
	}
}

// checkEpisode checks the episode row of an answered session against
// what its client saw. Single agent: the conversation built from the
// client's own calls and received texts must equal the episode's.
// Orchestrator: one delegation per run of same-owner steps, each ending
// with its specialist's TaskComplete, the observations the client
// received, and every runtime call in tool_sequence.
func checkEpisode(t *testing.T, val *episode.Validator, l *mcp.SessionLog, rec workers.Record, run *agentRun) {
	t.Helper()
	line, err := mcp.EpisodeLine(val, l)
	if err != nil {
		t.Fatalf("episode of %s: %v", rec.ID, err)
	}
	if l.Agent == mcp.AgentSingle {
		conv, err := episode.Start(episode.Single, rec)
		if err != nil {
			t.Fatal(err)
		}
		for i, st := range run.Steps {
			conv.Act(st.Tool, st.Args)
			conv.Observe(st.Tool, run.Texts[i], false)
		}
		conv.Act(runtime.ToolFinalAnswer, map[string]any{"answer_ref": runtime.AnswerRef})
		want, err := episode.NewSingleAgentEpisode(episode.IdentityOf(rec, ""), conv)
		if err != nil {
			t.Fatal(err)
		}
		var got episode.SingleAgentEpisode
		if err := json.Unmarshal(line.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if canonical(t, got.Messages) != canonical(t, want.Messages) || canonical(t, got.ToolSequence) != canonical(t, want.ToolSequence) {
			t.Fatalf("single-agent episode of %s differs from what its client saw:\n got  %s\n want %s", rec.ID, canonical(t, got.Messages), canonical(t, want.Messages))
		}
		if g, err := got.GroupID(); err != nil || g != got.TrajectoryContentGroupID {
			t.Fatalf("trajectory group %q, the episode's fingerprint gives %q (%v)", got.TrajectoryContentGroupID, g, err)
		}
		return
	}
	var got episode.MultiAgentEpisode
	if err := json.Unmarshal(line.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	own := owners()
	var wantRoles []string
	for i, st := range run.Steps {
		if role, ok := own[st.Tool]; ok && (i == 0 || own[run.Steps[i-1].Tool] != role) {
			wantRoles = append(wantRoles, string(role))
		}
	}
	if len(got.Delegations) != len(wantRoles) {
		t.Fatalf("%d delegations, the chain has %d runs (%v)", len(got.Delegations), len(wantRoles), wantRoles)
	}
	k := 0
	for j, d := range got.Delegations {
		if d.Role != wantRoles[j] {
			t.Fatalf("delegation %d by %s, want %s", j, d.Role, wantRoles[j])
		}
		n := 0
		for _, m := range d.Messages[3:] {
			if m.Role == episode.RoleTool {
				if m.Content != run.Texts[k] {
					t.Fatalf("delegation %d observation %d: %s\nthe client received %s", j, n, m.Content, run.Texts[k])
				}
				k++
				n++
			}
		}
		if last := d.Messages[len(d.Messages)-2]; last.Action == nil || last.Action.Tool != runtime.ToolTaskComplete || len(d.Steps) != n-1 {
			t.Fatalf("delegation %d: %d steps, %d observations, ends with %+v", j, len(d.Steps), n, last)
		}
	}
	if k != len(run.Steps) || len(got.ToolSequence) != len(run.Steps)+1 || got.ToolSequence[len(run.Steps)].Tool != runtime.ToolTerminate {
		t.Fatalf("%d observations and %d calls in tool_sequence for %d calls played", k, len(got.ToolSequence), len(run.Steps))
	}
	if len(got.Messages) != 2+1+2*len(wantRoles)+1 || got.Messages[2].Action.Tool != episode.ToolPlan {
		t.Fatalf("orchestrator messages: %d", len(got.Messages))
	}
}

func get(t *testing.T, url, token string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, b := do(t, req)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s: %s", url, resp.Status, b)
	}
	return string(b)
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("condition not reached in 5 s")
}

// TestHostIsolation runs two sessions of one record and one of another
// at once: each probes the others' handles, artifact names, locators and
// paths, and MCP session ids, and must be denied; every session still
// answers as replay does.
func TestHostIsolation(t *testing.T) {
	c := newCorpus(t, []string{"sen1_flood_a", "xbd_q1"})
	artDir := t.TempDir()
	eps := &memEpisodes{}
	_, ts := startHost(t, c, mcp.HostOptions{ArtifactDir: artDir, Episodes: eps})
	want := replayAnswers(t, c, c.gold)
	ctx := context.Background()
	sen1, xbd := c.find(t, "sen1_flood_a"), c.find(t, "xbd_q1")
	golds := []workers.Record{sen1, sen1, xbd}
	runs := make([]*agentRun, len(golds))
	for i, g := range golds {
		form := mcp.AgentSingle
		if i == 1 {
			form = mcp.AgentOrchestrator
		}
		r, err := openAgent(ctx, ts.URL, c.tests[g.ID], form, "")
		if err != nil {
			t.Fatal(err)
		}
		defer r.close()
		if err := r.play(ctx, g); err != nil {
			t.Fatal(err)
		}
		runs[i] = r
	}
	// The two sessions of one record wrote into different directories
	// (the xbd_q1 chain writes no artifact).
	dirs, err := os.ReadDir(artDir)
	if err != nil || len(dirs) != 2 || len(runs[0].Artifacts) == 0 || len(runs[2].Artifacts) != 0 {
		t.Fatalf("artifact directories %v %v, want one per session", dirs, err)
	}
	for i, r := range runs {
		own := map[string]bool{}
		for _, h := range r.Handles {
			own[h] = true
		}
		for j, other := range runs {
			if i == j {
				continue
			}
			var probes []string
			for _, h := range other.Handles {
				if !own[h] {
					probes = append(probes, h)
				}
			}
			for _, a := range other.Artifacts {
				probes = append(probes, a, "generated-artifact://"+golds[j].ID+"/"+a)
				for _, d := range dirs {
					probes = append(probes, filepath.Join(artDir, d.Name(), a), "../"+d.Name()+"/"+a)
				}
			}
			if len(probes) == 0 {
				t.Fatalf("session %d has nothing of session %d to probe", i, j)
			}
			cs := r.Clients[0]
			if len(r.Clients) > 1 {
				cs = r.Clients[1] // the GA specialist reads data
			}
			for _, p := range probes {
				for _, args := range []map[string]any{
					{"question": "question_1", "handle": p, "role": "sar"},
					{"input": p},
				} {
					tool := "ReadData"
					if _, ok := args["input"]; ok {
						tool = "MeasureArea"
					}
					out, isErr, err := callJSON(ctx, cs, tool, args)
					if err != nil || !isErr || (out["category"] != "unknown_handle" && out["category"] != "argument") {
						t.Fatalf("session %d probing %q of session %d with %s: %v %v %v", i, p, j, tool, err, isErr, out)
					}
				}
				rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: p})
				if err == nil {
					t.Fatalf("session %d read resource %q of session %d: %+v", i, p, j, rr)
				}
			}
		}
		// Its own handles list holds its own handles only.
		rr, err := r.Clients[0].ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.HandlesURI})
		if err != nil {
			t.Fatal(err)
		}
		var hs []struct{ Name string }
		json.Unmarshal([]byte(rr.Contents[0].Text), &hs)
		for _, h := range hs {
			if !own[h.Name] && !strings.HasPrefix(h.Name, "question_") && c.tests[golds[i].ID].Handles[h.Name].Kind == "" {
				t.Fatalf("session %d lists a handle %q it did not make", i, h.Name)
			}
		}
	}
	for i, r := range runs {
		if err := r.finish(ctx); err != nil {
			t.Fatal(err)
		}
		if canonical(t, r.Answer) != canonical(t, want[golds[i].ID]) {
			t.Fatalf("session %d answer %s, replay %s", i, r.Answer, want[golds[i].ID])
		}
	}
	for _, l := range eps.all() {
		if len(l.Audit.Denials) != 0 {
			t.Fatalf("probes reached the read gate: %v", l.Audit.Denials)
		}
		for _, call := range l.Audit.Calls {
			for _, rd := range call.Reads {
				if !declared(c.tests[l.Record.ID], rd.Path) {
					t.Fatalf("session of %s read %s, not one of its declared files", l.Record.ID, rd.Path)
				}
			}
		}
	}
	// Another session's MCP session id is refused on an endpoint other than
	// its own, and unknown ids everywhere.
	sid := runs[0].Clients[0].ID()
	for _, path := range []string{mcp.SingleEndpoint(xbd.ID), mcp.OrchestratorEndpoint(sen1.ID)} {
		code, body := rawPost(t, ts.URL+path, sid, `{"jsonrpc":"2.0","id":9,"method":"tools/list"}`)
		if code != http.StatusNotFound || !strings.Contains(body, "unknown session") {
			t.Fatalf("session id of %s at %s: %d %s", mcp.SingleEndpoint(sen1.ID), path, code, body)
		}
	}
}

func declared(rec workers.Record, path string) bool {
	for _, h := range rec.Handles {
		for _, f := range h.Files {
			if f.Path == path {
				return true
			}
		}
	}
	return false
}

// rawPost posts a JSON-RPC body with an optional session id and returns
// the status and body.
func rawPost(t *testing.T, url, sid, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
	}
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, b := do(t, req)
	return resp.StatusCode, string(b)
}

// do sends req with the default client and returns the response with its
// whole body read (and closed).
func do(t *testing.T, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// TestHostLimits checks each per-session limit refuses the call past it
// with a "limit" tool error naming the limit, and that other sessions
// are unaffected.
func TestHostLimits(t *testing.T) {
	c := newCorpus(t, []string{"sen1_flood_a"})
	gold := c.find(t, "sen1_flood_a")
	var read, written int64
	eng := newEngine(t, c.root)
	rep := eng.ReplayRecord(context.Background(), gold)
	seen := map[string]bool{}
	for _, call := range rep.Calls {
		for _, r := range call.Reads {
			if !seen[r.Path] {
				seen[r.Path] = true
				read += r.Size
			}
		}
		for _, a := range call.Artifacts {
			written += a.Size
		}
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		limits mcp.Limits
		limit  string
	}{
		{"calls", mcp.Limits{ToolCalls: 2}, mcp.LimitToolCalls},
		{"read", mcp.Limits{ReadBytes: read - 1}, runtime.LimitReadBytes},
		{"artifacts", mcp.Limits{ArtifactBytes: written - 1}, runtime.LimitArtifactBytes},
		{"wall", mcp.Limits{WallTime: 300 * time.Millisecond}, mcp.LimitWallTime},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eps := &memEpisodes{}
			_, ts := startHost(t, c, mcp.HostOptions{Limits: tc.limits, Episodes: eps})
			r, err := openAgent(ctx, ts.URL, c.tests[gold.ID], mcp.AgentSingle, "")
			if err != nil {
				t.Fatal(err)
			}
			defer r.close()
			if tc.limit == mcp.LimitWallTime {
				time.Sleep(tc.limits.WallTime)
			}
			var refused map[string]any
			for _, step := range gold.GTChain {
				out, isErr, err := callJSON(ctx, r.Clients[0], step.Tool, step.Args)
				if err != nil {
					t.Fatal(err)
				}
				if isErr {
					refused = out
					break
				}
			}
			if refused == nil || refused["category"] != "limit" || !strings.Contains(refused["error"].(string), "session limit "+tc.limit+" exceeded") {
				t.Fatalf("limit %s: %v", tc.limit, refused)
			}
			// The limit holds: the next call is refused too, as a limit.
			out, isErr, err := callJSON(ctx, r.Clients[0], runtime.ToolFinalAnswer, map[string]any{"answer_ref": runtime.AnswerRef})
			if err != nil || !isErr {
				t.Fatalf("after the limit: %v %v", err, out)
			}
			// A fresh session of the same record solves it.
			if tc.limit != mcp.LimitToolCalls && tc.limit != mcp.LimitWallTime {
				r2, err := openAgent(ctx, ts.URL, c.tests[gold.ID], mcp.AgentSingle, "")
				if err != nil {
					t.Fatal(err)
				}
				defer r2.close()
				if err := r2.solve(ctx, gold); err == nil {
					t.Fatal("the same limits let a second session finish")
				}
			}
			r.close()
			waitFor(t, func() bool { return len(eps.all()) >= 1 })
			l := eps.all()[0]
			if len(l.Usage.LimitHits) == 0 || l.Usage.LimitHits[0] != tc.limit || l.End != mcp.EndClientClosed {
				t.Fatalf("episode usage %+v end %s", l.Usage, l.End)
			}
		})
	}
}

// TestHostExpiryAndShutdown checks that an idle session expires (its
// episode says so and its id is unknown afterwards) and that Shutdown
// refuses new sessions and ends open ones with their episodes.
func TestHostExpiryAndShutdown(t *testing.T) {
	c := newCorpus(t, []string{"wildfire_a"})
	gold := c.find(t, "wildfire_a")
	eps := &memEpisodes{}
	_, ts := startHost(t, c, mcp.HostOptions{IdleTimeout: 150 * time.Millisecond, Episodes: eps})
	ctx := context.Background()
	r, err := openAgent(ctx, ts.URL, c.tests[gold.ID], mcp.AgentSingle, "")
	if err != nil {
		t.Fatal(err)
	}
	sid := r.Clients[0].ID()
	waitFor(t, func() bool { return len(eps.all()) == 1 })
	if l := eps.all()[0]; l.End != mcp.EndExpired || len(l.Exchanges) != 1 {
		t.Fatalf("expired episode: end %s, %d exchanges", l.End, len(l.Exchanges))
	}
	code, body := rawPost(t, ts.URL+mcp.SingleEndpoint(gold.ID), sid, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	if code != http.StatusNotFound || !strings.Contains(body, "unknown session") {
		t.Fatalf("expired session: %d %s", code, body)
	}
	if _, _, err := callJSON(ctx, r.Clients[0], mcp.ToolGetQuestion, nil); err == nil {
		t.Fatal("a call on an expired session succeeded")
	}
	r.close()

	// Shutdown: an open ORC session with its specialists ends, with its
	// episode; afterwards no session opens.
	h2, ts2 := startHost(t, c, mcp.HostOptions{Episodes: eps})
	r2, err := openAgent(ctx, ts2.URL, c.tests[gold.ID], mcp.AgentOrchestrator, "")
	if err != nil {
		t.Fatal(err)
	}
	defer r2.close()
	if _, isErr, err := callJSON(ctx, r2.Clients[1], gold.GTChain[0].Tool, gold.GTChain[0].Args); err != nil || isErr {
		t.Fatalf("first step: %v %v", err, isErr)
	}
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := h2.Shutdown(sctx); err != nil {
		t.Fatal(err)
	}
	logs := eps.all()
	if len(logs) != 2 || logs[1].End != mcp.EndShutdown || logs[1].Agent != mcp.AgentOrchestrator || len(logs[1].Audit.Calls) != 1 {
		t.Fatalf("episodes after shutdown: %d, last %+v", len(logs), logs[len(logs)-1])
	}
	if len(h2.Sessions()) != 0 || h2.Status().Sessions.MCPActive != 0 {
		t.Fatalf("sessions left after shutdown: %v", h2.Sessions())
	}
	code, body = rawPost(t, ts2.URL+mcp.SingleEndpoint(gold.ID), "", initBody)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "shutting down") {
		t.Fatalf("initialize after shutdown: %d %s", code, body)
	}
	if _, isErr, err := callJSON(ctx, r2.Clients[1], gold.GTChain[1].Tool, gold.GTChain[1].Args); err == nil && !isErr {
		t.Fatal("a specialist's call after shutdown succeeded")
	}
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

// TestHostBearerToken checks a host with a token refuses requests without
// it or with another one, and serves those that carry it.
func TestHostBearerToken(t *testing.T) {
	c := newCorpus(t, []string{"wildfire_a"})
	gold := c.find(t, "wildfire_a")
	const token = "0123456789abcdef0123456789abcdef"
	_, ts := startHost(t, c, mcp.HostOptions{Token: token})
	ctx := context.Background()
	for _, tok := range []string{"", "wrong-token-wrong-token"} {
		if _, err := dialHTTP(ctx, ts.URL+mcp.SingleEndpoint(gold.ID), tok, "intruder"); err == nil {
			t.Fatalf("token %q accepted", tok)
		}
		req, _ := http.NewRequest(http.MethodGet, ts.URL+"/status", nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, _ := do(t, req)
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Fatalf("GET /status with token %q: %s %v", tok, resp.Status, resp.Header)
		}
	}
	r, err := openAgent(ctx, ts.URL, c.tests[gold.ID], mcp.AgentOrchestrator, token)
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	if err := r.solve(ctx, gold); err != nil {
		t.Fatal(err)
	}
	if st := get(t, ts.URL+"/status", token); !strings.Contains(st, `"unauthorized": `) || strings.Contains(st, "no_session") {
		t.Fatalf("status: %s", st)
	}
}

// TestEpisodeDir writes served sessions with EpisodeDir and reads them
// back: answered sessions have a valid episode row beside their session
// record, an unanswered one only its record; a tampered or missing
// episode is refused; an answered session whose episode cannot be built
// keeps its record and answer, with the reason.
func TestEpisodeDir(t *testing.T) {
	c := newCorpus(t, []string{"wildfire_a", "xbd_q1"})
	dir := t.TempDir()
	ed, err := mcp.NewEpisodeDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	h, ts := startHost(t, c, mcp.HostOptions{Episodes: ed})
	ctx := context.Background()
	for i, g := range c.gold {
		form := []mcp.Agent{mcp.AgentSingle, mcp.AgentOrchestrator}[i%2]
		r, err := openAgent(ctx, ts.URL, c.tests[g.ID], form, "")
		if err != nil {
			t.Fatal(err)
		}
		if err := r.solve(ctx, g); err != nil {
			t.Fatal(err)
		}
		r.close()
	}
	r, err := openAgent(ctx, ts.URL, c.tests[c.gold[0].ID], mcp.AgentSingle, "")
	if err != nil {
		t.Fatal(err)
	}
	r.close()
	waitFor(t, func() bool { return len(h.Sessions()) == 0 })
	sums, err := mcp.ReadEpisodeDir(dir)
	if err != nil || len(sums) != 3 {
		t.Fatalf("%d summaries: %v", len(sums), err)
	}
	answered := 0
	for _, s := range sums {
		if s.Answer != nil {
			answered++
			if s.End != mcp.EndAnswered {
				t.Fatalf("%+v", s)
			}
		} else if s.End != mcp.EndClientClosed {
			t.Fatalf("the unanswered session: %+v", s)
		}
	}
	rows, _ := filepath.Glob(filepath.Join(dir, "*", "*.jsonl"))
	if answered != 2 || len(rows) != 2 {
		t.Fatalf("%d answered, %d episode rows", answered, len(rows))
	}
	// Tampering: a changed id, then a row that breaks its schema.
	orig, _ := os.ReadFile(rows[0])
	for _, bad := range []string{
		strings.Replace(string(orig), `"id":"`, `"id":"x`, 1),
		replaceLast(string(orig), `"answer_ref":"ANSWER_JSON:answer_1"`, `"answer_ref":"ANSWER_JSON:answer_2"`),
		"",
	} {
		os.WriteFile(rows[0], []byte(bad), 0o644)
		if _, err := mcp.ReadEpisodeDir(dir); err == nil {
			t.Fatalf("a tampered episode was accepted: %.200s", bad)
		}
	}
	os.WriteFile(rows[0], orig, 0o644)
	if _, err := mcp.ReadEpisodeDir(dir); err != nil {
		t.Fatal(err)
	}

	// A record whose identity the episode schema refuses (no split): the
	// session record keeps the answer and says why there is no episode.
	bad := c.tests[c.gold[0].ID]
	bad.Split = ""
	l := &mcp.SessionLog{SessionID: "S1", Record: bad, Agent: mcp.AgentSingle, End: mcp.EndAnswered,
		Exchanges: []mcp.Exchange{{Actor: "single", Tool: runtime.ToolFinalAnswer, Args: json.RawMessage(`{"answer_ref":"ANSWER_JSON:answer_1"}`)}},
		Audit:     mcp.Audit{Answer: json.RawMessage(`{"x":1}`)}}
	dir2 := t.TempDir()
	ed2, _ := mcp.NewEpisodeDir(dir2)
	if err := ed2.WriteEpisode(l); err == nil {
		t.Fatal("an invalid episode was written")
	}
	_, recPath := ed2.Paths(bad.ID, "S1")
	b, err := os.ReadFile(recPath)
	if err != nil {
		t.Fatal(err)
	}
	var sr mcp.SessionRecord
	json.Unmarshal(b, &sr)
	if sr.EpisodeError == "" || sr.Episode != "" || string(sr.Answer) != `{"x":1}` {
		t.Fatalf("session record: %s", b)
	}
}

func replaceLast(s, old, new string) string {
	i := strings.LastIndex(s, old)
	if i < 0 {
		return s
	}
	return s[:i] + new + s[i+len(old):]
}

// TestEpisodeDirQuickClose closes client sessions right after initialize,
// many at once: every initialized session still leaves its episode
// summary, even when the client is gone before the host has registered
// the session it opened.
func TestEpisodeDirQuickClose(t *testing.T) {
	c := newCorpus(t, []string{"xbd_q1"})
	dir := t.TempDir()
	ed, err := mcp.NewEpisodeDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	h, ts := startHost(t, c, mcp.HostOptions{Episodes: ed, MaxSessions: 64})
	const n = 16
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			cs, err := dialHTTP(context.Background(), ts.URL+mcp.SingleEndpoint(c.gold[0].ID), "", "quick-close")
			if err == nil {
				err = cs.Close()
			}
			errs <- err
		}()
	}
	for i := 0; i < n; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, func() bool { return len(h.Sessions()) == 0 })
	sums, err := mcp.ReadEpisodeDir(dir)
	if err != nil || len(sums) != n {
		t.Fatalf("%d summaries of %d sessions: %v", len(sums), n, err)
	}
	for _, s := range sums {
		if s.End != mcp.EndClientClosed {
			t.Fatalf("%+v", s)
		}
	}
}
