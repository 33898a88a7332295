package workers

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"sort"
	"strconv"
)

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Finite reports whether x is neither NaN nor an infinity.
func Finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// CheckFinite returns an error naming what when x is NaN or an infinity:
// a worker never reports a non-finite required result.
func CheckFinite(what string, x float64) error {
	if !Finite(x) {
		return fmt.Errorf("%s is not finite (%v)", what, x)
	}
	return nil
}

// JSONNumber returns v for JSON, or nil (null) when v is not finite.
func JSONNumber(v float64) any {
	if !Finite(v) {
		return nil
	}
	return v
}

// RoundHalfEven rounds x to n decimal places exactly as Python's round(x, n)
// does: the result is the float64 nearest to the decimal obtained by
// correctly rounding the exact binary value of x, ties to even.
func RoundHalfEven(x float64, n int) float64 {
	if !Finite(x) || x == 0 {
		return x
	}
	// FormatFloat with a fixed precision rounds the exact binary value
	// correctly, ties to even, which is what Python's round does.
	s := strconv.FormatFloat(x, 'f', n, 64)
	r, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return x
	}
	return r
}

// SortedKeys returns a map's keys in sorted order (deterministic iteration).
func SortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
