package releasepage_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/conformance/release"
	"github.com/geodisaster/engine/conformance/release/releasepage"
	"github.com/geodisaster/engine/runtime/htmlreport"
)

func TestConformancePage(t *testing.T) {
	out := t.TempDir()
	dir := filepath.Join(out, "artifacts", "sen1_flood_e__rec_1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 300, 200))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "flood_diagnostic_abcdef123456.png"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := &release.Report{Engine: "test", ReleaseRoot: "/rel", Status: "FIXTURE", StatusReasons: []string{"synthetic corpus"},
		CanonicalFile: release.FileDigest{Path: "data/core/x.jsonl", SHA256: "abc"}, Records: 3, Replayed: 3,
		Types: []*release.TypeReport{
			{Ordinal: 1, QuestionType: "sen1_flood_e", Family: "sen1_flood", Status: "FAILED", Records: 2, Executed: 2, Valid: 2, Correct: 1,
				Mismatches: []release.Mismatch{{ID: "rec_9", Stage: "score", Path: "$.flood_area_m2", Reason: "value beyond tolerance: gold 1, prediction 2"}}, MismatchTotal: 3},
			{Ordinal: 2, QuestionType: "xbd_q1", Family: "xbd", Status: "FIXTURE", Records: 1, Executed: 1, Valid: 1, Correct: 1},
			{Ordinal: 3, QuestionType: "xbd_q2", Family: "xbd", Status: "NOT_RUN"},
		}}
	if err := releasepage.Write(context.Background(), releasepage.Input{Report: rep, OutDir: out, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, htmlreport.FileName))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{
		`<tr data-type="sen1_flood_e" data-records="2" data-executed="2" data-valid="2" data-correct="1" data-status="FAILED">`,
		`<tr data-family="xbd" data-records="1" data-executed="1" data-valid="1" data-correct="1" data-status="FIXTURE">`,
		`<tr data-family="sen1_flood" data-records="2"`,
		`data-path="$.flood_area_m2"`, "2 more failing records are counted", "not REAL: synthetic corpus",
		"This run did not record read-gate denials.", `href="artifacts/sen1_flood_e__rec_1/flood_diagnostic_abcdef123456.png"`,
		"/rel/data/core/x.jsonl",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
}
