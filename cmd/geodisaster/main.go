// Command geodisaster executes the GeoDisaster benchmark's geospatial workers
// and runtime contract without GDAL.
//
// Each subcommand lives in its own file and registers itself with register;
// run "geodisaster help" for the list and "geodisaster CMD --help" for one.
// Every command uses the kit in internal/cli: help on stdout with
// examples, flags before or after operands, every missing required flag
// reported at once, readable logs on a terminal and log/slog JSON in pipes
// (--log-format), and a progress bar on long work on a terminal only.
//
// Exit codes (exitcodes.go, every command): 0 success; 1 the command ran,
// but some records failed or scored incorrect, or a check mismatched; 2
// usage error; 3 RESOURCE_BLOCKED and 4 corpus not verified (conformance);
// 5 could not run (bad or unreadable input, missing files, I/O failure);
// 130 and 143 interrupted by SIGINT or SIGTERM.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"

	kit "github.com/geodisaster/engine/internal/cli"
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

// newFlagSet returns the kit's flag set for a command: parseFlags accepts
// its flags before or after operands, and help (printed by the dispatcher
// on stdout) shows usage, flags, examples and exit codes. The writer is
// unused and kept so that command files written against the earlier
// signature still build.
func newFlagSet(name, usage string, _ io.Writer) *kit.FlagSet {
	return kit.NewFlagSet(name, usage)
}

// parseFlags parses args; afterwards fs.Args() holds the operands. Help
// requests come back as a *kit.HelpRequest (exit 0 once printed), bad
// flags and missing required flags as a *kit.UsageError (exit 2).
func parseFlags(fs *kit.FlagSet, args []string) error {
	_, err := fs.Parse(args)
	return err
}

// parseNoOperands is parseFlags for a command that takes no operands: an
// operand is a usage error.
func parseNoOperands(fs *kit.FlagSet, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("%s: unexpected arguments %q", fs.Name(), fs.Args())
	}
	return nil
}

// writeJSON writes v as indented JSON (the --json output of the commands).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON: %w", err)
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
	args, format, err := takeLogFormat(args)
	if err != nil {
		fmt.Fprintln(cio.stderr, "geodisaster:", err)
		return exitUsage
	}
	if cio.log == nil {
		level := slog.LevelInfo
		if v := os.Getenv("GEODISASTER_LOG"); v != "" {
			_ = level.UnmarshalText([]byte(v))
		}
		if format == "" {
			format = os.Getenv("GEODISASTER_LOG_FORMAT")
		}
		l, err := kit.NewLogger(cio.stderr, format, level)
		if err != nil {
			fmt.Fprintln(cio.stderr, "geodisaster:", err)
			return exitUsage
		}
		cio.log = l
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		if len(args) > 1 {
			c, ok := commands[args[1]]
			if !ok {
				fmt.Fprintf(cio.stderr, "geodisaster: unknown command %q (run 'geodisaster help')\n", args[1])
				return exitUsage
			}
			return exitCode(c.run(ctx, cio, []string{"--help"}), cio)
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

// takeLogFormat removes --log-format F (or --log-format=F, one or two
// dashes) from args, wherever it appears before a "--", and returns its
// value: the log format is one option of every command.
func takeLogFormat(args []string) ([]string, string, error) {
	var out []string
	format := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "log-format" {
			out = append(out, a)
			continue
		}
		if !hasValue {
			if i+1 == len(args) {
				return nil, "", kit.Usagef("--log-format needs a value: text or json")
			}
			i++
			value = args[i]
		}
		if value != kit.LogText && value != kit.LogJSON {
			return nil, "", kit.Usagef("--log-format %q: want text or json", value)
		}
		format = value
	}
	return out, format, nil
}

// commandOf returns the command an error message starts with ("replay:
// ..."), or "".
func commandOf(err error) string {
	name, _, ok := strings.Cut(err.Error(), ":")
	if !ok {
		return ""
	}
	name, _, _ = strings.Cut(name, " ")
	if _, known := commands[name]; known {
		return name
	}
	return ""
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "geodisaster: the GeoDisaster benchmark's geospatial engine (pure Go).")
	fmt.Fprintln(w, "\nusage: geodisaster COMMAND [flags] [operands]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-16s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "  version          print the engine version")
	fmt.Fprint(w, `
examples:
  geodisaster replay                                  # replay the embedded default corpus (FIXTURE)
  geodisaster inspect --stats --checksum scene.tif    # like gdalinfo -stats -checksum
  echo "40.64 -73.78 1.36 103.99" | geodisaster geod -i
  echo "-75 40" | geodisaster transform --from EPSG:4326 --to EPSG:32618   # lon lat to UTM 18N

Flags go before or after operands; every command has --help.
--log-format text|json (any command) chooses the log format on stderr:
text on a terminal and JSON otherwise by default; GEODISASTER_LOG=debug|info|warn|error
sets the verbosity. Long commands draw a progress bar on a terminal only.

exit codes:
`)
	for _, l := range kit.SharedExitCodes[:3] {
		fmt.Fprintf(w, "  %s\n", l)
	}
	fmt.Fprintln(w, "  3    RESOURCE_BLOCKED: the corpus it needs is absent (conformance)")
	fmt.Fprintln(w, "  4    the corpus did not verify (conformance)")
	for _, l := range kit.SharedExitCodes[3:] {
		fmt.Fprintf(w, "  %s\n", l)
	}
	fmt.Fprintln(w, "       (serve: a signal is its normal stop; a clean shutdown exits 0)")
}
