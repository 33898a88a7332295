package cfmt

import (
	"math"
	"strconv"
	"strings"
)

// AtofM parses the longest number at the start of s as GDAL's CPLAtofM
// does: the decimal separator is a comma when one appears among the first
// 50 bytes before any point, and the first comma is then read as a point.
func AtofM(s string) float64 {
	comma := false
	for i := 0; i < 50 && i < len(s); i++ {
		if s[i] == ',' {
			comma = true
			break
		}
		if s[i] == '.' {
			break
		}
	}
	if comma {
		i := strings.IndexByte(s, ',')
		s = s[:i] + "." + s[i+1:]
	}
	// CPLStrtodDelim's own spellings, after leading spaces only.
	t := strings.TrimLeft(s, " ")
	switch {
	case strings.HasPrefix(t, "-1.#QNAN"), strings.HasPrefix(t, "-1.#IND"),
		strings.HasPrefix(t, "1.#QNAN"), strings.HasPrefix(t, "1.#SNAN"):
		return math.NaN()
	case hasPrefixFold(t, "-1.#INF"):
		return math.Inf(-1)
	case hasPrefixFold(t, "1.#INF"):
		return math.Inf(1)
	}
	return strtod(s)
}

// hasPrefixFold reports whether s begins with prefix, ignoring ASCII case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// strtod parses the longest prefix of s that C's strtod accepts in the C
// locale (leading white space, a sign, then a decimal or hexadecimal
// number, INF, INFINITY or NAN[(...)]); it returns 0 when there is none.
// Out-of-range values become ±Inf or a (signed) zero or subnormal, as
// strtod returns them.
func strtod(s string) float64 {
	i := 0
	for i < len(s) && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	sign := func(v float64) float64 {
		if neg {
			return -v
		}
		return v
	}
	rest := s[i:]
	switch {
	case hasPrefixFold(rest, "inf"):
		return sign(math.Inf(1))
	case hasPrefixFold(rest, "nan"):
		return math.NaN()
	case len(rest) > 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X'):
		if v, ok := parseHexFloat(rest[2:]); ok {
			return sign(v)
		}
		return sign(0) // "0x" without digits is the number 0
	}
	j, digits := scanMantissa(rest, isDigit)
	if digits == 0 {
		return 0
	}
	j = scanExponent(rest, j, 'e')
	v, _ := strconv.ParseFloat(rest[:j], 64) // range errors still return ±Inf or 0
	return sign(v)
}

// scanMantissa returns the end of the digits, optional point and digits
// at the start of s, and how many digits there are.
func scanMantissa(s string, digit func(byte) bool) (end, digits int) {
	for end < len(s) && digit(s[end]) {
		end++
		digits++
	}
	if end < len(s) && s[end] == '.' {
		end++
		for end < len(s) && digit(s[end]) {
			end++
			digits++
		}
	}
	return end, digits
}

// scanExponent returns the end of an exponent (mark, either case, an
// optional sign and decimal digits) at s[j:], or j when there is none.
func scanExponent(s string, j int, mark byte) int {
	if j >= len(s) || (s[j]|0x20) != mark {
		return j
	}
	k := j + 1
	if k < len(s) && (s[k] == '+' || s[k] == '-') {
		k++
	}
	if k >= len(s) || !isDigit(s[k]) {
		return j
	}
	for k < len(s) && isDigit(s[k]) {
		k++
	}
	return k
}

// parseHexFloat parses hexadecimal digits with an optional point and
// binary exponent (what follows "0x"); ok is false without a digit.
func parseHexFloat(s string) (float64, bool) {
	j, digits := scanMantissa(s, isHexDigit)
	if digits == 0 {
		return 0, false
	}
	mant, exp := s[:j], "p0"
	if k := scanExponent(s, j, 'p'); k > j {
		exp = "p" + s[j+1:k]
	}
	if mant[0] == '.' {
		mant = "0" + mant
	}
	v, _ := strconv.ParseFloat("0x"+mant+exp, 64)
	return v, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHexDigit(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}
