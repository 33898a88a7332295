package mcp

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// latencyWindow is how many of the latest tool calls the latency
// percentiles are computed over.
const latencyWindow = 8192

// metrics are a Host's counters. They are read as Prometheus text
// (WriteMetrics) or JSON (Status).
type metrics struct {
	mu       sync.Mutex
	started  time.Time
	opened   map[string]int64    // runtime sessions opened, by agent form
	ended    map[[2]string]int64 // runtime sessions ended, by agent form and end
	mcpOpen  int64               // MCP sessions initialized (specialists included)
	calls    map[[2]string]int64 // tool calls by tool and outcome
	lat      []float64           // ring of the latest call durations, seconds
	latNext  int
	latSum   float64
	latCount int64
	rejected map[string]int64 // HTTP requests refused before any session, by reason
	episodes int64
	epErrors int64
}

func newMetrics() *metrics {
	return &metrics{
		started:  time.Now(),
		opened:   map[string]int64{},
		ended:    map[[2]string]int64{},
		calls:    map[[2]string]int64{},
		rejected: map[string]int64{},
		lat:      make([]float64, 0, latencyWindow),
	}
}

func (m *metrics) observeCall(tool, outcome string, d time.Duration) {
	sec := d.Seconds()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls[[2]string{tool, outcome}]++
	if len(m.lat) < latencyWindow {
		m.lat = append(m.lat, sec)
	} else {
		m.lat[m.latNext] = sec
		m.latNext = (m.latNext + 1) % latencyWindow
	}
	m.latSum += sec
	m.latCount++
}

func (m *metrics) add(f func(m *metrics)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f(m)
}

// quantiles returns the q-quantiles (nearest rank) of the latency window,
// in seconds, and the window's size.
func (m *metrics) quantiles(qs ...float64) ([]float64, int) {
	w := append([]float64(nil), m.lat...)
	sort.Float64s(w)
	out := make([]float64, len(qs))
	for i, q := range qs {
		if len(w) == 0 {
			out[i] = math.NaN()
			continue
		}
		k := int(math.Ceil(q*float64(len(w)))) - 1
		out[i] = w[min(max(k, 0), len(w)-1)]
	}
	return out, len(w)
}

// Status is the JSON status document of a Host (GET /status).
type Status struct {
	Version  string  `json:"version"`
	UptimeS  float64 `json:"uptime_s"`
	Records  int     `json:"records"`
	Draining bool    `json:"draining"`
	Sessions struct {
		// Active counts open runtime sessions (one per single agent, one
		// per orchestrator with its specialists) by agent form.
		Active map[string]int `json:"active"`
		// MCPActive counts open MCP sessions (specialists included).
		MCPActive int `json:"mcp_active"`
		// MCPOpened counts MCP sessions initialized.
		MCPOpened int64            `json:"mcp_opened"`
		Opened    map[string]int64 `json:"opened"`
		// Ended counts ended sessions by how they ended: answered,
		// client_closed, expired, shutdown.
		Ended map[string]int64 `json:"ended"`
	} `json:"sessions"`
	Calls struct {
		Total     int64            `json:"total"`
		ByOutcome map[string]int64 `json:"by_outcome"`
		ByTool    map[string]int64 `json:"by_tool"`
	} `json:"calls"`
	// LatencyMS are tool-call latency percentiles over the latest calls
	// (Window of them), measured in the server from request to answer.
	LatencyMS struct {
		P50    float64 `json:"p50"`
		P90    float64 `json:"p90"`
		P99    float64 `json:"p99"`
		Max    float64 `json:"max"`
		Window int     `json:"window"`
	} `json:"latency_ms"`
	Rejected map[string]int64 `json:"rejected"`
	Episodes struct {
		Written int64 `json:"written"`
		Failed  int64 `json:"failed"`
	} `json:"episodes"`
	Limits Limits `json:"limits"`
}

// status fills the counters of a Status.
func (m *metrics) status(st *Status) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st.UptimeS = time.Since(m.started).Seconds()
	st.Sessions.MCPOpened = m.mcpOpen
	st.Sessions.Opened = map[string]int64{}
	for k, v := range m.opened {
		st.Sessions.Opened[k] = v
	}
	st.Sessions.Ended = map[string]int64{}
	for k, v := range m.ended {
		st.Sessions.Ended[k[1]] += v
	}
	st.Calls.ByOutcome = map[string]int64{}
	st.Calls.ByTool = map[string]int64{}
	for k, v := range m.calls {
		st.Calls.Total += v
		st.Calls.ByOutcome[k[1]] += v
		st.Calls.ByTool[k[0]] += v
	}
	q, n := m.quantiles(0.5, 0.9, 0.99, 1)
	ms := func(x float64) float64 {
		if math.IsNaN(x) {
			return 0
		}
		return math.Round(x*1e6) / 1e3
	}
	st.LatencyMS.P50, st.LatencyMS.P90, st.LatencyMS.P99, st.LatencyMS.Max, st.LatencyMS.Window = ms(q[0]), ms(q[1]), ms(q[2]), ms(q[3]), n
	st.Rejected = map[string]int64{}
	for k, v := range m.rejected {
		st.Rejected[k] = v
	}
	st.Episodes.Written, st.Episodes.Failed = m.episodes, m.epErrors
}

// writePrometheus writes the counters in the Prometheus text exposition
// format (version 0.0.4); active holds the open sessions by agent form and
// mcpActive the open MCP sessions.
func (m *metrics) writePrometheus(w io.Writer, active map[string]int, mcpActive int, draining bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder
	family := func(name, typ, help string) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
	}
	sample := func(name string, labels []string, v float64) {
		b.WriteString(name)
		if len(labels) > 0 {
			b.WriteByte('{')
			for i := 0; i < len(labels); i += 2 {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, "%s=%s", labels[i], strconv.Quote(labels[i+1]))
			}
			b.WriteByte('}')
		}
		b.WriteByte(' ')
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		b.WriteByte('\n')
	}
	family("geodisaster_sessions_active", "gauge", "Open runtime sessions (one per single agent or orchestrator team), by agent form.")
	for _, a := range []string{string(AgentSingle), string(AgentOrchestrator)} {
		sample("geodisaster_sessions_active", []string{"agent", a}, float64(active[a]))
	}
	family("geodisaster_mcp_sessions_active", "gauge", "Open MCP sessions, specialists included.")
	sample("geodisaster_mcp_sessions_active", nil, float64(mcpActive))
	family("geodisaster_mcp_sessions_opened_total", "counter", "MCP sessions initialized, specialists included.")
	sample("geodisaster_mcp_sessions_opened_total", nil, float64(m.mcpOpen))
	family("geodisaster_sessions_opened_total", "counter", "Runtime sessions opened, by agent form.")
	for _, k := range slices.Sorted(maps.Keys(m.opened)) {
		sample("geodisaster_sessions_opened_total", []string{"agent", k}, float64(m.opened[k]))
	}
	family("geodisaster_sessions_ended_total", "counter", "Runtime sessions ended, by agent form and how they ended.")
	ends := make([][2]string, 0, len(m.ended))
	for k := range m.ended {
		ends = append(ends, k)
	}
	sort.Slice(ends, func(i, j int) bool { return ends[i][0]+"\x00"+ends[i][1] < ends[j][0]+"\x00"+ends[j][1] })
	for _, k := range ends {
		sample("geodisaster_sessions_ended_total", []string{"agent", k[0], "end", k[1]}, float64(m.ended[k]))
	}
	family("geodisaster_tool_calls_total", "counter", "Tool calls by tool and outcome (ok, or the tool error's category: denied, argument, unknown_handle, refused, terminated, limit, failed, shutdown; protocol for protocol errors).")
	calls := make([][2]string, 0, len(m.calls))
	for k := range m.calls {
		calls = append(calls, k)
	}
	sort.Slice(calls, func(i, j int) bool { return calls[i][0]+"\x00"+calls[i][1] < calls[j][0]+"\x00"+calls[j][1] })
	var errs int64
	for _, k := range calls {
		sample("geodisaster_tool_calls_total", []string{"tool", k[0], "outcome", k[1]}, float64(m.calls[k]))
		if k[1] != "ok" {
			errs += m.calls[k]
		}
	}
	family("geodisaster_tool_call_errors_total", "counter", "Tool calls that did not succeed (every outcome but ok).")
	sample("geodisaster_tool_call_errors_total", nil, float64(errs))
	family("geodisaster_tool_call_duration_seconds", "summary", fmt.Sprintf("Tool-call latency in the server, request to answer; quantiles over the latest %d calls.", latencyWindow))
	qs := []float64{0.5, 0.9, 0.99}
	vals, _ := m.quantiles(qs...)
	for i, q := range qs {
		sample("geodisaster_tool_call_duration_seconds", []string{"quantile", strconv.FormatFloat(q, 'g', -1, 64)}, vals[i])
	}
	sample("geodisaster_tool_call_duration_seconds_sum", nil, m.latSum)
	sample("geodisaster_tool_call_duration_seconds_count", nil, float64(m.latCount))
	family("geodisaster_http_rejected_total", "counter", "HTTP requests refused before reaching a session, by reason.")
	for _, k := range slices.Sorted(maps.Keys(m.rejected)) {
		sample("geodisaster_http_rejected_total", []string{"reason", k}, float64(m.rejected[k]))
	}
	family("geodisaster_episodes_written_total", "counter", "Episodes written by ended sessions.")
	sample("geodisaster_episodes_written_total", nil, float64(m.episodes))
	family("geodisaster_episode_write_errors_total", "counter", "Episodes that could not be written.")
	sample("geodisaster_episode_write_errors_total", nil, float64(m.epErrors))
	family("geodisaster_draining", "gauge", "1 while the server shuts down (no new sessions).")
	d := 0.0
	if draining {
		d = 1
	}
	sample("geodisaster_draining", nil, d)
	_, err := io.WriteString(w, b.String())
	return err
}
