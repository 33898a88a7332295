package vector

import (
	"encoding/json"
	"fmt"
	"strconv"
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
type JSONValue struct{ raw string }

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
	if !v.IsNumber() {
		return 0, fmt.Errorf("%s is not a number", v.raw)
	}
	f, err := strconv.ParseFloat(v.raw, 64)
	if err != nil {
		return 0, fmt.Errorf("number %s is out of range", v.raw)
	}
	return f, nil
}

// Int64 returns an integral number (no fraction or exponent) in int64's
// range.
func (v JSONValue) Int64() (int64, error) {
	if !v.IsNumber() {
		return 0, fmt.Errorf("%s is not a number", v.raw)
	}
	n, err := strconv.ParseInt(v.raw, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s is not an integer in int64's range", v.raw)
	}
	return n, nil
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
	if !v.IsString() {
		return "", fmt.Errorf("%s is not a string", v.raw)
	}
	return unquote(v.raw)
}

// unquote returns the content of a valid JSON string literal.
func unquote(raw string) (string, error) {
	body := raw[1 : len(raw)-1]
	for i := 0; i < len(body); i++ {
		if c := body[i]; c == '\\' || c >= 0x80 {
			var s string
			err := json.Unmarshal([]byte(raw), &s)
			return s, err
		}
	}
	return body, nil
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

// maxJSONDepth bounds the nesting of skipped values, as encoding/json does.
const maxJSONDepth = 10000

// DecodeLineFeatures decodes, in one pass and without per-feature
// allocation, a GeoJSON FeatureCollection (RFC 7946 section 3.3) whose
// every feature is a "Feature" with a LineString geometry of at least two
// positions, each position an array of at least two numbers (further ones
// are dropped). For every member of a feature's "properties" object it
// calls property with the feature's index, the member's name and its
// value; an error from property stops the decoding and is returned as is.
// Other members are checked for JSON syntax and skipped. Member names are
// matched exactly; "features" must appear once and the document must end
// after the collection. Numbers are rounded by strconv.ParseFloat, as
// encoding/json rounds them.
func DecodeLineFeatures(data string, property func(feature int, key string, v JSONValue) error) (*LineFeatures, error) {
	d := &scanner{s: data}
	var (
		pts      [][2]float64
		ends     []int
		typ      string
		features bool
	)
	d.ws()
	err := d.object(func(key string) error {
		switch key {
		case "type":
			s, err := d.stringValue()
			typ = s
			return err
		case "features":
			if features {
				return d.errf(`duplicate "features" member`)
			}
			features = true
			return d.array(func(i int) error {
				var err error
				if pts, err = d.lineFeature(i, pts, property); err != nil {
					return err
				}
				ends = append(ends, len(pts))
				return nil
			})
		}
		return d.skip(0)
	})
	if err != nil {
		return nil, err
	}
	d.ws()
	if d.i != len(d.s) {
		return nil, d.errf("data after the FeatureCollection")
	}
	if typ != "FeatureCollection" {
		return nil, &GeoJSONError{Offset: 0, Msg: "not a FeatureCollection"}
	}
	if !features {
		return nil, &GeoJSONError{Offset: 0, Msg: `FeatureCollection has no "features" member`}
	}
	lf := &LineFeatures{Lines: make([][][2]float64, len(ends))}
	start := 0
	for i, end := range ends {
		lf.Lines[i] = pts[start:end:end]
		start = end
	}
	return lf, nil
}

// lineFeature decodes feature i, appending its positions to pts.
func (d *scanner) lineFeature(i int, pts [][2]float64, property func(int, string, JSONValue) error) ([][2]float64, error) {
	start := len(pts)
	var typ, gtyp string
	var geometry, coords bool
	at := d.i
	err := d.object(func(key string) error {
		switch key {
		case "type":
			s, err := d.stringValue()
			typ = s
			return err
		case "properties":
			if d.peek() == 'n' {
				return d.literal("null")
			}
			return d.object(func(key string) error {
				vs := d.i
				if err := d.skip(0); err != nil {
					return err
				}
				return property(i, key, JSONValue{d.s[vs:d.i]})
			})
		case "geometry":
			if geometry {
				return d.errf("feature %d: duplicate geometry", i)
			}
			geometry = true
			if d.peek() == 'n' {
				return d.literal("null")
			}
			return d.object(func(key string) error {
				switch key {
				case "type":
					s, err := d.stringValue()
					gtyp = s
					return err
				case "coordinates":
					if coords {
						return d.errf("feature %d: duplicate coordinates", i)
					}
					coords = true
					var err error
					pts, err = d.positions(i, pts)
					return err
				}
				return d.skip(0)
			})
		}
		return d.skip(0)
	})
	if err != nil {
		return pts, err
	}
	switch {
	case typ != "Feature":
		return pts, &GeoJSONError{Offset: at, Msg: fmt.Sprintf("feature %d is not a Feature", i)}
	case gtyp != "LineString" || !coords:
		return pts, &GeoJSONError{Offset: at, Msg: fmt.Sprintf("feature %d: geometry must be a LineString", i)}
	case len(pts)-start < 2:
		return pts, &GeoJSONError{Offset: at, Msg: fmt.Sprintf("feature %d: a LineString needs at least 2 positions", i)}
	}
	return pts, nil
}

// positions decodes an array of positions, appending them to pts.
func (d *scanner) positions(feature int, pts [][2]float64) ([][2]float64, error) {
	err := d.array(func(k int) error {
		var p [2]float64
		n := 0
		err := d.array(func(j int) error {
			at := d.i
			tok, err := d.number()
			if err != nil {
				return err
			}
			if j < 2 {
				f, err := strconv.ParseFloat(tok, 64)
				if err != nil {
					return &GeoJSONError{Offset: at, Msg: fmt.Sprintf("number %s is out of range", tok)}
				}
				p[j] = f
			}
			n++
			return nil
		})
		if err != nil {
			return err
		}
		if n < 2 {
			return d.errf("feature %d: position %d has %d coordinates, want at least 2", feature, k, n)
		}
		pts = append(pts, p)
		return nil
	})
	return pts, err
}

// scanner reads JSON from a string.
type scanner struct {
	s string
	i int
}

func (d *scanner) errf(format string, a ...any) error {
	return &GeoJSONError{Offset: d.i, Msg: fmt.Sprintf(format, a...)}
}

func (d *scanner) ws() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// peek returns the next byte, 0 at the end.
func (d *scanner) peek() byte {
	if d.i < len(d.s) {
		return d.s[d.i]
	}
	return 0
}

// object reads an object, calling member with the scanner at each
// member's value, which member must consume.
func (d *scanner) object(member func(key string) error) error {
	if d.peek() != '{' {
		return d.errf("expected an object")
	}
	d.i++
	d.ws()
	if d.peek() == '}' {
		d.i++
		return nil
	}
	for {
		raw, err := d.stringToken()
		if err != nil {
			return err
		}
		key, err := unquote(raw)
		if err != nil {
			return d.errf("%v", err)
		}
		d.ws()
		if d.peek() != ':' {
			return d.errf("expected : after an object key")
		}
		d.i++
		d.ws()
		if err := member(key); err != nil {
			return err
		}
		if done, err := d.separator('}', "an object member"); done || err != nil {
			return err
		}
	}
}

// array reads an array, calling elem with the scanner at each element,
// which elem must consume.
func (d *scanner) array(elem func(k int) error) error {
	if d.peek() != '[' {
		return d.errf("expected an array")
	}
	d.i++
	d.ws()
	if d.peek() == ']' {
		d.i++
		return nil
	}
	for k := 0; ; k++ {
		if err := elem(k); err != nil {
			return err
		}
		if done, err := d.separator(']', "an array element"); done || err != nil {
			return err
		}
	}
}

// separator reads what follows a member or element: a comma (and the
// white space after it), or the closing bracket, which ends the value
// (done).
func (d *scanner) separator(closing byte, after string) (done bool, err error) {
	d.ws()
	switch d.peek() {
	case ',':
		d.i++
		d.ws()
		return false, nil
	case closing:
		d.i++
		return true, nil
	}
	return false, d.errf("expected , or %c after %s", closing, after)
}

// stringValue reads a string and returns its content.
func (d *scanner) stringValue() (string, error) {
	raw, err := d.stringToken()
	if err != nil {
		return "", err
	}
	s, err := unquote(raw)
	if err != nil {
		return "", d.errf("%v", err)
	}
	return s, nil
}

// stringToken reads a string literal and returns it, quotes included.
func (d *scanner) stringToken() (string, error) {
	if d.peek() != '"' {
		return "", d.errf("expected a string")
	}
	start := d.i
	for i := start + 1; i < len(d.s); i++ {
		switch c := d.s[i]; {
		case c == '"':
			d.i = i + 1
			return d.s[start:d.i], nil
		case c < 0x20:
			d.i = i
			return "", d.errf("control character in a string")
		case c == '\\':
			i++
			if i >= len(d.s) {
				break
			}
			switch d.s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d.s) {
					d.i = i
					return "", d.errf("truncated \\u escape")
				}
				for _, h := range []byte(d.s[i+1 : i+5]) {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						d.i = i
						return "", d.errf("invalid \\u escape")
					}
				}
				i += 4
			default:
				d.i = i
				return "", d.errf("invalid escape in a string")
			}
		}
	}
	d.i = len(d.s)
	return "", d.errf("unterminated string")
}

// number reads a number (RFC 8259 grammar) and returns its text.
func (d *scanner) number() (string, error) {
	start, s := d.i, d.s
	i := start
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		d.i = i
		return "", d.errf("expected a number")
	}
	if i < len(s) && s[i] == '.' {
		i++
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == j {
			d.i = i
			return "", d.errf("expected a digit after the decimal point")
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == j {
			d.i = i
			return "", d.errf("expected a digit in the exponent")
		}
	}
	d.i = i
	return s[start:i], nil
}

// literal reads the literal word (true, false or null).
func (d *scanner) literal(word string) error {
	if len(d.s)-d.i < len(word) || d.s[d.i:d.i+len(word)] != word {
		return d.errf("expected %s", word)
	}
	d.i += len(word)
	return nil
}

// skip reads any value.
func (d *scanner) skip(depth int) error {
	if depth > maxJSONDepth {
		return d.errf("nesting deeper than %d", maxJSONDepth)
	}
	switch c := d.peek(); {
	case c == '{':
		return d.object(func(string) error { return d.skip(depth + 1) })
	case c == '[':
		return d.array(func(int) error { return d.skip(depth + 1) })
	case c == '"':
		_, err := d.stringToken()
		return err
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		_, err := d.number()
		return err
	}
	return d.errf("expected a value")
}
