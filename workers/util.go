package workers

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"sort"
	"strconv"
)

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// jsonNumber returns v as a float64 for JSON, or nil when not finite.
func jsonNumber(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// RoundHalfEven rounds x to n decimal places exactly as Python's round(x, n)
// does: the result is the float64 nearest to the decimal obtained by
// correctly rounding the exact binary value of x, ties to even.
func RoundHalfEven(x float64, n int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
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

// sortedKeys returns a map's keys in sorted order (deterministic iteration).
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
