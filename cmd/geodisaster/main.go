// Command geodisaster executes the GeoDisaster benchmark's geospatial workers
// and runtime contract without GDAL.
//
// Each subcommand lives in its own file and registers itself with register;
// run "geodisaster help" for the list and "geodisaster CMD --help" for one.
//
// Exit codes (exitcodes.go): 0 success; 1 the command ran but some records
// failed or a check mismatched; 2 usage error; 3 and 4 conformance's
// RESOURCE_BLOCKED and not verified; 5 could not run; 130 and 143 stopped by
// SIGINT or SIGTERM.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
)

// command is one subcommand of the CLI.
type command struct {
	name    string
	summary string
	// run executes the command with its own arguments (without the name).
	run func(ctx context.Context, io cmdIO, args []string) error
	// signalIsStop: SIGINT/SIGTERM is this command's normal way to end
	// (serve), so a clean shutdown after one exits 0, not 130/143.
	signalIsStop bool
}

// cmdIO carries the standard streams and logger of one invocation so that
// commands can be tested without touching the process globals.
type cmdIO struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	log    *slog.Logger
}

// commands is filled by the register calls in each subcommand's file.
var commands = map[string]command{}

// register adds a subcommand; it is called from init functions only.
func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("geodisaster: duplicate command " + c.name)
	}
	commands[c.name] = c
}

// newFlagSet returns a flag set that reports errors instead of exiting and
// prints usage with the command's summary.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: geodisaster %s %s\n\nflags:\n", name, usage)
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "\n"+exitCodesShort)
	}
	return fs
}

// parseFlags parses args and turns flag errors into usage errors; -h/--help
// is reported as flag.ErrHelp so the caller exits 0.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	return nil
}

func main() {
	ctx, stop := signalContext(context.Background(), os.Stderr)
	code := run(ctx, cmdIO{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:])
	stop()
	os.Exit(code)
}

// run dispatches args to a subcommand and maps its error to an exit code.
func run(ctx context.Context, cio cmdIO, args []string) int {
	level := slog.LevelInfo
	if v := os.Getenv("GEODISASTER_LOG"); v != "" {
		_ = level.UnmarshalText([]byte(v))
	}
	if cio.log == nil {
		cio.log = slog.New(slog.NewTextHandler(cio.stderr, &slog.HandlerOptions{Level: level}))
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				return exitCode(c.run(ctx, cio, []string{"--help"}), cio)
			}
		}
		printHelp(cio.stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintln(cio.stdout, "geodisaster", version())
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(cio.stderr, "geodisaster: unknown command %q (run 'geodisaster help')\n", args[0])
		return exitUsage
	}
	code := exitCode(c.run(ctx, cio, args[1:]), cio)
	if c.signalIsStop && code == exitOK {
		// serve: a signal is how a server is told to stop; a clean
		// shutdown (every session closed, its episode written) succeeded.
		return code
	}
	return finalCode(ctx, code)
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "geodisaster: the GeoDisaster benchmark's geospatial engine (pure Go).")
	fmt.Fprintln(w, "\nusage: geodisaster COMMAND [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-16s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "  version          print the engine version")
	fmt.Fprintln(w, "\nRun 'geodisaster COMMAND --help' for a command's flags.")
	fmt.Fprintln(w, "Set GEODISASTER_LOG=debug|info|warn|error for log verbosity.")
	fmt.Fprintln(w, "\n"+exitCodesHelp)
}
