package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/internal/synthtest"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/episode"
	"github.com/geodisaster/engine/runtime/mcp"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/families"
)

// corpus is a synthetic corpus split into a gold-free dataset root (the
// declared files and test_inputs.jsonl only) and the gold records kept
// outside it.
type corpus struct {
	root  string                    // gold-free dataset root
	gold  []workers.Record          // full records (outside root)
	tests map[string]workers.Record // gold-free projections by id
}

// goldFreeCorpus synthesizes opts into a dataset root and moves the
// files with gold (records.jsonl, corpus.json) out of it into goldDir; it
// returns both directories and the gold records.
func goldFreeCorpus(t *testing.T, opts synth.Options) (root, goldDir string, gold []workers.Record) {
	t.Helper()
	root, goldDir = t.TempDir(), t.TempDir()
	gold, _ = synthtest.Generate(t, root, opts)
	for _, f := range []string{"records.jsonl", "corpus.json"} {
		if err := os.Rename(filepath.Join(root, f), filepath.Join(goldDir, f)); err != nil && !os.IsNotExist(err) {
			t.Fatalf("moving %s out of the dataset root: %v", f, err)
		}
	}
	return root, goldDir, gold
}

func newCorpus(t *testing.T, types []string) *corpus {
	t.Helper()
	root, _, gold := goldFreeCorpus(t, synth.Options{Types: types, PerType: 1, Seed: 7})
	c := &corpus{root: root, gold: gold, tests: map[string]workers.Record{}}
	for _, r := range gold {
		rec, err := mcp.ReadTestInput(filepath.Join(root, "test_inputs.jsonl"), r.ID)
		if err != nil {
			t.Fatal(err)
		}
		c.tests[r.ID] = rec
	}
	return c
}

func (c *corpus) find(t *testing.T, qtype string) workers.Record {
	t.Helper()
	for _, r := range c.gold {
		if r.QuestionType == qtype {
			return r
		}
	}
	t.Fatalf("no %s record in the corpus", qtype)
	return workers.Record{}
}

func newEngine(t *testing.T, root string) *runtime.Engine {
	t.Helper()
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// connect serves srv over an in-memory transport and returns the SDK
// client's session.
func connect(t *testing.T, srv *mcp.Server) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := srv.MCPServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "geodisaster-test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		srv.Close()
	})
	return cs
}

// call calls a tool and returns its JSON result and whether it is a tool
// error.
func call(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any) (map[string]any, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", tool, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content items, want 1", tool, len(res.Content))
	}
	text, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("%s: content is %T, want text", tool, res.Content[0])
	}
	out := map[string]any{}
	if res.IsError {
		sc, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(sc, &out); err != nil {
			t.Fatalf("%s: structured error content: %v", tool, err)
		}
		if out["error"] != text.Text {
			t.Fatalf("%s: error text %q differs from structured error %v", tool, text.Text, out["error"])
		}
		return out, true
	}
	if err := json.Unmarshal([]byte(text.Text), &out); err != nil {
		t.Fatalf("%s: result is not JSON: %v: %s", tool, err, text.Text)
	}
	return out, false
}

func toolNames(t *testing.T, cs *sdk.ClientSession) []string {
	t.Helper()
	var names []string
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tool.InputSchema == nil {
			t.Fatalf("%s has no input schema", tool.Name)
		}
		names = append(names, tool.Name)
	}
	sort.Strings(names)
	return names
}

func canonical(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(x)
	return string(b)
}

// TestSolveEveryFamilyThroughTools solves one record of every synthesized
// question type through MCP tool calls alone (the GT chain's calls, then
// the form's terminal tool) on a dataset root that holds no gold, and
// checks the answer equals replay's with zero denials and refusals.
func TestSolveEveryFamilyThroughTools(t *testing.T) {
	c := newCorpus(t, nil)
	eng := newEngine(t, c.root)
	families := map[string]int{}
	for i, gold := range c.gold {
		form := mcp.AgentSingle
		finish := runtime.ToolFinalAnswer
		if i%2 == 1 {
			form, finish = mcp.AgentOrchestrator, runtime.ToolTerminate
		}
		t.Run(gold.QuestionType, func(t *testing.T) {
			srv, err := mcp.New(eng, c.tests[gold.ID], mcp.Options{Agent: form})
			if err != nil {
				t.Fatal(err)
			}
			cs := connect(t, srv)
			if got := len(toolNames(t, cs)); got != 18+3 {
				t.Fatalf("%d tools listed, want 18 workers + GetQuestion, TaskComplete, %s", got, finish)
			}
			q, isErr := call(t, cs, mcp.ToolGetQuestion, nil)
			if isErr || q["id"] != gold.ID || q["question"] != gold.Question {
				t.Fatalf("GetQuestion: %v", q)
			}
			if _, leaked := q["answer"]; leaked {
				t.Fatal("GetQuestion exposes an answer")
			}
			hs, _ := q["handles"].(map[string]any)
			if len(hs) != len(gold.Handles) {
				t.Fatalf("GetQuestion: %d handles, want %d", len(hs), len(gold.Handles))
			}
			published := false
			for k, step := range gold.GTChain {
				out, isErr := call(t, cs, step.Tool, step.Args)
				if isErr {
					t.Fatalf("step %d %s: %v", k+1, step.Tool, out["error"])
				}
				if step.Output != "" && out["handle"] != step.Output {
					t.Fatalf("step %d %s: handle %v, the chain declares %s", k+1, step.Tool, out["handle"], step.Output)
				}
				if out["published"] == runtime.AnswerRef {
					published = true
				}
			}
			if !published {
				t.Fatalf("no call reported %s", runtime.AnswerRef)
			}
			out, isErr := call(t, cs, finish, map[string]any{"answer_ref": runtime.AnswerRef})
			if isErr {
				t.Fatalf("%s: %v", finish, out["error"])
			}
			rep := eng.ReplayRecord(context.Background(), gold)
			if rep.Status != "ok" {
				t.Fatalf("replay: %v", *rep.Error)
			}
			if got, want := canonical(t, out["answer"]), canonical(t, rep.Answer); got != want {
				t.Fatalf("answer through MCP %s\nreplay's answer      %s", got, want)
			}
			a := srv.Audit()
			if len(a.Denials) != 0 || len(a.Refusals) != 0 {
				t.Fatalf("authorization violations: denials %v refusals %v", a.Denials, a.Refusals)
			}
			if canonical(t, json.RawMessage(a.Answer)) != canonical(t, rep.Answer) {
				t.Fatalf("audit answer %s differs from replay's", a.Answer)
			}
			if again, isErr := call(t, cs, finish, map[string]any{"answer_ref": runtime.AnswerRef}); !isErr || again["category"] != "terminated" {
				t.Fatalf("a second %s: %v", finish, again)
			}
			families[gold.Family]++
		})
	}
	for _, f := range []string{"deforestation", "multi_hazard", "xbd", "routing", "sen1_flood"} {
		if families[f] == 0 {
			t.Errorf("family %s not solved", f)
		}
	}
	t.Logf("solved through MCP: %v", families)
}

// TestTraversalAndUnknownHandles checks that handle names that are paths,
// unknown handles and a declared file escaping the root through a symlink
// are tool errors with the reason, and that the escape is a recorded
// denial.
func TestTraversalAndUnknownHandles(t *testing.T) {
	c := newCorpus(t, []string{"baseline_canopy_assessment"})
	gold := c.find(t, "baseline_canopy_assessment")
	rec := c.tests[gold.ID]

	// Swap the tree-cover raster for a symlink that leaves the root.
	outside := filepath.Join(t.TempDir(), "treecover2000.tif")
	var treecover string
	for _, f := range rec.Handles["forest_mask_1"].Files {
		if strings.HasSuffix(f.Path, "treecover2000.tif") {
			treecover = filepath.Join(c.root, filepath.FromSlash(f.Path))
		}
	}
	data, err := os.ReadFile(treecover)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(treecover); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, treecover); err != nil {
		t.Fatal(err)
	}

	var logs bytes.Buffer
	srv, err := mcp.New(newEngine(t, c.root), rec, mcp.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, srv)
	for _, h := range []string{"../records.jsonl", "question_1/../../records.jsonl", "/etc/passwd", "records.jsonl", "forest_mask_9"} {
		out, isErr := call(t, cs, "ReadData", map[string]any{"question": "question_1", "handle": h, "role": "hansen"})
		if !isErr || out["category"] != "unknown_handle" || !strings.Contains(out["error"].(string), "unknown handle") {
			t.Errorf("ReadData(handle=%q): %v", h, out)
		}
	}
	out, isErr := call(t, cs, "PrepareScene", map[string]any{"inputs": map[string]any{"forest": "scene_7"}, "mode": "baseline_canopy"})
	if !isErr || out["category"] != "unknown_handle" {
		t.Errorf("PrepareScene with an unknown scene: %v", out)
	}
	out, isErr = call(t, cs, "ReadData", map[string]any{"question": "question_1", "handle": "forest_mask_1", "role": "no_such_role"})
	if !isErr || out["category"] != "argument" || !strings.Contains(out["error"].(string), "no_such_role") {
		t.Errorf("ReadData with an unknown role: %v", out)
	}
	// The declared file resolves outside the root: a denial. Later steps
	// may read it, so run the chain until the first error.
	var denied map[string]any
	for _, step := range gold.GTChain {
		out, isErr := call(t, cs, step.Tool, step.Args)
		if isErr {
			denied = out
			break
		}
	}
	if denied == nil || denied["category"] != "denied" || !strings.Contains(denied["error"].(string), "outside the data root") {
		t.Fatalf("symlink escape: %v", denied)
	}
	a := srv.Audit()
	if len(a.Denials) != 1 || !strings.HasSuffix(a.Denials[0].Path, "treecover2000.tif") {
		t.Fatalf("denials %+v, want the tree-cover raster", a.Denials)
	}
	if !strings.Contains(logs.String(), "read denied") || !strings.Contains(logs.String(), "unknown handle") {
		t.Fatalf("denials and errors not logged:\n%s", logs.String())
	}
	// The audit resource reports the denial too.
	rr, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: mcp.AuditURI})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rr.Contents[0].Text, "outside the data root") {
		t.Fatalf("audit resource lacks the denial: %s", rr.Contents[0].Text)
	}

	// A record whose file card leaves the root never opens a session.
	bad := rec
	bad.Handles = map[string]workers.HandleDecl{}
	for n, h := range rec.Handles {
		bad.Handles[n] = h
	}
	bad.Handles["forest_mask_1"] = workers.HandleDecl{Kind: "input", Files: []workers.FileCard{{Path: "../records.jsonl"}}}
	if _, err := mcp.New(newEngine(t, c.root), bad, mcp.Options{}); err == nil || !strings.Contains(err.Error(), "..") {
		t.Fatalf("record with a ../ file card: err %v", err)
	}
}

// TestRolesAndTerminalTools checks each form's tool list and that another
// role's worker, a specialist's Terminate and the other form's terminal
// tool are refused with the reason.
func TestRolesAndTerminalTools(t *testing.T) {
	c := newCorpus(t, []string{"baseline_canopy_assessment"})
	gold := c.find(t, "baseline_canopy_assessment")
	eng := newEngine(t, c.root)
	roleTools := map[workers.Role][]string{}
	for _, info := range workers.Tools() {
		roleTools[info.Role] = append(roleTools[info.Role], info.Name)
	}
	for _, role := range []workers.Role{workers.RoleGA, workers.RolePA, workers.RoleVRA} {
		t.Run(string(role), func(t *testing.T) {
			srv, err := mcp.New(eng, c.tests[gold.ID], mcp.Options{Role: role})
			if err != nil {
				t.Fatal(err)
			}
			cs := connect(t, srv)
			want := append([]string{mcp.ToolGetQuestion, runtime.ToolTaskComplete}, roleTools[role]...)
			sort.Strings(want)
			if got := toolNames(t, cs); !reflect.DeepEqual(got, want) {
				t.Fatalf("tools %v, want %v", got, want)
			}
			other := "ComputeStats"
			if role == workers.RolePA {
				other = "ReadData"
			}
			out, isErr := call(t, cs, other, map[string]any{"input": "work_1"})
			if !isErr || out["category"] != "refused" || !strings.Contains(out["error"].(string), "belongs to the") {
				t.Fatalf("%s calling %s: %v", role, other, out)
			}
			for _, term := range []string{runtime.ToolTerminate, runtime.ToolFinalAnswer} {
				out, isErr := call(t, cs, term, map[string]any{"answer_ref": runtime.AnswerRef})
				if !isErr || out["category"] != "refused" || !strings.Contains(out["error"].(string), "cannot end the session") {
					t.Fatalf("%s calling %s: %v", role, term, out)
				}
			}
			if out, isErr := call(t, cs, runtime.ToolTaskComplete, map[string]any{"status": "TASK_COMPLETE"}); isErr {
				t.Fatalf("TaskComplete: %v", out)
			}
			if a := srv.Audit(); len(a.Refusals) != 3 || len(a.Calls) != 1 {
				t.Fatalf("audit: %d refusals %d calls, want 3 and 1", len(a.Refusals), len(a.Calls))
			}
		})
	}
	// The GA specialist opens the data, the PA specialist would need the
	// same session: a specialist works only in its own session, so the
	// role split is checked by listing and refusal above.
	for form, wrong := range map[mcp.Agent]string{mcp.AgentSingle: runtime.ToolTerminate, mcp.AgentOrchestrator: runtime.ToolFinalAnswer} {
		srv, err := mcp.New(eng, c.tests[gold.ID], mcp.Options{Agent: form})
		if err != nil {
			t.Fatal(err)
		}
		cs := connect(t, srv)
		out, isErr := call(t, cs, wrong, map[string]any{"answer_ref": runtime.AnswerRef})
		if !isErr || out["category"] != "refused" {
			t.Fatalf("%s calling %s: %v", form, wrong, out)
		}
		// Before anything is published, the right terminal tool fails with
		// the reason.
		right := runtime.ToolFinalAnswer
		if form == mcp.AgentOrchestrator {
			right = runtime.ToolTerminate
		}
		out, isErr = call(t, cs, right, map[string]any{"answer_ref": runtime.AnswerRef})
		if !isErr || !strings.Contains(out["error"].(string), "not published") {
			t.Fatalf("%s before publication: %v", right, out)
		}
	}
	if _, err := mcp.New(eng, c.tests[gold.ID], mcp.Options{Agent: mcp.AgentSingle, Role: workers.RoleGA}); err == nil {
		t.Fatal("a single agent with a specialist role was accepted")
	}
}

// TestReadTestInputRefusesGold checks that a records file with gold is
// refused.
func TestReadTestInputRefusesGold(t *testing.T) {
	dir, recs := synthtest.Corpus(t, synth.Options{Types: []string{"wildfire_a"}, PerType: 1})
	_, err := mcp.ReadTestInput(filepath.Join(dir, "records.jsonl"), recs[0].ID)
	if err == nil || !strings.Contains(err.Error(), "not a gold-free") {
		t.Fatalf("records.jsonl accepted as test input: %v", err)
	}
	if _, err := mcp.ReadTestInput(filepath.Join(dir, "test_inputs.jsonl"), "no_such_id"); err == nil {
		t.Fatal("unknown id accepted")
	}
	rec, err := mcp.ReadTestInput(filepath.Join(dir, "test_inputs.jsonl"), recs[0].ID)
	if err != nil || rec.ID != recs[0].ID || rec.GTChain != nil || rec.Answer != nil {
		t.Fatalf("test input: %v %+v", err, rec)
	}
}

// TestToolSchemas checks every worker's schema is an object schema whose
// properties cover every variant's arguments.
func TestToolSchemas(t *testing.T) {
	reg, err := families.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range workers.Tools() {
		s, err := mcp.ToolSchema(reg, info.Name)
		if err != nil {
			t.Fatal(err)
		}
		props, _ := s["properties"].(map[string]any)
		if s["type"] != "object" || len(props) == 0 {
			t.Fatalf("%s: schema %v", info.Name, s)
		}
		for _, v := range reg.Variants(info.Name) {
			for _, p := range v.Params {
				if _, ok := props[p.Name]; !ok {
					t.Errorf("%s: argument %q of variant %q missing from the schema", info.Name, p.Name, v.Value)
				}
			}
		}
		if _, err := json.Marshal(s); err != nil {
			t.Fatalf("%s: %v", info.Name, err)
		}
	}
	if _, err := mcp.ToolSchema(reg, "NoSuchTool"); err == nil {
		t.Fatal("unknown tool accepted")
	}
}

// TestSequentialPipelinedClient writes a whole session's JSON-RPC requests
// at once and closes its input, as a shell pipeline does: the calls must
// run in order and every request must be answered.
func TestSequentialPipelinedClient(t *testing.T) {
	c := newCorpus(t, []string{"sen1_flood_a"})
	gold := c.find(t, "sen1_flood_a")
	eng := newEngine(t, c.root)
	srv, err := mcp.New(eng, c.tests[gold.ID], mcp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	enc.Encode(map[string]any{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "pipe", "version": "0"}}})
	enc.Encode(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	for i, step := range gold.GTChain {
		enc.Encode(map[string]any{"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": map[string]any{"name": step.Tool, "arguments": step.Args}})
	}
	last := len(gold.GTChain) + 1
	enc.Encode(map[string]any{"jsonrpc": "2.0", "id": last, "method": "tools/call", "params": map[string]any{
		"name": runtime.ToolFinalAnswer, "arguments": map[string]any{"answer_ref": runtime.AnswerRef}}})
	var out bytes.Buffer
	tr := mcp.Sequential(&sdk.IOTransport{Reader: io.NopCloser(&in), Writer: nopCloser{&out}}, time.Minute)
	if err := srv.Run(context.Background(), tr); err != nil && !errors.Is(err, io.EOF) {
		t.Fatalf("run: %v", err)
	}
	answered := map[int]bool{}
	var final json.RawMessage
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID     int
			Error  any
			Result struct {
				IsError bool
				Content []struct{ Text string }
			}
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if m.Error != nil || m.Result.IsError {
			t.Fatalf("request %d failed: %s", m.ID, line)
		}
		answered[m.ID] = true
		if m.ID == last {
			var r struct{ Answer json.RawMessage }
			if err := json.Unmarshal([]byte(m.Result.Content[0].Text), &r); err != nil {
				t.Fatal(err)
			}
			final = r.Answer
		}
	}
	if len(answered) != last+1 {
		t.Fatalf("%d of %d requests answered", len(answered), last+1)
	}
	rep := eng.ReplayRecord(context.Background(), gold)
	if canonical(t, final) != canonical(t, rep.Answer) {
		t.Fatalf("pipelined answer %s, replay %s", final, rep.Answer)
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// TestMultiAgentDelegation runs the multi-agent form over one session: the
// orchestrator delegates each worker call of the GT chain to the specialist
// that owns it (GA, PA, VRA, each its own MCP client), the specialist of
// the last step closes its subgoal, and the orchestrator terminates on the
// published reference; the answer equals replay's.
func TestMultiAgentDelegation(t *testing.T) {
	types := []string{"forest_loss_detection", "wildfire_d", "xbd_q4", "visual_overlay", "sen1_flood_d"}
	c := newCorpus(t, types)
	eng := newEngine(t, c.root)
	owner := map[string]workers.Role{}
	for _, info := range workers.Tools() {
		owner[info.Name] = info.Role
	}
	for _, qt := range types {
		gold := c.find(t, qt)
		t.Run(qt, func(t *testing.T) {
			orc, err := mcp.New(eng, c.tests[gold.ID], mcp.Options{Agent: mcp.AgentOrchestrator})
			if err != nil {
				t.Fatal(err)
			}
			orcCS := connect(t, orc)
			specialists := map[workers.Role]*sdk.ClientSession{}
			for _, role := range []workers.Role{workers.RoleGA, workers.RolePA, workers.RoleVRA} {
				sp, err := orc.Specialist(role)
				if err != nil {
					t.Fatal(err)
				}
				specialists[role] = connect(t, sp)
			}
			var last workers.Role
			for k, step := range gold.GTChain {
				role := owner[step.Tool]
				if step.Tool == runtime.ToolTaskComplete {
					role = last
				}
				out, isErr := call(t, specialists[role], step.Tool, step.Args)
				if isErr {
					t.Fatalf("step %d %s by %s: %v", k+1, step.Tool, role, out["error"])
				}
				if step.Output != "" && out["handle"] != step.Output {
					t.Fatalf("step %d: handle %v, want %s", k+1, out["handle"], step.Output)
				}
				last = role
			}
			out, isErr := call(t, orcCS, runtime.ToolTerminate, map[string]any{"answer_ref": runtime.AnswerRef})
			if isErr {
				t.Fatalf("Terminate: %v", out["error"])
			}
			rep := eng.ReplayRecord(context.Background(), gold)
			if canonical(t, out["answer"]) != canonical(t, rep.Answer) {
				t.Fatalf("multi-agent answer %v, replay %s", out["answer"], rep.Answer)
			}
			if a := orc.Audit(); len(a.Denials) != 0 || len(a.Refusals) != 0 || len(a.Calls) != len(gold.GTChain)+1 {
				t.Fatalf("audit: %d calls, denials %v, refusals %v", len(a.Calls), a.Denials, a.Refusals)
			}
		})
	}
	single, err := mcp.New(eng, c.tests[c.gold[0].ID], mcp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer single.Close()
	if _, err := single.Specialist(workers.RoleGA); err == nil {
		t.Fatal("a single agent's server gave a specialist")
	}
}

// TestToolsMatchEpisodeForms checks that every form's server lists the
// tools its episodes' question views name, in the same order.
func TestToolsMatchEpisodeForms(t *testing.T) {
	c := newCorpus(t, []string{"baseline_canopy_assessment"})
	gold := c.find(t, "baseline_canopy_assessment")
	eng := newEngine(t, c.root)
	for _, opts := range []mcp.Options{{Agent: mcp.AgentSingle}, {Agent: mcp.AgentOrchestrator},
		{Role: workers.RoleGA}, {Role: workers.RolePA}, {Role: workers.RoleVRA}} {
		srv, err := mcp.New(eng, c.tests[gold.ID], opts)
		if err != nil {
			t.Fatal(err)
		}
		agent := opts.Agent
		if agent == "" {
			agent = mcp.AgentOrchestrator
		}
		f := episode.Form{Agent: string(agent), Role: opts.Role}
		if got, want := srv.Tools(), f.Tools(); !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: server tools %v, episode form %v", opts, got, want)
		}
		srv.Close()
	}
}
