package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/internal/cli/cmdtest"
)

// asCLI is the environment under which this test binary runs as the
// geodisaster command (see TestMain): the same main, without a second
// build of the package.
func asCLI() []string { return append(os.Environ(), "GEODISASTER_TEST_AS_CLI=1") }

// onTerminal runs a command line under script(1), which gives it a pty
// for stdin, stdout and stderr, and returns what the terminal showed.
func onTerminal(t *testing.T, script, line string) string {
	t.Helper()
	cmd := exec.Command(script, "-qefc", line, "/dev/null")
	cmd.Env = asCLI()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("script %q: %v\n%s", line, err, out)
	}
	return string(out)
}

// TestProgressAndLogsOnATerminal runs synth and replay on a pty (a bar
// and readable log lines) and in a pipe (no bar, slog JSON on stderr).
func TestProgressAndLogsOnATerminal(t *testing.T) {
	script := cmdtest.NeedTool(t, "script")
	bin := os.Args[0]
	dir := t.TempDir()
	corpus := filepath.Join(dir, "c")
	synthArgs := " synth --out " + corpus + " --types baseline_canopy_assessment,xbd_q5,sen1_flood_a --per-type 4 --workers 1"
	screen := onTerminal(t, script, bin+synthArgs)
	if !strings.Contains(screen, "synth") || !strings.Contains(screen, "%") || !strings.Contains(screen, "\r") || !strings.Contains(screen, "/12)") {
		t.Errorf("no progress bar for synth on a terminal:\n%q", screen)
	}
	replayLine := bin + " replay --input " + filepath.Join(corpus, "records.jsonl") + " --workers 1 --output-dir " + filepath.Join(dir, "out")
	screen = onTerminal(t, script, replayLine)
	if !strings.Contains(screen, "replay") || !strings.Contains(screen, "/12)") || !strings.Contains(screen, "\r") {
		t.Errorf("no progress bar for replay on a terminal:\n%q", screen)
	}
	if !strings.Contains(screen, " INFO  replaying records=12") {
		t.Errorf("no readable log line on a terminal:\n%q", screen)
	}
	t.Logf("replay on a terminal:\n%s", strings.ReplaceAll(screen, "\r", "\\r\n"))

	// In a pipe: no bar, and every stderr line is slog JSON.
	for _, args := range [][]string{
		{"synth", "--out", filepath.Join(dir, "c2"), "--types", "xbd_q5", "--per-type", "3"},
		{"replay", "--input", filepath.Join(corpus, "records.jsonl"), "--workers", "1", "--output-dir", filepath.Join(dir, "out2")},
	} {
		var stderr bytes.Buffer
		cmd := exec.Command(bin, args...)
		cmd.Env = asCLI()
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr.String())
		}
		if strings.Contains(stderr.String(), "\r") || strings.Contains(stderr.String(), "%|") {
			t.Errorf("%v draws a bar in a pipe: %q", args, stderr.String())
		}
		for _, l := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
			var m map[string]any
			if l != "" && json.Unmarshal([]byte(l), &m) != nil {
				t.Errorf("%v: stderr line is not slog JSON: %q", args, l)
			}
		}
	}
	// --log-format text forces readable lines in a pipe too.
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "replay", "--log-format", "text", "--input", filepath.Join(corpus, "records.jsonl"), "--workers", "1", "--output-dir", filepath.Join(dir, "out3"))
	cmd.Env = asCLI()
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil || !strings.Contains(stderr.String(), " INFO  replaying") {
		t.Errorf("--log-format text: %v %q", err, stderr.String())
	}
}
