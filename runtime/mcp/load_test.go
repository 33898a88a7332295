package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/runtime/mcp"
	"github.com/geodisaster/engine/workers"
)

// Load-test shape: concurrent sessions, and rounds of them (each round
// opens Concurrency sessions at once).
const (
	loadConcurrency = 64
	loadRounds      = 2
)

// splitCorpus is a synth corpus with a test split: a gold-free dataset
// root holding the declared files and test_inputs_test.jsonl (the test
// split's gold-free projection), and the gold records kept outside it.
type splitCorpus struct {
	*corpus
	input    string           // the test split's gold-free inputs
	test     []workers.Record // the test split's gold records
	goldPath string           // the test split's gold records file (outside the root)
}

func newSplitCorpus(t *testing.T, perType int) *splitCorpus {
	t.Helper()
	root, goldDir, gold := goldFreeCorpus(t, synth.Options{PerType: perType, Seed: 11, Workers: 2})
	sc := &splitCorpus{corpus: &corpus{root: root, tests: map[string]workers.Record{}}}
	var inputs []workers.Record
	for _, g := range gold {
		if g.Split != "test" {
			continue
		}
		sc.gold = append(sc.gold, g)
		sc.test = append(sc.test, g)
		sc.tests[g.ID] = g.TestInput()
		inputs = append(inputs, g.TestInput())
	}
	if len(sc.test) == 0 {
		t.Fatal("the corpus has no test split")
	}
	sc.input = filepath.Join(root, "test_inputs_test.jsonl")
	var b bytes.Buffer
	if err := workers.WriteRecords(&b, inputs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sc.input, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := workers.WriteRecords(&b, sc.test); err != nil {
		t.Fatal(err)
	}
	sc.goldPath = filepath.Join(goldDir, "test_gold.jsonl")
	if err := os.WriteFile(sc.goldPath, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return sc
}

// buildCLI builds the geodisaster command (CGO_ENABLED=0) into dir.
func buildCLI(t *testing.T, dir string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the load test runs the real command and needs the go tool: %v", err)
	}
	bin := filepath.Join(dir, "geodisaster")
	cmd := exec.Command(goTool, "build", "-o", bin, "github.com/geodisaster/engine/cmd/geodisaster")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// freeAddr returns a loopback address with a free port.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// served is a "geodisaster serve" process.
type served struct {
	cmd    *exec.Cmd
	url    string
	stderr *bytes.Buffer
	done   chan error
}

// startServe runs "geodisaster serve" with args and waits until it
// answers GET /status.
func startServe(t *testing.T, bin string, args ...string) *served {
	t.Helper()
	addr := freeAddr(t)
	s := &served{url: "http://" + addr, stderr: &bytes.Buffer{}, done: make(chan error, 1)}
	s.cmd = exec.Command(bin, append([]string{"serve", "--http", addr}, args...)...)
	s.cmd.Stderr = &lockedWriter{w: s.stderr}
	s.cmd.Env = append(os.Environ(), "GEODISASTER_LOG=warn")
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.done <- s.cmd.Wait() }()
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Kill()
			<-s.done
		}
	})
	for i := 0; ; i++ {
		resp, err := http.Get(s.url + "/status")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		select {
		case err := <-s.done:
			t.Fatalf("serve exited: %v\n%s", err, s.stderr)
		default:
		}
		if i > 400 {
			t.Fatalf("serve did not come up: %v\n%s", err, s.stderr)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// peakRSS returns the process's peak resident set (VmHWM) in bytes.
func peakRSS(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/%d/status", pid)
}

// stopServe sends SIGTERM and waits for a clean exit.
func (s *served) stop(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.done:
		if err != nil {
			t.Fatalf("serve after SIGTERM: %v\n%s", err, s.stderr)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not stop within 60 s of SIGTERM\n%s", s.stderr)
	}
}

type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// percentile is the nearest-rank q-quantile of sorted durations.
func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	k := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(k, 0), len(sorted)-1)]
}

// LoadReport is the load test's result (written as JSON to
// $GEODISASTER_LOAD_REPORT when set).
type LoadReport struct {
	Command         string  `json:"command"`
	Sessions        int     `json:"sessions"`
	Concurrent      int     `json:"concurrent"`
	PeakOpen        int     `json:"peak_open_sessions"`
	TestRecords     int     `json:"test_records"`
	RecordsSolved   int     `json:"records_solved"`
	AnswersEqual    int     `json:"answers_equal_replay"`
	ToolCalls       int     `json:"tool_calls"`
	Violations      int     `json:"read_gate_violations"`
	Probes          int     `json:"cross_session_probes"`
	Leaks           int     `json:"cross_session_leaks"`
	Episodes        int     `json:"episodes"`
	EpisodesScored  int     `json:"episodes_scored"`
	EpisodesCorrect int     `json:"episodes_scored_correct"`
	PeakRSSMiB      float64 `json:"server_peak_rss_mib"`
	ClientP50MS     float64 `json:"client_p50_ms"`
	ClientP99MS     float64 `json:"client_p99_ms"`
	// Client percentiles are over the chains' calls, round trip as the
	// clients measured them; server percentiles over every tool call the
	// server answered (the probes, denied at once, included), request to
	// answer; runtime percentiles over the runtime calls' own wall time
	// (the session records' audit), waiting for a call slot excluded.
	ServerP50MS    float64 `json:"server_p50_ms"`
	ServerP99MS    float64 `json:"server_p99_ms"`
	RuntimeP50MS   float64 `json:"runtime_call_p50_ms"`
	RuntimeP99MS   float64 `json:"runtime_call_p99_ms"`
	WallS          float64 `json:"wall_s"`
	SingleSessions int     `json:"single_sessions"`
	OrcSessions    int     `json:"orc_sessions"`
}

// TestLoad64Sessions drives one "geodisaster serve" process, hosting the
// test split of a synth corpus, with 64 concurrent sessions (two rounds)
// of the official Go SDK's client: every test record is solved through
// tool calls by single agents and by orchestrators with their three
// specialists, every session probes another session's handles, artifact
// names, locators and paths and its MCP session id (each must be denied),
// answers must equal replay's, the read gate must record no violation,
// and every session's episode must be written. It reports the server's
// peak RSS and the tool-call latency percentiles.
//
// Rerun: go test ./runtime/mcp -run TestLoad64Sessions -v
// (GEODISASTER_LOAD_REPORT=FILE also writes the figures as JSON).
func TestLoad64Sessions(t *testing.T) {
	if testing.Short() {
		t.Skip("the load test builds and runs the command; skipped with -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	work := t.TempDir()
	bin := buildCLI(t, work)
	sc := newSplitCorpus(t, 10)
	want := replayAnswers(t, sc.corpus, sc.test)
	epDir := filepath.Join(work, "episodes")
	artDir := filepath.Join(work, "artifacts")
	srv := startServe(t, bin, "--dataset-root", sc.root, "--input", sc.input, "--episodes", epDir,
		"--artifact-dir", artDir, "--max-sessions", strconv.Itoa(loadConcurrency+8))
	pid := srv.cmd.Process.Pid
	start := time.Now()

	type result struct {
		run  *agentRun
		rec  workers.Record
		form mcp.Agent
		err  error
	}
	var (
		mu        sync.Mutex
		latencies []time.Duration
		probes    atomic.Int64
		leaks     atomic.Int64
		leakNotes []string
		results   []result
		peakOpen  int
	)
	sessions := 0
	for round := 0; round < loadRounds; round++ {
		runs := make([]*agentRun, loadConcurrency)
		recs := make([]workers.Record, loadConcurrency)
		forms := make([]mcp.Agent, loadConcurrency)
		errs := make([]error, loadConcurrency)
		var opened, played sync.WaitGroup
		opened.Add(loadConcurrency)
		played.Add(loadConcurrency)
		openBarrier, playBarrier := make(chan struct{}), make(chan struct{})
		var done sync.WaitGroup
		for i := 0; i < loadConcurrency; i++ {
			k := round*loadConcurrency + i
			recs[i] = sc.test[k%len(sc.test)]
			forms[i] = mcp.AgentSingle
			if (k/len(sc.test)+k)%2 == 1 {
				forms[i] = mcp.AgentOrchestrator
			}
			done.Add(1)
			go func() {
				defer done.Done()
				gold := recs[i]
				r, err := openAgent(ctx, srv.url, sc.tests[gold.ID], forms[i], "")
				runs[i] = r
				opened.Done()
				<-openBarrier // all 64 sessions are open at once
				if err == nil {
					err = r.play(ctx, gold)
				}
				played.Done()
				<-playBarrier
				if err == nil {
					// Probe the next session (another record): its handles and
					// artifacts from this session, its MCP session id at this
					// endpoint.
					other := runs[(i+1)%loadConcurrency]
					if other != nil && len(r.Clients) > 0 && len(other.Clients) > 0 {
						n, bad := probeOther(ctx, t, srv.url, r, other, recs[i], recs[(i+1)%loadConcurrency], forms[i], artDir)
						probes.Add(int64(n))
						if len(bad) > 0 {
							leaks.Add(int64(len(bad)))
							mu.Lock()
							leakNotes = append(leakNotes, bad...)
							mu.Unlock()
						}
					}
					err = r.finish(ctx)
				}
				errs[i] = err
			}()
		}
		opened.Wait()
		var st mcp.Status
		if err := json.Unmarshal([]byte(get(t, srv.url+"/status", "")), &st); err != nil {
			t.Fatal(err)
		}
		open := st.Sessions.Active["single"] + st.Sessions.Active["orc"]
		peakOpen = max(peakOpen, open)
		close(openBarrier)
		played.Wait()
		close(playBarrier)
		done.Wait()
		for i := range runs {
			if runs[i] != nil {
				mu.Lock()
				latencies = append(latencies, runs[i].Latencies...)
				mu.Unlock()
				runs[i].close()
			}
			results = append(results, result{run: runs[i], rec: recs[i], form: forms[i], err: errs[i]})
			sessions++
		}
		if open != loadConcurrency {
			t.Errorf("round %d: %d sessions open at once, want %d", round, open, loadConcurrency)
		}
	}
	var st mcp.Status
	if err := json.Unmarshal([]byte(get(t, srv.url+"/status", "")), &st); err != nil {
		t.Fatal(err)
	}
	rss, err := peakRSS(pid)
	if err != nil {
		t.Fatal(err)
	}
	srv.stop(t)
	wall := time.Since(start)

	rep := LoadReport{
		Command:    "go test ./runtime/mcp -run TestLoad64Sessions -v",
		Sessions:   sessions,
		Concurrent: loadConcurrency, PeakOpen: peakOpen, TestRecords: len(sc.test),
		Probes: int(probes.Load()), Leaks: int(leaks.Load()),
		PeakRSSMiB:  math.Round(float64(rss)/(1<<20)*10) / 10,
		ServerP50MS: st.LatencyMS.P50, ServerP99MS: st.LatencyMS.P99,
		WallS: math.Round(wall.Seconds()*10) / 10, ToolCalls: int(st.Calls.Total),
	}
	solved := map[string]bool{}
	for _, r := range results {
		if r.err != nil {
			t.Errorf("%s (%s): %v", r.rec.ID, r.form, r.err)
			continue
		}
		if r.form == mcp.AgentOrchestrator {
			rep.OrcSessions++
		} else {
			rep.SingleSessions++
		}
		if canonical(t, r.run.Answer) == canonical(t, want[r.rec.ID]) {
			rep.AnswersEqual++
			solved[r.rec.ID] = true
		} else {
			t.Errorf("%s (%s): answer %s, replay %s", r.rec.ID, r.form, r.run.Answer, want[r.rec.ID])
		}
	}
	rep.RecordsSolved = len(solved)
	// Every session's episode was written; none records a denial.
	files, _ := filepath.Glob(filepath.Join(epDir, "*", "*.session.json"))
	var runtimeLat []time.Duration
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var sr mcp.SessionRecord
		if err := json.Unmarshal(b, &sr); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		rep.Violations += len(sr.Denials)
		for _, c := range sr.Calls {
			runtimeLat = append(runtimeLat, time.Duration(c.WallMS*float64(time.Millisecond)))
		}
		if sr.Episode != "" {
			rep.Episodes++
		}
	}
	if len(files) != sessions {
		t.Errorf("%d session records for %d sessions", len(files), sessions)
	}
	// The episodes score with "geodisaster score": every attempt of
	// every record correct.
	out, err := exec.Command(bin, "score", "--gold", sc.goldPath, "--pred", epDir, "--json").Output()
	if err != nil {
		t.Fatalf("geodisaster score: %v", err)
	}
	var scored struct {
		Episodes int
		Attempts []struct {
			Records []struct {
				ID                 string
				Predicted, Correct bool
				Reason             string
			}
		}
	}
	if err := json.Unmarshal(out, &scored); err != nil {
		t.Fatalf("score output: %v\n%s", err, out)
	}
	for k, a := range scored.Attempts {
		for _, r := range a.Records {
			if r.Predicted {
				rep.EpisodesScored++
				if r.Correct {
					rep.EpisodesCorrect++
				} else {
					t.Errorf("attempt %d of %s scored incorrect: %s", k+1, r.ID, r.Reason)
				}
			}
		}
	}
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	ms := func(d time.Duration) float64 { return math.Round(float64(d.Microseconds())/10) / 100 }
	rep.ClientP50MS, rep.ClientP99MS = ms(percentile(latencies, 0.5)), ms(percentile(latencies, 0.99))
	sort.Slice(runtimeLat, func(i, j int) bool { return runtimeLat[i] < runtimeLat[j] })
	rep.RuntimeP50MS, rep.RuntimeP99MS = ms(percentile(runtimeLat, 0.5)), ms(percentile(runtimeLat, 0.99))

	for _, n := range leakNotes {
		t.Errorf("cross-session leak: %s", n)
	}
	if rep.AnswersEqual != sessions || rep.RecordsSolved != len(sc.test) || rep.Leaks != 0 || rep.Probes == 0 || rep.Episodes != sessions || rep.EpisodesCorrect != sessions || rep.Violations != 0 {
		t.Errorf("load: %+v", rep)
	}
	// Memory is bounded: 64 open sessions of small synthetic records stay
	// far below this (about 130 MiB here).
	if rss > 1<<30 {
		t.Errorf("the server's peak RSS is %d MiB", rss>>20)
	}
	if st.Calls.ByOutcome["denied"] != 0 {
		t.Errorf("the read gate denied %d calls", st.Calls.ByOutcome["denied"])
	}
	b, _ := json.MarshalIndent(rep, "", "  ")
	t.Logf("load test figures:\n%s", b)
	if p := os.Getenv("GEODISASTER_LOAD_REPORT"); p != "" {
		if err := os.WriteFile(p, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// probeOther makes session r try to reach session other's handles,
// artifacts and MCP session: it returns the number of probes and a note
// for each one that was not denied.
func probeOther(ctx context.Context, t *testing.T, base string, r, other *agentRun, rec, otherRec workers.Record, form mcp.Agent, artDir string) (int, []string) {
	own := map[string]bool{}
	for _, h := range r.Handles {
		own[h] = true
	}
	for h := range rec.Handles {
		own[h] = true
	}
	var targets []string
	for _, h := range other.Handles {
		if !own[h] {
			targets = append(targets, h)
		}
	}
	dirs, _ := os.ReadDir(artDir)
	for _, a := range other.Artifacts {
		targets = append(targets, a, "generated-artifact://"+otherRec.ID+"/"+a)
		for _, d := range dirs {
			if _, err := os.Stat(filepath.Join(artDir, d.Name(), a)); err == nil {
				targets = append(targets, filepath.Join(artDir, d.Name(), a), "../"+d.Name()+"/"+a)
			}
		}
	}
	cs := r.Clients[0]
	if len(r.Clients) > 1 {
		cs = r.Clients[1] // GA opens data
	}
	n := 0
	var bad []string
	for _, p := range targets {
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"ReadData", map[string]any{"question": "question_1", "handle": p, "role": "sar"}},
			{"ComputeStats", map[string]any{"input": p}},
		} {
			if c.tool == "ComputeStats" && len(r.Clients) > 1 {
				continue // the GA specialist does not own it
			}
			n++
			out, isErr, err := callJSON(ctx, cs, c.tool, c.args)
			if err != nil || !isErr || (out["category"] != "unknown_handle" && out["category"] != "argument") {
				bad = append(bad, fmt.Sprintf("%s probing %q of %s with %s: %v %v", rec.ID, p, otherRec.ID, c.tool, err, out))
			}
		}
		n++
		if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: p}); err == nil {
			bad = append(bad, fmt.Sprintf("%s read resource %q of %s", rec.ID, p, otherRec.ID))
		}
	}
	// The other session's MCP session id, presented at this session's
	// endpoint.
	path := mcp.SingleEndpoint(rec.ID)
	if form == mcp.AgentOrchestrator {
		path = mcp.OrchestratorEndpoint(rec.ID)
	}
	n++
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", other.Clients[0].ID())
	if resp, err := http.DefaultClient.Do(req); err != nil {
		bad = append(bad, fmt.Sprintf("session id probe: %v", err))
	} else {
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			bad = append(bad, fmt.Sprintf("%s: the session id of %s's session was served at %s (%s)", rec.ID, otherRec.ID, path, resp.Status))
		}
	}
	return n, bad
}
