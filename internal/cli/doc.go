// Package cli is the command-line kit every geodisaster command uses: the
// Command type and the IO it runs with; flag sets that accept flags
// before or after operands, report every missing required flag at once
// and print their help (usage, flags, examples and the shared exit codes)
// on standard output; the exit-code contract (usage, failed and
// conformance errors, Code and ExitCode) and the signal context that
// turns SIGINT and SIGTERM into 130 and 143; loggers that write readable
// lines on a terminal and log/slog JSON in pipes; and progress bars drawn
// only on a terminal.
//
// It knows nothing about the commands themselves.
package cli
