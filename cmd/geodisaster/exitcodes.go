package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	kit "github.com/geodisaster/engine/internal/cli"
)

// Exit codes shared by every subcommand (README "Exit codes"). A scheduler
// can act on them: 1 is final (the output is complete, its records are
// not all correct; rerunning gives the same), 5 may be retried once the
// input or the storage is fixed, 2 never succeeds as invoked, and 130/143
// mean the run was stopped and left nothing that looks complete.
const (
	// exitOK: the command ran and everything it checked passed.
	exitOK = 0
	// exitFailure: the command ran to the end, but some records failed or
	// scored incorrect, or a check or comparison mismatched.
	exitFailure = 1
	// exitUsage: unknown flag, missing required flag, bad operand.
	exitUsage = 2
	// exitResourceBlocked: conformance found no corpus (RESOURCE_BLOCKED).
	exitResourceBlocked = 3
	// exitNotVerified: conformance's corpus did not verify (DEGRADED).
	exitNotVerified = 4
	// exitCannotRun: bad or unreadable input, missing files, unreadable
	// corpus, I/O failure; the default for an error of no other kind.
	exitCannotRun = 5
	// exitInterrupted and exitTerminated: stopped by SIGINT or SIGTERM
	// (128 + the signal's number, as a shell reports it).
	exitInterrupted = 130
	exitTerminated  = 143
)

// usageError marks an error caused by bad command-line usage (exit code 2);
// the kit's *kit.UsageError (bad or missing flags) exits 2 as well.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef returns a usage error with a formatted message.
func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// failedError marks a command that ran to the end but whose records did
// not all pass, or whose check or comparison mismatched (exit code 1).
type failedError struct{ err error }

func (e failedError) Error() string { return e.err.Error() }
func (e failedError) Unwrap() error { return e.err }

// failedf returns a failedError with a formatted message.
func failedf(format string, args ...any) error {
	return failedError{fmt.Errorf(format, args...)}
}

// codeError carries one of conformance's own exit codes (3 or 4) once the
// command has written its outputs; msg is printed, err may be nil.
type codeError struct {
	code int
	msg  string
}

func (e codeError) Error() string { return e.msg }

// errInterrupted is returned by a command that stopped because its context
// was cancelled by a signal; main turns it into 130 or 143.
var errInterrupted = errors.New("interrupted")

// interruptedOr returns errInterrupted (wrapping the context's cause) when
// ctx was cancelled, else err.
func interruptedOr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %w", errInterrupted, context.Cause(ctx))
	}
	return err
}

// exitCode prints err (if any) and returns the matching exit code. A help
// request prints the command's help on stdout and exits 0; a usage error
// adds a hint to the command's --help.
func exitCode(err error, cio cmdIO) int {
	var help *kit.HelpRequest
	if errors.As(err, &help) {
		if werr := help.FlagSet.WriteHelp(cio.stdout); werr != nil {
			fmt.Fprintln(cio.stderr, "geodisaster:", werr)
			return exitCannotRun
		}
		return exitOK
	}
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	fmt.Fprintln(cio.stderr, "geodisaster:", err)
	code := codeOf(err)
	if code == exitUsage {
		if name := commandOf(err); name != "" {
			fmt.Fprintf(cio.stderr, "run 'geodisaster %s --help' for usage\n", name)
		}
	}
	return code
}

// codeOf maps an error to its exit code without printing it.
func codeOf(err error) int {
	var ue usageError
	var ke *kit.UsageError
	var fe failedError
	var ce codeError
	var se signalError
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &se):
		return se.code()
	case errors.Is(err, errInterrupted):
		return exitInterrupted
	case errors.As(err, &ue), errors.As(err, &ke):
		return exitUsage
	case errors.As(err, &fe):
		return exitFailure
	case errors.As(err, &ce):
		return ce.code
	}
	return exitCannotRun
}

// signalError is the cause of a context cancelled by a signal.
type signalError struct{ sig os.Signal }

func (e signalError) Error() string { return "received " + e.sig.String() }

func (e signalError) code() int {
	if e.sig == syscall.SIGTERM {
		return exitTerminated
	}
	return exitInterrupted
}

// signalContext returns a context cancelled, with a signalError as its
// cause, by the first SIGINT or SIGTERM; a second signal exits at once
// with the matching code (for a user who does not want to wait for the
// cleanup). stop releases the signal handlers.
func signalContext(parent context.Context, stderr io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			fmt.Fprintf(stderr, "geodisaster: %s: stopping (cleaning up; a second signal exits at once)\n", sig)
			cancel(signalError{sig})
		case <-done:
			return
		}
		select {
		case sig := <-ch:
			os.Exit(signalError{sig}.code())
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// finalCode is the process's exit code: a run cancelled by a signal exits
// 130 or 143 whatever the command returned.
func finalCode(ctx context.Context, code int) int {
	var se signalError
	if errors.As(context.Cause(ctx), &se) {
		return se.code()
	}
	return code
}
