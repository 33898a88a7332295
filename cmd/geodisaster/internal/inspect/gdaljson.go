package inspect

import (
	"math"
	"strconv"
	"strings"
)

// An ordered JSON document written the way gdalinfo -json writes it
// (json-c's pretty printer: two-space indent, no space after the colon,
// slashes unescaped), with numbers formatted as GDAL formats them.

// jsonNode is one value: jsonObject, jsonArray, jsonString or jsonRaw (a
// preformatted number, true, false or null).
type jsonNode interface {
	writeJSON(b *strings.Builder, indent int)
}

type jsonMember struct {
	key   string
	value jsonNode
}

// jsonObject keeps its members in insertion order.
type jsonObject struct{ members []jsonMember }

func (o *jsonObject) set(key string, v jsonNode) { o.members = append(o.members, jsonMember{key, v}) }

type jsonArray []jsonNode

type jsonString string

type jsonRaw string

func (o *jsonObject) writeJSON(b *strings.Builder, indent int) {
	b.WriteString("{\n")
	for i, m := range o.members {
		b.WriteString(strings.Repeat("  ", indent+1))
		jsonString(m.key).writeJSON(b, 0)
		b.WriteByte(':')
		m.value.writeJSON(b, indent+1)
		if i < len(o.members)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(strings.Repeat("  ", indent) + "}")
}

func (a jsonArray) writeJSON(b *strings.Builder, indent int) {
	b.WriteString("[\n")
	for i, v := range a {
		b.WriteString(strings.Repeat("  ", indent+1))
		v.writeJSON(b, indent+1)
		if i < len(a)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(strings.Repeat("  ", indent) + "]")
}

func (s jsonString) writeJSON(b *strings.Builder, _ int) {
	b.WriteByte('"')
	for _, r := range string(s) {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteString(strconv.FormatInt(int64(r)>>4, 16))
				b.WriteString(strconv.FormatInt(int64(r)&15, 16))
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

func (r jsonRaw) writeJSON(b *strings.Builder, _ int) { b.WriteString(string(r)) }

// jsonInt is an integer value.
func jsonInt(v int) jsonRaw { return jsonRaw(strconv.Itoa(v)) }

// gdalJSONNumber is a double as gdalinfo -json writes one with a fixed
// number of decimals: "NaN", "Infinity" and "-Infinity" as strings, else
// gdalFormatDouble.
func gdalJSONNumber(v float64, prec int) jsonNode {
	if s, ok := gdalNonFinite(v); ok {
		return s
	}
	if math.Abs(v) > 1e50 {
		return jsonRaw(formatCg(v, 18))
	}
	return jsonRaw(gdalFormatDouble(v, prec))
}

// gdalNonFinite is how gdalinfo -json writes NaN and infinities: as the
// strings "NaN", "Infinity" and "-Infinity". ok is false for finite v.
func gdalNonFinite(v float64) (s jsonString, ok bool) {
	switch {
	case math.IsNaN(v):
		return "NaN", true
	case math.IsInf(v, 1):
		return "Infinity", true
	case math.IsInf(v, -1):
		return "-Infinity", true
	}
	return "", false
}

// gdalFormatDouble formats v as GDAL's OGRFormatDouble does: prec fixed
// decimals, then a run of five trailing zeros or nines before the last
// digit (and some longer patterns) taken as binary-to-decimal noise and
// rounded away, then trailing zeros removed but one kept after the point.
func gdalFormatDouble(v float64, prec int) string {
	s := strconv.FormatFloat(v, 'f', prec, 64)
	s = gdalIntelliRound(s)
	if strings.IndexByte(s, '.') < 0 {
		return s
	}
	s = strings.TrimRight(s, "0")
	if strings.HasSuffix(s, ".") {
		s += "0"
	}
	return s
}

// gdalIntelliRound trims what GDAL takes for rounding noise from a fixed
// decimal string.
func gdalIntelliRound(s string) string {
	dot := strings.IndexByte(s, '.')
	if dot < 0 || strings.ContainsAny(s, "eE") {
		return s
	}
	before := dot - 1
	if s[0] == '-' {
		before--
	}
	i := len(s)
	if i <= 10 {
		return s
	}
	all := func(c byte, idx ...int) bool {
		for _, k := range idx {
			if s[i-k] != c {
				return false
			}
		}
		return true
	}
	long := func(c byte, last int) bool {
		return (before >= 4 || s[i-3] == c) && (before >= 5 || s[i-4] == c) &&
			(before >= 6 || s[i-5] == c) && (before >= 7 || s[i-6] == c) &&
			(before >= 8 || s[i-7] == c) && s[i-8] == c && s[i-last] == c
	}
	switch {
	case all('0', 2, 3, 4, 5, 6):
		return s[:i-1]
	case dot < i-8 && long('0', 9):
		return s[:i-8]
	case all('9', 2, 3, 4, 5, 6):
		return decimalRoundUp(s[:i-6])
	case dot < i-9 && long('9', 9):
		return decimalRoundUp(s[:i-9])
	}
	return s
}

// decimalRoundUp adds one unit in the last place of a decimal string.
func decimalRoundUp(s string) string {
	neg := strings.HasPrefix(s, "-")
	b := []byte(strings.TrimPrefix(s, "-"))
	carry := true
	for p := len(b) - 1; p >= 0 && carry; p-- {
		if b[p] == '.' {
			continue
		}
		if b[p] == '9' {
			b[p] = '0'
		} else {
			b[p]++
			carry = false
		}
	}
	out := string(b)
	if carry {
		out = "1" + out
	}
	if neg {
		out = "-" + out
	}
	return out
}

// formatCg formats v like C's printf("%.<prec>g").
func formatCg(v float64, prec int) string {
	if prec == 0 {
		prec = 1
	}
	s := strconv.FormatFloat(v, 'g', prec, 64)
	if i := strings.IndexByte(s, 'e'); i >= 0 && len(s)-i == 3 {
		s = s[:i+2] + "0" + s[i+2:] // C writes at least two exponent digits
	}
	return s
}

// gdalNoData returns the shortest "%.<n>g" text that reads back as the
// nodata value (as float32 for float32 bands), and n, as gdalinfo finds
// them.
func gdalNoData(v float64, float32Band bool) (string, int) {
	isFloat := float32Band && float64(float32(v)) == v
	n := 18
	if isFloat {
		n = 8
	}
	text := ""
	for n > 0 {
		c := formatCg(v, n)
		r, _ := strconv.ParseFloat(c, 64)
		if text == "" || (isFloat && float32(r) == float32(v)) || (!isFloat && r == v) {
			text = c
			n--
			continue
		}
		n++
		break
	}
	return text, n
}

// gdalJSONNoData is the nodata value as gdalinfo -json writes it: n
// significant digits (GDAL's json_object_new_double_with_significant_figures),
// ".0" added to integers.
func gdalJSONNoData(v float64, n int) jsonNode {
	if s, ok := gdalNonFinite(v); ok {
		return s
	}
	if n < 0 {
		n = 17
	}
	s := formatCg(v, n)
	if dot := strings.IndexByte(s, '.'); n > 10 && dot >= 0 && (strings.Contains(s[dot:], "000000") || strings.Contains(s[dot:], "999999")) {
		for k := 1; k <= 3; k++ {
			c := formatCg(v, n-k)
			if d := strings.IndexByte(c, '.'); d >= 0 && !strings.Contains(c[d:], "000000") && !strings.Contains(c[d:], "999999") {
				s = c
				break
			}
		}
	}
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return jsonRaw(s)
}
