// Package pointlines reads points from standard input one per line and
// writes one converted line for each, the loop the coordinate commands
// (geod's script forms, transform) share: blank and '#' lines are copied,
// failed lines are reported on stderr with their number and counted.
package pointlines

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"strings"

	kit "github.com/geodisaster/engine/internal/cli"
)

// FormatFloat prints v at full precision: the shortest decimal that reads
// back as the same float64, without an exponent.
func FormatFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// Numbers reads numeric lines from cio.Stdin, calls f with the first n
// numbers of each and prints its result followed by any further fields
// (blank and '#' lines are copied, see Each). Failed or
// unparsable lines print f's failure text (or "*" fields for unparsable
// input) and are counted; the returned error reports how many failed.
func Numbers(ctx context.Context, cio kit.IO, name string, n int, f func([]float64) (string, error)) error {
	vals := make([]float64, n)
	return Each(ctx, cio, name, func(text string) (string, error) {
		fields := strings.FieldsFunc(strings.TrimSpace(text), func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
		out, err := "", error(nil)
		if len(fields) < n {
			err = fmt.Errorf("want %d numbers, got %d fields", n, len(fields))
		} else {
			for i := range n {
				v, perr := strconv.ParseFloat(fields[i], 64)
				if perr != nil {
					err = fmt.Errorf("field %d: %q is not a number", i+1, fields[i])
					break
				}
				vals[i] = v
			}
			if err == nil {
				out, err = f(vals)
			}
		}
		if err != nil && out == "" {
			out = strings.TrimSpace(strings.Repeat("* ", n))
		}
		if len(fields) > n {
			out += " " + strings.Join(fields[n:], " ")
		}
		return out, err
	})
}

// Each copies the blank and '#' lines of cio.Stdin to cio.Stdout
// and writes conv(line) for every other line; a line whose conversion
// fails is reported on cio.Stderr with its number and counted, and the
// returned error says how many of the points failed.
func Each(ctx context.Context, cio kit.IO, name string, conv func(line string) (string, error)) error {
	sc := bufio.NewScanner(cio.Stdin)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	w := bufio.NewWriter(cio.Stdout)
	defer w.Flush()
	failed, total := 0, 0
	for line := 1; sc.Scan(); line++ {
		if line%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		text := sc.Text()
		trim := strings.TrimSpace(text)
		if trim == "" || strings.HasPrefix(trim, "#") {
			fmt.Fprintln(w, text)
			continue
		}
		total++
		out, err := conv(text)
		if err != nil {
			failed++
			fmt.Fprintf(cio.Stderr, "geodisaster %s: line %d: %v\n", name, line, err)
		}
		fmt.Fprintln(w, out)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: reading input: %w", name, err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("%s: writing output: %w", name, err)
	}
	if failed > 0 {
		return fmt.Errorf("%s: %d of %d points failed", name, failed, total)
	}
	return nil
}
