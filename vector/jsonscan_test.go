package vector

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// checkFloat compares the scanner's value of a number with
// strconv.ParseFloat's, bit for bit.
func checkFloat(t *testing.T, tok string) {
	t.Helper()
	d := scanner{s: tok}
	got := d.float()
	want, err := strconv.ParseFloat(tok, 64)
	if err != nil {
		if d.err == nil {
			t.Errorf("%s: %v, strconv: %v", tok, got, err)
		}
		return
	}
	if d.err != nil || d.i != len(tok) || math.Float64bits(got) != math.Float64bits(want) {
		t.Errorf("%s: %v (%v, read %d of %d bytes), want %v", tok, got, d.err, d.i, len(tok), want)
	}
}

func TestScannerFloat(t *testing.T) {
	for _, tok := range []string{"0", "-0", "0.0", "-0.000", "1", "-1", "0.1", "0.30000000000000004", "120.9384514", "-14.6676963",
		"9007199254740992", "9007199254740993", "9007199254740993.0", "1e22", "1e23", "123456789012345678901234567890", "0.000000000000000000000000001",
		"1.7976931348623157e308", "4.9e-324", "2.2250738585072014e-308", "1e-400", "0e999", "1E+2", "3e-7", "12345678901234567890", "1234567890123456789",
		"0.1234567890123456789", "139.75", "0.171875", "100.00000000000000000000001"} {
		checkFloat(t, tok)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		f := (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(40)-20))
		checkFloat(t, strconv.FormatFloat(f, 'f', r.IntN(18), 64))
		checkFloat(t, strconv.FormatFloat(f, 'g', -1, 64))
	}
}

// FuzzScannerFloat checks the fast path against strconv.ParseFloat.
func FuzzScannerFloat(f *testing.F) {
	for _, s := range []string{"120.9384514", "-0", "1e22", "9007199254740993", "0.1e-5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		d := scanner{s: tok}
		got := d.float()
		if d.err != nil || d.i != len(tok) {
			return // not one JSON number; grammar is FuzzDecodeLineFeatures' concern
		}
		want, err := strconv.ParseFloat(tok, 64)
		if err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%q: %v, strconv %v (%v)", tok, got, want, err)
		}
	})
}

// refScanner reads numbers digit by digit, as the scanner did before it
// read up to eight digits at a time: the reference its reads must agree
// with, offset, token, value and error alike.
type refScanner struct{ scanner }

func (d *refScanner) number() (tok string, v float64, exact bool) {
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
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if digits < 19 {
				mant = mant*10 + uint64(s[i]-'0')
			}
			digits++
		}
	default:
		d.i = i
		d.fail("expected a number")
		return "", 0, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		j := i
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if mant != 0 || s[i] != '0' {
				if digits < 19 {
					mant = mant*10 + uint64(s[i]-'0')
				}
				digits++
			}
			exp--
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

// errText is an error's message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// checkNumbers compares the scanner's number reads of s, from every
// offset, with refScanner's.
func checkNumbers(t *testing.T, s string) {
	t.Helper()
	for at := 0; at <= len(s); at++ {
		d, r := scanner{s: s, i: at}, refScanner{scanner{s: s, i: at}}
		tok, v, exact := d.number()
		rtok, rv, rexact := r.number()
		if tok != rtok || math.Float64bits(v) != math.Float64bits(rv) || exact != rexact || d.i != r.i || errText(d.err) != errText(r.err) {
			t.Fatalf("%q from %d: number %q %v %v at %d (%v), reference %q %v %v at %d (%v)", s, at, tok, v, exact, d.i, d.err, rtok, rv, rexact, r.i, r.err)
		}
	}
}

func TestScannerNumberMatchesReference(t *testing.T) {
	for _, s := range []string{`7.5178288,50.7099271]`, `"travel_time_min":0.2415,`, `100000,`, `1234567890123456789012`, `0.00000000123456789`,
		`-0.1234567890123456789e5`, `123456789.123456789`, `12345678`, `123456789`, `1.`, `-`, `01`, `-0.0`, `9007199254740993`, `18446744073709551615`,
		`99999999999999999999.9`, `0.000000000000000000001`, `1e22`, `123.4567e-3,`, `1.23456789012345678901234567890`, `12345678.87654321e+2]`} {
		checkNumbers(t, s)
	}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := "0123456789012345678901234567890123456789.eE+-,]/: \x00\x7f\xb0"
	for range 20000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		checkNumbers(t, string(b))
	}
}

// FuzzScannerNumber checks the eight-digit reads against the digit by
// digit reference on any input, malformed ones included.
func FuzzScannerNumber(f *testing.F) {
	for _, s := range []string{`7.5178288,50.7099271]`, `0.00000000123456789`, `12345678901234567890.5`, `1.5e-7`, `-01`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 256 {
			return // every offset is read: keep an input's cost bounded
		}
		checkNumbers(t, s)
	})
}
