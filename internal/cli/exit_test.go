package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"syscall"
	"testing"
)

func TestExitCodeContract(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, ExitOK},
		{flag.ErrHelp, ExitOK},
		{Failedf("replay: 1 of 2 records failed"), ExitFailure},
		{fmt.Errorf("wrapped: %w", Failedf("x")), ExitFailure},
		{Usagef("bad flag"), ExitUsage},
		{Usagef("demo: missing required flag --out"), ExitUsage},
		{&HelpRequest{}, ExitOK},
		{CodeError{Code: ExitResourceBlocked}, ExitResourceBlocked},
		{CodeError{Code: ExitNotVerified}, ExitNotVerified},
		{errors.New("open x: no such file"), ExitCannotRun},
		{os.ErrNotExist, ExitCannotRun},
		{fmt.Errorf("%w: %w", ErrInterrupted, SignalError{syscall.SIGTERM}), ExitTerminated},
		{fmt.Errorf("%w: %w", ErrInterrupted, SignalError{os.Interrupt}), ExitInterrupted},
	} {
		if got := Code(tc.err); got != tc.want {
			t.Errorf("Code(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(SignalError{syscall.SIGTERM})
	if got := FinalCode(ctx, ExitOK); got != ExitTerminated {
		t.Errorf("finalCode after SIGTERM = %d", got)
	}
	if got := InterruptedOr(ctx, nil); Code(got) != ExitTerminated {
		t.Errorf("interruptedOr after SIGTERM = %v", got)
	}
	if got := FinalCode(context.Background(), ExitFailure); got != ExitFailure {
		t.Errorf("finalCode without a signal = %d", got)
	}
}
