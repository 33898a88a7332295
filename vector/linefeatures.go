package vector

import (
	"fmt"
	"strconv"
	"sync"
)

// LineFeatures is a GeoJSON FeatureCollection whose features are all
// LineStrings, as DecodeLineFeatures returns it.
type LineFeatures struct {
	// Lines holds each feature's (x, y) positions in document order. All
	// lines share one backing array; their capacity ends with them.
	Lines [][][2]float64
}

// A JSONValue is the undecoded text of one member of a feature's
// "properties" object, valid JSON by construction. Its accessors decode
// it as encoding/json would decode it into the corresponding Go type.
type JSONValue struct {
	raw string
	// What the decoder learnt reading raw, so that the accessors need not
	// read it again: valueNumber with num for a number that Clinger's
	// fast path rounds exactly, valuePlain for a string without escapes
	// or non-ASCII bytes.
	kind byte
	num  float64
}

const (
	valueUnread = iota
	valueNumber
	valuePlain
)

// Raw returns the value's JSON text.
func (v JSONValue) Raw() string { return v.raw }

// IsNull reports whether the value is JSON null.
func (v JSONValue) IsNull() bool { return v.raw == "null" }

// IsString reports whether the value is a JSON string.
func (v JSONValue) IsString() bool { return len(v.raw) > 0 && v.raw[0] == '"' }

// IsNumber reports whether the value is a JSON number.
func (v JSONValue) IsNumber() bool {
	return len(v.raw) > 0 && (v.raw[0] == '-' || v.raw[0] >= '0' && v.raw[0] <= '9')
}

// Float64 returns a number as strconv.ParseFloat rounds it.
func (v JSONValue) Float64() (float64, error) {
	if v.kind == valueNumber {
		return v.num, nil
	}
	if !v.IsNumber() {
		return 0, fmt.Errorf("%s is not a number", v.raw)
	}
	d := scanner{s: v.raw}
	f := d.float()
	if d.err != nil || d.i != len(v.raw) {
		return 0, fmt.Errorf("number %s is out of range", v.raw)
	}
	return f, nil
}

// Int64 returns an integral number (no fraction or exponent) in int64's
// range.
func (v JSONValue) Int64() (int64, error) {
	if v.kind == valueNumber && v.num >= -(1<<53) && v.num <= 1<<53 && plainInteger(v.raw) {
		// The digits alone, read exactly: strconv.ParseInt's value.
		return int64(v.num), nil
	}
	if !v.IsNumber() {
		return 0, fmt.Errorf("%s is not a number", v.raw)
	}
	n, err := strconv.ParseInt(v.raw, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s is not an integer in int64's range", v.raw)
	}
	return n, nil
}

// plainInteger reports whether a JSON number has neither a fraction nor
// an exponent.
func plainInteger(raw string) bool {
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}

// Bool returns true or false.
func (v JSONValue) Bool() (bool, error) {
	switch v.raw {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%s is not a boolean", v.raw)
}

// String returns a string's content. A string without escapes or
// non-ASCII bytes is returned as a part of the decoded document, without
// allocating.
func (v JSONValue) String() (string, error) {
	if v.kind == valuePlain {
		return v.raw[1 : len(v.raw)-1], nil
	}
	if !v.IsString() {
		return "", fmt.Errorf("%s is not a string", v.raw)
	}
	d := scanner{s: v.raw}
	s := d.str()
	return s, d.err
}

// GeoJSONError reports where a document stops being the GeoJSON a
// decoder accepts.
type GeoJSONError struct {
	Offset int // byte offset in the document
	Msg    string
}

func (e *GeoJSONError) Error() string {
	return fmt.Sprintf("vector: GeoJSON at byte %d: %s", e.Offset, e.Msg)
}

// DecodeLineFeatures decodes, in one pass and without per-feature
// allocation, a GeoJSON FeatureCollection (RFC 7946 section 3.3) whose
// every feature is a "Feature" with a LineString geometry of at least two
// positions, each position an array of at least two numbers (further ones
// are dropped). For every member of a feature's "properties" object it
// calls property with the feature's index, the member's name and its
// value; an error from property stops the decoding and is returned as is.
// Other members are checked for JSON syntax and skipped. Member names are
// matched exactly; "features" must appear once and the document must end
// after the collection. Numbers are rounded as strconv.ParseFloat (and so
// encoding/json) rounds them.
func DecodeLineFeatures(data string, property func(feature int, key string, v JSONValue) error) (*LineFeatures, error) {
	sc := lineScratchPool.Get().(*lineScratch)
	defer lineScratchPool.Put(sc)
	d := &lineDecoder{scanner: scanner{s: data}, property: property, pts: sc.pts[:0], ends: sc.ends[:0]}
	defer func() { sc.pts, sc.ends = d.pts[:0], d.ends[:0] }()
	var typ string
	features := false
	d.ws()
	for more := d.open('{'); more; more = d.next('}') {
		switch d.key() {
		case "type":
			typ = d.str()
		case "features":
			if features {
				d.fail(`duplicate "features" member`)
				break
			}
			features = true
			for more := d.open('['); more; more = d.next(']') {
				d.feature(len(d.ends))
				d.ends = append(d.ends, len(d.pts))
			}
		default:
			d.skip(0)
		}
	}
	if d.err == nil {
		d.ws()
		if d.i != len(d.s) {
			d.fail("data after the FeatureCollection")
		}
	}
	switch {
	case d.err != nil:
		return nil, d.err
	case typ != "FeatureCollection":
		return nil, &GeoJSONError{Offset: 0, Msg: "not a FeatureCollection"}
	case !features:
		return nil, &GeoJSONError{Offset: 0, Msg: `FeatureCollection has no "features" member`}
	}
	// The positions were gathered in recycled memory: they are copied out
	// once, at their final size.
	pts := make([][2]float64, len(d.pts))
	copy(pts, d.pts)
	lf := &LineFeatures{Lines: make([][][2]float64, len(d.ends))}
	start := 0
	for i, end := range d.ends {
		lf.Lines[i] = pts[start:end:end]
		start = end
	}
	return lf, nil
}

// lineScratch is DecodeLineFeatures' reusable working memory: the
// positions as they are decoded and where each feature's end.
type lineScratch struct {
	pts  [][2]float64
	ends []int
}

var lineScratchPool = sync.Pool{New: func() any { return new(lineScratch) }}

// lineDecoder holds DecodeLineFeatures' state: every position decoded so
// far and where each feature's positions end.
type lineDecoder struct {
	scanner
	property func(int, string, JSONValue) error
	pts      [][2]float64
	ends     []int
}

// feature decodes feature i, appending its positions to d.pts.
func (d *lineDecoder) feature(i int) {
	start, at := len(d.pts), d.i
	var typ, gtyp string
	geometry, coords := false, false
	for more := d.open('{'); more; more = d.next('}') {
		switch d.key() {
		case "type":
			typ = d.str()
		case "properties":
			d.properties(i)
		case "geometry":
			if geometry {
				d.fail("feature %d: duplicate geometry", i)
				break
			}
			geometry = true
			if d.peek() == 'n' {
				d.literal("null")
				break
			}
			for more := d.open('{'); more; more = d.next('}') {
				switch d.key() {
				case "type":
					gtyp = d.str()
				case "coordinates":
					if coords {
						d.fail("feature %d: duplicate coordinates", i)
						break
					}
					coords = true
					d.positions(i)
				default:
					d.skip(0)
				}
			}
		default:
			d.skip(0)
		}
	}
	if d.err != nil {
		return
	}
	switch {
	case typ != "Feature":
		d.err = &GeoJSONError{Offset: at, Msg: fmt.Sprintf("feature %d is not a Feature", i)}
	case gtyp != "LineString" || !coords:
		d.err = &GeoJSONError{Offset: at, Msg: fmt.Sprintf("feature %d: geometry must be a LineString", i)}
	case len(d.pts)-start < 2:
		d.err = &GeoJSONError{Offset: at, Msg: fmt.Sprintf("feature %d: a LineString needs at least 2 positions", i)}
	}
}

// properties passes each member of feature i's properties object (or
// null) to d.property.
func (d *lineDecoder) properties(i int) {
	if d.peek() == 'n' {
		d.literal("null")
		return
	}
	for more := d.open('{'); more; more = d.next('}') {
		key := d.key()
		var v JSONValue
		switch c := d.peek(); {
		case c == '"':
			raw, plain := d.stringToken()
			v.raw = raw
			if plain {
				v.kind = valuePlain
			}
		case c == '-' || c >= '0' && c <= '9':
			tok, f, exact := d.number()
			v.raw = tok
			if exact {
				v.kind, v.num = valueNumber, f
			}
		default:
			v.raw = d.skip(0)
		}
		if d.err == nil {
			d.err = d.property(i, key, v)
		}
	}
}

// positions decodes an array of positions, appending them to d.pts.
func (d *lineDecoder) positions(feature int) {
	k := 0
	for more := d.open('['); more; more = d.next(']') {
		var p [2]float64
		n := 0
		for more := d.open('['); more; more = d.next(']') {
			if v := d.float(); n < 2 {
				p[n] = v
			}
			n++
		}
		if d.err == nil && n < 2 {
			d.fail("feature %d: position %d has %d coordinates, want at least 2", feature, k, n)
		}
		d.pts = append(d.pts, p)
		k++
	}
}
