package deforestation

import (
	"math"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// Typed per-pixel kernels of the family. Each band's sample type is
// switched on once (bandView); the loops then read the typed slice
// directly, with no per-sample interface or method call, and convert each
// sample to float32 exactly as the NumPy reference's astype(float32) does,
// so the values, their order and the pairwise means are bit-identical to
// converting the band first.

// sample is the element type of a decoded band's Data.
type sample interface {
	~uint8 | ~int8 | ~uint16 | ~int16 | ~uint32 | ~int32 | ~float32 | ~float64
}

// nodata32 is a declared nodata as the float32 a sample must equal to
// match it; ok is false when no float32 can (see float32NoData).
type nodata32 struct {
	v  float32
	ok bool
}

func nodataOf(info workers.RasterInfo) nodata32 {
	v, ok := float32NoData(info)
	return nodata32{v: v, ok: ok}
}

// valid reports whether x is finite and not the nodata.
func (nd nodata32) valid(x float32) bool { return finiteBits32(x) && !(nd.ok && x == nd.v) }

// bandView is a band's samples as one of the kernels' typed slices: the
// band's own uint8, uint16 or float32 samples, or, for any other type, a
// float32 conversion (exact for the integer types up to 16 bits, one
// rounding otherwise, as float32(v) is in the kernels).
type bandView struct {
	u8  []uint8
	u16 []uint16
	f32 []float32
}

// viewOf returns b's view; a conversion goes into *scratch's memory, kept
// there for the next band.
func viewOf(b *raster.Band, scratch *[]float32) bandView {
	switch s := b.Data.(type) {
	case []uint8:
		return bandView{u8: s}
	case []uint16:
		return bandView{u16: s}
	case []float32:
		return bandView{f32: s}
	}
	v := bandFloat32Into(*scratch, b)
	*scratch = v
	return bandView{f32: v}
}

// len is the number of samples.
func (v bandView) len() int { return len(v.u8) + len(v.u16) + len(v.f32) }

// float32s returns the view as float32, converting integer samples into
// *scratch.
func (v bandView) float32s(scratch *[]float32) []float32 {
	switch {
	case v.u8 != nil:
		*scratch = toFloat32(*scratch, v.u8)
	case v.u16 != nil:
		*scratch = toFloat32(*scratch, v.u16)
	default:
		return v.f32
	}
	return *scratch
}

// indexValues are the finite NDVI and NBR values of one region of an
// epoch, row-major; their memory is reused from epoch to epoch.
type indexValues struct{ ndvi, nbr []float32 }

// intSample are the sample types the integer index kernels take.
type intSample interface{ ~uint8 | ~uint16 }

// intNodata is a declared nodata as the sample value equal to it: has is
// false when no sample of T converts to the float32 nodata (no nodata, or
// one that is negative, fractional or out of T's range).
type intNodata[T intSample] struct {
	v   T
	has bool
}

func intNodataOf[T intSample](nd nodata32) intNodata[T] {
	if !nd.ok || !(nd.v >= 0 && nd.v <= float32(^T(0))) {
		return intNodata[T]{}
	}
	if t := T(nd.v); float32(t) == nd.v {
		return intNodata[T]{v: t, has: true}
	}
	return intNodata[T]{}
}

// valid reports whether v is not the nodata; an integer sample is always
// finite as float32.
func (nd intNodata[T]) valid(v T) bool { return !nd.has || v != nd.v }

// The index kernels compute NDVI = (n-a)/(n+a) and NBR = (n-b)/(n+b) in
// float32 at the pixels where n (B8) is valid: a value is kept when its
// other band is valid and the value is finite. indexAll* visit every
// pixel, indexAt* the row-major pixel indices idx; the kept values go to
// out's memory, in visiting order.
//
// For integer samples (indexAllInt, indexAtInt) every float32 conversion
// is exact, so n-a and n+a are the exact integer difference and sum
// converted, and the quotient is finite exactly when the sum is not 0
// (|n-a| <= n+a for unsigned samples): the values and the kept set are
// those of the float32 rule of indexAll and indexAt.

func indexAllInt[T intSample](n, a, b []T, ndN, ndA, ndB intNodata[T], out *indexValues) {
	m := len(n)
	a, b = a[:m], b[:m]
	ndvi, nbr := grow32(out.ndvi, m), grow32(out.nbr, m)
	kn, kb := 0, 0
	for i, v := range n {
		if !ndN.valid(v) {
			continue
		}
		x := int32(v)
		if w := a[i]; ndA.valid(w) {
			if s := x + int32(w); s != 0 {
				ndvi[kn] = float32(x-int32(w)) / float32(s)
				kn++
			}
		}
		if w := b[i]; ndB.valid(w) {
			if s := x + int32(w); s != 0 {
				nbr[kb] = float32(x-int32(w)) / float32(s)
				kb++
			}
		}
	}
	out.ndvi, out.nbr = ndvi[:kn], nbr[:kb]
}

func indexAtInt[T intSample](n, a, b []T, ndN, ndA, ndB intNodata[T], idx []int, out *indexValues) {
	m := len(n)
	a, b = a[:m], b[:m]
	ndvi, nbr := grow32(out.ndvi, len(idx)), grow32(out.nbr, len(idx))
	kn, kb := 0, 0
	for _, i := range idx {
		v := n[i]
		if !ndN.valid(v) {
			continue
		}
		x := int32(v)
		if w := a[i]; ndA.valid(w) {
			if s := x + int32(w); s != 0 {
				ndvi[kn] = float32(x-int32(w)) / float32(s)
				kn++
			}
		}
		if w := b[i]; ndB.valid(w) {
			if s := x + int32(w); s != 0 {
				nbr[kb] = float32(x-int32(w)) / float32(s)
				kb++
			}
		}
	}
	out.ndvi, out.nbr = ndvi[:kn], nbr[:kb]
}

func indexAll(n, a, b []float32, ndN, ndA, ndB nodata32, out *indexValues) {
	m := len(n)
	a, b = a[:m], b[:m]
	ndvi, nbr := grow32(out.ndvi, m), grow32(out.nbr, m)
	kn, kb := 0, 0
	for i, x := range n {
		if !ndN.valid(x) {
			continue
		}
		if y := a[i]; ndA.valid(y) {
			if d := (x - y) / (x + y); finiteBits32(d) {
				ndvi[kn] = d
				kn++
			}
		}
		if y := b[i]; ndB.valid(y) {
			if d := (x - y) / (x + y); finiteBits32(d) {
				nbr[kb] = d
				kb++
			}
		}
	}
	out.ndvi, out.nbr = ndvi[:kn], nbr[:kb]
}

func indexAt(n, a, b []float32, ndN, ndA, ndB nodata32, idx []int, out *indexValues) {
	m := len(n)
	a, b = a[:m], b[:m]
	ndvi, nbr := grow32(out.ndvi, len(idx)), grow32(out.nbr, len(idx))
	kn, kb := 0, 0
	for _, i := range idx {
		x := n[i]
		if !ndN.valid(x) {
			continue
		}
		if y := a[i]; ndA.valid(y) {
			if d := (x - y) / (x + y); finiteBits32(d) {
				ndvi[kn] = d
				kn++
			}
		}
		if y := b[i]; ndB.valid(y) {
			if d := (x - y) / (x + y); finiteBits32(d) {
				nbr[kb] = d
				kb++
			}
		}
	}
	out.ndvi, out.nbr = ndvi[:kn], nbr[:kb]
}

// indexStack computes the index values of B8, B4 and B12 over the whole
// AOI into aoi (when not nil) and at the region's pixel indices into reg
// (when not nil), in the bands' own sample type when they share uint8 or
// uint16, otherwise on float32 conversions in sc's buffers.
func indexStack(b8, b4, b12 bandView, ndN, ndA, ndB nodata32, region []int, aoi, reg *indexValues, sc *opticalScratch) {
	switch {
	case b8.u16 != nil && b4.u16 != nil && b12.u16 != nil:
		indexIntStack(b8.u16, b4.u16, b12.u16, ndN, ndA, ndB, region, aoi, reg)
	case b8.u8 != nil && b4.u8 != nil && b12.u8 != nil:
		indexIntStack(b8.u8, b4.u8, b12.u8, ndN, ndA, ndB, region, aoi, reg)
	default:
		n, a, b := b8.float32s(&sc.c8), b4.float32s(&sc.c4), b12.float32s(&sc.c12)
		if aoi != nil {
			indexAll(n, a, b, ndN, ndA, ndB, aoi)
		}
		if reg != nil {
			indexAt(n, a, b, ndN, ndA, ndB, region, reg)
		}
	}
}

func indexIntStack[T intSample](n, a, b []T, ndN, ndA, ndB nodata32, region []int, aoi, reg *indexValues) {
	iN, iA, iB := intNodataOf[T](ndN), intNodataOf[T](ndA), intNodataOf[T](ndB)
	if aoi != nil {
		indexAllInt(n, a, b, iN, iA, iB, aoi)
	}
	if reg != nil {
		indexAtInt(n, a, b, iN, iA, iB, region, reg)
	}
}

// gatherValid writes the valid samples of s (finite, not nd) as float32
// into dst's memory, in row-major order.
func gatherValid[T sample](dst []float32, s []T, nd nodata32) []float32 {
	dst = grow32(dst, len(s))
	k := 0
	for _, v := range s {
		x := float32(v)
		dst[k] = x
		if nd.valid(x) {
			k++
		}
	}
	return dst[:k]
}

// gatherFinite32 is gatherValid for float32 samples without a nodata:
// every sample is written and the count advances by its finiteness bit
// (the exponent field below all ones), with no branch per sample.
func gatherFinite32(dst, s []float32) []float32 {
	dst = grow32(dst, len(s))
	k := 0
	for _, x := range s {
		dst[k] = x
		k += int((math.Float32bits(x)&0x7f800000 - 0x7f800000) >> 31)
	}
	return dst[:k]
}

// gatherBand is gatherValid on a band's view.
func gatherBand(dst []float32, v bandView, nd nodata32) []float32 {
	switch {
	case v.u8 != nil:
		return gatherValid(dst, v.u8, nd)
	case v.u16 != nil:
		return gatherValid(dst, v.u16, nd)
	case !nd.ok:
		return gatherFinite32(dst, v.f32)
	}
	return gatherValid(dst, v.f32, nd)
}

// hansenOK reports whether a Hansen sample (as float32) is valid: finite,
// not the declared nodata and not 255.
func hansenOK(x float32, nd nodata32) bool { return nd.valid(x) && x != hansenNoData }

// hansenCounts counts the valid and the valid positive cells of a Hansen
// band.
func hansenCounts[T sample](s []T, nd nodata32) (valid, positive int) {
	for _, v := range s {
		x := float32(v)
		if hansenOK(x, nd) {
			valid++
			if x > 0 {
				positive++
			}
		}
	}
	return valid, positive
}

// bandHansenCounts is hansenCounts on a band's view.
func bandHansenCounts(v bandView, nd nodata32) (valid, positive int) {
	switch {
	case v.u8 != nil:
		return hansenCountsInt(v.u8, intNodataOf[uint8](nd))
	case v.u16 != nil:
		return hansenCountsInt(v.u16, intNodataOf[uint16](nd))
	}
	return hansenCounts(v.f32, nd)
}

// The *Int Hansen kernels are the float32 ones on integer samples,
// compared as integers: a sample is always finite, matches nd as
// intNodataOf says, is 255 exactly when its float32 is, and is never
// negative.

func hansenCountsInt[T intSample](s []T, nd intNodata[T]) (valid, positive int) {
	for _, x := range s {
		if x != hansenNoData && nd.valid(x) {
			valid++
			if x > 0 {
				positive++
			}
		}
	}
	return valid, positive
}

func annualLossInt[T intSample](s []T, nd intNodata[T], mask []bool) (idx []int, valid int) {
	mask = mask[:len(s)]
	for i, x := range s {
		if x != hansenNoData && nd.valid(x) {
			valid++
			if x > 0 {
				mask[i] = true
				idx = append(idx, i)
			}
		}
	}
	return idx, valid
}

func lossYearCellsInt[T intSample](s []T, nd intNodata[T], path string) (byCode [26][]int, valid int, err error) {
	for i, x := range s {
		if x == hansenNoData || !nd.valid(x) {
			continue
		}
		if x > 25 {
			_, err := hansenCode(float32(x), path, i)
			return byCode, 0, err
		}
		valid++
		if x > 0 {
			byCode[x] = append(byCode[x], i)
		}
	}
	return byCode, valid, nil
}

// annualLoss marks in mask and lists the valid positive cells of an
// annual loss mask and counts its valid cells; it stops at the first
// valid negative sample, returning its index (bad, -1 when none) and value.
func annualLoss[T sample](s []T, nd nodata32, mask []bool) (idx []int, valid, bad int, badV float32) {
	mask = mask[:len(s)]
	for i, v := range s {
		x := float32(v)
		if !hansenOK(x, nd) {
			continue
		}
		if x < 0 {
			return idx, valid, i, x
		}
		valid++
		if x > 0 {
			mask[i] = true
			idx = append(idx, i)
		}
	}
	return idx, valid, -1, 0
}

// bandAnnualLoss is annualLoss on a band's view.
func bandAnnualLoss(v bandView, nd nodata32, mask []bool) (idx []int, valid, bad int, badV float32) {
	switch {
	case v.u8 != nil:
		idx, valid = annualLossInt(v.u8, intNodataOf[uint8](nd), mask)
		return idx, valid, -1, 0
	case v.u16 != nil:
		idx, valid = annualLossInt(v.u16, intNodataOf[uint16](nd), mask)
		return idx, valid, -1, 0
	}
	return annualLoss(v.f32, nd, mask)
}

// lossYearCells checks the codes of a lossyear.tif band and lists, for
// each loss code 1..25, its valid cells in row-major order; valid counts
// every valid cell (code 0, no loss, included).
func lossYearCells[T sample](s []T, info workers.RasterInfo, path string) (byCode [26][]int, valid int, err error) {
	nd := nodataOf(info)
	for i, v := range s {
		x := float32(v)
		if !hansenOK(x, nd) {
			continue
		}
		c, err := hansenCode(x, path, i)
		if err != nil {
			return byCode, 0, err
		}
		valid++
		if c > 0 {
			byCode[c] = append(byCode[c], i)
		}
	}
	return byCode, valid, nil
}

// bandLossYearCells is lossYearCells on a band in its own sample type.
func bandLossYearCells(b *raster.Band, info workers.RasterInfo, path string) ([26][]int, int, error) {
	var scratch []float32
	v := viewOf(b, &scratch)
	switch {
	case v.u8 != nil:
		return lossYearCellsInt(v.u8, intNodataOf[uint8](nodataOf(info)), path)
	case v.u16 != nil:
		return lossYearCellsInt(v.u16, intNodataOf[uint16](nodataOf(info)), path)
	}
	return lossYearCells(v.f32, info, path)
}

// canopyValues appends the valid tree-cover values of s (finite, not 255,
// not the declared nodata, compared as float64 samples) as float32 to out;
// it stops at the first valid value outside 0..100, returning its index
// (bad, -1 when none) and value.
func canopyValues[T sample](out []float32, s []T, info workers.RasterInfo) (vals []float32, bad int, badV float64) {
	for i, x := range s {
		v := float64(x)
		if !workers.Finite(v) || v == hansenNoData || (info.HasNoData && v == info.NoData) {
			continue
		}
		if v < 0 || v > 100 {
			return out, i, v
		}
		out = append(out, float32(v))
	}
	return out, -1, 0
}

// canopyUint8 is canopyValues on uint8 samples, compared as integers: a
// sample is never NaN, and equals the declared nodata as float64 exactly
// when the nodata is an integer 0..255 equal to it (any such nodata is a
// float32 too, so intNodataOf finds it). out must have room for every
// sample (cap(out) >= len(s)).
func canopyUint8(out []float32, s []uint8, info workers.RasterInfo) (vals []float32, bad int, badV float64) {
	nd := intNodataOf[uint8](nodataOf(info))
	out = out[:len(s)]
	k := 0
	for i, x := range s {
		if x == hansenNoData || !nd.valid(x) {
			continue
		}
		if x > 100 {
			return out[:k], i, float64(x)
		}
		out[k] = float32(x)
		k++
	}
	return out[:k], -1, 0
}
