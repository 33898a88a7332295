package lzw

import (
	"encoding/binary"
	"fmt"
)

// refState is the previous decoder (an (offset, length) table walked per
// code), kept as the reference the fast decoder is fuzzed against.
type refState struct {
	start [lzwTableSize]int32
	size  [lzwTableSize]int32
}

// decodeRef decodes src into exactly len(dst) bytes.
func (s *refState) decodeRef(src, dst []byte) error {
	var (
		buf     uint64
		nbits   uint
		pos     int
		left    = 8 * len(src) // bits not yet consumed
		width   = 9
		next    = lzwFirst
		prev    = -1 // previous code, -1 right after ClearCode
		prevAt  int  // where the previous string was emitted
		prevLen int
		o       int
	)
	short := func() error {
		return FormatError(fmt.Sprintf("LZW: block decodes to %d bytes, want %d", o, len(dst)))
	}
	for o < len(dst) {
		if left < width {
			return short()
		}
		if nbits < uint(width) {
			if pos+8 <= len(src) {
				// Big-endian 8-byte load; the bits below the claimed bytes
				// are those the next load brings again, so OR is harmless.
				buf |= binary.BigEndian.Uint64(src[pos:]) >> nbits
				k := (63 - nbits) >> 3
				pos += int(k)
				nbits += k * 8
			}
			for nbits <= 56 {
				var b byte
				if pos < len(src) {
					b = src[pos]
				}
				pos++
				buf |= uint64(b) << (56 - nbits)
				nbits += 8
			}
		}
		code := int(buf >> (64 - uint(width)))
		buf <<= uint(width)
		nbits -= uint(width)
		left -= width
		if code == lzwClear {
			width, next, prev = 9, lzwFirst, -1
			continue
		}
		if code == lzwEOI {
			return short()
		}
		at := o
		var n int
		switch {
		case code < 256:
			dst[o] = byte(code)
			n = 1
		case prev < 0:
			return FormatError("LZW: corrupted table (string code after ClearCode)")
		case code < next:
			st, ln := int(s.start[code]), int(s.size[code])
			if ln <= 8 && o+8 <= len(dst) {
				// Short string: one 8-byte move. The bytes past ln are
				// overwritten by the next string before anything reads them.
				binary.LittleEndian.PutUint64(dst[o:], binary.LittleEndian.Uint64(dst[st:]))
				n = ln
				break
			}
			n = min(ln, len(dst)-o)
			copy(dst[o:o+n], dst[st:st+n])
		case code == next:
			// KwKwK: the previous string followed by its own first byte.
			n = min(prevLen, len(dst)-o)
			copy(dst[o:o+n], dst[prevAt:prevAt+n])
			if o+n < len(dst) {
				dst[o+n] = dst[prevAt]
				n++
			}
		default:
			return FormatError("LZW: code beyond the string table")
		}
		o += n
		if prev >= 0 && next < lzwTableSize {
			// New entry: the previous string plus this string's first
			// byte, which is exactly what follows it in dst.
			s.start[next], s.size[next] = int32(prevAt), int32(prevLen+1)
			next++
			if next >= (1<<width)-1 && width < 12 {
				width++
			}
		}
		prev, prevAt = code, at
		if code < 256 {
			prevLen = 1
		} else {
			prevLen = int(s.size[code])
		}
	}
	return nil
}
