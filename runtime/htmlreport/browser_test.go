package htmlreport_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"image/png"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/internal/synthtest"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/runtime/htmlreport"
	"github.com/geodisaster/engine/workers"
)

// chromiumFlags run Debian's chromium headless without touching the
// network or a profile.
var chromiumFlags = []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync"}

// findChromium returns the browser, or fails under CI=true and skips
// elsewhere when there is none (.ci/steps/browser.sh installs it in CI).
func findChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true but chromium is not installed: .ci/steps/browser.sh must install it (apt-get install -y chromium)")
	}
	t.Skip("chromium is not installed (apt-get install -y chromium); the browser check of report.html did not run")
	return ""
}

// runChromium runs the browser once with a fresh profile.
func runChromium(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	all := append(append(append([]string{}, chromiumFlags...), "--user-data-dir="+t.TempDir()), args...)
	cmd := exec.CommandContext(ctx, bin, all...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	return out
}

// mutateGold changes the first number of a gold answer (keys in sorted
// order, as the scorer visits them) and returns the new answer, the
// scorer-style path and the new value.
func mutateGold(answer json.RawMessage) (json.RawMessage, string, string, bool) {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(answer)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, "", "", false
	}
	var path, val string
	var walk func(x any, p string) (any, bool)
	walk = func(x any, p string) (any, bool) {
		switch y := x.(type) {
		case json.Number:
			f, err := y.Float64()
			if err != nil {
				return x, false
			}
			path, val = p, strconv.FormatFloat(f+1000, 'f', -1, 64)
			return json.Number(val), true
		case map[string]any:
			keys := slices.Sorted(maps.Keys(y))
			for _, k := range keys {
				kp := p + "." + k
				if !regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`).MatchString(k) {
					kp = p + "[" + strconv.Quote(k) + "]"
				}
				if nv, ok := walk(y[k], kp); ok {
					y[k] = nv
					return y, true
				}
			}
		case []any:
			for i := range y {
				if nv, ok := walk(y[i], p+"["+strconv.Itoa(i)+"]"); ok {
					y[i] = nv
					return y, true
				}
			}
		}
		return x, false
	}
	nv, ok := walk(v, "$")
	if !ok {
		return nil, "", "", false
	}
	b, err := json.Marshal(nv)
	return b, path, val, err == nil
}

var (
	typeRowRE = regexp.MustCompile(`(?s)<tr data-type="([^"]+)" data-records="(\d+)" data-executed="(\d+)" data-valid="(\d+)" data-correct="(\d+)" data-status="([A-Z_]+)">(.*?)</tr>`)
	cellRE    = regexp.MustCompile(`(?s)<t[dh][^>]*>(.*?)</t[dh]>`)
	tagRE     = regexp.MustCompile(`<[^>]+>`)
)

// TestReportInChromium replays a synthetic corpus (one record per type,
// one gold answer deliberately wrong), writes report.json and report.html
// and opens the page in headless Chromium: the rendered DOM has every
// type's row with report.json's counts and the failing record's first
// differing field, and a screenshot is taken. Set HTMLREPORT_KEEP=DIR to
// keep the page and the screenshot.
func TestReportInChromium(t *testing.T) {
	bin := findChromium(t)
	ctx := context.Background()
	corpus, recs := synthtest.Corpus(t, synth.Options{PerType: 1, Seed: 1})
	// The deliberately failing record: the first whose gold has a number.
	bad, badPath, badValue := -1, "", ""
	for i := range recs {
		if a, p, v, ok := mutateGold(recs[i].Answer); ok {
			recs[i].Answer, bad, badPath, badValue = a, i, p, v
			break
		}
	}
	if bad < 0 {
		t.Fatal("no gold answer has a number to mutate")
	}
	out := t.TempDir()
	eng, err := runtime.NewEngine(runtime.Config{DatasetRoot: corpus, ArtifactDir: filepath.Join(out, "artifacts")})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	results := eng.Replay(ctx, recs, runtime.ReplayOptions{Workers: 2})
	rep := runtime.NewReport(results, runtime.CorpusInfo{Path: filepath.Join(corpus, "records.jsonl"), SHA256: strings.Repeat("0", 64),
		Status: runtime.StatusFixture, Note: "synthetic corpus with one gold answer changed on purpose"})
	rep.Engine, rep.Workers, rep.WallSeconds = "test", 2, time.Since(start).Seconds()
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "report.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := htmlreport.WriteReplay(ctx, htmlreport.ReplayInput{Report: rep, Results: results, Records: recs, OutDir: out, Generated: time.Now()}); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(out, htmlreport.FileName)
	st, err := os.Stat(page)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("report.html for %d records: %d bytes", len(recs), st.Size())

	// The counts the page must show are report.json's.
	var fromJSON runtime.Report
	if err := json.Unmarshal(b, &fromJSON); err != nil {
		t.Fatal(err)
	}
	dom := string(runChromium(t, bin, "--dump-dom", "file://"+page))
	if !strings.Contains(dom, `id="type-table"`) {
		t.Fatalf("the rendered DOM has no type table:\n%.2000s", dom)
	}
	rows := map[string][]string{}
	for _, m := range typeRowRE.FindAllStringSubmatch(dom, -1) {
		var cells []string
		for _, c := range cellRE.FindAllStringSubmatch(m[7], -1) {
			cells = append(cells, strings.TrimSpace(html.UnescapeString(tagRE.ReplaceAllString(c[1], ""))))
		}
		rows[m[1]] = append(m[2:7], cells...)
	}
	for _, q := range workers.QuestionTypes() {
		r, ok := rows[q.ID]
		if !ok {
			t.Errorf("the rendered page has no row for %s", q.ID)
			continue
		}
		tt := fromJSON.ByType[q.ID]
		want := []string{strconv.Itoa(tt.Records), strconv.Itoa(tt.Executed), r[2], strconv.Itoa(tt.Correct), tt.Status,
			q.ID, string(q.Family), strconv.Itoa(tt.Records), fmt.Sprintf("%d / %d", tt.Executed, tt.Records), fmt.Sprintf("%s / %d", r[2], tt.Records),
			fmt.Sprintf("%d / %d", tt.Correct, tt.Records), strconv.Itoa(tt.Errors), tt.Status}
		if strings.Join(r, "|") != strings.Join(want, "|") {
			t.Errorf("%s: rendered row %q, report.json says %q", q.ID, r, want)
		}
	}
	if len(rows) != len(workers.QuestionTypes()) {
		t.Errorf("%d type rows, want %d", len(rows), len(workers.QuestionTypes()))
	}
	for f, tt := range fromJSON.ByFamily {
		want := fmt.Sprintf(`<tr data-family="%s" data-records="%d" data-executed="%d" data-valid="`, f, tt.Records, tt.Executed)
		if !strings.Contains(dom, want) || !strings.Contains(dom, fmt.Sprintf(`data-correct="%d" data-status="%s"><th scope="row">%s</th>`, tt.Correct, tt.Status, f)) {
			t.Errorf("family %s: no row with report.json's counts %+v", f, *tt)
		}
	}
	if fromJSON.Records != len(recs) || len(fromJSON.FailedRecords) != 1 || fromJSON.FailedRecords[0].ID != recs[bad].ID {
		t.Fatalf("report.json: %d records, failed %+v; want only %s", fromJSON.Records, fromJSON.FailedRecords, recs[bad].ID)
	}
	failRE := regexp.MustCompile(`(?s)<tr data-record="` + regexp.QuoteMeta(html.EscapeString(recs[bad].ID)) + `">(.*?)</tr>`)
	fm := failRE.FindStringSubmatch(dom)
	if fm == nil {
		t.Fatalf("the failing record %s is not on the page", recs[bad].ID)
	}
	var cells []string
	for _, c := range cellRE.FindAllStringSubmatch(fm[1], -1) {
		cells = append(cells, strings.TrimSpace(html.UnescapeString(tagRE.ReplaceAllString(c[1], ""))))
	}
	if len(cells) != 6 || cells[2] != badPath || cells[3] != badValue || cells[4] == badValue || cells[4] == "—" {
		t.Errorf("failing record %s: cells %q, want path %s expected %s", recs[bad].ID, cells, badPath, badValue)
	}
	t.Logf("failing record %s: first differing field %s, expected %s, got %s", recs[bad].ID, cells[2], cells[3], cells[4])
	if !strings.Contains(dom, `<svg role="img"`) || !strings.Contains(dom, `id="prov-status">FIXTURE<`) {
		t.Error("the rendered page lacks the timing chart or the FIXTURE status")
	}
	if n := strings.Count(dom, `src="data:image/png;base64,`); n == 0 {
		t.Error("no artifact preview on the page")
	}

	shot := filepath.Join(t.TempDir(), "report.png")
	runChromium(t, bin, "--screenshot="+shot, "--window-size=1280,2000", "--hide-scrollbars", "file://"+page)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if cfg.Width != 1280 || cfg.Height != 2000 {
		t.Errorf("screenshot is %dx%d, want 1280x2000", cfg.Width, cfg.Height)
	}
	if keep := os.Getenv("HTMLREPORT_KEEP"); keep != "" {
		if err := os.MkdirAll(keep, 0o755); err != nil {
			t.Fatal(err)
		}
		for src, name := range map[string]string{page: "report.html", shot: "report.png"} {
			b, err := os.ReadFile(src)
			if err == nil {
				err = os.WriteFile(filepath.Join(keep, name), b, 0o644)
			}
			if err != nil {
				t.Fatal(errors.Join(errors.New("HTMLREPORT_KEEP"), err))
			}
		}
		t.Logf("kept the page and its screenshot in %s", keep)
	}
}
