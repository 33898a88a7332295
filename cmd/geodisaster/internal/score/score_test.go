package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scoringRunCLI runs the CLI in-process and returns exit code, stdout and stderr.
func scoringRunCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), cmdIO{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb}, args)
	return code, out.String(), errb.String()
}

// scoringWriteFile writes content to name under dir and returns its path.
func scoringWriteFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestScoreCommand(t *testing.T) {
	dir := t.TempDir()
	gold := scoringWriteFile(t, dir, "gold.jsonl", `{"id":"a","question_type":"xbd_q1","family":"xbd","answer":{"count":3,"ok":true}}
{"id":"b","question_type":"xbd_q1","answer":{"count":3,"ok":true}}
{"id":"c","question_type":"sen1_flood_b","answer":{"fraction":0.5}}
{"id":"d","question_type":"sen1_flood_b","answer":{"fraction":0.5}}
`)
	pred := scoringWriteFile(t, dir, "pred.jsonl", `{"id":"a","answer":{"count":3.0000004,"ok":true}}
{"id":"b","answer":{"count":3,"ok":1}}
{"id":"c","answer":{"fraction":Infinity}}
`)
	// Scoring ran and three of four records are not correct: exit 1.
	code, out, stderr := scoringRunCLI(t, "", "score", "--gold", gold, "--pred", pred, "--json")
	if code != exitFailure {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
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
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("bad JSON output: %v\n%s", err, out)
	}
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
	code, out, _ = scoringRunCLI(t, "", "score", "--gold", gold, "--pred", pred)
	if code != exitFailure || !strings.Contains(out, "xbd_q1") || !strings.Contains(out, "50.00%") || !strings.Contains(out, "missing prediction") {
		t.Errorf("table (exit %d):\n%s", code, out)
	}
}

func TestScoreCommandExitCodes(t *testing.T) {
	dir := t.TempDir()
	gold := scoringWriteFile(t, dir, "gold.jsonl", `{"id":"a","question_type":"xbd_q1","answer":1}`+"\n")
	badGold := scoringWriteFile(t, dir, "bad.jsonl", `{"id":"a","question_type":"xbd_q1"`+"\n")
	pred := scoringWriteFile(t, dir, "pred.jsonl", `{"id":"a","answer":1}`+"\n")
	badPolicy := scoringWriteFile(t, dir, "policy.json", `{"policy":"x"}`)
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"score", "--gold", gold, "--pred", pred}, exitOK},
		{[]string{"score", "--gold", gold}, exitUsage},
		{[]string{"score", "--gold", gold, "--pred", pred, "extra"}, exitUsage},
		{[]string{"score", "--bogus"}, exitUsage},
		{[]string{"score", "--gold", filepath.Join(dir, "absent"), "--pred", pred}, exitCannotRun},
		{[]string{"score", "--gold", badGold, "--pred", pred}, exitCannotRun},
		{[]string{"score", "--gold", gold, "--pred", pred, "--policy", badPolicy}, exitCannotRun},
		{[]string{"score", "--help"}, exitOK},
	} {
		if code, _, stderr := scoringRunCLI(t, "", tc.args...); code != tc.code {
			t.Errorf("%v: exit %d, want %d (%s)", tc.args, code, tc.code, stderr)
		}
	}
}
