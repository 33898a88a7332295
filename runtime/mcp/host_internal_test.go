package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/internal/synthtest"
	"github.com/geodisaster/engine/runtime"
)

// TestDisconnectDuringCall drops a client's connection while its tool
// call is running (held at the host's only call slot): the call
// completes once, the answer is discarded, and the session goes on over
// a new connection to the same answer as replay.
func TestDisconnectDuringCall(t *testing.T) {
	dir, gold := synthtest.Corpus(t, synth.Options{Types: []string{"sen1_flood_a"}, PerType: 1, Seed: 5})
	tests, err := ReadTestInputs(filepath.Join(dir, "test_inputs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: dir})
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHost(eng, tests, HostOptions{MaxConcurrentCalls: 1})
	if err != nil {
		t.Fatal(err)
	}
	addr := serveLoopback(t, h)
	ctx := context.Background()
	rec := gold[0]
	path := SingleEndpoint(rec.ID)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: "http://" + addr + path, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	h.mu.Lock()
	v := h.views[cs.ID()]
	h.mu.Unlock()
	if v == nil {
		t.Fatal("no view for the client's session")
	}

	h.slots <- struct{}{} // the only slot is taken: the call will wait in run
	step := rec.GTChain[0]
	params, _ := json.Marshal(map[string]any{"name": step.Tool, "arguments": step.Args})
	body := `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":` + string(params) + `}`
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: %s\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: %d\r\n\r\n%s",
		path, addr, cs.ID(), len(body), body)
	// Wait until the call holds the session's lock (it waits for the slot
	// under it), then hang up.
	deadline := time.Now().Add(5 * time.Second)
	for v.srv.sh.mu.TryLock() {
		v.srv.sh.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatal("the call never started")
		}
		time.Sleep(time.Millisecond)
	}
	conn.Close()
	time.Sleep(50 * time.Millisecond)
	<-h.slots
	for {
		if a := v.srv.Audit(); len(a.Calls) == 1 {
			if a.Calls[0].Output != step.Output || a.Calls[0].Error != "" {
				t.Fatalf("the dropped call: %+v", a.Calls[0])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the dropped call never ran")
		}
		time.Sleep(time.Millisecond)
	}
	for _, s := range rec.GTChain[1:] {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: s.Tool, Arguments: s.Args})
		if err != nil || res.IsError {
			t.Fatalf("after the disconnect, %s: %v %+v", s.Tool, err, res)
		}
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: runtime.ToolFinalAnswer, Arguments: map[string]any{"answer_ref": runtime.AnswerRef}})
	if err != nil || res.IsError {
		t.Fatalf("FinalAnswer: %v %+v", err, res)
	}
	var out struct{ Answer json.RawMessage }
	json.Unmarshal([]byte(res.Content[0].(*sdk.TextContent).Text), &out)
	rep := eng.ReplayRecord(ctx, rec)
	if !jsonEqual(out.Answer, rep.Answer) {
		t.Fatalf("answer %s, replay %s", out.Answer, rep.Answer)
	}
	if a := v.srv.Audit(); len(a.Calls) != len(rec.GTChain)+1 {
		t.Fatalf("%d calls, want %d: the dropped call ran more than once or not at all", len(a.Calls), len(rec.GTChain)+1)
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	bx, _ := json.Marshal(x)
	by, _ := json.Marshal(y)
	return string(bx) == string(by)
}
