package raster

import (
	"math/bits"
	"unsafe"
)

// nativeLE reports whether the host stores integers little-endian.
var nativeLE = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// u16s, u32s and u64s view b as native-order integers; b must be aligned
// (slices from make are) and its length a multiple of the element size.
func u16s(b []byte) []uint16 {
	if len(b) < 2 {
		return nil
	}
	return unsafe.Slice((*uint16)(unsafe.Pointer(&b[0])), len(b)/2)
}

func u32s(b []byte) []uint32 {
	if len(b) < 4 {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), len(b)/4)
}

func u64s(b []byte) []uint64 {
	if len(b) < 8 {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), len(b)/8)
}

// swapBytes reverses the byte order of every size-byte word of b.
func swapBytes(b []byte, size int) {
	switch size {
	case 2:
		s := u16s(b)
		for i, v := range s {
			s[i] = bits.ReverseBytes16(v)
		}
	case 4:
		s := u32s(b)
		for i, v := range s {
			s[i] = bits.ReverseBytes32(v)
		}
	case 8:
		s := u64s(b)
		for i, v := range s {
			s[i] = bits.ReverseBytes64(v)
		}
	}
}

// undoHorizontal reverses TIFF predictor 2 on native-order samples of size
// bytes: each row of rowLen bytes is a running sum with the given stride
// (samples per pixel), modulo the sample width.
func undoHorizontal(b []byte, rowLen, rows, stride, size int) {
	for r := 0; r < rows; r++ {
		row := b[r*rowLen : (r+1)*rowLen]
		switch size {
		case 1:
			if stride == 1 {
				acc := row[0]
				for i := 1; i < len(row); i++ {
					acc += row[i]
					row[i] = acc
				}
				continue
			}
			for i := stride; i < len(row); i++ {
				row[i] += row[i-stride]
			}
		case 2:
			s := u16s(row)
			for i := stride; i < len(s); i++ {
				s[i] += s[i-stride]
			}
		case 4:
			s := u32s(row)
			for i := stride; i < len(s); i++ {
				s[i] += s[i-stride]
			}
		case 8:
			s := u64s(row)
			for i := stride; i < len(s); i++ {
				s[i] += s[i-stride]
			}
		}
	}
}

// undoFloat reverses TIFF predictor 3 (floating point) in place. Each row
// holds n = rowLen/size samples stored as size byte planes, most significant
// byte first, horizontally differenced byte-wise with the given stride; the
// result is native-order floats. tmp must hold at least rowLen bytes.
func undoFloat(b []byte, rowLen, rows, stride, size int, tmp []byte) {
	n := rowLen / size
	tmp = tmp[:rowLen]
	for r := 0; r < rows; r++ {
		row := b[r*rowLen : (r+1)*rowLen]
		if stride == 1 {
			acc := row[0]
			for i := 1; i < len(row); i++ {
				acc += row[i]
				row[i] = acc
			}
		} else {
			for i := stride; i < len(row); i++ {
				row[i] += row[i-stride]
			}
		}
		copy(tmp, row)
		switch size {
		case 4:
			p0, p1, p2, p3 := tmp[:n], tmp[n:2*n], tmp[2*n:3*n], tmp[3*n:4*n]
			out := u32s(row)[:n]
			for i := range out {
				out[i] = uint32(p0[i])<<24 | uint32(p1[i])<<16 | uint32(p2[i])<<8 | uint32(p3[i])
			}
		case 2:
			p0, p1 := tmp[:n], tmp[n:2*n]
			out := u16s(row)[:n]
			for i := range out {
				out[i] = uint16(p0[i])<<8 | uint16(p1[i])
			}
		case 8:
			out := u64s(row)[:n]
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

// undoFloatRow reverses predictor 3 on one row of single-sample floats of
// size bytes (4 or 8): it accumulates the byte differences of row in place
// and writes samples [from, from+len(dst)/size) to dst in native order.
func undoFloatRow(row, dst []byte, from, size int) {
	acc := row[0]
	for i := 1; i < len(row); i++ {
		acc += row[i]
		row[i] = acc
	}
	n := len(row) / size
	m := len(dst) / size
	switch size {
	case 4:
		p0, p1, p2, p3 := row[from:from+m], row[n+from:n+from+m], row[2*n+from:2*n+from+m], row[3*n+from:3*n+from+m]
		out := u32s(dst)[:m]
		for i := range out {
			out[i] = uint32(p0[i])<<24 | uint32(p1[i])<<16 | uint32(p2[i])<<8 | uint32(p3[i])
		}
	case 8:
		out := u64s(dst)[:m]
		for i := range out {
			var v uint64
			for k := 0; k < 8; k++ {
				v = v<<8 | uint64(row[k*n+from+i])
			}
			out[i] = v
		}
	}
}
