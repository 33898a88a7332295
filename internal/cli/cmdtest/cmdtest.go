// Package cmdtest runs geodisaster commands in tests as the dispatcher
// does, and finds the native tools the tests compare against.
package cmdtest

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	kit "github.com/geodisaster/engine/internal/cli"
)

// Run runs the command args[0] of cmds with the operands and flags
// args[1:] and stdin as its standard input, the way geodisaster's
// dispatcher does: help and errors printed, exit code returned. It logs
// to stderr as slog JSON (a buffer is no terminal).
func Run(t testing.TB, cmds []kit.Command, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if len(args) == 2 && args[0] == "help" {
		args = []string{args[1], "--help"} // "help CMD", as the dispatcher reads it
	}
	var out, errb bytes.Buffer
	log, err := kit.NewLogger(&errb, kit.LogAuto, slog.LevelInfo)
	if err != nil {
		t.Fatal(err)
	}
	io := kit.IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Log: log}
	known := func(name string) bool {
		for _, c := range cmds {
			if c.Name == name {
				return true
			}
		}
		return false
	}
	for _, c := range cmds {
		if len(args) > 0 && c.Name == args[0] {
			ctx := context.Background()
			code := kit.ExitCode(c.Run(ctx, io, args[1:]), io, known)
			return code, out.String(), errb.String()
		}
	}
	t.Fatalf("cmdtest: no command %q", args)
	return 0, "", ""
}

// RunJSON runs args as Run does, with empty standard input, fails the
// test unless the command exits with code want, and decodes its standard
// output (a --json report) into v. It returns the standard output.
func RunJSON(t testing.TB, cmds []kit.Command, want int, v any, args ...string) string {
	t.Helper()
	code, out, errs := Run(t, cmds, "", args...)
	if code != want {
		t.Fatalf("%v: exit %d, want %d: %s", args, code, want, errs)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("%v: bad JSON output: %v\n%s", args, err, out)
	}
	return out
}

// NeedTool returns the path of a native tool a test compares against: it
// fails under CI=true (.ci/steps/00-native-stack.sh installs the native
// stack there) and skips elsewhere when the tool is absent.
func NeedTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but %s is not installed (.ci/steps/00-native-stack.sh installs it)", name)
	}
	t.Skipf("%s is not installed; the comparison with it did not run", name)
	return ""
}

// WriteFile writes content to name under dir and returns its path.
func WriteFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
