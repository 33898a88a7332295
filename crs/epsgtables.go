package crs

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
)

// The EPSG registry subset generated from PROJ's proj.db by
// conformance/crs/gen_tables.py (epsg_tables.go, epsg_tables.bin): a
// zlib-compressed text with one record per line, fields separated by tabs,
// the first field naming the record kind. Parsed once, on first use.

type unitDef struct {
	name   string
	typ    string  // "length", "angle", "scale"
	factor float64 // SI units (metres, radians, unity) per unit
}

type ellipsoidDef struct {
	name    string
	a       float64 // in unit
	unit    int
	invf, b float64 // 0 when not given (b in unit)
}

type pmDef struct {
	name string
	lon  float64 // in unit
	unit int
}

type datumDef struct {
	code     int
	name     string
	ell, pm  int
	epoch    float64 // frame reference epoch, 0 when static
	accuracy string  // ensemble accuracy as PROJ prints it ("" when not an ensemble)
	anchor   string
	members  []int // ensemble members
}

type axisDef struct {
	name, abbrev, dir string
	unit              int
}

type csDef struct {
	typ  string
	axes []axisDef
}

type extentDef struct {
	name, desc string
	s, w, n, e float64
	noBBox     bool // EPSG gives no bounding box (world assumed)
}

type usageDef struct{ extent, scope int }

type geogDef struct {
	code       int
	name       string
	datum, cs  int
	typ        string
	deprecated bool
	usages     []usageDef
}

type paramDef struct {
	code  int
	value float64
	unit  int
}

type convDef struct {
	code   int
	name   string
	method int
	params []paramDef
}

type projDef struct {
	code       int
	name       string
	geog       int
	cs         int
	conv       int
	deprecated bool
	usages     []usageDef
}

type helmertDef struct {
	code     int
	name     string
	method   int
	src      int
	accuracy float64 // metres; -1 when unknown
	usages   []usageDef
	// tx, ty, tz (m), rx, ry, rz (arc-seconds), ds (ppm), px, py, pz (m)
	p          [10]float64
	version    string
	supersedes []int // codes of the transformations that supersede this one
}

type rotationDef struct {
	dst   int
	value float64
	unit  int
}

// registry is the parsed EPSG table.
type registry struct {
	source     string
	units      map[int]unitDef
	ellipsoids map[int]ellipsoidDef
	pms        map[int]pmDef
	datums     map[int]*datumDef
	css        map[int]csDef
	extents    map[int]extentDef
	scopes     map[int]string
	methods    map[int]string
	params     map[int]string
	geog       map[int]*geogDef
	rotations  map[int]rotationDef
	convs      map[int]*convDef
	proj       map[int]*projDef
	projCodes  []int                 // increasing
	geogCodes  []int                 // increasing
	helmerts   map[int][]*helmertDef // by source geographic CRS, in code order
	cache      sync.Map              // code -> CRS built from the tables
}

// parseRegistry parses the zlib-compressed table z of uncompressed length
// size.
func parseRegistry(z []byte, size int) (*registry, error) {
	zr, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, fmt.Errorf("crs: EPSG table: %w", err)
	}
	var buf bytes.Buffer
	buf.Grow(size)
	if _, err := io.Copy(&buf, zr); err != nil {
		return nil, fmt.Errorf("crs: EPSG table: %w", err)
	}
	r := &registry{
		units: map[int]unitDef{}, ellipsoids: map[int]ellipsoidDef{}, pms: map[int]pmDef{},
		datums: map[int]*datumDef{}, css: map[int]csDef{}, extents: make(map[int]extentDef, 4096),
		scopes: map[int]string{}, methods: map[int]string{}, params: map[int]string{},
		geog: map[int]*geogDef{}, rotations: map[int]rotationDef{}, convs: make(map[int]*convDef, 4096),
		proj: make(map[int]*projDef, 8192), helmerts: map[int][]*helmertDef{},
		projCodes: make([]int, 0, 8192),
	}
	text := strings.TrimSuffix(buf.String(), "\n")
	p := tableParser{}
	fields := make([]string, 0, 16)
	for ln := 1; text != ""; ln++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		p.line = ln
		f := splitInto(fields[:0], line, '\t')
		fields = f[:0]
		p.f = f
		switch f[0] {
		case "F":
			if len(f) < 2 || f[1] != "geodisaster-epsg-1" {
				return nil, fmt.Errorf("crs: EPSG table: unknown format %q", line)
			}
			r.source = strings.Join(f[2:], ", ")
		case "U":
			p.want(5)
			r.units[p.int(1)] = unitDef{name: f[2], typ: f[3], factor: p.floatOr(4, 0)}
		case "E":
			p.want(7)
			r.ellipsoids[p.int(1)] = ellipsoidDef{name: f[2], a: p.float(3), unit: p.int(4), invf: p.floatOr(5, 0), b: p.floatOr(6, 0)}
		case "M":
			p.want(5)
			r.pms[p.int(1)] = pmDef{name: f[2], lon: p.float(3), unit: p.int(4)}
		case "D":
			p.want(9)
			d := &datumDef{code: p.int(1), name: f[2], ell: p.int(3), pm: p.int(4), epoch: p.floatOr(5, 0), accuracy: f[6], anchor: f[7]}
			d.members = p.ints(8, ",")
			r.datums[d.code] = d
		case "C":
			p.want(4)
			cs := csDef{typ: f[2]}
			for a := range strings.SplitSeq(f[3], ";") {
				q := strings.Split(a, "|")
				if len(q) != 4 {
					p.fail("axis %q", a)
					continue
				}
				cs.axes = append(cs.axes, axisDef{name: q[0], abbrev: q[1], dir: q[2], unit: p.atoi(q[3])})
			}
			r.css[p.int(1)] = cs
		case "A":
			p.want(5)
			noBox := f[4] == ",,,"
			if noBox {
				f[4] = "-90,-180,90,180"
			}
			b := p.floats(4)
			if len(b) == 4 {
				r.extents[p.int(1)] = extentDef{name: f[2], desc: f[3], s: b[0], w: b[1], n: b[2], e: b[3], noBBox: noBox}
			} else {
				p.fail("bbox")
			}
		case "S":
			p.want(3)
			r.scopes[p.int(1)] = f[2]
		case "K":
			p.want(3)
			r.methods[p.int(1)] = f[2]
		case "Q":
			p.want(3)
			r.params[p.int(1)] = f[2]
		case "G":
			p.want(8)
			g := &geogDef{code: p.int(1), name: f[2], datum: p.int(3), cs: p.int(4), typ: f[5], deprecated: f[6] == "1", usages: p.usages(7)}
			r.geog[g.code] = g
			r.geogCodes = append(r.geogCodes, g.code)
		case "R":
			p.want(5)
			r.rotations[p.int(1)] = rotationDef{dst: p.int(2), value: p.float(3), unit: p.int(4)}
		case "V":
			p.want(5)
			c := &convDef{code: p.int(1), name: f[2], method: p.int(3)}
			if f[4] != "" {
				for s := range strings.SplitSeq(f[4], ";") {
					q := strings.Split(s, "|")
					if len(q) != 3 {
						p.fail("parameter %q", s)
						continue
					}
					c.params = append(c.params, paramDef{code: p.atoi(q[0]), value: p.atof(q[1]), unit: p.atoi(q[2])})
				}
			}
			r.convs[c.code] = c
		case "P":
			p.want(8)
			d := &projDef{code: p.int(1), name: f[2], geog: p.int(3), cs: p.int(4), conv: p.int(5), deprecated: f[6] == "1", usages: p.usages(7)}
			r.proj[d.code] = d
			r.projCodes = append(r.projCodes, d.code)
		case "H":
			p.want(10)
			h := &helmertDef{code: p.int(1), name: f[2], method: p.int(3), src: p.int(4), accuracy: p.floatOr(5, -1), usages: p.usages(6), version: f[8], supersedes: p.ints(9, ",")}
			v := p.floats(7)
			if len(v) != 10 {
				p.fail("Helmert parameters")
			} else {
				copy(h.p[:], v)
			}
			r.helmerts[h.src] = append(r.helmerts[h.src], h)
		default:
			p.fail("unknown record kind %q", f[0])
		}
		if p.err != nil {
			return nil, p.err
		}
	}
	if r.source == "" {
		return nil, fmt.Errorf("crs: EPSG table: missing header")
	}
	// Sexagesimal angle units (DMS, DMSH) have no factor in EPSG; PROJ
	// reads their coordinates as degrees.
	for code, u := range r.units {
		if u.typ == "angle" && u.factor == 0 {
			u.factor = r.units[9102].factor
			r.units[code] = u
		}
	}
	return r, nil
}

// splitInto appends the sep-separated fields of s to dst (strings.Split
// without a new slice per record).
func splitInto(dst []string, s string, sep byte) []string {
	for {
		i := strings.IndexByte(s, sep)
		if i < 0 {
			return append(dst, s)
		}
		dst = append(dst, s[:i])
		s = s[i+1:]
	}
}

// tableParser reads the fields of one record, keeping the first error.
type tableParser struct {
	line int
	f    []string
	err  error
}

func (p *tableParser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("crs: EPSG table line %d: %s", p.line, fmt.Sprintf(format, args...))
	}
}

func (p *tableParser) want(n int) {
	if len(p.f) != n {
		p.fail("%d fields, want %d", len(p.f), n)
		p.f = append(p.f, make([]string, max(0, n-len(p.f)))...)
	}
}

func (p *tableParser) atoi(s string) int {
	v, err := strconv.Atoi(s)
	if err != nil {
		p.fail("bad integer %q", s)
	}
	return v
}

func (p *tableParser) atof(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) {
		p.fail("bad number %q", s)
	}
	return v
}

func (p *tableParser) int(i int) int       { return p.atoi(p.f[i]) }
func (p *tableParser) float(i int) float64 { return p.atof(p.f[i]) }

func (p *tableParser) floatOr(i int, def float64) float64 {
	if p.f[i] == "" {
		return def
	}
	return p.atof(p.f[i])
}

func (p *tableParser) ints(i int, sep string) []int {
	if p.f[i] == "" {
		return nil
	}
	var out []int
	for s := range strings.SplitSeq(p.f[i], sep) {
		out = append(out, p.atoi(s))
	}
	return out
}

func (p *tableParser) floats(i int) []float64 {
	var out []float64
	for s := range strings.SplitSeq(p.f[i], ",") {
		out = append(out, p.atof(s))
	}
	return out
}

func (p *tableParser) usages(i int) []usageDef {
	if p.f[i] == "" {
		return nil
	}
	var out []usageDef
	for s := range strings.SplitSeq(p.f[i], ",") {
		a, b, ok := strings.Cut(s, ":")
		if !ok {
			p.fail("usage %q", s)
			continue
		}
		out = append(out, usageDef{extent: p.atoi(a), scope: p.atoi(b)})
	}
	return out
}
