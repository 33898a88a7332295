package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/geodisaster/engine/runtime/mcp"
	"github.com/geodisaster/engine/workers"
)

// tsClientDir holds the TypeScript client and its npm lock file;
// .ci/steps/mcp-ts-client.sh installs its node_modules.
const tsClientDir = "testdata/tsclient"

// findTSClient returns node when it and the client's modules are
// installed; it fails under CI=true and skips elsewhere otherwise.
func findTSClient(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	missing := ""
	switch {
	case err != nil:
		missing = "node is not installed"
	default:
		if _, err := os.Stat(filepath.Join(tsClientDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
			missing = "the TypeScript SDK is not installed in " + tsClientDir + " (npm ci there)"
		}
	}
	if missing == "" {
		return node
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but %s: .ci/steps/mcp-ts-client.sh must install it", missing)
	}
	t.Skip(missing)
	return ""
}

// TestTypeScriptClient drives the host with an independent client, the
// official TypeScript SDK under Node.js: it solves records of every
// family as single agents and as orchestrators with their specialists,
// and its answers must equal replay's, with an episode for each session.
func TestTypeScriptClient(t *testing.T) {
	node := findTSClient(t)
	types := []string{"area_estimation", "wildfire_b", "xbd_q2", "nearest_shelter", "sen1_flood_c", "air_pollution_a"}
	c := newCorpus(t, types)
	want := replayAnswers(t, c, c.gold)
	eps := &memEpisodes{}
	const token = "ts-client-token-0123456789abcdef"
	_, ts := startHost(t, c, mcp.HostOptions{Episodes: eps, Token: token})
	own := owners()
	type step struct {
		Tool string         `json:"tool"`
		Args map[string]any `json:"args"`
		Role workers.Role   `json:"role,omitempty"`
	}
	type entry struct {
		ID    string    `json:"id"`
		Form  mcp.Agent `json:"form"`
		Steps []step    `json:"steps"`
	}
	var plan []entry
	for _, g := range c.gold {
		for _, form := range []mcp.Agent{mcp.AgentSingle, mcp.AgentOrchestrator} {
			e := entry{ID: g.ID, Form: form}
			var last workers.Role
			for _, s := range g.GTChain {
				role, ok := own[s.Tool]
				if !ok {
					role = last
				}
				last = role
				e.Steps = append(e.Steps, step{Tool: s.Tool, Args: s.Args, Role: role})
			}
			plan = append(plan, e)
		}
	}
	planPath := filepath.Join(t.TempDir(), "plan.json")
	b, _ := json.Marshal(plan)
	if err := os.WriteFile(planPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs", ts.URL, planPath, token)
	cmd.Dir = tsClientDir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("TypeScript client: %v\n%s", err, stderr.String())
	}
	got := 0
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var r struct {
			ID        string
			Form      mcp.Agent
			Answer    json.RawMessage
			Tools     int
			Traversal string
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("client output: %v: %s", err, sc.Text())
		}
		if canonical(t, r.Answer) != canonical(t, want[r.ID]) {
			t.Errorf("%s (%s) through the TypeScript SDK: answer %s, replay %s", r.ID, r.Form, r.Answer, want[r.ID])
		}
		if r.Tools != 18+3 || r.Traversal != "unknown_handle" {
			t.Errorf("%s (%s): %d tools, traversal %q", r.ID, r.Form, r.Tools, r.Traversal)
		}
		got++
	}
	if got != len(plan) {
		t.Fatalf("%d results for %d sessions\n%s", got, len(plan), stderr.String())
	}
	waitFor(t, func() bool { return len(eps.all()) == len(plan) })
	for _, l := range eps.all() {
		if l.End != mcp.EndAnswered || len(l.Clients) == 0 || l.Clients[0].Name != "geodisaster-ts-client" || canonical(t, l.Audit.Answer) != canonical(t, want[l.Record.ID]) {
			t.Errorf("episode of %s: end %s clients %+v", l.Record.ID, l.End, l.Clients)
		}
		if l.Agent == mcp.AgentOrchestrator && len(l.Clients) != 4 {
			t.Errorf("orchestrator episode of %s: clients %+v", l.Record.ID, l.Clients)
		}
	}
	t.Logf("the TypeScript SDK solved %d sessions (%s)", got, strings.TrimSpace(runtimeVersion(t, node)))
}

// runtimeVersion names the Node.js and SDK versions.
func runtimeVersion(t *testing.T, node string) string {
	cmd := exec.Command(node, "-e", `console.log("node "+process.version+", @modelcontextprotocol/sdk "+require("./node_modules/@modelcontextprotocol/sdk/package.json").version)`)
	cmd.Dir = tsClientDir
	out, err := cmd.Output()
	if err != nil {
		return "node"
	}
	return string(out)
}
