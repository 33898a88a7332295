package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// Exchange is one tools/call of a session as its agent saw it: the
// request, the text the server answered and how the call ended.
type Exchange struct {
	// Actor is who called: "single" (the single agent), "ORC", or the
	// specialist GA, PA or VRA.
	Actor string `json:"actor"`
	Tool  string `json:"tool"`
	// Args are the call's arguments as the client sent them.
	Args json.RawMessage `json:"args"`
	// Result is the text content of the answer (the JSON of a successful
	// call, the reason of a tool error, the message of a protocol error).
	Result   string `json:"result"`
	IsError  bool   `json:"is_error"`
	Category string `json:"category,omitempty"` // of a tool error; "protocol" for a protocol error
	// Call is the 1-based index of the runtime call it made in the
	// session's trace (Audit.Calls), 0 when it made none (GetQuestion, a
	// refused or invalid call, a call past a limit).
	Call   int     `json:"call,omitempty"`
	WallMS float64 `json:"wall_ms"`
}

// ClientInfo names an MCP client that joined the session.
type ClientInfo struct {
	Actor   string `json:"actor"`
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// exchangeKey carries the *Exchange being recorded through a call's
// context, so that the handler can link it to the runtime trace.
type exchangeKey struct{}

func exchangeOf(ctx context.Context) *Exchange {
	ex, _ := ctx.Value(exchangeKey{}).(*Exchange)
	return ex
}

// actor names the agent a view serves.
func (s *Server) actor() string {
	switch {
	case s.opts.Role != "":
		return string(s.opts.Role)
	case s.opts.Agent == AgentOrchestrator:
		return "ORC"
	}
	return string(AgentSingle)
}

// account is the outermost receiving middleware: it records each client
// that initializes, refuses a tools/call past the session's call or wall
// time limit, and records and times every tools/call.
func (s *Server) account(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		switch method {
		case "initialize":
			if p, ok := req.GetParams().(*sdk.InitializeParams); ok && p != nil && p.ClientInfo != nil {
				s.sh.mu.Lock()
				s.sh.clients = append(s.sh.clients, ClientInfo{Actor: s.actor(), Name: p.ClientInfo.Name, Version: p.ClientInfo.Version})
				s.sh.mu.Unlock()
			}
			res, err := next(ctx, method, req)
			if ss, ok := req.GetSession().(*sdk.ServerSession); ok && err == nil {
				s.initMu.Lock()
				s.initialized = ss
				s.initMu.Unlock()
			}
			return res, err
		case "tools/call":
		default:
			return next(ctx, method, req)
		}
		p, ok := req.GetParams().(*sdk.CallToolParamsRaw)
		if !ok || p == nil {
			return next(ctx, method, req)
		}
		start := time.Now()
		ex := &Exchange{Actor: s.actor(), Tool: p.Name, Args: append(json.RawMessage(nil), p.Arguments...)}
		if len(ex.Args) == 0 {
			ex.Args = json.RawMessage("{}")
		}
		var res sdk.Result
		var err error
		if over := s.overLimit(p.Name); over != nil {
			res = over
		} else {
			res, err = next(context.WithValue(ctx, exchangeKey{}, ex), method, req)
		}
		ex.WallMS = float64(time.Since(start).Microseconds()) / 1000
		outcome := "ok"
		if r, ok := res.(*sdk.CallToolResult); ok && r != nil && err == nil {
			ex.IsError = r.IsError
			if len(r.Content) > 0 {
				if tc, ok := r.Content[0].(*sdk.TextContent); ok {
					ex.Result = tc.Text
				}
			}
			if r.IsError {
				outcome = "failed"
				if m, ok := r.StructuredContent.(map[string]any); ok {
					if c, ok := m["category"].(string); ok {
						outcome = c
					}
				}
				ex.Category = outcome
			}
		}
		if err != nil {
			ex.IsError, ex.Category, ex.Result = true, "protocol", err.Error()
			outcome = "protocol"
		}
		s.sh.mu.Lock()
		s.sh.exchanges = append(s.sh.exchanges, *ex)
		answered := s.sh.terminated && !s.sh.notified
		s.sh.notified = s.sh.notified || answered
		s.sh.mu.Unlock()
		if s.opts.observe != nil {
			s.opts.observe(p.Name, outcome, time.Since(start))
		}
		if answered && s.opts.onTerminal != nil {
			// The session's episode is complete: the terminal call is
			// recorded and its answer not yet sent.
			s.opts.onTerminal()
		}
		return res, err
	}
}

// overLimit counts a tools/call against the session and returns its tool
// error when the session has used its calls or its wall time, else nil.
func (s *Server) overLimit(tool string) *sdk.CallToolResult {
	s.sh.mu.Lock()
	defer s.sh.mu.Unlock()
	s.sh.toolCalls++
	lim := s.opts.Limits
	var limit, reason string
	switch {
	case lim.ToolCalls > 0 && s.sh.toolCalls > lim.ToolCalls:
		limit = LimitToolCalls
		reason = fmt.Sprintf("session limit %s exceeded: the session's limit is %d tool calls", LimitToolCalls, lim.ToolCalls)
	case lim.WallTime > 0 && time.Since(s.sh.opened) >= lim.WallTime:
		limit = LimitWallTime
		reason = fmt.Sprintf("session limit %s exceeded: the session opened %s ago, its limit is %s", LimitWallTime, time.Since(s.sh.opened).Round(time.Millisecond), lim.WallTime)
	default:
		return nil
	}
	s.sh.limitHits = append(s.sh.limitHits, limit)
	s.log.Warn("tool call refused", "limit", limit, "reason", reason)
	return errorResult(tool, "limit", reason)
}

// Transcript returns the session's tools/call exchanges so far, in the
// order they completed (every view of a multi-agent session).
func (s *Server) Transcript() []Exchange {
	s.sh.mu.Lock()
	defer s.sh.mu.Unlock()
	return append([]Exchange(nil), s.sh.exchanges...)
}

// Clients returns the MCP clients that initialized a view of the session.
func (s *Server) Clients() []ClientInfo {
	s.sh.mu.Lock()
	defer s.sh.mu.Unlock()
	return append([]ClientInfo(nil), s.sh.clients...)
}

// Usage is what a session has consumed of its limits.
type Usage struct {
	ToolCalls int `json:"tool_calls"`
	runtime.SessionUsage
	// WallTime is the session's age.
	WallTime time.Duration `json:"wall_time_ns"`
	// LimitHits lists the limits that refused a call, in order.
	LimitHits []string `json:"limit_hits,omitempty"`
}

// Usage returns what the session has consumed of its limits.
func (s *Server) Usage() Usage {
	s.sh.mu.Lock()
	defer s.sh.mu.Unlock()
	return Usage{ToolCalls: s.sh.toolCalls, SessionUsage: s.sh.sess.Usage(), WallTime: time.Since(s.sh.opened), LimitHits: append([]string(nil), s.sh.limitHits...)}
}

// Terminated reports whether Terminate or FinalAnswer has resolved the
// session's answer.
func (s *Server) Terminated() bool {
	s.sh.mu.Lock()
	defer s.sh.mu.Unlock()
	return s.sh.terminated
}

// Record returns the session's gold-free record.
func (s *Server) Record() workers.Record { return s.sh.sess.Record() }

// Role returns the specialist role of this view ("" for the agent that
// owns the session).
func (s *Server) Role() workers.Role { return s.opts.Role }
