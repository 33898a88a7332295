package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	kit "github.com/geodisaster/engine/internal/cli"
)

// inspectCorpus is the committed raster conformance corpus.
const inspectCorpus = "../../conformance/raster/testdata"

// runCLI runs the CLI in-process through the dispatcher with args and
// stdin, returning the exit code and the streams.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), kit.IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb}, args)
	return code, out.String(), errb.String()
}

// TestEveryCommandHasHelpOnStdout: "CMD --help" and "help CMD" print usage,
// examples and the exit codes on stdout, nothing on stderr, and exit 0.
func TestEveryCommandHasHelpOnStdout(t *testing.T) {
	for name := range commands {
		for _, args := range [][]string{{name, "--help"}, {"help", name}, {name, "-h"}} {
			code, out, errs := runCLI(t, "", args...)
			if code != kit.ExitOK || errs != "" || !strings.Contains(out, "usage: geodisaster "+name) ||
				!strings.Contains(out, "examples:") || !strings.Contains(out, "2    usage error") {
				t.Errorf("%v: exit %d stderr %q\n%s", args, code, errs, out)
			}
		}
	}
	code, out, _ := runCLI(t, "", "help")
	if code != kit.ExitOK || !strings.Contains(out, "examples:") || !strings.Contains(out, "4    the corpus did not verify") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
}

func TestFlagsAfterOperandsAndMissingFlagsAtOnce(t *testing.T) {
	f := filepath.Join(inspectCorpus, "cog_deflate.tif")
	c1, o1, _ := runCLI(t, "", "inspect", "--json", f)
	c2, o2, _ := runCLI(t, "", "inspect", f, "--json")
	if c1 != kit.ExitOK || o1 != o2 || c2 != kit.ExitOK {
		t.Errorf("inspect FILE --json differs from inspect --json FILE (exit %d/%d)", c1, c2)
	}
	code, _, errs := runCLI(t, "", "serve")
	if code != kit.ExitUsage || !strings.Contains(errs, "missing required flags --dataset-root, --input, --record") || strings.Count(errs, "geodisaster:") != 1 {
		t.Errorf("serve without flags: exit %d %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "seal", "--bogus")
	if code != kit.ExitUsage || !strings.Contains(errs, "run 'geodisaster seal --help'") {
		t.Errorf("unknown flag: exit %d %q", code, errs)
	}
	if code, _, errs := runCLI(t, "", "--log-format", "xml", "help"); code != kit.ExitUsage || !strings.Contains(errs, "--log-format") {
		t.Errorf("bad --log-format: exit %d %q", code, errs)
	}
}

// TestHelpExamplesRun runs the examples of "geodisaster help" that read
// stdin, so that the overview never shows a command line that fails.
func TestHelpExamplesRun(t *testing.T) {
	_, out, _ := runCLI(t, "", "help")
	n := 0
	for _, line := range strings.Split(out, "\n") {
		in, cmd, ok := strings.Cut(strings.TrimSpace(line), " | geodisaster ")
		if !ok || !strings.HasPrefix(in, "echo ") {
			continue
		}
		cmd, _, _ = strings.Cut(cmd, "#")
		in = strings.Trim(strings.TrimPrefix(in, "echo "), `"`) + "\n"
		if code, _, errs := runCLI(t, in, strings.Fields(cmd)...); code != kit.ExitOK {
			t.Errorf("%s: exit %d %s", strings.TrimSpace(line), code, errs)
		}
		n++
	}
	if n == 0 {
		t.Error("help shows no piped example")
	}
}
