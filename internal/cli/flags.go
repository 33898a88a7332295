package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// A UsageError reports bad command-line usage: an unknown flag, a missing
// required flag, a bad operand. Commands exit with code 2 for it.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef returns a *UsageError with a formatted message.
func Usagef(format string, args ...any) error {
	return &UsageError{fmt.Errorf(format, args...)}
}

// A HelpRequest is returned by Parse when the arguments ask for help (-h,
// -help or --help). It wraps flag.ErrHelp; the caller prints Help to
// standard output and exits 0.
type HelpRequest struct{ FlagSet *FlagSet }

func (h *HelpRequest) Error() string { return flag.ErrHelp.Error() }
func (h *HelpRequest) Unwrap() error { return flag.ErrHelp }

// Example is one example invocation in a command's help.
type Example struct {
	Command string // the command line, without a prompt
	What    string // what it does (optional)
}

// FlagSet is a flag.FlagSet with the kit's conventions. Flags are written
// --name in help and accepted as -name, --name, --name=value or --name
// value; they may come before, between or after operands, and "--" ends
// them. Define flags with the embedded flag.FlagSet's methods.
type FlagSet struct {
	*flag.FlagSet
	// Synopsis is what follows the command name in the usage line ("[flags] FILE").
	Synopsis string
	// Description is printed under the synopsis (optional).
	Description string
	// ExitCodes are extra exit-code lines after the shared ones.
	ExitCodes []string

	examples []Example
	required []string
}

// NewFlagSet returns an empty flag set for command name (for example
// "inspect" or "hydrate sen1floods11").
func NewFlagSet(name, usage string) *FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := &FlagSet{FlagSet: fs, Synopsis: usage}
	// flag.FlagSet.Usage is what the standard library calls on -h; help is
	// printed by the caller from the HelpRequest instead.
	fs.Usage = func() {}
	return f
}

// Example adds an example to the help.
func (f *FlagSet) Example(command, what string) {
	f.examples = append(f.examples, Example{Command: command, What: what})
}

// Require marks flags that must be set; Parse reports every one that is
// missing in one error.
func (f *FlagSet) Require(names ...string) {
	for _, n := range names {
		if f.Lookup(n) == nil {
			panic("cli: Require of undefined flag " + n)
		}
	}
	f.required = append(f.required, names...)
}

// IsSet reports whether flag name was given on the command line.
func (f *FlagSet) IsSet(name string) bool {
	seen := false
	f.Visit(func(fl *flag.Flag) { seen = seen || fl.Name == name })
	return seen
}

// Parse parses args, accepting flags anywhere among the operands (before a
// "--"), and returns the operands in order; Args, NArg and Arg report
// them too. A help flag gives a
// *HelpRequest; a bad or missing flag a *UsageError naming every missing
// required flag at once.
func (f *FlagSet) Parse(args []string) ([]string, error) {
	var operands []string
	rest := args
	for {
		if err := f.FlagSet.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, &HelpRequest{FlagSet: f}
			}
			return nil, &UsageError{fmt.Errorf("%s: %w", f.Name(), err)}
		}
		left := f.Args()
		consumed := len(rest) - len(left)
		if consumed > 0 && rest[consumed-1] == "--" {
			operands = append(operands, left...)
			break
		}
		if len(left) == 0 {
			break
		}
		operands = append(operands, left[0])
		rest = left[1:]
	}
	// Leave the operands where flag.FlagSet.Args finds them.
	if err := f.FlagSet.Parse(append([]string{"--"}, operands...)); err != nil {
		return nil, &UsageError{fmt.Errorf("%s: %w", f.Name(), err)}
	}
	var missing []string
	for _, n := range f.required {
		if !f.IsSet(n) {
			missing = append(missing, "--"+n)
		}
	}
	if len(missing) > 0 {
		return operands, MissingFlags(f.Name(), missing...)
	}
	return operands, nil
}

// MissingFlags returns the *UsageError of command cmd for the missing
// required flags (written "--name"), named all at once.
func MissingFlags(cmd string, flags ...string) error {
	word := "flag"
	if len(flags) > 1 {
		word = "flags"
	}
	return &UsageError{fmt.Errorf("%s: missing required %s %s", cmd, word, strings.Join(flags, ", "))}
}

// SharedExitCodes is the exit-code contract every command follows.
var SharedExitCodes = []string{
	"0    success",
	"1    the command ran, but some records failed or scored incorrect, or a check mismatched",
	"2    usage error (unknown flag, missing required flag, bad operand)",
	"5    could not run: bad or unreadable input, missing files, I/O failure",
	"130  interrupted (SIGINT); 143 terminated (SIGTERM); nothing that looks complete is left behind",
}

// WriteHelp writes the command's help: synopsis, description, flags,
// examples and exit codes.
func (f *FlagSet) WriteHelp(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: geodisaster %s %s\n", f.Name(), f.Synopsis)
	if f.Description != "" {
		fmt.Fprintf(&b, "\n%s\n", strings.TrimRight(f.Description, "\n"))
	}
	var flags []*flag.Flag
	f.VisitAll(func(fl *flag.Flag) { flags = append(flags, fl) })
	sort.Slice(flags, func(i, j int) bool { return flags[i].Name < flags[j].Name })
	b.WriteString("\nflags:\n")
	if len(flags) > 0 {
		req := map[string]bool{}
		for _, n := range f.required {
			req[n] = true
		}
		for _, fl := range flags {
			arg, usage := flag.UnquoteUsage(fl)
			switch {
			case req[fl.Name]:
				usage += " (required)"
			case fl.DefValue != "" && fl.DefValue != "false" && fl.DefValue != "0":
				usage += fmt.Sprintf(" (default %s)", fl.DefValue)
			}
			b.WriteString(flagLine(fl.Name, arg, usage))
		}
	}
	b.WriteString(flagLine("log-format", "F", "logs on stderr: text or json (default: text on a terminal, json otherwise)"))
	if len(f.examples) > 0 {
		b.WriteString("\nexamples:\n")
		for _, e := range f.examples {
			if e.What != "" {
				fmt.Fprintf(&b, "  # %s\n", e.What)
			}
			fmt.Fprintf(&b, "  %s\n", e.Command)
		}
	}
	b.WriteString("\nexit codes:\n")
	codes := append(append([]string{}, SharedExitCodes...), f.ExitCodes...)
	sort.SliceStable(codes, func(i, j int) bool { return leadingInt(codes[i]) < leadingInt(codes[j]) })
	for _, l := range codes {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// leadingInt returns the number an exit-code line starts with.
func leadingInt(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			break
		}
		n = 10*n + int(c-'0')
	}
	return n
}

// flagLine formats one flag of the help: "  --name arg" and its usage from
// column 24 (on the next line when the name is longer).
func flagLine(name, arg, usage string) string {
	const col = 24
	line := "  --" + name
	if arg != "" {
		line += " " + arg
	}
	if len(line) < col-1 {
		line += strings.Repeat(" ", col-len(line))
	} else {
		line += "\n" + strings.Repeat(" ", col)
	}
	return line + strings.ReplaceAll(usage, "\n", "\n"+strings.Repeat(" ", col)) + "\n"
}
