package release

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// ParseCall parses one GT-chain step written the way the specification
// writes calls, "Tool(first, key=value, ...)", into a tool name and the
// engine's argument object (docs/records.md "Call arguments"):
//
//   - the first positional argument becomes "input"; ReadData's two
//     positionals become "question" and "handle"; any further positional is
//     an error;
//   - "work=" is the same argument as "input" (DESIGN.md, Records);
//   - "{a:b, c:d}" becomes an object, a bare member "{a, b}" becomes
//     {"a": true, "b": true}, "[x, y]" an array;
//   - true, false and null are JSON literals, numbers are JSON numbers,
//     quoted strings are unquoted and any other bare word is a string.
//
// The output handle is not part of the call syntax and is left empty.
func ParseCall(s string) (string, map[string]any, error) {
	s = strings.TrimSpace(s)
	open := strings.IndexByte(s, '(')
	if open <= 0 || !strings.HasSuffix(s, ")") {
		if isIdent(s) {
			return s, map[string]any{}, nil
		}
		return "", nil, fmt.Errorf("call %q: want Tool(args)", s)
	}
	tool := strings.TrimSpace(s[:open])
	if !isIdent(tool) {
		return "", nil, fmt.Errorf("call %q: bad tool name %q", s, tool)
	}
	p := &callParser{src: s[open+1 : len(s)-1]}
	args := map[string]any{}
	positional := 0
	for {
		p.space()
		if p.eof() {
			break
		}
		key, hasKey := p.keyPrefix()
		v, err := p.value()
		if err != nil {
			return "", nil, fmt.Errorf("call %q: %w", s, err)
		}
		if !hasKey {
			switch {
			case tool == "ReadData" && positional == 0:
				key = "question"
			case tool == "ReadData" && positional == 1:
				key = "handle"
			case positional == 0:
				key = "input"
			default:
				return "", nil, fmt.Errorf("call %q: positional argument %d has no defined name", s, positional+1)
			}
			positional++
		}
		if key == "work" {
			key = "input"
		}
		if _, dup := args[key]; dup {
			return "", nil, fmt.Errorf("call %q: argument %q given twice", s, key)
		}
		args[key] = v
		p.space()
		if p.eof() {
			break
		}
		if !p.consume(',') {
			return "", nil, fmt.Errorf("call %q: expected ',' at %q", s, p.rest())
		}
	}
	return tool, args, nil
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return true
}

type callParser struct {
	src string
	pos int
	// depth is the object/array nesting; a bare top-level value may
	// contain ':' (ANSWER_JSON:answer_1).
	depth int
}

func (p *callParser) eof() bool    { return p.pos >= len(p.src) }
func (p *callParser) rest() string { return p.src[p.pos:] }

func (p *callParser) space() {
	for !p.eof() && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\n' || p.src[p.pos] == '\\') {
		p.pos++
	}
}

func (p *callParser) consume(c byte) bool {
	p.space()
	if !p.eof() && p.src[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// keyPrefix consumes "name=" (dots allowed in name, as in
// avoid.flood_affected_roads=true) when present.
func (p *callParser) keyPrefix() (string, bool) {
	start := p.pos
	i := p.pos
	for i < len(p.src) && (p.src[i] == '_' || p.src[i] == '.' || isAlnum(p.src[i])) {
		i++
	}
	if i > start && i < len(p.src) && p.src[i] == '=' {
		p.pos = i + 1
		return p.src[start:i], true
	}
	return "", false
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// value parses one argument value.
func (p *callParser) value() (any, error) {
	p.space()
	if p.eof() {
		return nil, fmt.Errorf("missing value at end")
	}
	switch c := p.src[p.pos]; c {
	case '{':
		p.pos++
		p.depth++
		defer func() { p.depth-- }()
		obj := map[string]any{}
		for {
			p.space()
			if p.consume('}') {
				return obj, nil
			}
			k, err := p.word(false)
			if err != nil {
				return nil, err
			}
			if p.consume(':') {
				v, err := p.value()
				if err != nil {
					return nil, err
				}
				obj[k] = v
			} else {
				obj[k] = true
			}
			if p.consume('}') {
				return obj, nil
			}
			if !p.consume(',') {
				return nil, fmt.Errorf("expected ',' or '}' at %q", p.rest())
			}
		}
	case '[':
		p.pos++
		p.depth++
		defer func() { p.depth-- }()
		arr := []any{}
		for {
			p.space()
			if p.consume(']') {
				return arr, nil
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
			if p.consume(']') {
				return arr, nil
			}
			if !p.consume(',') {
				return nil, fmt.Errorf("expected ',' or ']' at %q", p.rest())
			}
		}
	case '"', '\'':
		end := strings.IndexByte(p.src[p.pos+1:], c)
		if end < 0 {
			return nil, fmt.Errorf("unterminated string at %q", p.rest())
		}
		s := p.src[p.pos+1 : p.pos+1+end]
		p.pos += end + 2
		return s, nil
	}
	w, err := p.word(p.depth == 0)
	if err != nil {
		return nil, err
	}
	switch w {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "null", "None":
		return nil, nil
	}
	var n json.Number
	if json.Unmarshal([]byte(w), &n) == nil {
		f, err := n.Float64()
		if err == nil {
			return f, nil
		}
	}
	return w, nil
}

// word reads a bare token up to a delimiter (':' is one unless
// allowColon).
func (p *callParser) word(allowColon bool) (string, error) {
	p.space()
	start := p.pos
	delims := ",:{}[]()="
	if allowColon {
		delims = ",{}[]()="
	}
	for !p.eof() && !strings.ContainsRune(delims, rune(p.src[p.pos])) {
		p.pos++
	}
	w := strings.TrimSpace(p.src[start:p.pos])
	if w == "" {
		return "", fmt.Errorf("expected a value at %q", p.rest())
	}
	return w, nil
}
