package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryCommandHasHelpOnStdout: "CMD --help" and "help CMD" print usage,
// examples and the exit codes on stdout, nothing on stderr, and exit 0.
func TestEveryCommandHasHelpOnStdout(t *testing.T) {
	for name := range commands {
		for _, args := range [][]string{{name, "--help"}, {"help", name}, {name, "-h"}} {
			code, out, errs := runCLI(t, "", args...)
			if code != exitOK || errs != "" || !strings.Contains(out, "usage: geodisaster "+name) ||
				!strings.Contains(out, "examples:") || !strings.Contains(out, "2    usage error") {
				t.Errorf("%v: exit %d stderr %q\n%s", args, code, errs, out)
			}
		}
	}
	code, out, _ := runCLI(t, "", "help")
	if code != exitOK || !strings.Contains(out, "examples:") || !strings.Contains(out, "4    the corpus did not verify") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
}

func TestFlagsAfterOperandsAndMissingFlagsAtOnce(t *testing.T) {
	f := filepath.Join(inspectCorpus, "cog_deflate.tif")
	c1, o1, _ := runCLI(t, "", "inspect", "--json", f)
	c2, o2, _ := runCLI(t, "", "inspect", f, "--json")
	if c1 != exitOK || o1 != o2 || c2 != exitOK {
		t.Errorf("inspect FILE --json differs from inspect --json FILE (exit %d/%d)", c1, c2)
	}
	code, _, errs := runCLI(t, "", "serve")
	if code != exitUsage || !strings.Contains(errs, "missing required flags --dataset-root, --input, --record") || strings.Count(errs, "geodisaster:") != 1 {
		t.Errorf("serve without flags: exit %d %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "seal", "--bogus")
	if code != exitUsage || !strings.Contains(errs, "run 'geodisaster seal --help'") {
		t.Errorf("unknown flag: exit %d %q", code, errs)
	}
	if code, _, errs := runCLI(t, "", "--log-format", "xml", "help"); code != exitUsage || !strings.Contains(errs, "--log-format") {
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
		if code, _, errs := runCLI(t, in, strings.Fields(cmd)...); code != exitOK {
			t.Errorf("%s: exit %d %s", strings.TrimSpace(line), code, errs)
		}
		n++
	}
	if n == 0 {
		t.Error("help shows no piped example")
	}
}
