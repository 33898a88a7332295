package scoring

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// NonFinite is the decoded form of the bare tokens NaN, Infinity and
// -Infinity that Python's json module emits for non-finite floats, and of
// numeric literals that overflow float64 (such as 1e400). It is never a
// valid answer value; the v2 scorer reports it as "non-finite".
type NonFinite string

// maxDepth bounds the nesting of a decoded JSON value so that hostile input
// cannot exhaust the stack.
const maxDepth = 512

// SyntaxError reports malformed JSON at a byte offset.
type SyntaxError struct {
	Offset int    // byte offset of the problem in the input
	Msg    string // what was wrong
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("malformed JSON at byte %d: %s", e.Offset, e.Msg)
}

// DecodeJSON decodes one JSON value the way the v2 scorer reads answers:
// objects become map[string]any, arrays []any, strings string, booleans bool,
// null nil and numbers json.Number. Python's non-standard tokens NaN,
// Infinity and -Infinity, and numbers that overflow float64, decode to
// NonFinite instead of failing, so a scorer can name them. A duplicate
// object key, trailing data, nesting deeper than 512 levels or any other
// grammar error is a *SyntaxError.
func DecodeJSON(data []byte) (any, error) {
	p := parser{data: data}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return nil, p.errorf("trailing data after the value")
	}
	return v, nil
}

// parser is a recursive-descent JSON reader over a byte slice.
type parser struct {
	data []byte
	pos  int
}

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Offset: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// literal consumes word if the input continues with it.
func (p *parser) literal(word string) bool {
	if len(p.data)-p.pos >= len(word) && string(p.data[p.pos:p.pos+len(word)]) == word {
		p.pos += len(word)
		return true
	}
	return false
}

func (p *parser) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, p.errorf("nesting deeper than %d levels", maxDepth)
	}
	if p.pos >= len(p.data) {
		return nil, p.errorf("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == 't':
		if p.literal("true") {
			return true, nil
		}
	case c == 'f':
		if p.literal("false") {
			return false, nil
		}
	case c == 'n':
		if p.literal("null") {
			return nil, nil
		}
	case c == 'N':
		if p.literal("NaN") {
			return NonFinite("NaN"), nil
		}
	case c == 'I':
		if p.literal("Infinity") {
			return NonFinite("Infinity"), nil
		}
	case c == '-' && p.pos+1 < len(p.data) && p.data[p.pos+1] == 'I':
		if p.literal("-Infinity") {
			return NonFinite("-Infinity"), nil
		}
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return nil, p.errorf("unexpected character %q", p.data[p.pos])
}

func (p *parser) object(depth int) (any, error) {
	m := map[string]any{}
	err := p.members('}', "object", func() error {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return p.errorf("expected an object key string")
		}
		keyAt := p.pos
		k, err := p.str()
		if err != nil {
			return err
		}
		if _, dup := m[k]; dup {
			return &SyntaxError{Offset: keyAt, Msg: fmt.Sprintf("duplicate object key %q", k)}
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return p.errorf("expected ':' after object key")
		}
		p.pos++
		p.skipSpace()
		v, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		m[k] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

func (p *parser) array(depth int) (any, error) {
	a := []any{}
	err := p.members(']', "array", func() error {
		v, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		a = append(a, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// members reads the members of the object or array whose opening byte is
// at p.pos, through its closing byte end: member reads one member (the
// space before it skipped), members are separated by commas, and kind
// names the container in errors.
func (p *parser) members(end byte, kind string, member func() error) error {
	p.pos++ // '{' or '['
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == end {
		p.pos++
		return nil
	}
	for {
		p.skipSpace()
		if err := member(); err != nil {
			return err
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			return p.errorf("unterminated %s", kind)
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case end:
			p.pos++
			return nil
		default:
			return p.errorf("expected ',' or '%c' in %s", end, kind)
		}
	}
}

// str reads a string token; escapes are decoded by encoding/json once the
// token's extent and grammar are checked here.
func (p *parser) str() (string, error) {
	start := p.pos
	p.pos++ // opening quote
	escaped := false
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c < 0x20:
			return "", p.errorf("control character in string")
		case c == '\\':
			p.pos++
			if p.pos >= len(p.data) {
				return "", p.errorf("unterminated string")
			}
			switch p.data[p.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if len(p.data)-p.pos < 5 {
					return "", p.errorf("short \\u escape")
				}
				for _, h := range p.data[p.pos+1 : p.pos+5] {
					if !isHex(h) {
						return "", p.errorf("bad \\u escape")
					}
				}
				p.pos += 4
			default:
				return "", p.errorf("bad escape \\%c", p.data[p.pos])
			}
			escaped = true
		case c == '"':
			p.pos++
			raw := p.data[start:p.pos]
			if !escaped {
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", &SyntaxError{Offset: start, Msg: err.Error()}
			}
			return s, nil
		}
		p.pos++
	}
	return "", p.errorf("unterminated string")
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// number reads a number token by the JSON grammar.
func (p *parser) number() (any, error) {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.pos < len(p.data) && p.data[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return nil, p.errorf("expected digits in number")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.errorf("expected digits after decimal point")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.errorf("expected digits in exponent")
		}
	}
	tok := string(p.data[start:p.pos])
	if _, err := strconv.ParseFloat(tok, 64); err != nil {
		// The grammar was checked above, so this is a range error: the
		// literal overflows float64 and Python would read it as ±inf.
		return NonFinite(tok), nil
	}
	return json.Number(tok), nil
}
