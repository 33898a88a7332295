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
