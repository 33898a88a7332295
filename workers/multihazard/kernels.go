package multihazard

import (
	"math"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// Typed per-pixel kernels of the family: each band's sample type is
// switched on once, and the loops read the typed slice directly (no
// per-sample interface or method call). A sample is compared as
// float64(v), exactly as the float64 conversion of the band would be.

// sample is the element type of a decoded band's Data.
type sample interface {
	~uint8 | ~int8 | ~uint16 | ~int16 | ~uint32 | ~int32 | ~float32 | ~float64
}

// codedCells sets m's validity (OK), positive-code (IsSet, Ones) and
// valid count from s: nodata (when hasND) and non-finite samples are
// invalid. It stops at the first valid sample that is not an integer in
// 0..maxCode, returning its index (bad, -1 when none) and value.
func codedCells[T sample](m *HazardMask, s []T, nd float64, hasND bool, maxCode int) (bad int, badV float64) {
	ok, set := make([]bool, len(s)), make([]bool, len(s))
	m.OK, m.IsSet, m.Ones = ok, set, make([]int, 0, positives(s))
	top := float64(maxCode)
	for i, x := range s {
		v := float64(x)
		if !workers.Finite(v) || (hasND && v == nd) {
			continue
		}
		if v != math.Trunc(v) || v < 0 || v > top {
			return i, v
		}
		m.Valid++
		ok[i] = true
		if v > 0 {
			m.Ones = append(m.Ones, i)
			set[i] = true
		}
	}
	return -1, 0
}

// codedCellsUint8 is codedCells on uint8 samples, which are finite
// integers: a sample is nodata when the nodata is that integer, and bad
// when it is above maxCode.
func codedCellsUint8(m *HazardMask, s []uint8, nd float64, hasND bool, maxCode int) (bad int, badV float64) {
	ndb := -1 // no sample equals the nodata
	if hasND && nd == math.Trunc(nd) && nd >= 0 && nd <= 255 {
		ndb = int(nd)
	}
	ok, set := make([]bool, len(s)), make([]bool, len(s))
	ok, set = ok[:len(s)], set[:len(s)]
	m.OK, m.IsSet, m.Ones = ok, set, make([]int, 0, positives(s))
	for i, x := range s {
		if int(x) == ndb {
			continue
		}
		if int(x) > maxCode {
			return i, float64(x)
		}
		m.Valid++
		ok[i] = true
		if x > 0 {
			m.Ones = append(m.Ones, i)
			set[i] = true
		}
	}
	return -1, 0
}

// bandCodedCells is codedCells on a band in its own sample type (uint8
// and float32, the masks' types, or float64), other types through their
// exact float64 conversion.
func bandCodedCells(m *HazardMask, b *raster.Band, nd float64, hasND bool, maxCode int) (bad int, badV float64) {
	switch s := b.Data.(type) {
	case []uint8:
		return codedCellsUint8(m, s, nd, hasND, maxCode)
	case []float32:
		return codedCells(m, s, nd, hasND, maxCode)
	case []float64:
		return codedCells(m, s, nd, hasND, maxCode)
	}
	return codedCells(m, b.Float64s(), nd, hasND, maxCode)
}

// positives counts the samples above zero: a bound on the positive valid
// cells, so that their index list is allocated once.
func positives[T sample](s []T) int {
	n := 0
	for _, x := range s {
		if x > 0 {
			n++
		}
	}
	return n
}

// continuousOK marks the valid pixels of s (finite, not nodata when
// hasND) in ok and returns their count.
func continuousOK[T float32 | float64](ok []bool, s []T, nd float64, hasND bool) int {
	ok = ok[:len(s)]
	n := 0
	for i, x := range s {
		v := float64(x)
		if !workers.Finite(v) || (hasND && v == nd) {
			continue
		}
		ok[i] = true
		n++
	}
	return n
}

// bandContinuousCells sets c's samples and validity from a band: a
// float32 band's own samples in c.F32 and a float64 band's in c.F64 (both
// shared, not copied), other types converted to float64 once.
func bandContinuousCells(c *Continuous, b *raster.Band, nd float64, hasND bool) {
	switch s := b.Data.(type) {
	case []float32:
		c.F32 = s
		c.OK = make([]bool, len(s))
		c.NValid = continuousOK(c.OK, s, nd, hasND)
		return
	case []float64:
		c.F64 = s
	default:
		c.F64 = b.Float64s()
	}
	c.OK = make([]bool, len(c.F64))
	c.NValid = continuousOK(c.OK, c.F64, nd, hasND)
}

// firstValidOutside returns the first valid pixel (row-major) whose value
// is below lo or above hi, and the value; -1 when there is none.
func firstValidOutside[T float32 | float64](s []T, ok []bool, lo, hi float64) (int, float64) {
	ok = ok[:len(s)]
	for i, x := range s {
		if v := float64(x); ok[i] && (v < lo || v > hi) {
			return i, v
		}
	}
	return -1, 0
}

// gatherValid appends the values of s's valid pixels, in row-major order,
// to dst.
func gatherValid[T, D float32 | float64](dst []D, s []T, ok []bool) []D {
	ok = ok[:len(s)]
	for i, x := range s {
		if ok[i] {
			dst = append(dst, D(x))
		}
	}
	return dst
}

// gatherValidAt appends the values of s at the indices idx that are
// valid, in idx's order, to dst.
func gatherValidAt[T float32 | float64](dst []T, s []T, ok []bool, idx []int) []T {
	for _, i := range idx {
		if ok[i] {
			dst = append(dst, s[i])
		}
	}
	return dst
}

// gatherAt appends the values of s at idx to dst.
func gatherAt[T float32 | float64](dst []T, s []T, idx []int) []T {
	for _, i := range idx {
		dst = append(dst, s[i])
	}
	return dst
}

// validBelow sets set[i] for the valid pixels whose value is below q and
// returns their count.
func validBelow[T float32 | float64](set []bool, s []T, ok []bool, q float64) int {
	ok, set = ok[:len(s)], set[:len(s)]
	n := 0
	for i, x := range s {
		if ok[i] && float64(x) < q {
			set[i] = true
			n++
		}
	}
	return n
}

// classifyCells assigns the analysis pixels (the valid pixels in row-major
// order, or, when idx is non-nil, the valid pixels among idx in its order)
// to the first bin [lower[b], upper[b]) holding the value. It returns each
// bin's members (in that order, one backing array) and the number of
// analysis pixels; bad >= 0 is the first analysis pixel outside every bin,
// and badV its value (the members are then nil).
func classifyCells[T float32 | float64](s []T, ok []bool, idx []int, lower, upper []float64) (members [][]int, n, bad int, badV float64) {
	bin := func(v float64) int {
		for b := range lower {
			if v >= lower[b] && v < upper[b] {
				return b
			}
		}
		return -1
	}
	counts := make([]int, len(lower))
	// The first pass counts each bin's members (and finds a value outside
	// every bin), the second places them.
	if idx == nil {
		ok = ok[:len(s)]
		for i, x := range s {
			if !ok[i] {
				continue
			}
			v := float64(x)
			k := bin(v)
			if k < 0 {
				return nil, n + 1, i, v
			}
			counts[k]++
			n++
		}
	} else {
		for _, i := range idx {
			if !ok[i] {
				continue
			}
			v := float64(s[i])
			k := bin(v)
			if k < 0 {
				return nil, n + 1, i, v
			}
			counts[k]++
			n++
		}
	}
	members = make([][]int, len(lower))
	all := make([]int, 0, n)
	for k, c := range counts {
		members[k] = all[len(all) : len(all) : len(all)+c]
		all = all[:len(all)+c]
	}
	if idx == nil {
		for i, x := range s {
			if ok[i] {
				k := bin(float64(x))
				members[k] = append(members[k], i)
			}
		}
	} else {
		for _, i := range idx {
			if ok[i] {
				k := bin(float64(s[i]))
				members[k] = append(members[k], i)
			}
		}
	}
	return members, n, -1, 0
}
