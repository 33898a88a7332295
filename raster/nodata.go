package raster

import (
	"math"
	"strconv"
	"strings"
)

// Nodata as GDAL reads it. The GDAL_NODATA tag holds text; GDAL 3.6
// parses it with CPLAtofM (strtod in the C locale, a comma accepted as
// the decimal separator, the Windows spellings of NaN and infinity) and,
// on a band of 32-bit IEEE floats, rounds the result to float32, so that
// the value it reports is the one the samples can hold: a Float32 band
// written with SetNoDataValue(-3.4e38) reads back as
// -3.3999999521443642e+38. Integer bands keep the parsed value: GDAL
// reports a Byte band's "2.5" as 2.5, which then matches no sample in its
// statistics (its mask band alone truncates it to 2). Every behaviour
// here was checked against GDAL 3.6.2 itself (conformance/raster and the
// table in testdata/gdal_nodata_text.json).

// NoDataValue returns the nodata value v as GDAL holds it for a band of
// type t: rounded to float32 for Float32 bands, unchanged otherwise. Use
// it to bring a nodata declared elsewhere (a JSON sidecar, an argument)
// to the value a band's samples are compared with.
func NoDataValue(t DataType, v float64) float64 {
	if t == Float32 {
		return float64(float32(v))
	}
	return v
}

// parseGDALNoData returns the nodata value GDAL 3.6 reads from the text of
// a GDAL_NODATA tag for samples of bps bits and SampleFormat sf, and false
// when the text is empty (GDAL then reports no nodata). The text ends at
// its first NUL, as libtiff reads ASCII tags. Half floats (16-bit IEEE)
// are not rounded: GDAL rounds only 32-bit float samples.
func parseGDALNoData(text string, bps, sf int) (float64, bool) {
	if i := strings.IndexByte(text, 0); i >= 0 {
		text = text[:i]
	}
	if text == "" {
		return 0, false
	}
	v := cplAtofM(text)
	if bps == 32 && sf == 3 {
		// GDAL first snaps values within 1e-10 relative of ±FLT_MAX to
		// ±FLT_MAX; the float32 rounding below gives the same result.
		v = float64(float32(v))
	}
	return v, true
}

// cplAtofM parses the longest number at the start of s as GDAL's CPLAtofM
// does: the decimal separator is a comma when one appears among the first
// 50 bytes before any point, and the first comma is then read as a point.
func cplAtofM(s string) float64 {
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
