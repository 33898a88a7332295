package core

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
	Name   string
	Kind   string  // "length", "angle", "scale"
	Factor float64 // SI units (metres, radians, unity) per unit
}

type ellipsoidDef struct {
	Name    string
	A       float64 // in unit
	Unit    int
	Invf, B float64 // 0 when not given (b in unit)
}

type pmDef struct {
	name string
	lon  float64 // in unit
	unit int
}

type DatumDef struct {
	Code     int
	Name     string
	Ell, PM  int
	Epoch    float64 // frame reference epoch, 0 when static
	Accuracy string  // ensemble accuracy as PROJ prints it ("" when not an ensemble)
	Anchor   string
	Members  []int // ensemble members
}

type AxisDef struct {
	Name, Abbrev, Dir string
	Unit              int
}

type CSDef struct {
	Kind string
	Axes []AxisDef
}

type extentDef struct {
	Name, Desc string
	S, W, N, E float64
	NoBBox     bool // EPSG gives no bounding box (world assumed)
}

type UsageDef struct{ Extent, Scope int }

type geogDef struct {
	Code       int
	Name       string
	Datum, Cs  int
	Kind       string
	Deprecated bool
	Usages     []UsageDef
}

type ParamDef struct {
	Code  int
	Value float64
	Unit  int
}

type convDef struct {
	Code   int
	Name   string
	Method int
	Params []ParamDef
}

type projDef struct {
	Code       int
	Name       string
	geog       int
	cs         int
	Conv       int
	Deprecated bool
	Usages     []UsageDef
}

type helmertDef struct {
	code     int
	name     string
	method   int
	src      int
	accuracy float64 // metres; -1 when unknown
	usages   []UsageDef
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

// Registry is the parsed EPSG table.
type Registry struct {
	source     string
	Units      map[int]unitDef
	Ellipsoids map[int]ellipsoidDef
	pms        map[int]pmDef
	Datums     map[int]*DatumDef
	CSs        map[int]CSDef
	Extents    map[int]extentDef
	Scopes     map[int]string
	Methods    map[int]string
	Params     map[int]string
	Geog       map[int]*geogDef
	rotations  map[int]rotationDef
	Convs      map[int]*convDef
	Proj       map[int]*projDef
	ProjCodes  []int                 // increasing
	GeogCodes  []int                 // increasing
	Helmerts   map[int][]*helmertDef // by source geographic CRS, in code order
	cache      sync.Map              // code -> CRS built from the tables
}

// ParseRegistry parses the zlib-compressed table z of uncompressed length
// size.
func ParseRegistry(z []byte, size int) (*Registry, error) {
	zr, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, fmt.Errorf("crs: EPSG table: %w", err)
	}
	var buf bytes.Buffer
	buf.Grow(size)
	if _, err := io.Copy(&buf, zr); err != nil {
		return nil, fmt.Errorf("crs: EPSG table: %w", err)
	}
	r := &Registry{
		Units: map[int]unitDef{}, Ellipsoids: map[int]ellipsoidDef{}, pms: map[int]pmDef{},
		Datums: map[int]*DatumDef{}, CSs: map[int]CSDef{}, Extents: make(map[int]extentDef, 4096),
		Scopes: map[int]string{}, Methods: map[int]string{}, Params: map[int]string{},
		Geog: map[int]*geogDef{}, rotations: map[int]rotationDef{}, Convs: make(map[int]*convDef, 4096),
		Proj: make(map[int]*projDef, 8192), Helmerts: map[int][]*helmertDef{},
		ProjCodes: make([]int, 0, 8192),
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
			r.Units[p.int(1)] = unitDef{Name: f[2], Kind: f[3], Factor: p.floatOr(4, 0)}
		case "E":
			p.want(7)
			r.Ellipsoids[p.int(1)] = ellipsoidDef{Name: f[2], A: p.float(3), Unit: p.int(4), Invf: p.floatOr(5, 0), B: p.floatOr(6, 0)}
		case "M":
			p.want(5)
			r.pms[p.int(1)] = pmDef{name: f[2], lon: p.float(3), unit: p.int(4)}
		case "D":
			p.want(9)
			d := &DatumDef{Code: p.int(1), Name: f[2], Ell: p.int(3), PM: p.int(4), Epoch: p.floatOr(5, 0), Accuracy: f[6], Anchor: f[7]}
			d.Members = p.ints(8, ",")
			r.Datums[d.Code] = d
		case "C":
			p.want(4)
			cs := CSDef{Kind: f[2]}
			for a := range strings.SplitSeq(f[3], ";") {
				q := strings.Split(a, "|")
				if len(q) != 4 {
					p.fail("axis %q", a)
					continue
				}
				cs.Axes = append(cs.Axes, AxisDef{Name: q[0], Abbrev: q[1], Dir: q[2], Unit: p.atoi(q[3])})
			}
			r.CSs[p.int(1)] = cs
		case "A":
			p.want(5)
			noBox := f[4] == ",,,"
			if noBox {
				f[4] = "-90,-180,90,180"
			}
			b := p.floats(4)
			if len(b) == 4 {
				r.Extents[p.int(1)] = extentDef{Name: f[2], Desc: f[3], S: b[0], W: b[1], N: b[2], E: b[3], NoBBox: noBox}
			} else {
				p.fail("bbox")
			}
		case "S":
			p.want(3)
			r.Scopes[p.int(1)] = f[2]
		case "K":
			p.want(3)
			r.Methods[p.int(1)] = f[2]
		case "Q":
			p.want(3)
			r.Params[p.int(1)] = f[2]
		case "G":
			p.want(8)
			g := &geogDef{Code: p.int(1), Name: f[2], Datum: p.int(3), Cs: p.int(4), Kind: f[5], Deprecated: f[6] == "1", Usages: p.usages(7)}
			r.Geog[g.Code] = g
			r.GeogCodes = append(r.GeogCodes, g.Code)
		case "R":
			p.want(5)
			r.rotations[p.int(1)] = rotationDef{dst: p.int(2), value: p.float(3), unit: p.int(4)}
		case "V":
			p.want(5)
			c := &convDef{Code: p.int(1), Name: f[2], Method: p.int(3)}
			if f[4] != "" {
				for s := range strings.SplitSeq(f[4], ";") {
					q := strings.Split(s, "|")
					if len(q) != 3 {
						p.fail("parameter %q", s)
						continue
					}
					c.Params = append(c.Params, ParamDef{Code: p.atoi(q[0]), Value: p.atof(q[1]), Unit: p.atoi(q[2])})
				}
			}
			r.Convs[c.Code] = c
		case "P":
			p.want(8)
			d := &projDef{Code: p.int(1), Name: f[2], geog: p.int(3), cs: p.int(4), Conv: p.int(5), Deprecated: f[6] == "1", Usages: p.usages(7)}
			r.Proj[d.Code] = d
			r.ProjCodes = append(r.ProjCodes, d.Code)
		case "H":
			p.want(10)
			h := &helmertDef{code: p.int(1), name: f[2], method: p.int(3), src: p.int(4), accuracy: p.floatOr(5, -1), usages: p.usages(6), version: f[8], supersedes: p.ints(9, ",")}
			v := p.floats(7)
			if len(v) != 10 {
				p.fail("Helmert parameters")
			} else {
				copy(h.p[:], v)
			}
			r.Helmerts[h.src] = append(r.Helmerts[h.src], h)
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
	for code, u := range r.Units {
		if u.Kind == "angle" && u.Factor == 0 {
			u.Factor = r.Units[9102].Factor
			r.Units[code] = u
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

func (p *tableParser) usages(i int) []UsageDef {
	if p.f[i] == "" {
		return nil
	}
	var out []UsageDef
	for s := range strings.SplitSeq(p.f[i], ",") {
		a, b, ok := strings.Cut(s, ":")
		if !ok {
			p.fail("usage %q", s)
			continue
		}
		out = append(out, UsageDef{Extent: p.atoi(a), Scope: p.atoi(b)})
	}
	return out
}
