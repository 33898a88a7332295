package mixture

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/internal/cli/cmdtest"
)

func TestMixtureCommandAuditFigures(t *testing.T) {
	var rep struct {
		TV        float64          `json:"tv_bound_pp"`
		Corner    float64          `json:"corner_max_pp"`
		DevMean   float64          `json:"dev_mean_pct"`
		TestMean  float64          `json:"test_mean_pct"`
		PerK      []map[string]any `json:"per_k"`
		Bootstrap []any            `json:"bootstrap"`
	}
	cmdtest.RunJSON(t, Commands(), kit.ExitOK, &rep, "mixture", "--dev", "10,50,15,10", "--test", "30,100,50,30", "--scores", "90,80,60,40", "--json")
	got := fmt.Sprintf("%.3f %.3f %.2f %.2f", rep.TV, rep.Corner, rep.DevMean, rep.TestMean)
	if got != "11.204 11.204 72.94 70.95" {
		t.Errorf("figures %s, want 11.204 11.204 72.94 70.95", got)
	}
	if len(rep.PerK) != 4 || rep.Bootstrap != nil {
		t.Errorf("per_k %d rows, bootstrap %v", len(rep.PerK), rep.Bootstrap)
	}
	// Defaults are the audit's inputs; the table names the profile as illustrative.
	code, out, _ := cmdtest.Run(t, Commands(), "", "mixture")
	if code != kit.ExitOK || !strings.Contains(out, "11.204") || !strings.Contains(out, "72.94") || !strings.Contains(out, "70.95") || !strings.Contains(out, "illustrative") {
		t.Errorf("default table (exit %d):\n%s", code, out)
	}
}

func TestMixtureCommandCases(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for k := 1; k <= 4; k++ {
		for i := 0; i < 6; i++ {
			fmt.Fprintf(&b, `{"id":"c%d_%d","k":%d,"template":"t%d_%d","score":%d}`+"\n", k, i, k, k, i%3, (i+k)%2)
		}
	}
	fmt.Fprintln(&b, `{"id":"v","k":1,"template":"t1_0_old","score":1}`)
	cases := cmdtest.WriteFile(t, dir, "cases.jsonl", b.String())
	var rep struct {
		PerK []struct {
			Cases *int `json:"cases"`
		} `json:"per_k"`
		Bootstrap []struct {
			Method    string   `json:"method"`
			Statistic string   `json:"statistic"`
			Units     int      `json:"units"`
			Lo        *float64 `json:"lo_pct"`
			Hi        *float64 `json:"hi_pct"`
		} `json:"bootstrap"`
	}
	out := cmdtest.RunJSON(t, Commands(), kit.ExitOK, &rep, "mixture", "--cases", cases, "--replicates", "300", "--merge-template", "t1_0_old=t1_0", "--json")
	if *rep.PerK[0].Cases != 7 || *rep.PerK[3].Cases != 6 {
		t.Errorf("per-K cases %d %d", *rep.PerK[0].Cases, *rep.PerK[3].Cases)
	}
	if len(rep.Bootstrap) != 4 {
		t.Fatalf("%d intervals", len(rep.Bootstrap))
	}
	units := map[string]int{}
	for _, iv := range rep.Bootstrap {
		units[iv.Method] = iv.Units
		if iv.Lo == nil || iv.Hi == nil || *iv.Lo > *iv.Hi {
			t.Errorf("interval %+v", iv)
		}
	}
	// 25 cases; 12 templates after merging the declared variant.
	if units["case"] != 25 || units["template_cluster"] != 12 {
		t.Errorf("units %v", units)
	}
	var withMeans struct {
		Source  string    `json:"profile_source"`
		Profile []float64 `json:"profile"`
		DevMean float64   `json:"dev_mean_pct"`
	}
	if err := json.Unmarshal([]byte(out), &withMeans); err != nil {
		t.Fatal(err)
	}
	// K=1 has 7 cases: scores (i+1)%2 for i=0..5 give 3 ones, plus the variant's 1.
	if !strings.Contains(withMeans.Source, "case means") || math.Abs(withMeans.Profile[0]-4.0/7) > 1e-12 {
		t.Errorf("profile %v from %q", withMeans.Profile, withMeans.Source)
	}
	code, out, _ := cmdtest.Run(t, Commands(), "", "mixture", "--cases", cases)
	if code != kit.ExitOK || !strings.Contains(out, "template_cluster") {
		t.Errorf("table (exit %d):\n%s", code, out)
	}
	for _, args := range [][]string{
		{"mixture", "--dev", "1,2", "--test", "1,2,3"},
		{"mixture", "--dev", "a,b"},
		{"mixture", "--scores", "0.5,0.5"},
		{"mixture", "--merge-template", "a=b"},
		{"mixture", "--cases", cases, "--merge-template", "nonsense"},
	} {
		if code, _, _ := cmdtest.Run(t, Commands(), "", args...); code != kit.ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, kit.ExitUsage)
		}
	}
}
