package lzw

import (
	"encoding/binary"
	"fmt"
)

// A whole-buffer decoder for TIFF's LZW (MSB-first codes of 9 to 12 bits,
// "early change", ClearCode 256, EndOfInformation 257). Each table entry
// carries its string's length, its first eight bytes and where in dst it
// was first written: a string of up to eight bytes is emitted with one
// 8-byte store from the entry itself, a longer one with a copy from dst.
// Like libtiff, decoding stops once dst is full, and running out of codes
// before that is an error.

const (
	lzwClear   = 256
	lzwEOI     = 257
	lzwFirst   = 258
	lzwMaxCode = 4096
	// lzwTableSize leaves room past 4096 for writers that emit a few codes
	// too many before ClearCode, which libtiff tolerates.
	lzwTableSize = lzwMaxCode + 1024
	// tabMask indexes the table without bounds checks: the table's length
	// is the power of two above lzwTableSize.
	tabMask = 8192 - 1
)

// entry is one string of the table.
type entry struct {
	head  uint64 // the string's first (up to) 8 bytes, little-endian
	start int32  // where in dst the string was first written
	n     int32  // its length
}

// lzwState holds the reusable string table.
type lzwState struct {
	tab   [tabMask + 1]entry
	ready bool // the 256 single-byte entries are set
}

// decodeLZW decodes src into exactly len(dst) bytes.
func (s *lzwState) decodeLZW(src, dst []byte) error {
	tab := &s.tab
	if !s.ready {
		for c := range 256 {
			tab[c] = entry{head: uint64(c), n: 1}
		}
		s.ready = true
	}
	var (
		buf      uint64
		nbits    uint
		pos      int
		width    = uint(9)
		limit    = 1<<9 - 1 // next code at which width grows
		next     = lzwFirst
		havePrev bool  // false right after ClearCode
		prev     entry // the previous code's string
		prevAt   int   // where it was emitted
		o        int
	)
	for o < len(dst) {
		if nbits < width {
			if pos+8 <= len(src) {
				// Big-endian 8-byte load; the bits below the claimed bytes
				// are those the next load brings again, so OR is harmless.
				buf |= binary.BigEndian.Uint64(src[pos:]) >> nbits
				k := (63 - nbits) >> 3
				pos += int(k)
				nbits += k * 8
			} else {
				for nbits <= 56 && pos < len(src) {
					buf |= uint64(src[pos]) << (56 - nbits)
					pos++
					nbits += 8
				}
				if nbits < width {
					return s.short(o, len(dst))
				}
			}
		}
		code := int(buf >> (64 - width))
		buf <<= width
		nbits -= width

		var e entry
		kwk := false
		switch {
		case code < next:
			if uint(code-lzwClear) < 2 {
				if code == lzwEOI {
					return s.short(o, len(dst))
				}
				width, limit, next, havePrev = 9, 1<<9-1, lzwFirst, false
				continue
			}
			e = tab[code&tabMask]
			if !havePrev {
				if code >= 256 {
					return FormatError("LZW: corrupted table (string code after ClearCode)")
				}
				break
			}
			if next < lzwTableSize {
				// New entry: the previous string plus this string's first byte.
				ne := entry{head: prev.head, start: int32(prevAt), n: prev.n + 1}
				if prev.n < 8 {
					ne.head |= (e.head & 0xff) << (8 * uint(prev.n))
				}
				tab[next&tabMask] = ne
				next++
				if next >= limit && width < 12 {
					width++
					limit = 1<<width - 1
				}
			}
		case !havePrev:
			return FormatError("LZW: corrupted table (string code after ClearCode)")
		case code == next:
			// KwKwK: the previous string followed by its own first byte.
			e = entry{head: prev.head, start: int32(prevAt), n: prev.n + 1}
			if prev.n < 8 {
				e.head |= (prev.head & 0xff) << (8 * uint(prev.n))
			}
			kwk = true
			tab[next&tabMask] = e
			next++
			if next >= limit && width < 12 {
				width++
				limit = 1<<width - 1
			}
		default:
			return FormatError("LZW: code beyond the string table")
		}

		at := o
		if e.n <= 8 && o+8 <= len(dst) {
			// One 8-byte store. The bytes past e.n are overwritten by the
			// next string before anything reads them.
			binary.LittleEndian.PutUint64(dst[o:], e.head)
			o += int(e.n)
		} else {
			o += emitSlow(dst, o, e, kwk)
		}
		prev, prevAt, havePrev = e, at, true
	}
	return nil
}

// emitSlow writes e at dst[o:] when it is longer than eight bytes or dst
// ends within eight bytes, truncating at the end of dst; it returns the
// bytes written.
func emitSlow(dst []byte, o int, e entry, kwk bool) int {
	n := min(int(e.n), len(dst)-o)
	if e.n <= 8 {
		for i := range n {
			dst[o+i] = byte(e.head >> (8 * uint(i)))
		}
		return n
	}
	st := int(e.start)
	if !kwk {
		copy(dst[o:o+n], dst[st:st+n])
		return n
	}
	// A KwKwK string's last byte is where it is being written: copy the
	// previous string, then its first byte.
	m := min(int(e.n)-1, n)
	copy(dst[o:o+m], dst[st:st+m])
	if m < n {
		dst[o+m] = dst[st]
	}
	return n
}

func (s *lzwState) short(o, want int) error {
	return FormatError(fmt.Sprintf("LZW: block decodes to %d bytes, want %d", o, want))
}
