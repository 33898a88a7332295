package workers

import (
	"math"
	"strings"
	"testing"
)

func TestFiniteAndCheckFinite(t *testing.T) {
	for _, x := range []float64{0, math.Copysign(0, -1), 1, -math.MaxFloat64, math.SmallestNonzeroFloat64} {
		if !Finite(x) || CheckFinite("x", x) != nil {
			t.Errorf("%v reported non-finite", x)
		}
	}
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if Finite(x) {
			t.Errorf("%v reported finite", x)
		}
		err := CheckFinite("burned area", x)
		if err == nil || !strings.Contains(err.Error(), "burned area is not finite") {
			t.Errorf("CheckFinite(%v) = %v, want an error naming the value", x, err)
		}
	}
}

func TestJSONNumberNullsNonFinite(t *testing.T) {
	if v := JSONNumber(-2.5); v != -2.5 {
		t.Errorf("JSONNumber(-2.5) = %v", v)
	}
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if v := JSONNumber(x); v != nil {
			t.Errorf("JSONNumber(%v) = %v, want nil (null)", x, v)
		}
	}
}

// TestRoundHalfEvenMatchesPython: the expected values are Python 3's
// round(x, n) (printed by python3 -c "print(round(x, n))").
func TestRoundHalfEvenMatchesPython(t *testing.T) {
	for _, c := range []struct {
		x    float64
		n    int
		want float64
	}{
		{2.675, 2, 2.67}, // 2.675 is 2.67499999... in binary
		{0.125, 2, 0.12}, // exact tie: to even
		{0.375, 2, 0.38}, // exact tie: to even
		{2.5, 0, 2},
		{-2.5, 0, -2},
		{1.5, 0, 2},
		{0.285, 2, 0.28},
		{1234.56789, 3, 1234.568},
		{1e300, 3, 1e300},
		{1e22, 2, 1e22},
	} {
		if got := RoundHalfEven(c.x, c.n); got != c.want {
			t.Errorf("RoundHalfEven(%v, %d) = %v, Python gives %v", c.x, c.n, got, c.want)
		}
	}
	// Signed zeros as Python keeps them: round(-0.5, 0) and
	// round(-0.0001, 2) are -0.0, round(5e-324, 3) is 0.0.
	for _, c := range []struct {
		x   float64
		n   int
		neg bool
	}{{-0.5, 0, true}, {-0.0001, 2, true}, {-5e-324, 3, true}, {5e-324, 3, false}, {math.Copysign(0, -1), 2, true}} {
		if got := RoundHalfEven(c.x, c.n); got != 0 || math.Signbit(got) != c.neg {
			t.Errorf("RoundHalfEven(%v, %d) = %v (sign bit %v), want a zero with sign bit %v", c.x, c.n, got, math.Signbit(got), c.neg)
		}
	}
	if got := RoundHalfEven(math.NaN(), 3); !math.IsNaN(got) {
		t.Errorf("NaN rounds to %v", got)
	}
	for _, x := range []float64{math.Inf(1), math.Inf(-1)} {
		if got := RoundHalfEven(x, 3); got != x {
			t.Errorf("RoundHalfEven(%v) = %v", x, got)
		}
	}
}

func TestSortedKeys(t *testing.T) {
	if k := SortedKeys(map[string]int{}); k == nil || len(k) != 0 {
		t.Errorf("empty map: %#v, want an empty non-nil slice", k)
	}
	k := SortedKeys(map[string]bool{"b": true, "a": false, "B": true, "": true})
	if strings.Join(k, ",") != ",B,a,b" {
		t.Errorf("keys %q, want byte order", k)
	}
}

func TestSHA256Hex(t *testing.T) {
	if got := sha256Hex([]byte("abc")); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("sha256(abc) = %s", got)
	}
	if got := sha256Hex(nil); got != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Errorf("sha256() = %s", got)
	}
}
