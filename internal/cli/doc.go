// Package cli is the command-line kit every geodisaster command uses: flag
// sets that accept flags before or after operands, report every missing
// required flag at once and print their help (usage, flags, examples and
// the shared exit codes) on standard output; loggers that write readable
// lines on a terminal and log/slog JSON in pipes; and progress bars drawn
// only on a terminal.
//
// It knows nothing about the commands themselves.
package cli
