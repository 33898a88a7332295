package cfmt

import (
	"math"
	"testing"
)

// TestFormatGMatchesC compares with C's printf("%.*g") as Python's %
// operator (which calls it) prints these values.
func TestFormatGMatchesC(t *testing.T) {
	for _, c := range []struct {
		v    float64
		prec int
		want string
	}{
		{0.1, 14, "0.1"},
		{1e20, 14, "1e+20"},
		{123456789012345678, 14, "1.2345678901235e+17"},
		{99.9999, 4, "100"},
		{0.0001234, 4, "0.0001234"},
		{1.5e-5, 4, "1.5e-05"},
		{-3.3999999521443642e+38, 14, "-3.3999999521444e+38"},
		{2.1365201473236084, 14, "2.1365201473236"},
		{0, 14, "0"},
		{math.Copysign(0, -1), 14, "-0"},
		{math.NaN(), 14, "nan"},
		{math.Inf(1), 4, "inf"},
		{math.Inf(-1), 4, "-inf"},
		{-9999, -1, "-9999"},
		{0.30000000000000004, -1, "0.30000000000000004"},
	} {
		if got := FormatG(c.v, c.prec); got != c.want {
			t.Errorf("FormatG(%v, %d) = %q, want %q", c.v, c.prec, got, c.want)
		}
	}
}
