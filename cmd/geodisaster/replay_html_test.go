package main

import (
	"path/filepath"
	"strings"
	"testing"

	kit "github.com/geodisaster/engine/internal/cli"
)

// replay writes report.html beside report.json, with the run's rows. It
// replays the synthetic corpus the shard tests share; the embedded
// default corpus is TestReplayDefaultCorpusIsFixtureAndCorrect's.
func TestReplayWritesReportHTML(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := cli(t, "replay", "--input", sharedCorpus(t), "--type", "area_estimation", "--workers", "2", "--output-dir", out)
	if code != kit.ExitOK {
		t.Fatalf("replay exit %d\n%s\n%s", code, stdout, stderr)
	}
	page := readFile(t, filepath.Join(out, "report.html"))
	for _, want := range []string{
		`<tr data-type="area_estimation" data-records="5" data-executed="5" data-valid="5" data-correct="5" data-status="FIXTURE">`,
		`<tr data-type="wildfire_a" data-records="0"`, `id="prov-status">FIXTURE<`, `<p id="no-failures">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report.html lacks %s", want)
		}
	}
}
