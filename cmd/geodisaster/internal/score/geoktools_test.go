package score

import (
	"math"
	"strconv"
	"strings"
	"testing"

	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/internal/cli/cmdtest"
)

func TestGeoKToolsScoreCommandProbes(t *testing.T) {
	for _, tc := range []struct{ ref, pred, want string }{
		{"100", "110", "1"},
		{"100", "110.01", "0.8999"},
		{"0", "0", "1"},
		{"0", "0.5", "0"},
		{"-100", "-120", "0.8"},
		{"1000", "1000", "1"},
		{"1000", `"1e3"`, "0.001"},
		{"1000", `"1,000"`, "0.001"},
		{`"flood extent map"`, "flood map", "0.8"}, // not JSON: taken as a string
	} {
		code, out, stderr := cmdtest.Run(t, Commands(), "", "geoktools-score", "--reference", tc.ref, "--prediction", tc.pred)
		if code != kit.ExitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		// Printed at full precision; compare at the audit's 4 decimals.
		got, err := strconv.ParseFloat(strings.TrimSpace(out), 64)
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := strconv.ParseFloat(tc.want, 64); math.Round(got*1e4)/1e4 != want {
			t.Errorf("ref %s pred %s: printed %q, want %s", tc.ref, tc.pred, out, tc.want)
		}
	}
}

func TestGeoKToolsScoreBatch(t *testing.T) {
	dir := t.TempDir()
	p := cmdtest.WriteFile(t, dir, "b.jsonl", `{"id":"a","k":1,"reference":100,"prediction":110}
{"id":"b","k":2,"reference":1000,"prediction":"1e3"}
{"id":"c","k":2,"reference":0}

{"id":"d","reference":"x","prediction":"x"}
`)
	var rep struct {
		Cases []struct {
			ID    string  `json:"id"`
			Score float64 `json:"score"`
		} `json:"cases"`
		ByK []struct {
			K    int     `json:"k"`
			N    int     `json:"n"`
			Mean float64 `json:"mean"`
		} `json:"by_k"`
		All struct {
			N   int     `json:"n"`
			Sum float64 `json:"sum"`
		} `json:"all"`
	}
	cmdtest.RunJSON(t, Commands(), kit.ExitOK, &rep, "geoktools-score", "--batch", p, "--json")
	if len(rep.Cases) != 4 || rep.Cases[0].Score != 1 || rep.Cases[2].Score != 0 || rep.Cases[3].Score != 1 {
		t.Errorf("cases %+v", rep.Cases)
	}
	if len(rep.ByK) != 2 || rep.ByK[1].K != 2 || rep.ByK[1].N != 2 || math.Abs(rep.ByK[1].Mean-0.0005) > 1e-12 {
		t.Errorf("by_k %+v", rep.ByK)
	}
	if rep.All.N != 4 || math.Abs(rep.All.Sum-2.001) > 1e-12 {
		t.Errorf("all %+v", rep.All)
	}
	for _, args := range [][]string{
		{"geoktools-score"},
		{"geoktools-score", "--reference", "1"},
		{"geoktools-score", "--batch", p, "--reference", "1"},
	} {
		if code, _, _ := cmdtest.Run(t, Commands(), "", args...); code != kit.ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, kit.ExitUsage)
		}
	}
	bad := cmdtest.WriteFile(t, dir, "bad.jsonl", `{"prediction":1}`+"\n")
	if code, _, _ := cmdtest.Run(t, Commands(), "", "geoktools-score", "--batch", bad); code != kit.ExitCannotRun {
		t.Errorf("batch without reference: exit %d", code)
	}
}
