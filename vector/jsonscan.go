package vector

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"strconv"
)

// scanner reads JSON (RFC 8259) from a string in one pass. Its first
// error sticks: every later read returns a zero value and every loop
// condition (open, next) is false, so a decoder written as nested loops
// unwinds by itself and checks err once.
//
// Objects and arrays are read as loops:
//
//	for more := d.open('{'); more; more = d.next('}') {
//		switch d.key() { ... }
//	}
//
// where the body consumes exactly one member value (or array element).
type scanner struct {
	s   string
	i   int
	err error
}

// fail records the first error, at the scanner's offset.
func (d *scanner) fail(format string, a ...any) {
	if d.err == nil {
		d.err = &GeoJSONError{Offset: d.i, Msg: fmt.Sprintf(format, a...)}
	}
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

// peek returns the next byte, 0 at the end or after an error.
func (d *scanner) peek() byte {
	if d.err == nil && d.i < len(d.s) {
		return d.s[d.i]
	}
	return 0
}

// open consumes the opening bracket of an object ('{') or an array ('[')
// and reports whether a first member or element follows.
func (d *scanner) open(bracket byte) bool {
	if d.peek() != bracket {
		if bracket == '{' {
			d.fail("expected an object")
		} else {
			d.fail("expected an array")
		}
		return false
	}
	closing := byte('}')
	if bracket == '[' {
		closing = ']'
	}
	d.i++
	d.ws()
	if d.peek() == closing {
		d.i++
		return false
	}
	return d.err == nil
}

// next consumes what follows a member or element: a comma (and the white
// space after it), when it reports true, or the closing bracket.
func (d *scanner) next(closing byte) bool {
	d.ws()
	switch d.peek() {
	case ',':
		d.i++
		d.ws()
		return true
	case closing:
		d.i++
		return false
	}
	if closing == '}' {
		d.fail("expected , or } after an object member")
	} else {
		d.fail("expected , or ] after an array element")
	}
	return false
}

// key reads a member name and the colon after it.
func (d *scanner) key() string {
	k := d.str()
	d.ws()
	if d.peek() != ':' {
		d.fail("expected : after an object key")
		return ""
	}
	d.i++
	d.ws()
	return k
}

// str reads a string and returns its content: a part of the document
// when the literal has no escape and no non-ASCII byte.
func (d *scanner) str() string {
	raw, plain := d.stringToken()
	if plain {
		return raw[1 : len(raw)-1]
	}
	if raw == "" {
		return ""
	}
	var s string
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		d.fail("%v", err)
	}
	return s
}

// stringToken reads a string literal and returns it, quotes included;
// plain reports that it holds neither an escape nor a non-ASCII byte.
func (d *scanner) stringToken() (raw string, plain bool) {
	if d.peek() != '"' {
		d.fail("expected a string")
		return "", false
	}
	start := d.i
	plain = true
	for i := start + 1; i < len(d.s); i++ {
		c := d.s[i]
		if !stringStop[c] {
			continue
		}
		switch {
		case c == '"':
			d.i = i + 1
			return d.s[start:d.i], plain
		case c < 0x20:
			d.i = i
			d.fail("control character in a string")
			return "", false
		case c >= 0x80:
			plain = false
		case c == '\\':
			plain = false
			if i++; i >= len(d.s) {
				break
			}
			switch d.s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d.s) {
					d.i = i
					d.fail("truncated \\u escape")
					return "", false
				}
				for _, h := range []byte(d.s[i+1 : i+5]) {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						d.i = i
						d.fail("invalid \\u escape")
						return "", false
					}
				}
				i += 4
			default:
				d.i = i
				d.fail("invalid escape in a string")
				return "", false
			}
		}
	}
	d.i = len(d.s)
	d.fail("unterminated string")
	return "", false
}

// load64 returns the eight bytes of s from i as a little-endian word.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// stringStop marks the bytes that end a run of plain string content: the
// quote, the backslash, control characters and non-ASCII bytes.
var stringStop = func() (t [256]bool) {
	for c := range t {
		t[c] = c == '"' || c == '\\' || c < 0x20 || c >= 0x80
	}
	return t
}()

// float reads a number and returns it rounded as strconv.ParseFloat (and
// so encoding/json) rounds it; a number beyond float64's range is an
// error.
func (d *scanner) float() float64 {
	at := d.i
	tok, v, exact := d.number()
	if exact || d.err != nil {
		return v
	}
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil {
		d.i = at
		d.fail("number %s is out of range", tok)
		return 0
	}
	return f
}

// pow10u holds 10^n for n digits read at once.
var pow10u = [9]uint64{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000}

// leadingDigits returns how many of the little-endian word x's bytes,
// from the lowest, are ASCII digits (0 to 8) and the decimal value of
// those digits.
func leadingDigits(x uint64) (n int, v uint64) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	t := x ^ (ones * '0') // a digit's byte becomes its value, 0 to 9
	// A byte is not a digit when t >= 10: bit 7 of t, or of its low seven
	// bits plus 0x76 (no carry leaves a byte: at most 0x7f+0x76).
	not := ((t&^highs + ones*0x76) | t) & highs
	n = bits.TrailingZeros64(not) >> 3
	if n == 0 {
		return 0, 0
	}
	// The n digits moved to the top bytes, zeros (leading zeros) below,
	// then combined pairwise: 2, 4 and 8 digits a lane.
	t <<= 8 * uint(8-n)
	t = (t * (10<<8 + 1)) >> 8 & 0x00ff00ff00ff00ff
	t = (t * (100<<16 + 1)) >> 16 & 0x0000ffff0000ffff
	t = (t * (10000<<32 + 1)) >> 32
	return n, t
}

// digitRun reads up to eight digits at s[i:] in one step when all of
// them count (mant is not zero, so none is a leading zero, and the
// mantissa keeps at most 19 digits): it returns how many it read (0 when
// the step does not apply, leaving them to the digit-by-digit loop) and
// mant with them appended.
func digitRun(s string, i int, mant uint64, digits int) (int, uint64) {
	if mant == 0 || i+8 > len(s) {
		return 0, mant
	}
	n, v := leadingDigits(load64(s, i))
	if n == 0 || digits+n > 19 {
		return 0, mant
	}
	return n, mant*pow10u[n] + v
}

// exactPow10 holds the powers of ten that float64 represents exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// number reads a number (RFC 8259 grammar) and returns its text. When its
// decimal digits form an integer m <= 2^53 scaled by 10^e with |e| <= 22,
// both m and 10^e are float64 values and one multiplication or division
// rounds m*10^e correctly (Clinger's fast path, which strconv takes too):
// number then returns that value with exact true. Otherwise the caller
// parses the text.
func (d *scanner) number() (tok string, v float64, exact bool) {
	if d.err != nil {
		return "", 0, false
	}
	start, s := d.i, d.s
	i := start
	neg := i < len(s) && s[i] == '-'
	if neg {
		i++
	}
	var mant uint64
	digits, exp := 0, 0
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) {
			if n, m := digitRun(s, i, mant, digits); n > 0 {
				mant, digits, i = m, digits+n, i+n
				if n == 8 {
					continue
				}
				break
			}
			if s[i] < '0' || s[i] > '9' {
				break
			}
			if digits < 19 {
				mant = mant*10 + uint64(s[i]-'0')
			}
			digits++
			i++
		}
	default:
		d.i = i
		d.fail("expected a number")
		return "", 0, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		j := i
		for i < len(s) {
			if n, m := digitRun(s, i, mant, digits); n > 0 {
				mant, digits, exp, i = m, digits+n, exp-n, i+n
				if n == 8 {
					continue
				}
				break
			}
			if s[i] < '0' || s[i] > '9' {
				break
			}
			if mant != 0 || s[i] != '0' {
				if digits < 19 {
					mant = mant*10 + uint64(s[i]-'0')
				}
				digits++
			}
			exp--
			i++
		}
		if i == j {
			d.i = i
			d.fail("expected a digit after the decimal point")
			return "", 0, false
		}
	}
	exact = digits <= 19
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := i < len(s) && s[i] == '-'
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j, e := i, 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if e < 10000 {
				e = e*10 + int(s[i]-'0')
			}
		}
		if i == j {
			d.i = i
			d.fail("expected a digit in the exponent")
			return "", 0, false
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	d.i = i
	tok = s[start:i]
	switch {
	case mant == 0 && exact:
		v = 0
	case !exact || mant > 1<<53 || exp < -22 || exp > 22:
		return tok, 0, false
	case exp >= 0:
		v = float64(mant) * exactPow10[exp]
	default:
		v = float64(mant) / exactPow10[-exp]
	}
	if neg {
		v = -v
	}
	return tok, v, true
}

// literal reads the literal word (true, false or null).
func (d *scanner) literal(word string) {
	if d.err != nil {
		return
	}
	if len(d.s)-d.i < len(word) || d.s[d.i:d.i+len(word)] != word {
		d.fail("expected %s", word)
		return
	}
	d.i += len(word)
}

// maxJSONDepth bounds the nesting of skipped values, as encoding/json does.
const maxJSONDepth = 10000

// skip reads any value and returns its text.
func (d *scanner) skip(depth int) string {
	start := d.i
	if depth > maxJSONDepth {
		d.fail("nesting deeper than %d", maxJSONDepth)
		return ""
	}
	switch c := d.peek(); {
	case c == '{':
		for more := d.open('{'); more; more = d.next('}') {
			d.key()
			d.skip(depth + 1)
		}
	case c == '[':
		for more := d.open('['); more; more = d.next(']') {
			d.skip(depth + 1)
		}
	case c == '"':
		d.stringToken()
	case c == 't':
		d.literal("true")
	case c == 'f':
		d.literal("false")
	case c == 'n':
		d.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		d.number()
	default:
		d.fail("expected a value")
	}
	if d.err != nil {
		return ""
	}
	return d.s[start:d.i]
}
