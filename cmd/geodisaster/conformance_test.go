package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/conformance/release"
	"github.com/geodisaster/engine/conformance/synth"
	kit "github.com/geodisaster/engine/internal/cli"
)

// conformanceCLI runs conformanceMain (the part of the command before the
// process exit code is applied).
func conformanceCLI(t *testing.T, args ...string) (int, string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	cio := kit.IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	code, err := conformanceMain(context.Background(), cio, args)
	return code, out.String(), errb.String(), err
}

type cliConformanceReport struct {
	Status        string   `json:"status"`
	StatusReasons []string `json:"status_reasons"`
	Types         []struct {
		QuestionType string `json:"question_type"`
		Status       string `json:"status"`
		Records      int    `json:"records"`
		Correct      int    `json:"correct"`
	} `json:"types"`
}

func TestConformanceWithoutReleaseRootIsResourceBlocked(t *testing.T) {
	for _, args := range [][]string{{"--json"}, {"--json", "--release-root", filepath.Join(t.TempDir(), "missing")}} {
		code, stdout, stderr, err := conformanceCLI(t, args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if code != kit.ExitResourceBlocked {
			t.Fatalf("%v: exit %d, want %d\n%s", args, code, kit.ExitResourceBlocked, stderr)
		}
		var rep cliConformanceReport
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Status != "RESOURCE_BLOCKED" || len(rep.Types) != 43 || len(rep.StatusReasons) == 0 {
			t.Fatalf("%v: %+v", args, rep)
		}
		for _, ty := range rep.Types {
			if ty.Status != "RESOURCE_BLOCKED" {
				t.Errorf("%s is %s", ty.QuestionType, ty.Status)
			}
		}
	}
	code, stdout, _, _ := conformanceCLI(t)
	if code != kit.ExitResourceBlocked || !strings.Contains(stdout, "corpus status RESOURCE_BLOCKED") {
		t.Errorf("table without a root: exit %d\n%s", code, stdout)
	}
}

func TestConformanceHelpDocumentsExitCodes(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "conformance", "--help")
	if code != kit.ExitOK || stderr != "" {
		t.Fatalf("--help: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"3    RESOURCE_BLOCKED", "4    the corpus did not verify", "--release-root", "examples:", "5    could not run"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("help lacks %q:\n%s", want, stdout)
		}
	}
}

func TestConformanceFixtureRelease(t *testing.T) {
	root := t.TempDir()
	types := []string{}
	for _, ty := range synth.SupportedTypes() {
		if ty == "baseline_canopy_assessment" || ty == "xbd_q5" {
			types = append(types, ty)
		}
	}
	if len(types) == 0 {
		t.Skip("synth supports none of the selected types")
	}
	if _, err := release.BuildFixture(context.Background(), root, synth.Options{Types: types, PerType: 2, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, stdout, stderr, err := conformanceCLI(t, "--release-root", root, "--workers", "2", "--output-dir", out)
	if err != nil || code != kit.ExitOK {
		t.Fatalf("exit %d err %v\n%s\n%s", code, err, stdout, stderr)
	}
	if !strings.Contains(stdout, "corpus status FIXTURE") {
		t.Errorf("table:\n%s", stdout)
	}
	var rep cliConformanceReport
	readJSON(t, filepath.Join(out, "report.json"), &rep)
	if rep.Status != "FIXTURE" {
		t.Fatalf("report.json status %s", rep.Status)
	}
	for _, ty := range rep.Types {
		if ty.Records > 0 && (ty.Status != "FIXTURE" || ty.Correct != ty.Records) {
			t.Errorf("%+v", ty)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "report.txt")); err != nil {
		t.Error(err)
	}

	// Tamper with the records: the run must refuse with exit 4 and say why.
	p := filepath.Join(root, filepath.FromSlash(release.CanonicalRecordsPath))
	if err := os.WriteFile(p, []byte(readFile(t, p)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _, err = conformanceCLI(t, "--release-root", root, "--workers", "2")
	if err != nil || code != kit.ExitNotVerified {
		t.Fatalf("tampered: exit %d err %v\n%s", code, err, stdout)
	}
	// Edited generated material does not verify (exit 4) but is still
	// FIXTURE: DEGRADED ranks above FIXTURE and is for real corpora.
	if !strings.Contains(stdout, "corpus status FIXTURE") || !strings.Contains(stdout, "checksum") || !strings.Contains(stdout, "fixture manifest does not verify") {
		t.Errorf("tampered table:\n%s", stdout)
	}
}

func TestConformanceExitCode(t *testing.T) {
	row := func(status string) *release.TypeReport {
		return &release.TypeReport{QuestionType: "x", Status: status, Records: 1}
	}
	cases := []struct {
		name string
		rep  release.Report
		want int
	}{
		{"blocked corpus", release.Report{Status: "RESOURCE_BLOCKED"}, kit.ExitResourceBlocked},
		{"degraded", release.Report{Status: "DEGRADED", Records: 5, Types: []*release.TypeReport{row("DEGRADED")}}, kit.ExitNotVerified},
		{"unverified fixture", release.Report{Status: "FIXTURE", Records: 5, Types: []*release.TypeReport{row("FIXTURE")}}, kit.ExitNotVerified},
		{"real ok", release.Report{Status: "REAL", CorpusVerified: true, Records: 5, Types: []*release.TypeReport{row("REAL"), row("NOT_RUN")}}, kit.ExitOK},
		{"fixture ok", release.Report{Status: "FIXTURE", CorpusVerified: true, Records: 5, Types: []*release.TypeReport{row("FIXTURE")}}, kit.ExitOK},
		{"failed type", release.Report{Status: "REAL", CorpusVerified: true, Records: 5, Types: []*release.TypeReport{row("RESOURCE_BLOCKED"), row("FAILED")}}, kit.ExitFailure},
		{"unhydrated type", release.Report{Status: "REAL", CorpusVerified: true, Records: 5, Types: []*release.TypeReport{row("REAL"), row("RESOURCE_BLOCKED")}, FactSummary: map[string]int{release.FactMismatch: 1}}, kit.ExitResourceBlocked},
		{"corpus fact", release.Report{Status: "REAL", CorpusVerified: true, Records: 5, Types: []*release.TypeReport{row("REAL")}, FactSummary: map[string]int{release.FactMismatch: 1}}, kit.ExitFailure},
		{"empty corpus", release.Report{Status: "REAL", CorpusVerified: true}, kit.ExitResourceBlocked},
	}
	for _, c := range cases {
		if got := conformanceExitCode(&c.rep); got != c.want {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.want)
		}
	}
}
