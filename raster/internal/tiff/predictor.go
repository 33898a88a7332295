package tiff

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// NativeLE reports whether the host stores integers little-endian.
var NativeLE = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// U16s, U32s and U64s view b as native-order integers; b must be aligned
// (slices from make are) and its length a multiple of the element size.
func U16s(b []byte) []uint16 {
	if len(b) < 2 {
		return nil
	}
	return unsafe.Slice((*uint16)(unsafe.Pointer(&b[0])), len(b)/2)
}

func U32s(b []byte) []uint32 {
	if len(b) < 4 {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), len(b)/4)
}

func U64s(b []byte) []uint64 {
	if len(b) < 8 {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), len(b)/8)
}

// SwapBytes reverses the byte order of every size-byte word of b.
func SwapBytes(b []byte, size int) {
	switch size {
	case 2:
		s := U16s(b)
		for i, v := range s {
			s[i] = bits.ReverseBytes16(v)
		}
	case 4:
		s := U32s(b)
		for i, v := range s {
			s[i] = bits.ReverseBytes32(v)
		}
	case 8:
		s := U64s(b)
		for i, v := range s {
			s[i] = bits.ReverseBytes64(v)
		}
	}
}

// SWAR lane constants: bytes (or 16-bit halves) spread into wider lanes.
const (
	lanes8  = 0x00ff00ff00ff00ff
	ones16  = 0x0001000100010001
	lanes16 = 0x0000ffff0000ffff
	ones32  = 0x0000000100000001
)

// prefixSum8 replaces b with its running byte sum modulo 256, starting
// from acc, and returns the last sum. Eight bytes per step: the sums of
// byte pairs (2k, 2k+1) in 16-bit lanes, multiplied by ones16, hold in
// lane k the sum of bytes 0..2k+1 (at most 8*255: no carries between
// lanes), which is byte 2k+1 of the result less acc; byte 2k is that less
// byte 2k+1. The loop-carried dependency is one add of the word's sum.
func prefixSum8(b []byte, acc byte) byte { return prefixSum8To(b, b, acc) }

// prefixSum8To is prefixSum8 reading src and writing the sums to dst (of
// the same length; they may be the same slice).
func prefixSum8To(dst, src []byte, acc byte) byte {
	a := uint64(acc)
	dst = dst[:len(src)]
	i := 0
	for ; i+8 <= len(src); i += 8 {
		w := binary.LittleEndian.Uint64(src[i : i+8])
		odd := w >> 8 & lanes8
		t := (w&lanes8 + odd) * ones16
		s := t + a*ones16
		binary.LittleEndian.PutUint64(dst[i:i+8], (s-odd)&lanes8|(s&lanes8)<<8)
		a = (a + t>>48) & 0xff
	}
	acc = byte(a)
	for ; i < len(src); i++ {
		acc += src[i]
		dst[i] = acc
	}
	return acc
}

// prefixSum16LE replaces the little-endian 16-bit samples of b (an even
// number of bytes) with their running sum, as prefixSum8 does for bytes
// (even and odd samples spread into 32-bit lanes).
func prefixSum16LE(b []byte) { prefixSum16LETo(b, b, 0) }

// prefixSum16LETo is prefixSum16LE reading src and writing the sums,
// starting from acc, to dst (of the same length; they may be the same
// slice).
func prefixSum16LETo(dst, src []byte, acc uint16) {
	a := uint64(acc)
	dst = dst[:len(src)]
	i := 0
	for ; i+8 <= len(src); i += 8 {
		w := binary.LittleEndian.Uint64(src[i : i+8])
		odd := w >> 16 & lanes16
		s := (w&lanes16+odd)*ones32 + a*ones32 // through each odd sample
		binary.LittleEndian.PutUint64(dst[i:i+8], (s-odd)&lanes16|(s&lanes16)<<16)
		a = (s >> 32) & 0xffff
	}
	acc = uint16(a)
	for ; i+2 <= len(src); i += 2 {
		acc += binary.LittleEndian.Uint16(src[i:])
		binary.LittleEndian.PutUint16(dst[i:], acc)
	}
}

// UndoHorizontalRow reverses TIFF predictor 2 on one row of single-sample
// native-order samples of size bytes (1, 2, 4 or 8), writing samples
// [from, from+len(dst)/size) of the result to dst; row is left as it is.
// It is UndoHorizontal with stride 1 followed by a copy, in one pass.
func UndoHorizontalRow(row, dst []byte, from, size int) {
	m := len(dst) / size
	src := row[from*size : (from+m)*size]
	switch size {
	case 1:
		var acc byte
		for _, v := range row[:from] {
			acc += v
		}
		prefixSum8To(dst, src, acc)
	case 2:
		if NativeLE {
			var acc uint16
			for _, v := range U16s(row)[:from] {
				acc += v
			}
			prefixSum16LETo(dst, src, acc)
			return
		}
		prefixSumFrom(U16s(row)[:from+m], from, U16s(dst)[:m])
	case 4:
		prefixSumFrom(U32s(row)[:from+m], from, U32s(dst)[:m])
	case 8:
		prefixSumFrom(U64s(row)[:from+m], from, U64s(dst)[:m])
	}
}

// prefixSumFrom writes the running sums of s (modulo the sample width)
// from sample from on to out.
func prefixSumFrom[T uint16 | uint32 | uint64](s []T, from int, out []T) {
	var acc T
	for _, v := range s[:from] {
		acc += v
	}
	for i, v := range s[from:] {
		acc += v
		out[i] = acc
	}
}

// UndoHorizontal reverses TIFF predictor 2 on native-order samples of size
// bytes: each row of rowLen bytes is a running sum with the given stride
// (samples per pixel), modulo the sample width.
func UndoHorizontal(b []byte, rowLen, rows, stride, size int) {
	for r := 0; r < rows; r++ {
		row := b[r*rowLen : (r+1)*rowLen]
		switch size {
		case 1:
			if stride == 1 {
				prefixSum8(row, 0)
				continue
			}
			for i := stride; i < len(row); i++ {
				row[i] += row[i-stride]
			}
		case 2:
			if stride == 1 && NativeLE {
				prefixSum16LE(row)
				continue
			}
			s := U16s(row)
			for i := stride; i < len(s); i++ {
				s[i] += s[i-stride]
			}
		case 4:
			s := U32s(row)
			if stride == 1 && len(s) > 0 {
				acc := s[0]
				for i := 1; i < len(s); i++ {
					acc += s[i]
					s[i] = acc
				}
				continue
			}
			for i := stride; i < len(s); i++ {
				s[i] += s[i-stride]
			}
		case 8:
			s := U64s(row)
			for i := stride; i < len(s); i++ {
				s[i] += s[i-stride]
			}
		}
	}
}

// UndoFloat reverses TIFF predictor 3 (floating point) in place. Each row
// holds n = rowLen/size samples stored as size byte planes, most significant
// byte first, horizontally differenced byte-wise with the given stride; the
// result is native-order floats. tmp must hold at least rowLen bytes.
func UndoFloat(b []byte, rowLen, rows, stride, size int, tmp []byte) {
	n := rowLen / size
	tmp = tmp[:rowLen]
	for r := 0; r < rows; r++ {
		row := b[r*rowLen : (r+1)*rowLen]
		if stride == 1 {
			prefixSum8(row, 0)
		} else {
			for i := stride; i < len(row); i++ {
				row[i] += row[i-stride]
			}
		}
		copy(tmp, row)
		switch size {
		case 4:
			interleave4(U32s(row)[:n], tmp[:n], tmp[n:2*n], tmp[2*n:3*n], tmp[3*n:4*n])
		case 2:
			p0, p1 := tmp[:n], tmp[n:2*n]
			out := U16s(row)[:n]
			for i := range out {
				out[i] = uint16(p0[i])<<8 | uint16(p1[i])
			}
		case 8:
			out := U64s(row)[:n]
			for i := range out {
				var v uint64
				for k := 0; k < 8; k++ {
					v = v<<8 | uint64(tmp[k*n+i])
				}
				out[i] = v
			}
		default:
			// Other widths (24-bit floats) are rejected earlier.
		}
	}
}

// UndoFloatRow reverses predictor 3 on one row of single-sample floats of
// size bytes (4 or 8): it accumulates the byte differences of row in place
// and writes samples [from, from+len(dst)/size) to dst in native order.
func UndoFloatRow(row, dst []byte, from, size int) {
	prefixSum8(row, 0)
	n := len(row) / size
	m := len(dst) / size
	switch size {
	case 4:
		interleave4(U32s(dst)[:m], row[from:from+m], row[n+from:n+from+m], row[2*n+from:2*n+from+m], row[3*n+from:3*n+from+m])
	case 8:
		out := U64s(dst)[:m]
		for i := range out {
			var v uint64
			for k := 0; k < 8; k++ {
				v = v<<8 | uint64(row[k*n+from+i])
			}
			out[i] = v
		}
	}
}

// interleave4 joins four byte planes, most significant first, into
// native-order 32-bit words: out[i] = p0[i]<<24 | p1[i]<<16 | p2[i]<<8 |
// p3[i]. The planes must be at least len(out) long.
func interleave4(out []uint32, p0, p1, p2, p3 []byte) {
	n := len(out)
	p0, p1, p2, p3 = p0[:n], p1[:n], p2[:n], p3[:n]
	for i := range out {
		out[i] = uint32(p0[i])<<24 | uint32(p1[i])<<16 | uint32(p2[i])<<8 | uint32(p3[i])
	}
}

// ApplyHorizontal applies TIFF predictor 2 to native-order samples.
func ApplyHorizontal(b []byte, rowLen, rows, size int) {
	for r := 0; r < rows; r++ {
		row := b[r*rowLen : (r+1)*rowLen]
		switch size {
		case 1:
			for i := len(row) - 1; i > 0; i-- {
				row[i] -= row[i-1]
			}
		case 2:
			s := U16s(row)
			for i := len(s) - 1; i > 0; i-- {
				s[i] -= s[i-1]
			}
		case 4:
			s := U32s(row)
			for i := len(s) - 1; i > 0; i-- {
				s[i] -= s[i-1]
			}
		case 8:
			s := U64s(row)
			for i := len(s) - 1; i > 0; i-- {
				s[i] -= s[i-1]
			}
		}
	}
}

// ApplyFloat applies TIFF predictor 3: byte planes, most significant first,
// then byte-wise differencing.
func ApplyFloat(b []byte, rowLen, rows, size int, tmp []byte) {
	n := rowLen / size
	for r := 0; r < rows; r++ {
		row := b[r*rowLen : (r+1)*rowLen]
		switch size {
		case 4:
			s := U32s(row)
			for i, v := range s {
				tmp[i], tmp[n+i], tmp[2*n+i], tmp[3*n+i] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
			}
		case 8:
			s := U64s(row)
			for i, v := range s {
				for k := 0; k < 8; k++ {
					tmp[k*n+i] = byte(v >> (56 - 8*k))
				}
			}
		}
		copy(row, tmp[:rowLen])
		for i := len(row) - 1; i > 0; i-- {
			row[i] -= row[i-1]
		}
	}
}
