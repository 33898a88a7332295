package cmdtest

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	kit "github.com/geodisaster/engine/internal/cli"
)

// echo prints its operands as a JSON array; "fail" as the first one makes
// it exit 1 after printing, "bad" prints no JSON.
var echo = []kit.Command{{Name: "echo", Run: func(_ context.Context, cio kit.IO, args []string) error {
	if len(args) > 0 && args[0] == "bad" {
		fmt.Fprintln(cio.Stdout, "not JSON")
		return nil
	}
	if err := kit.WriteJSON(cio.Stdout, args); err != nil {
		return err
	}
	if len(args) > 0 && args[0] == "fail" {
		return kit.Failedf("echo: failed")
	}
	return nil
}}}

// fatalRecorder is a testing.TB whose Fatalf records the message and ends
// the goroutine, as the real one does.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (r *fatalRecorder) Helper() {}
func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// fatalOf runs f with a fatalRecorder and returns what it failed with.
func fatalOf(t *testing.T, f func(tb testing.TB)) string {
	r := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.msg
}

func TestRunJSON(t *testing.T) {
	var got []string
	out := RunJSON(t, echo, kit.ExitOK, &got, "echo", "a", "b")
	if strings.Join(got, ",") != "a,b" || !strings.Contains(out, `"a"`) {
		t.Errorf("decoded %q from %q", got, out)
	}
	RunJSON(t, echo, kit.ExitFailure, &got, "echo", "fail")
	if len(got) != 1 || got[0] != "fail" {
		t.Errorf("decoded %q from a failed run", got)
	}
	if msg := fatalOf(t, func(tb testing.TB) { RunJSON(tb, echo, kit.ExitOK, &got, "echo", "fail") }); !strings.Contains(msg, "exit 1, want 0") {
		t.Errorf("wrong exit code: failed with %q", msg)
	}
	if msg := fatalOf(t, func(tb testing.TB) { RunJSON(tb, echo, kit.ExitOK, &got, "echo", "bad") }); !strings.Contains(msg, "bad JSON output") {
		t.Errorf("non-JSON output: failed with %q", msg)
	}
}
