package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// Exit codes shared by every command (README "Exit codes"). A scheduler
// can act on them: 1 is final (the output is complete, its records are
// not all correct; rerunning gives the same), 5 may be retried once the
// input or the storage is fixed, 2 never succeeds as invoked, and 130/143
// mean the run was stopped and left nothing that looks complete.
const (
	// ExitOK: the command ran and everything it checked passed.
	ExitOK = 0
	// ExitFailure: the command ran to the end, but some records failed or
	// scored incorrect, or a check or comparison mismatched.
	ExitFailure = 1
	// ExitUsage: unknown flag, missing required flag, bad operand.
	ExitUsage = 2
	// ExitResourceBlocked: conformance found no corpus (RESOURCE_BLOCKED).
	ExitResourceBlocked = 3
	// ExitNotVerified: conformance's corpus did not verify (DEGRADED).
	ExitNotVerified = 4
	// ExitCannotRun: bad or unreadable input, missing files, unreadable
	// corpus, I/O failure; the default for an error of no other kind.
	ExitCannotRun = 5
	// ExitInterrupted and ExitTerminated: stopped by SIGINT or SIGTERM
	// (128 + the signal's number, as a shell reports it).
	ExitInterrupted = 130
	ExitTerminated  = 143
)

// A FailedError marks a command that ran to the end but whose records did
// not all pass, or whose check or comparison mismatched (exit code 1).
type FailedError struct{ Err error }

func (e FailedError) Error() string { return e.Err.Error() }
func (e FailedError) Unwrap() error { return e.Err }

// Failedf returns a FailedError with a formatted message.
func Failedf(format string, args ...any) error {
	return FailedError{fmt.Errorf(format, args...)}
}

// A CodeError carries one of conformance's own exit codes (3 or 4) once
// the command has written its outputs; Msg is printed.
type CodeError struct {
	Code int
	Msg  string
}

func (e CodeError) Error() string { return e.Msg }

// ErrInterrupted is returned by a command that stopped because its
// context was cancelled by a signal; it exits 130 or 143.
var ErrInterrupted = errors.New("interrupted")

// InterruptedOr returns ErrInterrupted (wrapping the context's cause) when
// ctx was cancelled, else err.
func InterruptedOr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %w", ErrInterrupted, context.Cause(ctx))
	}
	return err
}

// ExitCode prints err (if any) on io.Stderr and returns the matching exit
// code. A help request prints the command's help on io.Stdout and exits
// 0; a usage error whose message starts with a command's name (known
// reports the names) adds a hint to that command's --help.
func ExitCode(err error, io IO, known func(name string) bool) int {
	var help *HelpRequest
	if errors.As(err, &help) {
		if werr := help.FlagSet.WriteHelp(io.Stdout); werr != nil {
			fmt.Fprintln(io.Stderr, "geodisaster:", werr)
			return ExitCannotRun
		}
		return ExitOK
	}
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	fmt.Fprintln(io.Stderr, "geodisaster:", err)
	code := Code(err)
	if code == ExitUsage {
		if name := commandOf(err, known); name != "" {
			fmt.Fprintf(io.Stderr, "run 'geodisaster %s --help' for usage\n", name)
		}
	}
	return code
}

// commandOf returns the command an error message starts with ("replay:
// ..."), or "".
func commandOf(err error, known func(string) bool) string {
	name, _, ok := strings.Cut(err.Error(), ":")
	if !ok || known == nil {
		return ""
	}
	name, _, _ = strings.Cut(name, " ")
	if known(name) {
		return name
	}
	return ""
}

// Code maps an error to its exit code without printing it.
func Code(err error) int {
	var ke *UsageError
	var fe FailedError
	var ce CodeError
	var se SignalError
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return ExitOK
	case errors.As(err, &se):
		return se.Code()
	case errors.Is(err, ErrInterrupted):
		return ExitInterrupted
	case errors.As(err, &ke):
		return ExitUsage
	case errors.As(err, &fe):
		return ExitFailure
	case errors.As(err, &ce):
		return ce.Code
	}
	return ExitCannotRun
}

// A SignalError is the cause of a context cancelled by a signal.
type SignalError struct{ Signal os.Signal }

func (e SignalError) Error() string { return "received " + e.Signal.String() }

// Code is the exit code of a process stopped by the signal: 143 for
// SIGTERM, 130 otherwise.
func (e SignalError) Code() int {
	if e.Signal == syscall.SIGTERM {
		return ExitTerminated
	}
	return ExitInterrupted
}

// SignalContext returns a context cancelled, with a SignalError as its
// cause, by the first SIGINT or SIGTERM; a second signal exits at once
// with the matching code (for a user who does not want to wait for the
// cleanup). stop releases the signal handlers.
func SignalContext(parent context.Context, stderr io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			fmt.Fprintf(stderr, "geodisaster: %s: stopping (cleaning up; a second signal exits at once)\n", sig)
			cancel(SignalError{sig})
		case <-done:
			return
		}
		select {
		case sig := <-ch:
			os.Exit(SignalError{sig}.Code())
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// FinalCode is the process's exit code: a run cancelled by a signal exits
// 130 or 143 whatever the command returned.
func FinalCode(ctx context.Context, code int) int {
	var se SignalError
	if errors.As(context.Cause(ctx), &se) {
		return se.Code()
	}
	return code
}
