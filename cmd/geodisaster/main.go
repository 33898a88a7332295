// Command geodisaster executes the GeoDisaster benchmark's geospatial workers
// and runtime contract without GDAL.
//
// The subcommands that are tools of their own live in packages under
// internal/ (inspect, geod, transform, score, mixture, audit), each with
// a Commands function; the others live in this package's files and
// register themselves with register;
// run "geodisaster help" for the list and "geodisaster CMD --help" for one.
// Every command uses the kit in internal/cli: help on stdout with
// examples, flags before or after operands, every missing required flag
// reported at once, readable logs on a terminal and log/slog JSON in pipes
// (--log-format), and a progress bar on long work on a terminal only.
//
// Exit codes (internal/cli, every command): 0 success; 1 the command ran,
// but some records failed or scored incorrect, or a check mismatched; 2
// usage error; 3 RESOURCE_BLOCKED and 4 corpus not verified (conformance);
// 5 could not run (bad or unreadable input, missing files, I/O failure);
// 130 and 143 interrupted by SIGINT or SIGTERM.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"

	"github.com/geodisaster/engine/cmd/geodisaster/internal/audit"
	"github.com/geodisaster/engine/cmd/geodisaster/internal/geod"
	"github.com/geodisaster/engine/cmd/geodisaster/internal/inspect"
	"github.com/geodisaster/engine/cmd/geodisaster/internal/mixture"
	"github.com/geodisaster/engine/cmd/geodisaster/internal/score"
	"github.com/geodisaster/engine/cmd/geodisaster/internal/transform"
	kit "github.com/geodisaster/engine/internal/cli"
)

// commands holds every subcommand by name: those of the packages under
// internal/ and the replay, corpus and serving commands of this package,
// which register themselves from their files' init functions.
var commands = map[string]kit.Command{}

func init() {
	for _, cs := range [][]kit.Command{
		audit.Commands(), geod.Commands(), inspect.Commands(), mixture.Commands(), score.Commands(), transform.Commands(),
	} {
		for _, c := range cs {
			register(c)
		}
	}
}

// register adds a subcommand; it is called from init functions only.
func register(c kit.Command) {
	if _, dup := commands[c.Name]; dup {
		panic("geodisaster: duplicate command " + c.Name)
	}
	commands[c.Name] = c
}

// isCommand reports whether name is a subcommand.
func isCommand(name string) bool {
	_, ok := commands[name]
	return ok
}

func main() {
	ctx, stop := kit.SignalContext(context.Background(), os.Stderr)
	code := run(ctx, kit.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, os.Args[1:])
	stop()
	os.Exit(code)
}

// run dispatches args to a subcommand and maps its error to an exit code.
func run(ctx context.Context, cio kit.IO, args []string) int {
	args, format, err := takeLogFormat(args)
	if err != nil {
		fmt.Fprintln(cio.Stderr, "geodisaster:", err)
		return kit.ExitUsage
	}
	if cio.Log == nil {
		level := slog.LevelInfo
		if v := os.Getenv("GEODISASTER_LOG"); v != "" {
			_ = level.UnmarshalText([]byte(v))
		}
		if format == "" {
			format = os.Getenv("GEODISASTER_LOG_FORMAT")
		}
		l, err := kit.NewLogger(cio.Stderr, format, level)
		if err != nil {
			fmt.Fprintln(cio.Stderr, "geodisaster:", err)
			return kit.ExitUsage
		}
		cio.Log = l
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		if len(args) > 1 {
			c, ok := commands[args[1]]
			if !ok {
				fmt.Fprintf(cio.Stderr, "geodisaster: unknown command %q (run 'geodisaster help')\n", args[1])
				return kit.ExitUsage
			}
			return kit.ExitCode(c.Run(ctx, cio, []string{"--help"}), cio, isCommand)
		}
		printHelp(cio.Stdout)
		if len(args) == 0 {
			return kit.ExitUsage
		}
		return kit.ExitOK
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintln(cio.Stdout, "geodisaster", version())
		return kit.ExitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(cio.Stderr, "geodisaster: unknown command %q (run 'geodisaster help')\n", args[0])
		return kit.ExitUsage
	}
	code := kit.ExitCode(c.Run(ctx, cio, args[1:]), cio, isCommand)
	if c.SignalIsStop && code == kit.ExitOK {
		// serve: a signal is how a server is told to stop; a clean
		// shutdown (every session closed, its episode written) succeeded.
		return code
	}
	return kit.FinalCode(ctx, code)
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

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "geodisaster: the GeoDisaster benchmark's geospatial engine (pure Go).")
	fmt.Fprintln(w, "\nusage: geodisaster COMMAND [flags] [operands]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-16s %s\n", n, commands[n].Summary)
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
