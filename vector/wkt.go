package vector

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
)

// WKTError reports malformed Well-Known Text with the byte offset where
// parsing stopped.
type WKTError struct {
	Offset int
	Msg    string
}

func (e *WKTError) Error() string { return fmt.Sprintf("wkt: at offset %d: %s", e.Offset, e.Msg) }

// ParsePolygonalWKT parses a POLYGON or MULTIPOLYGON in Well-Known Text
// (2D; a Z or M ordinate, if present, is dropped) and returns it as a
// multipolygon; a POLYGON becomes a one-element multipolygon and EMPTY
// geometries an empty one. Rings are kept exactly as written (closing point
// included); ParsePolygonalWKT checks that every ring has at least four
// points and is closed.
func ParsePolygonalWKT(s string) (orb.MultiPolygon, error) {
	p := &wktParser{s: s}
	p.space()
	word := p.word()
	var mp orb.MultiPolygon
	var err error
	switch word {
	case "POLYGON":
		p.dims()
		if p.empty() {
			break
		}
		var poly orb.Polygon
		poly, err = p.polygon()
		if err == nil {
			mp = orb.MultiPolygon{poly}
		}
	case "MULTIPOLYGON":
		p.dims()
		if p.empty() {
			break
		}
		mp, err = p.multiPolygon()
	case "":
		return nil, &WKTError{p.i, "missing geometry type"}
	default:
		return nil, &WKTError{0, fmt.Sprintf("geometry type %s is not polygonal", word)}
	}
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, &WKTError{p.i, "unexpected trailing text"}
	}
	return mp, nil
}

type wktParser struct {
	s    string
	i    int
	dimN int // ordinates per point (2, 3 or 4)
}

func (p *wktParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *wktParser) word() string {
	p.space()
	st := p.i
	for p.i < len(p.s) && ((p.s[p.i] >= 'A' && p.s[p.i] <= 'Z') || (p.s[p.i] >= 'a' && p.s[p.i] <= 'z')) {
		p.i++
	}
	return strings.ToUpper(p.s[st:p.i])
}

// dims reads an optional Z, M or ZM tag.
func (p *wktParser) dims() {
	save := p.i
	switch p.word() {
	case "Z", "M":
		p.dimN = 3
	case "ZM":
		p.dimN = 4
	default:
		p.i = save
		p.dimN = 2
	}
}

func (p *wktParser) empty() bool {
	save := p.i
	if p.word() == "EMPTY" {
		return true
	}
	p.i = save
	return false
}

func (p *wktParser) expect(c byte) error {
	p.space()
	if p.i >= len(p.s) || p.s[p.i] != c {
		return &WKTError{p.i, fmt.Sprintf("expected %q", c)}
	}
	p.i++
	return nil
}

// more consumes a comma and reports true, or reports false before ')'.
func (p *wktParser) more() (bool, error) {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ',' {
		p.i++
		return true, nil
	}
	if p.i < len(p.s) && p.s[p.i] == ')' {
		return false, nil
	}
	return false, &WKTError{p.i, "expected ',' or ')'"}
}

func (p *wktParser) number() (float64, error) {
	p.space()
	st := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E' {
			p.i++
			continue
		}
		break
	}
	if st == p.i {
		return 0, &WKTError{st, "expected a number"}
	}
	v, err := strconv.ParseFloat(p.s[st:p.i], 64)
	if err != nil {
		return 0, &WKTError{st, fmt.Sprintf("bad number %q", p.s[st:p.i])}
	}
	return v, nil
}

// point reads one position; ordinates past x and y are dropped.
func (p *wktParser) point() (orb.Point, error) {
	var pt orb.Point
	for k := 0; k < p.dimN || k < 2; k++ {
		v, err := p.number()
		if err != nil {
			return pt, err
		}
		if k < 2 {
			pt[k] = v
		}
	}
	// A third ordinate written without a Z tag is also dropped.
	p.space()
	if p.dimN == 2 && p.i < len(p.s) && p.s[p.i] != ',' && p.s[p.i] != ')' {
		if _, err := p.number(); err != nil {
			return pt, err
		}
	}
	return pt, nil
}

// wktList reads a parenthesized, comma-separated list of items.
func wktList[T any](p *wktParser, item func() (T, error)) ([]T, error) {
	if err := p.expect('('); err != nil {
		return nil, err
	}
	var out []T
	for {
		v, err := item()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		ok, err := p.more()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
	}
	return out, p.expect(')')
}

func (p *wktParser) ring() (orb.Ring, error) {
	r, err := wktList(p, p.point)
	if err != nil {
		return nil, err
	}
	if len(r) < 4 {
		return nil, &WKTError{p.i, fmt.Sprintf("ring has %d points; a closed ring needs at least 4", len(r))}
	}
	if r[0] != r[len(r)-1] {
		return nil, &WKTError{p.i, "ring is not closed"}
	}
	return r, nil
}

func (p *wktParser) polygon() (orb.Polygon, error) {
	return wktList(p, p.ring)
}

func (p *wktParser) multiPolygon() (orb.MultiPolygon, error) {
	return wktList(p, p.polygon)
}

// PolygonWKT formats a polygon as WKT with the shortest decimal that
// round-trips each coordinate, e.g. "POLYGON ((0 0, 4 0, 4 3, 0 0))".
func PolygonWKT(poly orb.Polygon) string {
	var b strings.Builder
	b.WriteString("POLYGON (")
	for i, r := range poly {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for j, pt := range r {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.FormatFloat(pt[0], 'f', -1, 64))
			b.WriteByte(' ')
			b.WriteString(strconv.FormatFloat(pt[1], 'f', -1, 64))
		}
		b.WriteByte(')')
	}
	b.WriteByte(')')
	return b.String()
}
