package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	goruntime "runtime"
)

// IO carries the standard streams and the logger of one invocation, so
// that a command runs in tests without touching the process globals.
type IO struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Log    *slog.Logger
}

// A Command is one subcommand of geodisaster.
type Command struct {
	Name    string
	Summary string // one line in "geodisaster help"
	// Run executes the command with its own arguments (without the name).
	// Its error decides the exit code (see Code).
	Run func(ctx context.Context, io IO, args []string) error
	// SignalIsStop: SIGINT/SIGTERM is the command's normal way to end
	// (serve), so a clean shutdown after one exits 0, not 130/143.
	SignalIsStop bool
}

// ParseNoOperands parses args for a command that takes no operands: an
// operand is a usage error.
func (f *FlagSet) ParseNoOperands(args []string) error {
	if _, err := f.Parse(args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return Usagef("%s: unexpected arguments %q", f.Name(), f.Args())
	}
	return nil
}

// WriteJSON writes v as indented JSON (the --json output of the commands).
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	return nil
}

// DefaultWorkers is the default of every --workers flag: every core.
func DefaultWorkers() int { return goruntime.NumCPU() }
