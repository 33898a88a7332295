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

// bandCodedCells is codedCells on a band in its own sample type (uint8
// and float32, the masks' types, or float64), other types through their
// exact float64 conversion.
func bandCodedCells(m *HazardMask, b *raster.Band, nd float64, hasND bool, maxCode int) (bad int, badV float64) {
	switch s := b.Data.(type) {
	case []uint8:
		return codedCells(m, s, nd, hasND, maxCode)
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

// continuousCells converts s to float64 into c.F64 and marks its valid pixels (finite, not nodata when hasND) in c.OK and
// c.Valid, in one pass.
func continuousCells[T sample](c *Continuous, s []T, nd float64, hasND bool) {
	f64, ok := make([]float64, len(s)), make([]bool, len(s))
	c.F64, c.OK, c.Valid = f64, ok, make([]int, 0, len(s))
	for i, x := range s {
		v := float64(x)
		f64[i] = v
		if !workers.Finite(v) || (hasND && v == nd) {
			continue
		}
		ok[i] = true
		c.Valid = append(c.Valid, i)
	}
}

// validCells marks the valid pixels of c.F64.
func validCells(c *Continuous, nd float64, hasND bool) {
	ok := make([]bool, len(c.F64))
	c.OK, c.Valid = ok, make([]int, 0, len(c.F64))
	for i, v := range c.F64 {
		if !workers.Finite(v) || (hasND && v == nd) {
			continue
		}
		ok[i] = true
		c.Valid = append(c.Valid, i)
	}
}

// bandContinuousCells fills c.F64, c.OK and c.Valid from a band: a
// float32 band (the continuous rasters' type) in one pass, a float64
// band's own samples shared, not copied, other types through their exact
// float64 conversion.
func bandContinuousCells(c *Continuous, b *raster.Band, nd float64, hasND bool) {
	switch s := b.Data.(type) {
	case []float32:
		continuousCells(c, s, nd, hasND)
		return
	case []float64:
		c.F64 = s
	default:
		c.F64 = b.Float64s()
	}
	validCells(c, nd, hasND)
}
