// Package numpy reproduces NumPy's float reductions bit for bit. The
// benchmark's reference answers were computed with NumPy, whose float sums
// depend on the summation order, so these functions follow NumPy's order:
//
//   - a reduction over a contiguous array is fed to the add loop in chunks of
//     8192 elements (the ufunc buffer size), starting from index 0;
//   - each chunk is summed pairwise: fewer than 8 values with one
//     accumulator; up to 128 values with eight stride-8 accumulators combined
//     as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) and then the remainder; more
//     values split at n/2 rounded down to a multiple of 8 and recursed;
//   - chunk sums are added in order to an accumulator that starts at 0, in
//     the array's own precision.
//
// Every operation is a single rounding in the stated precision; there are
// no fused multiply-adds.
package numpy

const (
	numpyBufferSize = 8192
	numpyBlockSize  = 128
)

// SumFloat32 returns NumPy's float32 sum of x (x.sum() for a contiguous
// float32 array), accumulated in float32.
func SumFloat32(x []float32) float32 { return chunkedSum(x) }

// MeanFloat32 returns NumPy's mean of a contiguous float32 array:
// float32(float64(SumFloat32(x)) / len(x)). It returns NaN for an empty
// slice, as NumPy does.
func MeanFloat32(x []float32) float32 {
	s := SumFloat32(x)
	return float32(float64(s) / float64(len(x)))
}

// SumFloat64 returns NumPy's float64 sum of x (x.sum() for a contiguous
// float64 array), using the same chunked pairwise order as SumFloat32.
func SumFloat64(x []float64) float64 { return chunkedSum(x) }

// MeanFloat64 returns NumPy's mean of a contiguous float64 array (NaN when
// empty).
func MeanFloat64(x []float64) float64 {
	return SumFloat64(x) / float64(len(x))
}

// chunkedSum adds the pairwise sums of consecutive 8192-element chunks in
// order, in T's precision. Each instantiation (float32, float64) rounds
// every addition to its own type.
func chunkedSum[T float32 | float64](x []T) T {
	var acc T
	for len(x) > 0 {
		n := min(len(x), numpyBufferSize)
		acc += pairwise(x[:n])
		x = x[n:]
	}
	return acc
}

// pairwise is NumPy's pairwise summation of one chunk. The eight
// stride-8 accumulators are separate locals (kept in registers, unlike an
// array) and a block's elements are read through a fixed-size array view,
// so the loop has no bounds checks; the additions and their order are
// NumPy's.
func pairwise[T float32 | float64](a []T) T {
	n := len(a)
	switch {
	case n < 8:
		var res T
		for _, v := range a {
			res += v
		}
		return res
	case n <= numpyBlockSize:
		r0, r1, r2, r3, r4, r5, r6, r7 := a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
		i := 8
		for ; i+8 <= n; i += 8 {
			b := (*[8]T)(a[i : i+8])
			r0 += b[0]
			r1 += b[1]
			r2 += b[2]
			r3 += b[3]
			r4 += b[4]
			r5 += b[5]
			r6 += b[6]
			r7 += b[7]
		}
		res := ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	default:
		n2 := n / 2
		n2 -= n2 % 8
		return pairwise(a[:n2]) + pairwise(a[n2:])
	}
}
