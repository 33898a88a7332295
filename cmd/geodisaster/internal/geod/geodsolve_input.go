package geod

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// GeodSolve's input grammar: angles in decimal degrees or
// degrees-minutes-seconds with hemisphere letters, as GeographicLib's DMS
// decoder reads them, and distances as C++ streams read numbers. The error
// texts are GeodSolve's, since it prints them in its output.

// dmsKind is what a hemisphere letter says an angle is.
type dmsKind int

const (
	dmsNone dmsKind = iota
	dmsLatitude
	dmsLongitude
)

// dmsSpelling maps the Unicode spellings GeographicLib accepts to its
// ASCII ones (d for degrees, an apostrophe for minutes, a double quote for
// seconds, the signs) or to nothing (ignored spaces and guillemets).
var dmsSpelling = strings.NewReplacer(
	"\u00b0", "d", "\u00ba", "d", "\u2070", "d", "\u02da", "d", "\u2218", "d",
	"\u2032", "'", "\u2035", "'", "\u00b4", "'", "\u2018", "'", "\u2019", "'", "\u201b", "'", "\u02b9", "'", "\u02ca", "'", "\u02cb", "'",
	"\u2033", `"`, "\u2036", `"`, "\u02dd", `"`, "\u201c", `"`, "\u201d", `"`, "\u201f", `"`, "\u02ba", `"`,
	"\u2795", "+", "\u2064", "+",
	"\u2010", "-", "\u2011", "-", "\u2013", "-", "\u2014", "-", "\u2212", "-", "\u2796", "-",
	"\u00a0", "", "\u2007", "", "\u2009", "", "\u200a", "", "\u200b", "", "\u202f", "", "\u2063", "", "\u00ab", "", "\u00bb", "",
	"*", "d", "`", "'",
)

// hemisphereIndex returns the position of c in "SNWE" (any case), or -1.
func hemisphereIndex(c byte) int { return strings.IndexByte("SNWE", upper(c)) }

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func isSign(c byte) bool { return c == '-' || c == '+' }

// isCSpace is C's isspace in the C locale.
func isCSpace(c byte) bool { return c == ' ' || ('\t' <= c && c <= '\r') }

// decodeDMS reads an angle in degrees: "40.64", "-73.78", "40:38:23N",
// "40d38'23\"", "W73.5", "nan", and returns it with the kind its
// hemisphere letter gives.
func decodeDMS(s string) (float64, dmsKind, error) {
	s = dmsSpelling.Replace(s)
	s = strings.ReplaceAll(s, "''", `"`)
	beg, end := 0, len(s)
	for beg < end && isCSpace(s[beg]) {
		beg++
	}
	for beg < end && isCSpace(s[end-1]) {
		end--
	}
	v := math.Copysign(0, -1) // "-0" reads as -0
	kind := dmsNone
	pieces := 0
	for p := beg; p < end; pieces++ {
		pa := p
		if pieces == 0 && hemisphereIndex(s[pa]) >= 0 {
			pa++
		}
		if pieces > 0 || (pa < end && isSign(s[pa])) {
			pa++
		}
		pb := end
		if i := strings.IndexAny(s[min(pa, end):end], "-+"); i >= 0 {
			pb = pa + i
		}
		x, k, err := decodeDMSPiece(s[p:pb])
		if err != nil {
			return 0, dmsNone, err
		}
		v += x
		if kind == dmsNone {
			kind = k
		} else if k != dmsNone && k != kind {
			return 0, dmsNone, errors.New("Incompatible hemisphere specifier in " + s[beg:pb])
		}
		p = pb
	}
	if pieces == 0 {
		return 0, dmsNone, errors.New("Empty or incomplete DMS string " + s[beg:end])
	}
	return v, kind, nil
}

// decodeDMSPiece reads one signed piece of a DMS string (the part up to
// the next sign). A piece that is not DMS may still spell NaN or
// infinity.
func decodeDMSPiece(s string) (float64, dmsKind, error) {
	v, kind, msg := parseDMSPiece(s)
	if msg == "" {
		return v, kind, nil
	}
	if x := specialNumber(s); x != 0 {
		return x, dmsNone, nil
	}
	return 0, dmsNone, errors.New(msg)
}

// parseDMSPiece is decodeDMSPiece without the NaN/infinity fallback; it
// returns an error text instead of an error.
func parseDMSPiece(s string) (float64, dmsKind, string) {
	sign := 1.0
	beg, end := 0, len(s)
	kind := dmsNone
	if end > beg {
		if k := hemisphereIndex(s[beg]); k >= 0 {
			kind, sign = hemisphereKind(k)
			beg++
		}
	}
	if end > beg {
		if k := hemisphereIndex(s[end-1]); k >= 0 {
			if kind != dmsNone {
				if upper(s[beg-1]) == upper(s[end-1]) {
					return 0, 0, "Repeated hemisphere indicators " + s[beg-1:beg] + " in " + s[beg-1:end]
				}
				return 0, 0, "Contradictory hemisphere indicators " + s[beg-1:beg] + " and " + s[end-1:end] + " in " + s[beg-1:end]
			}
			kind, sign = hemisphereKind(k)
			end--
		}
	}
	if end > beg && isSign(s[beg]) {
		if s[beg] == '-' {
			sign = -sign
		}
		beg++
	}
	if end == beg {
		return 0, 0, "Empty or incomplete DMS string " + s
	}
	body := s[beg:end]
	components := [3]string{"degrees", "minutes", "seconds"}
	var ipieces, fpieces [3]float64
	npiece := 0
	icurrent, fcurrent := 0.0, 0.0
	ncurrent, digcount, intcount := 0, 0, 0
	pointseen := false
	p := beg
	for p < end {
		x := s[p]
		p++
		switch {
		case '0' <= x && x <= '9':
			ncurrent++
			if digcount > 0 {
				digcount++
			} else {
				icurrent = float64(10*icurrent) + float64(x-'0')
				intcount++
			}
		case x == '.':
			if pointseen {
				return 0, 0, "Multiple decimal points in " + body
			}
			pointseen = true
			digcount = 1
		case strings.IndexByte("D'\":", upper(x)) >= 0:
			k := strings.IndexByte("D'\":", upper(x))
			if k == 3 {
				if p == end {
					return 0, 0, "Illegal for : to appear at the end of " + body
				}
				k = npiece
				if k >= len(components) {
					// A colon after the seconds: GeodSolve reports it as
					// text following them.
					return 0, 0, "Extra text following seconds in DMS string " + body
				}
			}
			if k == npiece-1 {
				return 0, 0, "Repeated " + components[k] + " component in " + body
			} else if k < npiece {
				return 0, 0, components[k] + " component follows " + components[npiece-1] + " component in " + body
			}
			if ncurrent == 0 {
				return 0, 0, "Missing numbers in " + components[k] + " component of " + body
			}
			if digcount > 0 {
				fcurrent = streamFloat(s[p-intcount-digcount-1 : p-1])
				icurrent = 0
			}
			ipieces[k] = icurrent
			fpieces[k] = icurrent + fcurrent
			if p < end {
				npiece = k + 1
				icurrent, fcurrent = 0, 0
				ncurrent, digcount, intcount = 0, 0, 0
			}
		case isSign(x):
			return 0, 0, "Internal sign in DMS string " + body
		default:
			return 0, 0, "Illegal character " + string(x) + " in DMS string " + body
		}
	}
	if strings.IndexByte("D'\":", upper(s[p-1])) < 0 {
		if npiece >= 3 {
			return 0, 0, "Extra text following seconds in DMS string " + body
		}
		if ncurrent == 0 {
			return 0, 0, "Missing numbers in trailing component of " + body
		}
		if digcount > 0 {
			fcurrent = streamFloat(s[p-intcount-digcount : p])
			icurrent = 0
		}
		ipieces[npiece] = icurrent
		fpieces[npiece] = icurrent + fcurrent
	}
	if pointseen && digcount == 0 {
		return 0, 0, "Decimal point in non-terminal component of " + body
	}
	if ipieces[1] >= 60 || fpieces[1] > 60 {
		return 0, 0, "Minutes " + formatCG(fpieces[1]) + " not in range [0, 60)"
	}
	if ipieces[2] >= 60 || fpieces[2] > 60 {
		return 0, 0, "Seconds " + formatCG(fpieces[2]) + " not in range [0, 60)"
	}
	var deg float64
	switch {
	case fpieces[2] != 0:
		deg = (float64(60*(float64(60*fpieces[0])+fpieces[1])) + fpieces[2]) / 3600
	case fpieces[1] != 0:
		deg = (float64(60*fpieces[0]) + fpieces[1]) / 60
	default:
		deg = fpieces[0]
	}
	return sign * deg, kind, ""
}

// hemisphereKind maps an index into "SNWE" to the angle's kind and sign.
func hemisphereKind(k int) (dmsKind, float64) {
	kind := dmsLatitude
	if k/2 == 1 {
		kind = dmsLongitude
	}
	if k%2 == 1 {
		return kind, 1
	}
	return kind, -1
}

// streamFloat reads a decimal number the DMS parser has already checked
// ("40.64", ".5").
func streamFloat(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// specialNumber returns NaN or ±Inf when s spells one the way
// GeographicLib accepts ("nan", "inf", "-infinity", any case, trailing
// zeros ignored), and 0 otherwise.
func specialNumber(s string) float64 {
	if len(s) < 3 {
		return 0
	}
	t := strings.ToUpper(s)
	sign := 1.0
	p0 := 0
	if t[0] == '-' || t[0] == '+' {
		p0 = 1
		if t[0] == '-' {
			sign = -1
		}
	}
	p1 := strings.LastIndexFunc(t, func(r rune) bool { return r != '0' })
	if p1 < 0 || p1+1 < p0+3 {
		return 0
	}
	switch t[p0 : p1+1] {
	case "NAN", "1.#QNAN", "1.#SNAN", "1.#IND", "1.#R":
		return math.NaN()
	case "INF", "1.#INF", "INFINITY":
		return sign * math.Inf(1)
	}
	return 0
}

// decodeLatLon reads a latitude and a longitude, in that order unless a
// hemisphere letter says otherwise (or longFirst swaps the default).
func decodeLatLon(a, b string, longFirst bool) (lat, lon float64, err error) {
	va, ka, err := decodeDMS(a)
	if err != nil {
		return 0, 0, err
	}
	vb, kb, err := decodeDMS(b)
	if err != nil {
		return 0, 0, err
	}
	switch {
	case ka == dmsNone && kb == dmsNone:
		ka, kb = dmsLatitude, dmsLongitude
		if longFirst {
			ka, kb = dmsLongitude, dmsLatitude
		}
	case ka == dmsNone:
		ka = dmsLatitude + dmsLongitude - kb
	case kb == dmsNone:
		kb = dmsLatitude + dmsLongitude - ka
	}
	if ka == kb {
		what := "latitudes"
		if ka == dmsLongitude {
			what = "longitudes"
		}
		return 0, 0, errors.New("Both " + a + " and " + b + " interpreted as " + what)
	}
	lat, lon = va, vb
	if ka == dmsLongitude {
		lat, lon = vb, va
	}
	if math.Abs(lat) > 90 {
		return 0, 0, errors.New("Latitude " + formatCG(lat) + "d not in [-90d, 90d]")
	}
	return lat, lon, nil
}

// decodeAzimuth reads an azimuth (a longitude hemisphere letter is
// allowed, a latitude one is not) and reduces it to [-180, 180].
func decodeAzimuth(s string) (float64, error) {
	v, k, err := decodeDMS(s)
	if err != nil {
		return 0, err
	}
	if k == dmsLatitude {
		return 0, errors.New("Azimuth " + s + " has a latitude hemisphere, N/S")
	}
	return angNormalize(v), nil
}

// decodeNumber reads a number as a C++ stream does (the longest prefix
// "[+-]digits[.digits][e[+-]digits]"; no hex), requiring it to fill the
// whole trimmed string; NaN and infinity are spelt as specialNumber
// accepts.
func decodeNumber(s string) (float64, error) {
	t := strings.TrimFunc(s, func(r rune) bool { return r < 0x80 && isCSpace(byte(r)) })
	n := streamNumberPrefix(t)
	var msg string
	switch {
	case n == 0:
		msg = "Cannot decode " + t
	case n < len(t):
		msg = "Extra text " + t[n:] + " at end of " + t
	default:
		v, err := strconv.ParseFloat(t[:n], 64)
		if err == nil {
			return v, nil
		}
		msg = "Cannot decode " + t
	}
	if x := specialNumber(t); x != 0 {
		return x, nil
	}
	return 0, errors.New(msg)
}

// streamNumberPrefix returns the length of the number at the start of s,
// or 0 when s does not start with one.
func streamNumberPrefix(s string) int {
	i := 0
	if i < len(s) && isSign(s[i]) {
		i++
	}
	digits := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && isSign(s[j]) {
			j++
		}
		k := j
		for k < len(s) && '0' <= s[k] && s[k] <= '9' {
			k++
		}
		if k == j {
			return 0 // a stream fails on a dangling exponent
		}
		i = k
	}
	return i
}

// angNormalize reduces x to [-180, 180], as GeographicLib's AngNormalize.
func angNormalize(x float64) float64 {
	y := math.Remainder(x, 360)
	if math.Abs(y) == 180 {
		return math.Copysign(180, x)
	}
	return y
}

// angDiff returns y - x reduced to [-180, 180] and the rounding error e of
// that difference, as GeographicLib's AngDiff.
func angDiff(x, y float64) (d, e float64) {
	d, e = twoSum(math.Remainder(-x, 360), math.Remainder(y, 360))
	d, e2 := twoSum(math.Remainder(d, 360), e)
	e = e2
	if d == 0 || math.Abs(d) == 180 {
		if e == 0 {
			d = math.Copysign(d, y-x)
		} else {
			d = math.Copysign(d, -e)
		}
	}
	return d, e
}

// twoSum returns u+v rounded and its exact rounding error.
func twoSum(u, v float64) (s, t float64) {
	s = u + v
	up := s - v
	vpp := s - up
	up -= u
	vpp -= v
	if s == 0 {
		return s, s // t = 0 with the sign of s
	}
	return s, 0 - (up + vpp)
}

// formatCG formats v as a C++ stream does by default (printf "%g").
func formatCG(v float64) string {
	if s, ok := nonFiniteText(v); ok {
		return s
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// nonFiniteText is how C++ streams and GeographicLib write NaN and
// infinities: "nan", "inf", "-inf". ok is false for finite v.
func nonFiniteText(v float64) (string, bool) {
	switch {
	case math.IsNaN(v):
		return "nan", true
	case math.IsInf(v, 1):
		return "inf", true
	case math.IsInf(v, -1):
		return "-inf", true
	}
	return "", false
}
