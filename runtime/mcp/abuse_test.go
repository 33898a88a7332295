package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/geodisaster/engine/runtime/mcp"
	"github.com/geodisaster/engine/workers"
)

// rpcErr decodes a JSON-RPC error response body.
func rpcErr(t *testing.T, body string) (int64, string) {
	t.Helper()
	var m struct {
		JSONRPC string
		ID      any
		Error   struct {
			Code    int64
			Message string
		}
	}
	if err := json.Unmarshal([]byte(body), &m); err != nil || m.JSONRPC != "2.0" {
		t.Fatalf("not a JSON-RPC error response: %v: %q", err, body)
	}
	return m.Error.Code, m.Error.Message
}

// sseResult extracts the JSON-RPC message of an event-stream or JSON
// response body.
func sseResult(body string) string {
	for _, line := range strings.Split(body, "\n") {
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			return d
		}
	}
	return strings.TrimSpace(body)
}

// TestHostAbuse sends malformed JSON-RPC, oversized requests, unknown
// sessions, slow clients that never finish their request, and requests
// whose client disconnects before the answer, while a well-behaved agent
// solves records the whole time: each bad request gets a clear error or
// is dropped, and the agent never notices.
func TestHostAbuse(t *testing.T) {
	c := newCorpus(t, []string{"wildfire_a", "sen1_flood_a"})
	wild, sen1 := c.find(t, "wildfire_a"), c.find(t, "sen1_flood_a")
	want := replayAnswers(t, c, c.gold)
	const timeout = 400 * time.Millisecond
	eps := &memEpisodes{}
	h, ts := startHost(t, c, mcp.HostOptions{MaxRequestBytes: 64 << 10, RequestTimeout: timeout, Episodes: eps})
	ctx := context.Background()

	// The well-behaved agent, solving records until the abuse is over.
	stop := make(chan struct{})
	var good sync.WaitGroup
	var goodErr error
	solved := 0
	good.Add(1)
	go func() {
		defer good.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			g := []workers.Record{wild, sen1}[i%2]
			r, err := openAgent(ctx, ts.URL, c.tests[g.ID], mcp.AgentSingle, "")
			if err == nil {
				err = r.solve(ctx, g)
			}
			if err == nil && canonical(t, r.Answer) != canonical(t, want[g.ID]) {
				err = fmt.Errorf("answer %s, replay %s", r.Answer, want[g.ID])
			}
			if r != nil {
				r.close()
			}
			if err != nil {
				goodErr = err
				return
			}
			solved++
		}
	}()

	endpoint := ts.URL + mcp.SingleEndpoint(wild.ID)
	t.Run("malformed", func(t *testing.T) {
		for _, tc := range []struct {
			body   string
			status int
			code   int64
			msg    string
		}{
			{`{not json`, 400, -32700, "malformed JSON-RPC"},
			{`[{"jsonrpc":"2.0","id":1,"method":"initialize"}]`, 400, -32700, "malformed"},
			{`{"jsonrpc":"1.0","id":1,"method":"initialize"}`, 400, -32700, "malformed"},
			{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 400, -32600, "starts with an initialize"},
			{`{"jsonrpc":"2.0","method":"initialize"}`, 400, -32600, "starts with an initialize"},
			{`"initialize"`, 400, -32700, "malformed"},
		} {
			status, body := rawPost(t, endpoint, "", tc.body)
			code, msg := rpcErr(t, body)
			if status != tc.status || code != tc.code || !strings.Contains(msg, tc.msg) {
				t.Errorf("%s: %d %d %q, want %d %d %q", tc.body, status, code, msg, tc.status, tc.code, tc.msg)
			}
		}
		// Inside a session: the SDK answers JSON-RPC errors, the session
		// goes on.
		r, err := openAgent(ctx, ts.URL, c.tests[wild.ID], mcp.AgentSingle, "")
		if err != nil {
			t.Fatal(err)
		}
		defer r.close()
		sid := r.Clients[0].ID()
		for _, tc := range []struct{ body, want string }{
			{`{not json`, ""},
			{`{"jsonrpc":"2.0","id":5,"method":"no/such/method"}`, `no/such/method`},
			{`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"ReadData","arguments":"not an object"}}`, `"error"`},
			{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"NoSuchTool","arguments":{}}}`, `NoSuchTool`},
			{`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"ReadData","arguments":{"question":"question_1","handle":"../../etc/passwd","role":"wildfire"}}}`, `unknown handle`},
		} {
			status, body := rawPost(t, endpoint, sid, tc.body)
			if status >= 500 || (tc.want != "" && !strings.Contains(sseResult(body), tc.want)) {
				t.Errorf("in session %s: %d %s", tc.body, status, body)
			}
		}
		if err := r.solve(ctx, wild); err != nil {
			t.Fatalf("the session after malformed requests: %v", err)
		}
	})

	t.Run("oversized", func(t *testing.T) {
		big := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"` + strings.Repeat("x", 70<<10) + `"}}`
		status, body := rawPost(t, endpoint, "", big)
		if _, msg := rpcErr(t, body); status != http.StatusRequestEntityTooLarge || !strings.Contains(msg, "exceeds the server's limit of 65536") {
			t.Fatalf("oversized: %d %s", status, body)
		}
		// Without a Content-Length (chunked), the limit holds while reading.
		pr, pw := io.Pipe()
		go func() {
			for i := 0; i < 80; i++ {
				if _, err := pw.Write([]byte(strings.Repeat("y", 1<<10))); err != nil {
					break
				}
			}
			pw.Close()
		}()
		req, _ := http.NewRequest(http.MethodPost, endpoint, pr)
		req.Header.Set("Content-Type", "application/json")
		resp, b := do(t, req)
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("chunked oversized: %s %s", resp.Status, b)
		}
	})

	t.Run("unknown_sessions", func(t *testing.T) {
		for _, sid := range []string{"NOSUCHSESSION", strings.Repeat("A", 26), "../../x"} {
			status, body := rawPost(t, endpoint, sid, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
			if _, msg := rpcErr(t, body); status != http.StatusNotFound || !strings.Contains(msg, "unknown session") {
				t.Fatalf("session %q: %d %s", sid, status, body)
			}
		}
		for _, m := range []string{http.MethodGet, http.MethodDelete} {
			req, _ := http.NewRequest(m, endpoint, nil)
			req.Header.Set("Accept", "text/event-stream")
			resp, b := do(t, req)
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "no Mcp-Session-Id") {
				t.Fatalf("%s without a session: %s %s", m, resp.Status, b)
			}
		}
		// A Host header naming another host (DNS rebinding) is refused.
		req, _ := http.NewRequest(http.MethodGet, ts.URL+"/status", nil)
		req.Host = "attacker.example:80"
		resp, _ := do(t, req)
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("rebound Host header: %s", resp.Status)
		}
		status, body := rawPost(t, ts.URL+"/records/no_such_record", "", initBody)
		if _, msg := rpcErr(t, body); status != http.StatusNotFound || !strings.Contains(msg, "no record") {
			t.Fatalf("unknown record: %d %s", status, body)
		}
		status, body = rawPost(t, ts.URL+mcp.OrchestratorEndpoint(wild.ID)+"/NOSUCHSESSION/GA", "", initBody)
		if _, msg := rpcErr(t, body); status != http.StatusNotFound || !strings.Contains(msg, "no open orchestrator session") {
			t.Fatalf("specialist of an unknown orchestrator: %d %s", status, body)
		}
	})

	t.Run("slow_clients", func(t *testing.T) {
		// One never finishes its headers, one never finishes its body,
		// one sends nothing: each is dropped after the request timeout.
		partial := []string{
			"POST " + mcp.SingleEndpoint(wild.ID) + " HTTP/1.1\r\nHost: " + ts.Addr + "\r\nContent-Type: appl",
			"POST " + mcp.SingleEndpoint(wild.ID) + " HTTP/1.1\r\nHost: " + ts.Addr + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 400\r\n\r\n{\"jsonrpc\":\"2.0\",",
			"",
		}
		var wg sync.WaitGroup
		for i, p := range partial {
			wg.Add(1)
			go func() {
				defer wg.Done()
				conn, err := net.Dial("tcp", ts.Addr)
				if err != nil {
					t.Error(err)
					return
				}
				defer conn.Close()
				start := time.Now()
				if _, err := io.WriteString(conn, p); err != nil {
					t.Error(err)
					return
				}
				conn.SetReadDeadline(time.Now().Add(10 * time.Second))
				resp, _ := io.ReadAll(bufio.NewReader(conn)) // until the server closes
				took := time.Since(start)
				if took > timeout+5*time.Second {
					t.Errorf("slow client %d held its connection %s", i, took)
				}
				if i == 1 && !strings.Contains(string(resp), "408") {
					t.Errorf("slow body: %q, want a 408", resp)
				}
			}()
		}
		wg.Wait()
	})

	t.Run("disconnect_mid_call", func(t *testing.T) {
		// A client sends a call and drops its connection before the
		// answer; the call runs once, and the session goes on from a new
		// connection.
		r, err := openAgent(ctx, ts.URL, c.tests[sen1.ID], mcp.AgentSingle, "")
		if err != nil {
			t.Fatal(err)
		}
		defer r.close()
		sid := r.Clients[0].ID()
		step := sen1.GTChain[0]
		args, _ := json.Marshal(map[string]any{"name": step.Tool, "arguments": step.Args})
		body := `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":` + string(args) + `}`
		conn, err := net.Dial("tcp", ts.Addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: %s\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: %d\r\n\r\n%s",
			mcp.SingleEndpoint(sen1.ID), ts.Addr, sid, len(body), body)
		conn.Close()
		waitFor(t, func() bool {
			rr, err := r.Clients[0].ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.AuditURI})
			return err == nil && strings.Contains(rr.Contents[0].Text, `"output_handle": "`+step.Output+`"`)
		})
		for _, s := range sen1.GTChain[1:] {
			if out, isErr, err := callJSON(ctx, r.Clients[0], s.Tool, s.Args); err != nil || isErr {
				t.Fatalf("after the disconnect, %s: %v %v", s.Tool, err, out)
			}
		}
		if err := r.finish(ctx); err != nil || canonical(t, r.Answer) != canonical(t, want[sen1.ID]) {
			t.Fatalf("after the disconnect: %v, answer %s", err, r.Answer)
		}
	})

	close(stop)
	good.Wait()
	if goodErr != nil {
		t.Fatalf("the well-behaved agent failed during the abuse: %v", goodErr)
	}
	if solved == 0 {
		t.Fatal("the well-behaved agent solved nothing")
	}
	st := h.Status()
	for _, reason := range []string{"malformed", "no_session", "too_large", "unknown_session", "unknown_record", "slow_client"} {
		if st.Rejected[reason] == 0 {
			t.Errorf("no %s rejection counted: %v", reason, st.Rejected)
		}
	}
	t.Logf("the well-behaved agent solved %d records during the abuse; rejections %v", solved, st.Rejected)
}
