package htmlreport_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/htmlreport"
	"github.com/geodisaster/engine/workers"
)

// fullCorpusRecords is the release's record count.
const fullCorpusRecords = 2921

// worstCaseReplay fakes a replay of the full corpus in which every record
// failed with long values, was denied two reads and generated three
// incompressible previewable artifacts (hard links to one file each).
func worstCaseReplay(t *testing.T, out string) htmlreport.ReplayInput {
	t.Helper()
	art := filepath.Join(out, "artifacts")
	if err := os.MkdirAll(art, 0o755); err != nil {
		t.Fatal(err)
	}
	noisePNG := filepath.Join(out, "noise.png")
	maskTIF := filepath.Join(out, "mask.tif")
	rng := rand.New(rand.NewPCG(1, 2))
	img := image.NewNRGBA(image.Rect(0, 0, 600, 400))
	for i := range img.Pix {
		img.Pix[i] = uint8(rng.IntN(256))
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(noisePNG, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	band, _ := raster.NewBand(512, 512, raster.Uint8)
	for i := range band.Data.([]uint8) {
		band.Data.([]uint8)[i] = uint8(rng.IntN(5))
	}
	if err := raster.WriteFile(maskTIF, []*raster.Band{band}, raster.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	types := workers.QuestionTypes()
	long := strings.Repeat("wide value ", 60)
	var results []runtime.RecordResult
	var recs []workers.Record
	for i := 0; i < fullCorpusRecords; i++ {
		q := types[i%len(types)]
		id := fmt.Sprintf("%s/rec_%04d", q.ID, i)
		gold := fmt.Sprintf(`{"answer":{"value":%d,"label":%q}}`, i, long)
		pred := fmt.Sprintf(`{"answer":{"value":%d,"label":%q}}`, i, long+"!")
		res := runtime.RecordResult{ID: id, QuestionType: q.ID, Family: string(q.Family), Status: "ok",
			Answer: json.RawMessage(pred), Reason: "$.answer.label: string mismatch: " + long,
			WallMS:  float64(i%97) + 0.5,
			Denials: []runtime.Denial{{Call: 1, Tool: "open_raster", Path: "/data/" + long, Reason: "not an opened handle"}, {Call: 2, Tool: "read", Path: "/gold", Reason: "outside the data root"}}}
		if i%5 == 0 {
			msg := "step 2 tool: " + long
			res.Status, res.Error, res.Answer, res.Reason = "error", &msg, json.RawMessage("null"), ""
		}
		results = append(results, res)
		recs = append(recs, workers.Record{ID: id, QuestionType: q.ID, Family: string(q.Family), Answer: json.RawMessage(gold)})
		dir := filepath.Join(art, htmlreport.ArtifactDirName(id))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for src, name := range map[string]string{noisePNG: fmt.Sprintf("flood_diagnostic_%08x.png", i), maskTIF: "flood_mask_1.tif"} {
			if err := os.Link(src, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Link(noisePNG, filepath.Join(dir, "route_overlay_1.png")); err != nil {
			t.Fatal(err)
		}
	}
	rep := runtime.NewReport(results, runtime.CorpusInfo{Path: "records.jsonl", SHA256: strings.Repeat("ab", 32), Status: runtime.StatusFixture, Note: "synthetic"})
	rep.Engine, rep.Workers, rep.WallSeconds = "test", 2, 12.5
	return htmlreport.ReplayInput{Report: rep, Results: results, Records: recs, OutDir: out, Generated: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// The page of the full 2,921-record corpus stays under 5 MB in the worst
// case, lists every failure and type, caps the previews and is
// deterministic.
func TestFullCorpusPageSize(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 2,921-record fake replay")
	}
	out := t.TempDir()
	in := worstCaseReplay(t, out)
	p, a := renderReplay(t, in)
	page := a.String()
	t.Logf("worst-case page for %d records: %d bytes, %d previews (%d omitted), %d failures, %d denials listed (%d omitted)",
		fullCorpusRecords, a.Len(), len(p.Thumbnails), p.ThumbnailsOmitted, len(p.Failures), len(p.Denials), p.DenialsOmitted)
	if a.Len() >= 5<<20 {
		t.Errorf("page is %d bytes, want < 5 MB", a.Len())
	}
	if len(p.Failures) != fullCorpusRecords || strings.Count(page, `<tr data-record="`) != fullCorpusRecords {
		t.Errorf("%d failures listed, want %d", len(p.Failures), fullCorpusRecords)
	}
	for _, q := range workers.QuestionTypes() {
		if !strings.Contains(page, `<tr data-type="`+q.ID+`"`) {
			t.Errorf("no row for %s", q.ID)
		}
	}
	perType := map[string]int{}
	for _, th := range p.Thumbnails {
		perType[th.QuestionType]++
		if !strings.HasPrefix(string(th.DataURI), "data:image/png;base64,") || !strings.HasPrefix(th.Href, "artifacts/") {
			t.Fatalf("thumbnail %+v", th)
		}
	}
	for q, n := range perType {
		if n > 3 {
			t.Errorf("%s has %d previews", q, n)
		}
	}
	if len(p.Thumbnails) == 0 || p.ThumbnailsOmitted == 0 {
		t.Errorf("previews %d, omitted %d", len(p.Thumbnails), p.ThumbnailsOmitted)
	}
	if len(p.Denials) != htmlreport.MaxDenials || p.DenialsOmitted != 2*fullCorpusRecords-htmlreport.MaxDenials {
		t.Errorf("denials %d listed, %d omitted", len(p.Denials), p.DenialsOmitted)
	}
	// Self-contained: no script, no external style sheet, nothing fetched.
	for _, bad := range []string{"<script", "<link", `src="http`, `href="http`, "url(", "@import"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	// Deterministic: the same input renders the same bytes; another date
	// changes only the date.
	p2, b := renderReplay(t, in)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two renderings of one replay differ")
	}
	p2.Provenance.Generated = p2.Provenance.Generated.Add(48 * time.Hour)
	b.Reset()
	if err := htmlreport.Write(b, p2); err != nil {
		t.Fatal(err)
	}
	date := regexp.MustCompile(`2026-01-0[24]T\d\d:04:05Z`)
	if date.ReplaceAllString(a.String(), "D") != date.ReplaceAllString(b.String(), "D") {
		t.Error("pages of different dates differ beyond the date")
	}
}

// renderReplay builds the page of a replay and renders it.
func renderReplay(t *testing.T, in htmlreport.ReplayInput) (*htmlreport.Page, *bytes.Buffer) {
	t.Helper()
	p, err := htmlreport.FromReplay(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := htmlreport.Write(&b, p); err != nil {
		t.Fatal(err)
	}
	return p, &b
}

// A failure shows its first differing field with the expected and got
// values; statuses are words.
func TestFailureAndStatusWords(t *testing.T) {
	gold := json.RawMessage(`{"answer":{"units":"m2","value":10.5}}`)
	pred := json.RawMessage(`{"answer":{"units":"m2","value":12}}`)
	res := []runtime.RecordResult{
		{ID: "area_estimation/a", QuestionType: "area_estimation", Family: "deforestation", Status: "ok", Answer: pred, Reason: "$.answer.value: value beyond tolerance"},
		{ID: "area_estimation/b", QuestionType: "area_estimation", Family: "deforestation", Status: "ok", Answer: gold, Correct: true},
	}
	rep := runtime.NewReport(res, runtime.CorpusInfo{Path: "c.jsonl", Status: runtime.StatusFixture})
	p, buf := renderReplay(t, htmlreport.ReplayInput{Report: rep, Results: res,
		Records: []workers.Record{{ID: "area_estimation/a", Answer: gold}, {ID: "area_estimation/b", Answer: gold}}})
	if len(p.Failures) != 1 {
		t.Fatalf("failures %+v", p.Failures)
	}
	f := p.Failures[0]
	if f.Path != "$.answer.value" || f.Expected != "10.5" || f.Got != "12" || !strings.HasPrefix(f.Reason, "value beyond tolerance") {
		t.Errorf("failure %+v", f)
	}
	page := buf.String()
	for _, want := range []string{
		`<th scope="row">area_estimation</th>`, `<th scope="col">Schema-valid</th>`, "<caption>",
		`data-path="$.answer.value"`, `>10.5</td>`, `>12</td>`,
		`<span class="status st-fail">FAILED</span>`, `<span class="status st-none">NOT_RUN</span>`,
		`data-type="area_estimation" data-records="2" data-executed="2" data-valid="`,
		`data-correct="1" data-status="FAILED"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
}

// TestFixtureReportHasNoPassColour renders a FIXTURE replay: its status
// carries the fixture class and nothing on the page the pass class.
func TestFixtureReportHasNoPassColour(t *testing.T) {
	out := t.TempDir()
	rep := runtime.NewReport(nil, runtime.CorpusInfo{Path: "c.jsonl", Status: runtime.StatusFixture})
	if err := htmlreport.WriteReplay(context.Background(), htmlreport.ReplayInput{Report: rep, OutDir: out}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	if !strings.Contains(html, `class="status st-fixture" id="prov-status">FIXTURE<`) || strings.Contains(html, `class="status st-pass"`) || strings.Contains(html, `class="banner b-st-pass"`) || !strings.Contains(html, `class="banner b-st-fixture"`) {
		t.Error("a FIXTURE report is drawn with REAL's pass colour")
	}
}
