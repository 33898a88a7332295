package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/geodisaster/engine/conformance/synth"
	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/episode"
	"github.com/geodisaster/engine/runtime/export"
	"github.com/geodisaster/engine/workers"
)

// feedTypes sample every family and every delegation shape: GA-PA,
// GA-VRA-PA, GA-PA-GA and GA-VRA-PA-GA.
var feedTypes = []string{"baseline_canopy_assessment", "wildfire_d", "xbd_q7", "visual_overlay", "sen1_flood_e"}

// exportCorpus synthesizes two records of each type, puts the second in
// the test split, keeps the gold records outside the dataset root and
// exports them with the export command.
func exportCorpus(t *testing.T, types []string) (root, gold, out string) {
	t.Helper()
	root = t.TempDir()
	if _, err := synth.Generate(context.Background(), root, synth.Options{Types: types, PerType: 2, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	recs, err := workers.ReadRecordsFile(filepath.Join(root, "records.jsonl"), true)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i := range recs {
		if seen[recs[i].QuestionType] {
			recs[i].Split = "test"
		}
		seen[recs[i].QuestionType] = true
	}
	gold = filepath.Join(t.TempDir(), "records.jsonl")
	if err := workers.WriteRecords(mustCreate(t, gold), recs); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "records.jsonl")); err != nil {
		t.Fatal(err)
	}
	out = t.TempDir()
	code, stdout, stderr := runCLI(t, "", "export", "--dataset-root", root, "--input", gold, "--output-dir", out, "--json")
	if code != kit.ExitOK {
		t.Fatalf("export: exit %d\n%s%s", code, stdout, stderr)
	}
	return root, gold, out
}

func readRows[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		var row T
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		out = append(out, row)
	}
	return out
}

// replayConversation feeds a conversation's actions to a served view and
// requires the question view and every observation to be the episode's,
// byte for byte. The terminal action must succeed; its result is not part
// of the episode.
func replayConversation(t *testing.T, cs *sdk.ClientSession, who string, msgs []episode.Message, question int) {
	t.Helper()
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: episode.ToolGetQuestion, Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("%s: GetQuestion: %v %v", who, err, res)
	}
	if got := toolText(t, res); got != msgs[question].Content {
		t.Fatalf("%s: the served question view differs from the episode's:\n%s\n%s", who, got, msgs[question].Content)
	}
	for k, m := range msgs {
		if m.Role != episode.RoleAssistant {
			continue
		}
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: m.Action.Tool, Arguments: m.Action.Args})
		if err != nil || res.IsError {
			t.Fatalf("%s: message %d %s: %v %v", who, k, m.Action.Tool, err, res)
		}
		if k+1 == len(msgs) {
			if m.Action.Tool != runtime.ToolFinalAnswer && m.Action.Tool != runtime.ToolTerminate {
				t.Fatalf("%s: the conversation ends with %s", who, m.Action.Tool)
			}
			continue
		}
		if got, want := toolText(t, res), msgs[k+1].Content; got != want {
			t.Fatalf("%s: message %d %s: served observation\n%s\nepisode\n%s", who, k+1, m.Action.Tool, got, want)
		}
	}
}

// TestServeFeedsTestEpisodes feeds each test-split episode of an export,
// step by step, to "geodisaster serve" — the single-agent episodes over
// stdio, the multi-agent ones over HTTP with the specialists at /GA, /PA
// and /VRA — and requires the same question views and observations.
func TestServeFeedsTestEpisodes(t *testing.T) {
	root, _, out := exportCorpus(t, feedTypes)
	inputs := filepath.Join(root, "test_inputs.jsonl")
	singles := readRows[episode.SingleAgentEpisode](t, filepath.Join(out, export.File(export.SingleAgentEpisodes, "test")))
	multis := readRows[episode.MultiAgentEpisode](t, filepath.Join(out, export.File(export.MultiAgentEpisodes, "test")))
	if len(singles) != len(feedTypes) || len(multis) != len(feedTypes) {
		t.Fatalf("%d single and %d multi-agent test episodes, want %d each", len(singles), len(multis), len(feedTypes))
	}
	families := map[string]bool{}
	for _, ep := range singles {
		families[ep.Family] = true
		t.Run("single/"+ep.QuestionType, func(t *testing.T) {
			srv := startStdioServe(t, "feed", "--dataset-root", root, "--input", inputs, "--record", ep.ID)
			replayConversation(t, srv.cs, ep.ID, ep.Messages, 1)
			srv.stop(t)
		})
	}
	if len(families) != 5 {
		t.Fatalf("families %v", families)
	}
	for _, ep := range multis {
		t.Run("multi/"+ep.QuestionType, func(t *testing.T) {
			ctx := context.Background()
			srv := serveOrcHTTP(t, root, inputs, ep.ID)
			dial := srv.dial
			orc := dial("/")
			views := map[string]*sdk.ClientSession{}
			for j, d := range ep.Delegations {
				if views[d.Role] == nil {
					views[d.Role] = dial("/" + d.Role)
				}
				replayConversation(t, views[d.Role], ep.ID+" delegation "+d.Role, d.Messages, 1)
				// The orchestrator's delegation result is this
				// conversation's observations.
				res := ep.Messages[4+2*j]
				var got struct{ Observations []json.RawMessage }
				if err := json.Unmarshal([]byte(res.Content), &got); err != nil {
					t.Fatal(err)
				}
				n := 0
				for _, m := range d.Messages {
					if m.Role == episode.RoleTool {
						if string(got.Observations[n]) != m.Content {
							t.Fatalf("delegation %d result %d differs from the specialist's observation", j, n)
						}
						n++
					}
				}
			}
			// ORC: its question view, then Terminate on the published
			// reference (its Plan and Delegate actions are the harness's).
			q, err := orc.CallTool(ctx, &sdk.CallToolParams{Name: episode.ToolGetQuestion, Arguments: map[string]any{}})
			if err != nil || toolText(t, q) != ep.Messages[1].Content {
				t.Fatalf("orchestrator question view differs: %v", err)
			}
			last := ep.Messages[len(ep.Messages)-1]
			res, err := orc.CallTool(ctx, &sdk.CallToolParams{Name: last.Action.Tool, Arguments: last.Action.Args})
			if err != nil || res.IsError {
				t.Fatalf("Terminate: %v %v", err, res)
			}
			orc.Close()
			for _, cs := range views {
				cs.Close()
			}
			srv.stop()
		})
	}
}

// replaceInFile replaces the first old in a file by new and returns the
// file's bytes from before.
func replaceInFile(t *testing.T, path, old, new string) []byte {
	t.Helper()
	b := readFile(t, path)
	if err := os.WriteFile(path, []byte(strings.Replace(b, old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return []byte(b)
}

func TestExportCommand(t *testing.T) {
	_, gold, out := exportCorpus(t, []string{"wildfire_a", "xbd_q5"})
	code, stdout, stderr := runCLI(t, "", "export", "--verify", out, "--input", gold)
	if code != kit.ExitOK || !strings.Contains(stdout, "PASS") {
		t.Fatalf("verify: exit %d\n%s%s", code, stdout, stderr)
	}
	// A changed weight: exit 1, the record and the field named.
	rel := export.File(export.SingleAgentEpisodes, "test")
	b := replaceInFile(t, filepath.Join(out, rel), `"training_weight":1`, `"training_weight":0.25`)
	code, stdout, stderr = runCLI(t, "", "export", "--verify", out, "--input", gold, "--json")
	var rep export.VerifyReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if code != kit.ExitFailure || rep.OK || rep.Drifts[0].Field != "training_weight" || !strings.Contains(stderr, "training_weight") {
		t.Fatalf("mutated: exit %d %+v\n%s", code, rep.Drifts, stderr)
	}
	// A drifted core row: exit 1, named as well.
	if err := os.WriteFile(filepath.Join(out, rel), b, 0o644); err != nil {
		t.Fatal(err)
	}
	core := export.File(export.CoreTasks, "train")
	replaceInFile(t, filepath.Join(out, core), `"training_weight":1`, `"training_weight":2`)
	code, stdout, _ = runCLI(t, "", "export", "--verify", out, "--input", gold)
	if code != kit.ExitFailure || !strings.Contains(stdout, core+":1: record ") || !strings.Contains(stdout, "field training_weight: 2, the canonical record has 1") {
		t.Fatalf("core row drift: exit %d\n%s", code, stdout)
	}
	// export.json counts the core rows per split: one per record.
	var m export.Manifest
	readJSON(t, filepath.Join(out, export.ManifestFile), &m)
	if ps := m.Projections[export.CoreTasks]; ps == nil || ps.Train != 2 || ps.Test != 2 || ps.Files[0] != core {
		t.Fatalf("core_tasks summary %+v", ps)
	}
	for _, args := range [][]string{
		{"export", "--output-dir", out},
		{"export", "--input", gold},
		{"export", "--verify", out, "--input", gold, "--output-dir", out},
		{"export", "--input", gold, "--output-dir", out, "--workers", "0"},
		{"export", "--input", gold, "--output-dir", out, "extra"},
	} {
		if code, _, _ := runCLI(t, "", args...); code != kit.ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, kit.ExitUsage)
		}
	}
	if code, _, _ := runCLI(t, "", "export", "--input", filepath.Join(t.TempDir(), "absent.jsonl"), "--output-dir", t.TempDir()); code != kit.ExitCannotRun {
		t.Errorf("absent input: exit %d", code)
	}
}
