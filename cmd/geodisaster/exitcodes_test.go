package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"syscall"
	"testing"

	kit "github.com/geodisaster/engine/internal/cli"
)

func TestExitCodeContract(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, exitOK},
		{flag.ErrHelp, exitOK},
		{failedf("replay: 1 of 2 records failed"), exitFailure},
		{fmt.Errorf("wrapped: %w", failedf("x")), exitFailure},
		{usagef("bad flag"), exitUsage},
		{kit.Usagef("demo: missing required flag --out"), exitUsage},
		{&kit.HelpRequest{}, exitOK},
		{codeError{code: exitResourceBlocked}, exitResourceBlocked},
		{codeError{code: exitNotVerified}, exitNotVerified},
		{errors.New("open x: no such file"), exitCannotRun},
		{os.ErrNotExist, exitCannotRun},
		{fmt.Errorf("%w: %w", errInterrupted, signalError{syscall.SIGTERM}), exitTerminated},
		{fmt.Errorf("%w: %w", errInterrupted, signalError{os.Interrupt}), exitInterrupted},
	} {
		if got := codeOf(tc.err); got != tc.want {
			t.Errorf("codeOf(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(signalError{syscall.SIGTERM})
	if got := finalCode(ctx, exitOK); got != exitTerminated {
		t.Errorf("finalCode after SIGTERM = %d", got)
	}
	if got := interruptedOr(ctx, nil); codeOf(got) != exitTerminated {
		t.Errorf("interruptedOr after SIGTERM = %v", got)
	}
	if got := finalCode(context.Background(), exitFailure); got != exitFailure {
		t.Errorf("finalCode without a signal = %d", got)
	}
}

// Every command maps a missing input file to 5 and a bad flag to 2.
func TestEveryCommandFollowsTheContract(t *testing.T) {
	missing := t.TempDir() + "/missing"
	for _, args := range [][]string{
		{"replay", "--input", missing},
		{"merge", "--output-dir", t.TempDir() + "/m", missing},
		{"score", "--gold", missing, "--pred", missing},
		{"inspect", missing},
		{"area", missing},
		{"audit-splits", "--records", missing},
		{"verify-seal", "--dir", t.TempDir(), "--seal", missing},
		{"geoktools-score", "--batch", missing},
		{"hydrate", "sen1floods11", "--dest", missing, "--verify-only"},
	} {
		if code, _, e := cli(t, args...); code != exitCannotRun {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitCannotRun, e)
		}
		if code, _, e := cli(t, args[0], "--no-such-flag"); code != exitUsage {
			t.Errorf("%s --no-such-flag: exit %d, want %d (%s)", args[0], code, exitUsage, e)
		}
	}
}
