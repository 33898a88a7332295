package score

import (
	"path/filepath"
	"strings"
	"testing"

	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/internal/cli/cmdtest"
)

func TestScoreCommand(t *testing.T) {
	dir := t.TempDir()
	gold := cmdtest.WriteFile(t, dir, "gold.jsonl", `{"id":"a","question_type":"xbd_q1","family":"xbd","answer":{"count":3,"ok":true}}
{"id":"b","question_type":"xbd_q1","answer":{"count":3,"ok":true}}
{"id":"c","question_type":"sen1_flood_b","answer":{"fraction":0.5}}
{"id":"d","question_type":"sen1_flood_b","answer":{"fraction":0.5}}
`)
	pred := cmdtest.WriteFile(t, dir, "pred.jsonl", `{"id":"a","answer":{"count":3.0000004,"ok":true}}
{"id":"b","answer":{"count":3,"ok":1}}
{"id":"c","answer":{"fraction":Infinity}}
`)
	// Scoring ran and three of four records are not correct: exit 1.
	var rep struct {
		Records []struct {
			ID      string `json:"id"`
			Correct bool   `json:"correct"`
			Path    string `json:"path"`
			Reason  string `json:"reason"`
		} `json:"records"`
		ByType   map[string]map[string]int `json:"by_type"`
		ByFamily map[string]map[string]int `json:"by_family"`
	}
	out := cmdtest.RunJSON(t, Commands(), kit.ExitFailure, &rep, "score", "--gold", gold, "--pred", pred, "--json")
	got := map[string]string{}
	for _, r := range rep.Records {
		got[r.ID] = r.Path + " " + r.Reason
		if r.Correct != (r.ID == "a") {
			t.Errorf("%s correct=%v", r.ID, r.Correct)
		}
	}
	if !strings.HasPrefix(got["b"], "$.ok type") || !strings.HasPrefix(got["c"], "$.fraction non-finite") || got["d"] != "$ missing prediction" {
		t.Errorf("reasons: %q", got)
	}
	if bt := rep.ByType["xbd_q1"]; bt["records"] != 2 || bt["predicted"] != 2 || bt["correct"] != 1 {
		t.Errorf("by_type xbd_q1 = %v", bt)
	}
	if bf := rep.ByFamily["sen1_flood"]; bf["records"] != 2 || bf["predicted"] != 1 || bf["correct"] != 0 {
		t.Errorf("by_family sen1_flood = %v", bf)
	}
	if strings.Contains(out, "overall") {
		t.Error("report invents an overall score")
	}

	// Plain table.
	code, out, _ := cmdtest.Run(t, Commands(), "", "score", "--gold", gold, "--pred", pred)
	if code != kit.ExitFailure || !strings.Contains(out, "xbd_q1") || !strings.Contains(out, "50.00%") || !strings.Contains(out, "missing prediction") {
		t.Errorf("table (exit %d):\n%s", code, out)
	}
}

func TestScoreCommandExitCodes(t *testing.T) {
	dir := t.TempDir()
	gold := cmdtest.WriteFile(t, dir, "gold.jsonl", `{"id":"a","question_type":"xbd_q1","answer":1}`+"\n")
	badGold := cmdtest.WriteFile(t, dir, "bad.jsonl", `{"id":"a","question_type":"xbd_q1"`+"\n")
	pred := cmdtest.WriteFile(t, dir, "pred.jsonl", `{"id":"a","answer":1}`+"\n")
	badPolicy := cmdtest.WriteFile(t, dir, "policy.json", `{"policy":"x"}`)
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"score", "--gold", gold, "--pred", pred}, kit.ExitOK},
		{[]string{"score", "--gold", gold}, kit.ExitUsage},
		{[]string{"score", "--gold", gold, "--pred", pred, "extra"}, kit.ExitUsage},
		{[]string{"score", "--bogus"}, kit.ExitUsage},
		{[]string{"score", "--gold", filepath.Join(dir, "absent"), "--pred", pred}, kit.ExitCannotRun},
		{[]string{"score", "--gold", badGold, "--pred", pred}, kit.ExitCannotRun},
		{[]string{"score", "--gold", gold, "--pred", pred, "--policy", badPolicy}, kit.ExitCannotRun},
		{[]string{"score", "--help"}, kit.ExitOK},
	} {
		if code, _, stderr := cmdtest.Run(t, Commands(), "", tc.args...); code != tc.code {
			t.Errorf("%v: exit %d, want %d (%s)", tc.args, code, tc.code, stderr)
		}
	}
}
