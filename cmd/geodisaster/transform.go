package main

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/crs"
)

func init() {
	register(command{
		name:    "transform",
		summary: "convert \"x y\" lines on stdin between CRSs (EPSG:n, aeqd:LAT,LON), like PROJ's cs2cs",
		run:     runTransform,
	})
}

// formatFloat prints v at full precision: the shortest decimal that reads
// back as the same float64, without an exponent.
func formatFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// runTransform implements "geodisaster transform --from CRS --to CRS".
// Each input line holds x and y separated by blanks (or a comma); further
// fields are copied unchanged. For EPSG:4326 x is longitude and y latitude.
// Blank lines and lines starting with '#' are echoed. A point that fails
// prints "* *" (as cs2cs does) and its error on stderr; the command then
// exits 5 (bad input) after processing all lines.
func runTransform(ctx context.Context, cio cmdIO, args []string) error {
	fs := newFlagSet("transform", "--from CRS --to CRS < points", cio.stderr)
	fs.Description = `Reads "x y [rest]" lines on stdin and prints them converted from one CRS to
the other; x is longitude and y latitude for EPSG:4326 (pyproj's always_xy).
A point that fails prints "* *" and its error on stderr; the command then
exits 5 (bad input) after every line.`
	fs.Example(`echo "15 45" | geodisaster transform --from EPSG:4326 --to EPSG:32633`, "lon lat to UTM 33N easting northing")
	fs.Example(`echo "0 0" | geodisaster transform --from aeqd:10,20 --to EPSG:4326`, "")
	from := fs.String("from", "", "source CRS: EPSG:n, aeqd:LAT,LON or a WGS84 PROJ string (EPSG:4326 takes lon lat)")
	to := fs.String("to", "", "target CRS: EPSG:n, aeqd:LAT,LON or a WGS84 PROJ string")
	fs.Require("from", "to")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("transform: unexpected arguments %q", fs.Args())
	}
	src, err := crs.Parse(*from)
	if err != nil {
		return usagef("transform: --from: %v", err)
	}
	dst, err := crs.Parse(*to)
	if err != nil {
		return usagef("transform: --to: %v", err)
	}
	return forEachLine(ctx, cio, "transform", 2, func(v []float64) (string, error) {
		x, y, err := crs.Transform(src, dst, v[0], v[1])
		if err != nil {
			return "* *", err
		}
		return formatFloat(x) + " " + formatFloat(y), nil
	})
}

// forEachLine reads numeric lines from cio.stdin, calls f with the first n
// numbers and prints its output followed by any remaining fields. Bad
// lines print f's failure text (or "*" fields for unparsable input) and
// are counted; the returned error reports how many failed.
func forEachLine(ctx context.Context, cio cmdIO, name string, n int, f func([]float64) (string, error)) error {
	sc := bufio.NewScanner(cio.stdin)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	w := bufio.NewWriter(cio.stdout)
	defer w.Flush()
	failed, total := 0, 0
	vals := make([]float64, n)
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
		fields := strings.FieldsFunc(trim, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
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
		if err != nil {
			failed++
			fmt.Fprintf(cio.stderr, "geodisaster %s: line %d: %v\n", name, line, err)
			if out == "" {
				out = strings.TrimSpace(strings.Repeat("* ", n))
			}
		}
		if len(fields) > n {
			out += " " + strings.Join(fields[n:], " ")
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
