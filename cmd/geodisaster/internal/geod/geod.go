package geod

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/cmd/geodisaster/internal/pointlines"
	"github.com/geodisaster/engine/geodesy"
	kit "github.com/geodisaster/engine/internal/cli"
)

// Commands returns the geod command.
func Commands() []kit.Command {
	return []kit.Command{{Name: "geod", Summary: "geodesics like GeographicLib's GeodSolve (direct by default, -i inverse, -p, -f); 'geod inverse|direct' for scripts", Run: runGeod}}
}

const description = `Solves geodesic problems on the WGS84 ellipsoid (Karney's algorithms) with
GeodSolve's input, output and flags. Each input line holds

  lat1 lon1 azi1 s12    direct problem (default); prints lat2 lon2 azi2
  lat1 lon1 lat2 lon2   inverse problem (-i); prints azi1 azi2 s12

Angles are degrees, decimal or DMS (40:38:23N, 40d38'23"N, 73.78W);
hemisphere letters may swap latitude and longitude. Distances are metres.
A line that cannot be solved prints "ERROR: reason" in its place; the
command then exits 5 (bad input) after every line.

GeodSolve flags:
  -i            inverse problem
  -p PREC       precision (0..10, default 3): PREC decimals in distances,
                PREC+5 in angles
  -f            full output: lat1 lon1 azi1 lat2 lon2 azi2 s12 a12 m12 M12 M21 S12
  -w            longitude first on input and output
  -b            report the back azimuth at point 2 (azi2 + 180)
  -u            unroll longitudes instead of reducing them to [-180, 180]
  -a            arc mode: a12 (degrees on the auxiliary sphere) replaces s12
  -e A F        ellipsoid: equatorial radius A and flattening F (1/298.25 or
                298.25 spell the same flattening); default WGS84
  --comment-delimiter S   text from S on is copied to the output line
  --input-string S        read S instead of stdin (lines separated by ';')
  --line-separator C      the separator of --input-string
  --input-file FILE       read FILE instead of stdin
  --output-file FILE      write FILE instead of stdout
GeodSolve's line modes (-L, -D, -I), DMS output (-d, -:) and the exact
solver (-E) are not provided.

For scripts, 'geod inverse' and 'geod direct' keep the earlier form: the
same input, output at full precision (the shortest decimals that read
back as the same doubles), "* * *" for a failed line.`

// runGeod implements "geodisaster geod [GeodSolve flags]" and the script
// forms "geodisaster geod inverse" and "geodisaster geod direct".
func runGeod(ctx context.Context, cio kit.IO, args []string) error {
	if len(args) > 0 && (args[0] == "inverse" || args[0] == "direct") {
		return runGeodScript(ctx, cio, args[0], args[1:])
	}
	opts, err := parseGeodArgs(args)
	if err != nil {
		return err
	}
	in := cio.Stdin
	switch {
	case opts.inputString != "":
		in = strings.NewReader(strings.ReplaceAll(opts.inputString, string(opts.lineSep), "\n"))
	case opts.inputFile != "" && opts.inputFile != "-":
		f, err := os.Open(opts.inputFile)
		if err != nil {
			return fmt.Errorf("geod: %w", err)
		}
		defer f.Close()
		in = f
	}
	out := cio.Stdout
	var outFile *os.File
	if opts.outputFile != "" && opts.outputFile != "-" {
		f, err := os.Create(opts.outputFile)
		if err != nil {
			return fmt.Errorf("geod: %w", err)
		}
		outFile = f
		out = f
	}
	failed, lines, err := solve(ctx, in, out, opts)
	if outFile != nil {
		if cerr := outFile.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("geod: %w", cerr)
		}
	}
	if err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("geod: %d of %d lines failed (see the ERROR lines)", failed, lines)
	}
	return nil
}

// options are GeodSolve's settings.
type options struct {
	inverse, full, longFirst, azi2Back, unroll, arc bool
	prec                                            int
	ellipsoid                                       geodesy.Ellipsoid
	commentDelim                                    string
	inputString, inputFile, outputFile              string
	lineSep                                         byte
}

// helpFlags is the help of the geod command.
func helpFlags() *kit.FlagSet {
	fs := kit.NewFlagSet("geod", "[-i] [-p PREC] [-f] [-w] [-b] [-u] [-a] [-e A F] < lines\n       geodisaster geod inverse|direct < lines")
	fs.Description = description
	fs.Example(`echo "40.64 -73.78 1.36 103.99" | geodisaster geod -i`, "JFK to Singapore Changi: azi1 azi2 s12")
	fs.Example(`echo "40.64 -73.78 45 1e6" | geodisaster geod -f -p 6`, "direct problem, full output, micrometres")
	fs.Example(`echo "40:38:23N 073:46:44W 01:21:33N 103:59:22E" | geodisaster geod -i`, "DMS input")
	fs.Example(`echo "40.64 -73.78 1.36 103.99" | geodisaster geod inverse`, "full precision for scripts")
	return fs
}

// parseGeodArgs reads GeodSolve's command line (flags only, no operands).
func parseGeodArgs(args []string) (options, error) {
	o := options{prec: 3, ellipsoid: geodesy.WGS84(), lineSep: ';'}
	need := func(i, n int) error {
		if i+n >= len(args) {
			return kit.Usagef("geod: %s needs %d argument(s)", args[i], n)
		}
		return nil
	}
	// GeodSolve's switches (-w and -a toggle, as there) and the options
	// that take one string.
	switches := map[string]*bool{"-i": &o.inverse, "-f": &o.full, "-b": &o.azi2Back, "-u": &o.unroll}
	toggles := map[string]*bool{"-w": &o.longFirst, "-a": &o.arc}
	strs := map[string]*string{"--comment-delimiter": &o.commentDelim, "--input-string": &o.inputString, "--input-file": &o.inputFile, "--output-file": &o.outputFile}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if p, ok := switches[a]; ok {
			*p = true
			continue
		}
		if p, ok := toggles[a]; ok {
			*p = !*p
			continue
		}
		if p, ok := strs[a]; ok {
			if err := need(i, 1); err != nil {
				return o, err
			}
			i++
			*p = args[i]
			continue
		}
		switch a {
		case "-p":
			if err := need(i, 1); err != nil {
				return o, err
			}
			i++
			p, err := strconv.Atoi(strings.TrimSpace(args[i]))
			if err != nil {
				return o, kit.Usagef("geod: precision %s is not a number", args[i])
			}
			o.prec = min(10, max(0, p))
		case "-e":
			if err := need(i, 2); err != nil {
				return o, err
			}
			ae, err1 := decodeNumber(args[i+1])
			fe, err2 := decodeFraction(args[i+2])
			if err1 != nil || err2 != nil {
				return o, kit.Usagef("geod: -e %s %s: %v", args[i+1], args[i+2], errors.Join(err1, err2))
			}
			if fe > 1 {
				fe = 1 / fe
			}
			o.ellipsoid = geodesy.Ellipsoid{A: ae, F: fe}
			if _, err := o.ellipsoid.SolveInverse(0, 0, 0, 0); err != nil {
				return o, kit.Usagef("geod: -e %s %s: %v", args[i+1], args[i+2], err)
			}
			i += 2
		case "--line-separator":
			if err := need(i, 1); err != nil {
				return o, err
			}
			i++
			if len(args[i]) != 1 {
				return o, kit.Usagef("geod: the line separator must be a single character")
			}
			o.lineSep = args[i][0]
		case "-h", "--help", "-help":
			return o, &kit.HelpRequest{FlagSet: helpFlags()}
		case "-L", "-l", "-D", "-I", "-F", "-d", "-:", "-E":
			return o, kit.Usagef("geod: GeodSolve's %s is not provided (see geodisaster geod --help)", a)
		default:
			return o, kit.Usagef("geod: unknown argument %q (see geodisaster geod --help)", a)
		}
	}
	if o.inputString != "" && o.inputFile != "" {
		return o, kit.Usagef("geod: --input-string and --input-file are exclusive")
	}
	return o, nil
}

// decodeFraction reads a number or a fraction "p/q".
func decodeFraction(s string) (float64, error) {
	num, den, ok := strings.Cut(s, "/")
	if !ok {
		return decodeNumber(s)
	}
	p, err := decodeNumber(num)
	if err != nil {
		return 0, err
	}
	q, err := decodeNumber(den)
	if err != nil {
		return 0, err
	}
	return p / q, nil
}

// solve processes every line of in, writing one line per input line
// to out, and returns how many failed out of how many lines.
func solve(ctx context.Context, in io.Reader, out io.Writer, o options) (failed, lines int, err error) {
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	for {
		line, rerr := r.ReadString('\n')
		if rerr != nil && rerr != io.EOF {
			return failed, lines, fmt.Errorf("geod: reading input: %w", rerr)
		}
		if line == "" && rerr == io.EOF {
			break
		}
		line = strings.TrimSuffix(line, "\n")
		lines++
		if lines%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return failed, lines, err
			}
		}
		eol := "\n"
		if o.commentDelim != "" {
			if m := strings.Index(line, o.commentDelim); m >= 0 {
				eol = " " + line[m:] + "\n"
				line = line[:m]
			}
		}
		text, err := solveLine(line, o)
		if err != nil {
			failed++
			text, eol = "ERROR: "+err.Error(), "\n"
		}
		w.WriteString(text)
		w.WriteString(eol)
		if rerr == io.EOF {
			break
		}
	}
	if err := w.Flush(); err != nil {
		return failed, lines, fmt.Errorf("geod: writing output: %w", err)
	}
	return failed, lines, nil
}

// solveLine solves one input line and formats its output (without the end
// of line).
func solveLine(line string, o options) (string, error) {
	fields := strings.FieldsFunc(line, func(r rune) bool { return r < 0x80 && isCSpace(byte(r)) })
	if len(fields) < 4 {
		return "", errors.New("Incomplete input: " + line)
	}
	if len(fields) > 4 {
		return "", errors.New("Extraneous input: " + fields[4])
	}
	var b strings.Builder
	if o.inverse {
		lat1, lon1, err := decodeLatLon(fields[0], fields[1], o.longFirst)
		if err != nil {
			return "", err
		}
		lat2, lon2, err := decodeLatLon(fields[2], fields[3], o.longFirst)
		if err != nil {
			return "", err
		}
		s, err := o.ellipsoid.SolveInverse(lat1, lon1, lat2, lon2)
		if err != nil {
			return "", err
		}
		if o.full {
			if o.unroll {
				d, e := angDiff(lon1, lon2)
				lon2 = lon1 + d
				lon2 += e
			} else {
				lon1, lon2 = angNormalize(lon1), angNormalize(lon2)
			}
			b.WriteString(o.latLon(lat1, lon1) + " ")
		}
		b.WriteString(o.angle(s.Azi1) + " ")
		if o.full {
			b.WriteString(o.latLon(lat2, lon2) + " ")
		}
		b.WriteString(o.angle(o.back(s.Azi2)) + " " + o.distances(s))
		if o.full {
			b.WriteString(" " + o.extras(s))
		}
		return b.String(), nil
	}
	lat1, lon1, err := decodeLatLon(fields[0], fields[1], o.longFirst)
	if err != nil {
		return "", err
	}
	azi1, err := decodeAzimuth(fields[2])
	if err != nil {
		return "", err
	}
	var dist float64
	if o.arc {
		v, k, err := decodeDMS(fields[3])
		if err != nil {
			return "", err
		}
		if k != dmsNone {
			return "", errors.New("Arc angle " + fields[3] + " includes a hemisphere, N/E/W/S")
		}
		dist = v
	} else if dist, err = decodeNumber(fields[3]); err != nil {
		return "", err
	}
	s, err := o.ellipsoid.SolveDirect(lat1, lon1, azi1, o.arc, dist, o.unroll)
	if err != nil && (o.full || o.arc || !errors.Is(err, geodesy.ErrNotShortest)) {
		return "", err
	}
	if o.full {
		l := lon1
		if !o.unroll {
			l = angNormalize(lon1)
		}
		b.WriteString(o.latLon(lat1, l) + " " + o.angle(azi1) + " ")
	}
	b.WriteString(o.latLon(s.Lat2, s.Lon2) + " " + o.angle(o.back(s.Azi2)))
	if o.full {
		b.WriteString(" " + o.distances(s) + " " + o.extras(s))
	}
	return b.String(), nil
}

// fixed formats v with prec decimals, or as "nan", "inf", "-inf".
func fixed(v float64, prec int) string {
	if s, ok := nonFiniteText(v); ok {
		return s
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

// angle formats an angle with prec+5 decimals.
func (o options) angle(v float64) string { return fixed(v, o.prec+5) }

// latLon formats a point in the configured order.
func (o options) latLon(lat, lon float64) string {
	if o.longFirst {
		return o.angle(lon) + " " + o.angle(lat)
	}
	return o.angle(lat) + " " + o.angle(lon)
}

// back turns the forward azimuth at point 2 into the back azimuth with -b.
func (o options) back(azi2 float64) float64 {
	if !o.azi2Back {
		return azi2
	}
	if azi2 >= 0 {
		return azi2 - 180
	}
	return azi2 + 180
}

// distances formats s12 and, in full or arc mode, a12.
func (o options) distances(s geodesy.Solution) string {
	var parts []string
	if o.full || !o.arc {
		parts = append(parts, fixed(s.S12, o.prec))
	}
	if o.full || o.arc {
		parts = append(parts, o.angle(s.A12))
	}
	return strings.Join(parts, " ")
}

// extras formats m12 M12 M21 S12 of the full output.
func (o options) extras(s geodesy.Solution) string {
	return fixed(s.ReducedLength, o.prec) + " " + fixed(s.ScaleM12, o.prec+7) + " " +
		fixed(s.ScaleM21, o.prec+7) + " " + fixed(s.Area, max(o.prec-7, 0))
}

// runGeodScript implements the script forms "geod inverse" (lines "lat1
// lon1 lat2 lon2" in, "azi1 azi2 s12" out, as GeodSolve -i) and "geod
// direct" (lines "lat1 lon1 azi1 s12" in, "lat2 lon2 azi2" out), at full
// precision; azi2 is the forward azimuth at the second point.
func runGeodScript(ctx context.Context, cio kit.IO, mode string, args []string) error {
	fs := kit.NewFlagSet("geod "+mode, "< lines")
	fs.Description = description
	if mode == "inverse" {
		fs.Example(`echo "40.64 -73.78 1.36 103.99" | geodisaster geod inverse`, "prints azi1 azi2 s12 at full precision")
	} else {
		fs.Example(`echo "40.64 -73.78 45 1e6" | geodisaster geod direct`, "prints lat2 lon2 azi2 at full precision")
	}
	if err := fs.ParseNoOperands(args); err != nil {
		return err
	}
	g := geodesy.NewGeodesic(geodesy.WGS84())
	if mode == "inverse" {
		return pointlines.Numbers(ctx, cio, "geod inverse", 4, func(v []float64) (string, error) {
			s12, azi1, azi2, err := g.Inverse(v[0], v[1], v[2], v[3])
			if err != nil {
				return "", err
			}
			return pointlines.FormatFloat(azi1) + " " + pointlines.FormatFloat(azi2) + " " + pointlines.FormatFloat(s12), nil
		})
	}
	return pointlines.Numbers(ctx, cio, "geod direct", 4, func(v []float64) (string, error) {
		lat2, lon2, azi2, err := g.Direct(v[0], v[1], v[2], v[3])
		if err != nil {
			return "", err
		}
		return pointlines.FormatFloat(lat2) + " " + pointlines.FormatFloat(lon2) + " " + pointlines.FormatFloat(azi2), nil
	})
}
