package core

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// The EPSG registry subset generated from PROJ's proj.db by
// conformance/crs/gen_tables.py (epsg_tables.go, epsg_tables.txt): a text
// with one record per line, fields separated by tabs, the first field
// naming the record kind and the second its code; the records of a kind
// are in increasing code order. Indexed once, on first use; see Registry.

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

// Registry is the EPSG table. The small tables (units, ellipsoids, prime
// meridians, coordinate systems, scopes, method and parameter names,
// longitude rotations) are parsed with the index; the large ones (datums,
// extents, geographic and projected CRSs, conversions, Helmert
// transformations) keep each record's line and code and parse a record on
// its first lookup, once (a process needing a few CRSs reads a few lines).
// A corrupt record found by a lookup is not found and sets Err.
type Registry struct {
	source     string
	text       string
	Units      map[int]unitDef
	Ellipsoids map[int]ellipsoidDef
	pms        map[int]pmDef
	CSs        map[int]CSDef
	Scopes     map[int]string
	Methods    map[int]string
	Params     map[int]string
	rotations  map[int]rotationDef
	datumT     lazyTable[DatumDef]
	extentT    lazyTable[extentDef]
	geogT      lazyTable[geogDef]
	convT      lazyTable[convDef]
	projT      lazyTable[projDef]
	helmT      lazyTable[helmertDef]
	helmSrc    []int // source CRS of each Helmert record, as helmT
	err        atomic.Pointer[error]
	allOnce    sync.Once
	allErr     error
	cache      sync.Map // code -> CRS built from the tables
}

// lazyTable is the records of one kind, in increasing code order, each
// parsed on its first lookup.
type lazyTable[T any] struct {
	kind  byte    // the record kind, naming its parser (parseRecord)
	codes []int   // increasing
	offs  []int32 // start of each record's line in Registry.text
	vals  []atomic.Pointer[T]
}

// add indexes the record of code at offset off; codes must increase.
func (t *lazyTable[T]) add(p *tableParser, code, off int) {
	if n := len(t.codes); n > 0 && code <= t.codes[n-1] {
		p.fail("code %d after %d (records of a kind must be in increasing code order)", code, t.codes[n-1])
		return
	}
	t.codes = append(t.codes, code)
	t.offs = append(t.offs, int32(off))
}

// get returns the record of code, nil when there is none or when its line
// is corrupt (recorded in r's Err).
func (t *lazyTable[T]) get(r *Registry, code int) *T {
	i, ok := slices.BinarySearch(t.codes, code)
	if !ok {
		return nil
	}
	return t.at(r, i)
}

// at returns the i-th record, parsing it on first use.
func (t *lazyTable[T]) at(r *Registry, i int) *T {
	if v := t.vals[i].Load(); v != nil {
		return v
	}
	v, _, err := t.parseAt(r, i, nil)
	if err != nil {
		r.setErr(err)
		return nil
	}
	if t.vals[i].CompareAndSwap(nil, v) {
		return v
	}
	return t.vals[i].Load()
}

// parseAt parses the i-th record's line, splitting it into fields (a
// buffer for the fields, returned for reuse; nil allocates one).
func (t *lazyTable[T]) parseAt(r *Registry, i int, fields []string) (*T, []string, error) {
	off := int(t.offs[i])
	line := r.text[off:]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	if fields == nil {
		fields = make([]string, 0, 16)
	}
	p := tableParser{text: r.text, off: off, f: splitInto(fields[:0], line, '\t')}
	v := parseRecord(t.kind, &p)
	if p.err != nil {
		return nil, p.f[:0], p.err
	}
	return v.(*T), p.f[:0], nil
}

// parseRecord parses a record of a table parsed on lookup (a direct call
// for each kind, so that p stays on its caller's stack).
func parseRecord(kind byte, p *tableParser) any {
	switch kind {
	case 'D':
		return parseDatum(p)
	case 'A':
		return parseExtent(p)
	case 'G':
		return parseGeog(p)
	case 'V':
		return parseConv(p)
	case 'P':
		return parseProj(p)
	case 'H':
		return parseHelmert(p)
	}
	p.fail("no parser for record kind %q", kind) // unreachable: finish names the kinds
	return nil
}

// finish allocates the table's slots once its records of kind are indexed.
func (t *lazyTable[T]) finish(kind byte) {
	t.vals = make([]atomic.Pointer[T], len(t.codes))
	t.kind = kind
}

// setErr records the first corrupt record a lookup met.
func (r *Registry) setErr(err error) {
	r.err.CompareAndSwap(nil, &err)
}

// Err reports a corrupt record met by a lookup since the registry was
// parsed (a build defect: ParseAll finds every one); nil when none was.
func (r *Registry) Err() error {
	if e := r.err.Load(); e != nil {
		return *e
	}
	return nil
}

// ParseAll parses every record not yet parsed and returns the error of the
// first corrupt one in table order, nil when the table is sound.
func (r *Registry) ParseAll() error {
	r.allOnce.Do(func() {
		first, firstOff := error(nil), 0
		check := func(off int, err error) {
			if err != nil && (first == nil || off < firstOff) {
				first, firstOff = err, off
			}
		}
		fields := make([]string, 0, 16)
		check(parseAllOf(r, &r.datumT, &fields))
		check(parseAllOf(r, &r.extentT, &fields))
		check(parseAllOf(r, &r.geogT, &fields))
		check(parseAllOf(r, &r.convT, &fields))
		check(parseAllOf(r, &r.projT, &fields))
		check(parseAllOf(r, &r.helmT, &fields))
		if first != nil {
			r.setErr(first)
		}
		r.allErr = first
	})
	return r.allErr
}

// parseAllOf parses every record of t (splitting lines into *fields); the
// error is the first record's that is corrupt, with its offset.
func parseAllOf[T any](r *Registry, t *lazyTable[T], fields *[]string) (int, error) {
	for i := range t.codes {
		if t.vals[i].Load() != nil {
			continue
		}
		v, f, err := t.parseAt(r, i, *fields)
		*fields = f
		if err != nil {
			return int(t.offs[i]), err
		}
		t.vals[i].CompareAndSwap(nil, v)
	}
	return 0, nil
}

// Datum returns EPSG datum code, nil when the table has none.
func (r *Registry) Datum(code int) *DatumDef { return r.datumT.get(r, code) }

// Extent returns EPSG extent code.
func (r *Registry) Extent(code int) (extentDef, bool) {
	if e := r.extentT.get(r, code); e != nil {
		return *e, true
	}
	return extentDef{}, false
}

// Geog returns EPSG geographic CRS code's record, nil when the table has
// none.
func (r *Registry) Geog(code int) *geogDef { return r.geogT.get(r, code) }

// GeogCodes returns the codes of the geographic CRSs, increasing (shared:
// callers must not modify it).
func (r *Registry) GeogCodes() []int { return r.geogT.codes }

// Conv returns EPSG conversion code, nil when the table has none.
func (r *Registry) Conv(code int) *convDef { return r.convT.get(r, code) }

// Proj returns EPSG projected CRS code's record, nil when the table has
// none.
func (r *Registry) Proj(code int) *projDef { return r.projT.get(r, code) }

// ProjCodes returns the codes of the projected CRSs, increasing (shared:
// callers must not modify it).
func (r *Registry) ProjCodes() []int { return r.projT.codes }

// Helmerts returns the Helmert transformations from geographic CRS src to
// WGS 84, in code order.
func (r *Registry) Helmerts(src int) []*helmertDef {
	var out []*helmertDef
	for i, s := range r.helmSrc {
		if s == src {
			if h := r.helmT.at(r, i); h != nil {
				out = append(out, h)
			}
		}
	}
	return out
}

// ParseRegistry indexes the EPSG table text (parsing its small tables);
// the large ones are parsed record by record on lookup (ParseAll parses
// them all).
func ParseRegistry(text string) (*Registry, error) {
	r := &Registry{
		text:  text,
		Units: map[int]unitDef{}, Ellipsoids: map[int]ellipsoidDef{}, pms: map[int]pmDef{},
		CSs: map[int]CSDef{}, Scopes: map[int]string{}, Methods: map[int]string{}, Params: map[int]string{},
		rotations: map[int]rotationDef{},
	}
	r.datumT.codes, r.datumT.offs = make([]int, 0, 1024), make([]int32, 0, 1024)
	r.extentT.codes, r.extentT.offs = make([]int, 0, 4096), make([]int32, 0, 4096)
	r.geogT.codes, r.geogT.offs = make([]int, 0, 1024), make([]int32, 0, 1024)
	r.convT.codes, r.convT.offs = make([]int, 0, 4096), make([]int32, 0, 4096)
	r.projT.codes, r.projT.offs = make([]int, 0, 8192), make([]int32, 0, 8192)
	r.helmT.codes, r.helmT.offs = make([]int, 0, 1024), make([]int32, 0, 1024)
	r.helmSrc = make([]int, 0, 1024)
	if len(text) > math.MaxInt32 {
		return nil, fmt.Errorf("crs: EPSG table: %d bytes", len(text))
	}
	body := strings.TrimSuffix(text, "\n")
	p := tableParser{text: text}
	fields := make([]string, 0, 16)
	for off := 0; off < len(body); {
		line := body[off:]
		next := len(body) + 1
		if j := strings.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
			next = off + j + 1
		}
		p.off = off
		kind, rest, _ := strings.Cut(line, "\t")
		switch kind {
		case "D", "A", "G", "V", "P", "H":
			// Indexed: the code (and a Helmert's source CRS) now, the
			// record on lookup.
			cf, rest, ok := strings.Cut(rest, "\t")
			if !ok {
				p.f = splitInto(fields[:0], line, '\t')
				p.want(map[string]int{"D": 9, "A": 5, "G": 8, "V": 5, "P": 8, "H": 10}[kind])
				break
			}
			code := p.atoi(cf)
			switch kind {
			case "D":
				r.datumT.add(&p, code, off)
			case "A":
				r.extentT.add(&p, code, off)
			case "G":
				r.geogT.add(&p, code, off)
			case "V":
				r.convT.add(&p, code, off)
			case "P":
				r.projT.add(&p, code, off)
			case "H":
				// H code name method src ...
				_, rest, _ = strings.Cut(rest, "\t")
				_, rest, _ = strings.Cut(rest, "\t")
				sf, _, ok := strings.Cut(rest, "\t")
				if !ok {
					p.f = splitInto(fields[:0], line, '\t')
					p.want(10)
					break
				}
				src := p.atoi(sf)
				if p.err == nil {
					r.helmT.add(&p, code, off)
					r.helmSrc = append(r.helmSrc, src)
				}
			}
		default:
			p.f = splitInto(fields[:0], line, '\t')
			fields = p.f[:0]
			r.parseSmall(&p, line)
		}
		if p.err != nil {
			return nil, p.err
		}
		off = next
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
	r.datumT.finish('D')
	r.extentT.finish('A')
	r.geogT.finish('G')
	r.convT.finish('V')
	r.projT.finish('P')
	r.helmT.finish('H')
	return r, nil
}

// parseSmall parses a record of the header or of a table read with the
// index.
func (r *Registry) parseSmall(p *tableParser, line string) {
	f := p.f
	switch f[0] {
	case "F":
		if len(f) < 2 || f[1] != "geodisaster-epsg-1" {
			p.err = fmt.Errorf("crs: EPSG table: unknown format %q", line)
			return
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
	case "S":
		p.want(3)
		r.Scopes[p.int(1)] = f[2]
	case "K":
		p.want(3)
		r.Methods[p.int(1)] = f[2]
	case "Q":
		p.want(3)
		r.Params[p.int(1)] = f[2]
	case "R":
		p.want(5)
		r.rotations[p.int(1)] = rotationDef{dst: p.int(2), value: p.float(3), unit: p.int(4)}
	default:
		p.fail("unknown record kind %q", f[0])
	}
}

func parseDatum(p *tableParser) *DatumDef {
	p.want(9)
	f := p.f
	d := &DatumDef{Code: p.int(1), Name: f[2], Ell: p.int(3), PM: p.int(4), Epoch: p.floatOr(5, 0), Accuracy: f[6], Anchor: f[7]}
	d.Members = p.ints(8, ",")
	return d
}

func parseExtent(p *tableParser) *extentDef {
	p.want(5)
	f := p.f
	noBox := f[4] == ",,,"
	bbox := f[4]
	if noBox {
		bbox = "-90,-180,90,180"
	}
	b := p.floatsOf(bbox)
	if len(b) != 4 {
		p.fail("bbox")
		return nil
	}
	return &extentDef{Name: f[2], Desc: f[3], S: b[0], W: b[1], N: b[2], E: b[3], NoBBox: noBox}
}

func parseGeog(p *tableParser) *geogDef {
	p.want(8)
	f := p.f
	return &geogDef{Code: p.int(1), Name: f[2], Datum: p.int(3), Cs: p.int(4), Kind: f[5], Deprecated: f[6] == "1", Usages: p.usages(7)}
}

func parseConv(p *tableParser) *convDef {
	p.want(5)
	f := p.f
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
	return c
}

func parseProj(p *tableParser) *projDef {
	p.want(8)
	f := p.f
	return &projDef{Code: p.int(1), Name: f[2], geog: p.int(3), cs: p.int(4), Conv: p.int(5), Deprecated: f[6] == "1", Usages: p.usages(7)}
}

func parseHelmert(p *tableParser) *helmertDef {
	p.want(10)
	f := p.f
	h := &helmertDef{code: p.int(1), name: f[2], method: p.int(3), src: p.int(4), accuracy: p.floatOr(5, -1), usages: p.usages(6), version: f[8], supersedes: p.ints(9, ",")}
	v := p.floats(7)
	if len(v) != 10 {
		p.fail("Helmert parameters")
	} else {
		copy(h.p[:], v)
	}
	return h
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
	text string // the whole table
	off  int    // start of the record's line in text
	f    []string
	err  error
}

func (p *tableParser) fail(format string, args ...any) {
	if p.err == nil {
		line := 1 + strings.Count(p.text[:p.off], "\n")
		p.err = fmt.Errorf("crs: EPSG table line %d: %s", line, fmt.Sprintf(format, args...))
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

func (p *tableParser) floats(i int) []float64 { return p.floatsOf(p.f[i]) }

func (p *tableParser) floatsOf(list string) []float64 {
	var out []float64
	for s := range strings.SplitSeq(list, ",") {
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
