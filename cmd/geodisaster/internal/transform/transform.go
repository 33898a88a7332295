package transform

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/cmd/geodisaster/internal/pointlines"
	"github.com/geodisaster/engine/crs"
	kit "github.com/geodisaster/engine/internal/cli"
)

// Commands returns the transform command.
func Commands() []kit.Command {
	return []kit.Command{{Name: "transform", Summary: "convert coordinates between CRSs like PROJ's cs2cs (SRC DST, EPSG codes, PROJ strings, WKT)", Run: runTransform}}
}

const usage = `[-I] [-d N | -f FORMAT] [-r] [-s] [-E] [-e TEXT] SRC DST < points
       geodisaster transform [-I] ... +proj=... +to +proj=... < points
       geodisaster transform --from CRS --to CRS < points
       geodisaster transform --list [--json]`

const description = `Converts coordinates read from standard input, one point per line, as
PROJ's cs2cs does.

  SRC DST    the source and target CRSs: EPSG:n (or a bare code), a PROJ
             string ("+proj=utm +zone=33 +datum=WGS84"), WKT1 or WKT2, or
             aeqd:LAT,LON (WGS 84 azimuthal equidistant)

With SRC DST (cs2cs's syntax and semantics), each line holds the first two
coordinates in the CRS's authority axis order (latitude first for
EPSG:4326, northing first for EPSG:31467 or 3035; PROJ strings are always
longitude/easting first), an optional height (copied; there is no vertical
transformation) and any further text, copied. Geographic coordinates are
degrees (DMS like 45d30'N accepted), relative to the CRS's prime meridian.
Output is "X<TAB>Y Z[ rest]": geographic as DMS (45d30'N), projected with
two decimals, unless -d or -f says otherwise. A point that fails prints
"*<TAB>* inf" (cs2cs's output; -e changes it) and its reason on stderr.

With --from/--to (the engine's original form, kept for scripts), each line
is "x y [rest]" in Transform's x y order (longitude latitude, easting
northing, whatever the authority order) and the output is the shortest
decimals that read back exactly; a failing point prints "* *".

Lines starting with '#' and blank lines are copied. Flags go before or
after the operands.

flags:
  -I             inverse: convert from DST to SRC
  -d N           N decimals for every output coordinate
  -f FORMAT      a printf float format for every output coordinate (%.3f)
  -r             the input is in the reverse of the authority axis order
  -s             write the output in the reverse of the authority axis order
  -E             echo the input line before the output
  -e TEXT        what a failed point prints instead of "*<TAB>*"
  --from CRS     source CRS, x y order (with --to)
  --to CRS       target CRS, x y order (with --from)
  --list         print every CRS the engine converts: code, kind, name, area of use
  --json         with --list: JSON, with the method and the bounding box

examples:
  # latitude longitude (EPSG:4326's order) to UTM 18N
  echo "40 -75" | geodisaster transform EPSG:4326 EPSG:32618
  # Gauss-Kruger zone 3 (northing first) to DHDN degrees, 6 decimals
  echo "5500000 3500000" | geodisaster transform -d 6 EPSG:31467 EPSG:4314
  echo "15 45" | geodisaster transform +proj=longlat +datum=WGS84 +to +proj=utm +zone=33 +datum=WGS84
  # the original x y form
  echo "-75 40" | geodisaster transform --from EPSG:4326 --to EPSG:32618
  geodisaster transform --list | grep "UTM zone 33N"

exit codes:
  0    success
  2    usage error (unknown flag, bad operand, unknown CRS)
  5    some points failed to convert, or reading or writing failed`

// options are the cs2cs-style options.
type options struct {
	from, to        string
	inverse         bool
	decimals        int // -1: default
	format          string
	reverseIn       bool
	reverseOut      bool
	echo            bool
	errText         string
	list, listJSON  bool
	positional      []string
	legacyFromOrTo  bool
	help            bool
	projStringSides [2]bool // SRC/DST given as PROJ strings (x y order)
}

// parseTransformArgs reads flags anywhere among the operands.
func parseTransformArgs(args []string) (*options, error) {
	o := &options{decimals: -1, errText: "*\t*"}
	need := func(i int, flag string) (string, error) {
		if i+1 >= len(args) {
			return "", kit.Usagef("transform: %s needs a value", flag)
		}
		return args[i+1], nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		if !strings.HasPrefix(a, "-") || a == "-" {
			o.positional = append(o.positional, a)
			continue
		}
		var err error
		value := func(flag string) string {
			if hasVal {
				return val
			}
			var v string
			v, err = need(i, flag)
			i++
			return v
		}
		switch name {
		case "-h", "-help", "--help":
			o.help = true
		case "--from", "-from":
			o.from, o.legacyFromOrTo = value("--from"), true
		case "--to", "-to":
			o.to, o.legacyFromOrTo = value("--to"), true
		case "-I", "--inverse":
			o.inverse = true
		case "-r":
			o.reverseIn = true
		case "-s":
			o.reverseOut = true
		case "-E":
			o.echo = true
		case "-e":
			o.errText = value("-e")
		case "-d":
			v := value("-d")
			if err == nil {
				n, perr := strconv.Atoi(v)
				if perr != nil || n < 0 || n > 30 {
					return nil, kit.Usagef("transform: -d wants a number of decimals 0-30, got %q", v)
				}
				o.decimals = n
			}
		case "-f":
			o.format = value("-f")
			if err == nil && !validFloatFormat(o.format) {
				return nil, kit.Usagef("transform: -f %q: want one printf float verb such as %%.3f, %%.8g or %%.4e", o.format)
			}
		case "--list", "-list":
			o.list = true
		case "--json", "-json":
			o.listJSON = true
		default:
			return nil, kit.Usagef("transform: unknown flag %q (run 'geodisaster transform --help')", a)
		}
		if err != nil {
			return nil, err
		}
	}
	return o, nil
}

var floatFormat = regexp.MustCompile(`^[^%]*%[-+ 0#]*[0-9]*(\.[0-9]+)?[eEfFgG][^%]*$`)

// validFloatFormat accepts a printf format with exactly one float verb.
func validFloatFormat(f string) bool { return floatFormat.MatchString(f) }

// crsOperands splits SRC DST (or cs2cs's "+proj=... +to +proj=...").
func (o *options) crsOperands() (src, dst string, srcProj, dstProj bool, err error) {
	ops := o.positional
	for i, a := range ops {
		if a == "+to" {
			src = strings.Join(ops[:i], " ")
			dst = strings.Join(ops[i+1:], " ")
			if src == "" || dst == "" {
				return "", "", false, false, kit.Usagef("transform: +to needs a PROJ string on each side")
			}
			return src, dst, true, true, nil
		}
	}
	if len(ops) != 2 {
		return "", "", false, false, kit.Usagef("transform: want SRC DST (two CRSs), got %d operands %q", len(ops), ops)
	}
	isProj := func(s string) bool { return strings.HasPrefix(s, "+") || strings.HasPrefix(s, "proj=") }
	return ops[0], ops[1], isProj(ops[0]), isProj(ops[1]), nil
}

// runTransform implements "geodisaster transform".
func runTransform(ctx context.Context, cio kit.IO, args []string) error {
	o, err := parseTransformArgs(args)
	if err != nil {
		return err
	}
	if o.help {
		fmt.Fprintf(cio.Stdout, "usage: geodisaster transform %s\n\n%s\n", usage, description)
		return nil
	}
	if o.list {
		if len(o.positional) > 0 || o.legacyFromOrTo {
			return kit.Usagef("transform: --list takes no CRSs")
		}
		return listCRSs(cio, o.listJSON)
	}
	if o.listJSON {
		return kit.Usagef("transform: --json goes with --list")
	}
	if o.legacyFromOrTo {
		if len(o.positional) > 0 {
			return kit.Usagef("transform: unexpected arguments %q with --from/--to", o.positional)
		}
		if o.inverse || o.decimals >= 0 || o.format != "" || o.reverseIn || o.reverseOut || o.echo || o.errText != "*\t*" {
			return kit.Usagef("transform: cs2cs options (-I -d -f -r -s -E -e) go with SRC DST, not --from/--to")
		}
		return runTransformXY(ctx, cio, o.from, o.to)
	}
	if o.decimals >= 0 && o.format != "" {
		return kit.Usagef("transform: -d and -f are exclusive")
	}
	srcText, dstText, srcProj, dstProj, err := o.crsOperands()
	if err != nil {
		return err
	}
	src, dst, err := parseCRSPair("SRC", srcText, "DST", dstText)
	if err != nil {
		return err
	}
	if o.inverse {
		src, dst = dst, src
		srcProj, dstProj = dstProj, srcProj
	}
	tr, err := crs.NewTransformer(src, dst)
	if err != nil {
		return err
	}
	c := &cs2cs{src: src, dst: dst, tr: tr, opts: o,
		srcSwap: !srcProj && crs.AuthorityOrderSwapped(src), dstSwap: !dstProj && crs.AuthorityOrderSwapped(dst)}
	c.srcDeg, _ = crs.DegreesPerUnit(src)
	c.dstDeg, _ = crs.DegreesPerUnit(dst)
	return c.run(ctx, cio)
}

// parseCRSPair parses the source and target CRS texts; a text that does
// not parse is a usage error naming its operand or flag.
func parseCRSPair(srcName, srcText, dstName, dstText string) (src, dst crs.CRS, err error) {
	if src, err = crs.Parse(srcText); err != nil {
		return nil, nil, kit.Usagef("transform: %s: %v", srcName, err)
	}
	if dst, err = crs.Parse(dstText); err != nil {
		return nil, nil, kit.Usagef("transform: %s: %v", dstName, err)
	}
	return src, dst, nil
}

// runTransformXY is the original --from/--to form.
func runTransformXY(ctx context.Context, cio kit.IO, from, to string) error {
	if from == "" || to == "" {
		return kit.Usagef("transform: need --from and --to")
	}
	src, dst, err := parseCRSPair("--from", from, "--to", to)
	if err != nil {
		return err
	}
	tr, err := crs.NewTransformer(src, dst)
	if err != nil {
		return err
	}
	return pointlines.Numbers(ctx, cio, "transform", 2, func(v []float64) (string, error) {
		x, y, err := tr.Transform(v[0], v[1])
		if err != nil {
			return "* *", err
		}
		return pointlines.FormatFloat(x) + " " + pointlines.FormatFloat(y), nil
	})
}

// cs2cs converts lines in cs2cs's conventions.
type cs2cs struct {
	src, dst         crs.CRS
	tr               *crs.Transformer // src to dst, its path resolved once
	opts             *options
	srcSwap, dstSwap bool
	srcDeg, dstDeg   float64 // degrees per angular unit of geographic CRSs
}

func (c *cs2cs) run(ctx context.Context, cio kit.IO) error {
	return pointlines.Each(ctx, cio, "transform", func(text string) (string, error) {
		out, err := c.convert(text)
		if c.opts.echo {
			out = strings.TrimRight(text, " \t") + "\t" + out
		}
		return out, err
	})
}

// convert converts one input line; on failure it returns the error text
// line and the reason.
func (c *cs2cs) convert(text string) (string, error) {
	fields, rest := splitFields(text, 3)
	fail := func(err error) (string, error) { return c.opts.errText + " inf" + rest, err }
	if len(fields) < 2 {
		return fail(fmt.Errorf("want two coordinates, got %d fields", len(fields)))
	}
	var v [3]float64
	for i, f := range fields {
		var err error
		if c.src.Geographic() && i < 2 {
			v[i], err = parseAngle(f)
		} else {
			v[i], err = strconv.ParseFloat(f, 64)
		}
		if err != nil || math.IsNaN(v[i]) || math.IsInf(v[i], 0) {
			if i == 2 {
				// Not a height: part of the copied text.
				rest = " " + f + rest
				fields = fields[:2]
				break
			}
			return fail(fmt.Errorf("field %d: %q is not a number", i+1, f))
		}
	}
	a, b := v[0], v[1]
	if c.opts.reverseIn {
		a, b = b, a
	}
	x, y := a, b
	if c.srcSwap {
		x, y = b, a
	}
	if c.src.Geographic() && c.srcDeg != 1 {
		x, y = x/c.srcDeg, y/c.srcDeg
	}
	ox, oy, err := c.tr.Transform(x, y)
	if err != nil {
		return fail(err)
	}
	geo := c.dst.Geographic()
	if geo && c.dstDeg != 1 {
		ox, oy = ox*c.dstDeg, oy*c.dstDeg
	}
	first, second := ox, oy
	firstIsLat := false
	if c.dstSwap {
		first, second = oy, ox
		firstIsLat = geo
	}
	if c.opts.reverseOut {
		first, second = second, first
		firstIsLat = geo && !firstIsLat
	}
	z := 0.0
	if len(fields) == 3 {
		z = v[2]
	}
	var s string
	switch {
	case c.opts.format != "":
		s = fmt.Sprintf(c.opts.format, first) + "\t" + fmt.Sprintf(c.opts.format, second) + " " + fmt.Sprintf(c.opts.format, z)
	case c.opts.decimals >= 0:
		f := "%." + strconv.Itoa(c.opts.decimals) + "f"
		s = fmt.Sprintf(f, first) + "\t" + fmt.Sprintf(f, second) + " " + fmt.Sprintf(f, z)
	case geo:
		s = dms(first, firstIsLat) + "\t" + dms(second, !firstIsLat) + " " + fmt.Sprintf("%.3f", z)
	default:
		s = fmt.Sprintf("%.2f\t%.2f %.2f", first, second, z)
	}
	return s + rest, nil
}

// splitFields returns up to n leading whitespace-separated fields and the
// rest of the line (with its leading blank).
func splitFields(s string, n int) ([]string, string) {
	var fields []string
	i := 0
	for len(fields) < n {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			break
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		fields = append(fields, s[i:j])
		i = j
	}
	return fields, strings.TrimRight(s[i:], " \t")
}

// parseAngle reads degrees as a decimal or in PROJ's DMS notation
// (45d30'15.5"N, 12d30W, -7.25).
func parseAngle(f string) (float64, error) {
	if v, err := strconv.ParseFloat(f, 64); err == nil {
		return v, nil
	}
	s := f
	sign := 1.0
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'S', 's', 'W', 'w':
			sign, s = -1, s[:n-1]
		case 'N', 'n', 'E', 'e':
			s = s[:n-1]
		}
	}
	if strings.HasPrefix(s, "-") {
		sign, s = -sign, s[1:]
	} else if strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	deg, rest, ok := strings.Cut(s, "d")
	if !ok {
		if rest == "" && s != f {
			v, err := strconv.ParseFloat(s, 64)
			return sign * v, err
		}
		return 0, fmt.Errorf("bad angle %q", f)
	}
	d, err := strconv.ParseFloat(deg, 64)
	if err != nil {
		return 0, fmt.Errorf("bad angle %q", f)
	}
	v := d
	if rest != "" {
		// After 'd' come minutes (12d30 is 12°30'), then seconds after '.
		m, r2, _ := strings.Cut(rest, "'")
		if m != "" {
			mv, err := strconv.ParseFloat(m, 64)
			if err != nil {
				return 0, fmt.Errorf("bad angle %q", f)
			}
			v += mv / 60
		}
		r2 = strings.TrimSuffix(r2, "\"")
		if r2 != "" {
			sv, err := strconv.ParseFloat(r2, 64)
			if err != nil {
				return 0, fmt.Errorf("bad angle %q", f)
			}
			v += sv / 3600
		}
	}
	return sign * v, nil
}

// dms formats degrees as PROJ's rtodms does for cs2cs: whole degrees,
// minutes and seconds to 0.001" with trailing zeros (and zero fields)
// dropped, and the hemisphere letter.
func dms(deg float64, lat bool) string {
	pos, neg := 'E', 'W'
	if lat {
		pos, neg = 'N', 'S'
	}
	sign := pos
	if deg < 0 {
		deg, sign = -deg, neg
	}
	const res = 1000.0
	conv := 180 * 3600 * res / math.Pi
	r := math.Floor(float64(float64(deg*math.Pi/180)*conv) + .5) // float64(): no fused multiply-add
	sec := math.Mod(r/res, 60)
	r = math.Floor(r / (res * 60))
	min := math.Mod(r, 60)
	d := math.Floor(r / 60)
	switch {
	case sec != 0:
		s := strconv.FormatFloat(sec, 'f', 3, 64)
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
		return fmt.Sprintf("%dd%d'%s\"%c", int(d), int(min), s, sign)
	case min != 0:
		return fmt.Sprintf("%dd%d'%c", int(d), int(min), sign)
	}
	return fmt.Sprintf("%dd%c", int(d), sign)
}

// listCRSs prints the CRSs transform converts (non-deprecated EPSG codes)
// with their names and areas of use.
func listCRSs(cio kit.IO, asJSON bool) error {
	w := bufio.NewWriter(cio.Stdout)
	defer w.Flush()
	type entry struct {
		Code   string     `json:"code"`
		Kind   string     `json:"kind"`
		Name   string     `json:"name"`
		Method string     `json:"method,omitempty"`
		Area   string     `json:"area"`
		BBox   [4]float64 `json:"bbox"` // south, west, north, east
	}
	var list []entry
	for _, i := range crs.List() {
		if i.Deprecated || !i.Convertible {
			continue
		}
		list = append(list, entry{Code: fmt.Sprintf("EPSG:%d", i.Code), Kind: i.Kind, Name: i.Name, Method: i.Method,
			Area: i.Area, BBox: [4]float64{i.South, i.West, i.North, i.East}})
	}
	if asJSON {
		if err := kit.WriteJSON(w, list); err != nil {
			return err
		}
	} else {
		for _, e := range list {
			kind := "projected"
			if e.Kind != "projected" {
				kind = "geographic"
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", e.Code, kind, e.Name, e.Area)
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("transform: writing output: %w", err)
	}
	return nil
}
