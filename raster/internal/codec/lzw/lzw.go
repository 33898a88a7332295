package lzw

import (
	"encoding/binary"
	"fmt"
)

// A whole-buffer decoder for TIFF's LZW (MSB-first codes of 9 to 12 bits,
// "early change", ClearCode 256, EndOfInformation 257). Each table entry
// carries its string's length, its first seven bytes and where in dst it
// was first written: a string of up to seven bytes is emitted with one
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

// lzwState holds the reusable string table. The decoder's hot loop reads
// only head (32 KB for 4096 codes, in L1): each code's first seven bytes,
// little-endian, with min(length, 8) in the top byte. Where a string was
// first written in dst and its full length are read only for strings of
// eight bytes or more.
type lzwState struct {
	head  [tabMask + 1]uint64
	start [tabMask + 1]int32
	size  [tabMask + 1]int32
	ready bool // the 256 single-byte strings are set
}

// decodeLZW decodes src into exactly len(dst) bytes. The loop keeps few
// variables live so that they stay in registers: whether a previous
// string exists is prevLen > 0, and it was written at o-prevLen.
func (s *lzwState) decodeLZW(src, dst []byte) error {
	if !s.ready {
		for c := range 256 {
			s.head[c], s.size[c] = uint64(c)|1<<56, 1
		}
		s.ready = true
	}
	var (
		buf      uint64
		nbits    uint
		pos      int // next byte of src to load into buf
		width    = uint(9)
		next     = lzwFirst
		prevHead uint64 // the previous code's head
		prevLen  int    // its length; 0 right after ClearCode
		o        int    // bytes written
	)
	for o < len(dst) {
		if nbits < width {
			if pos+8 <= len(src) {
				// Big-endian 8-byte load; the bits below the claimed bytes
				// are those the next load brings again, so OR is harmless.
				buf |= binary.BigEndian.Uint64(src[pos:]) >> (nbits & 63)
				k := (63 - nbits) >> 3 & 7
				pos += int(k)
				nbits += k * 8
			} else {
				for nbits <= 56 && pos < len(src) {
					buf |= uint64(src[pos]) << ((56 - nbits) & 63)
					pos++
					nbits += 8
				}
				if nbits < width {
					return s.short(o, len(dst))
				}
			}
		}
		// The masks tell the compiler the shifts are below 64.
		code := int(buf >> ((64 - width) & 63))
		buf <<= width & 63
		nbits -= width

		var first uint64 // the first byte of code's string
		switch {
		case code < next:
			if uint(code-lzwClear) < 2 {
				if code == lzwEOI {
					return s.short(o, len(dst))
				}
				width, next, prevLen = 9, lzwFirst, 0
				continue
			}
			if prevLen == 0 && code >= 256 {
				return FormatError("LZW: corrupted table (string code after ClearCode)")
			}
			first = s.head[code&tabMask] & 0xff
		case prevLen == 0:
			return FormatError("LZW: corrupted table (string code after ClearCode)")
		case code == next:
			// KwKwK: the previous string followed by its own first byte,
			// the entry added just below.
			first = prevHead & 0xff
		default:
			return FormatError("LZW: code beyond the string table")
		}
		if prevLen > 0 && next < lzwTableSize {
			// New entry: the previous string plus this string's first byte.
			h := prevHead&(1<<56-1) | uint64(min(prevLen+1, 8))<<56
			if prevLen < 7 {
				h |= first << (8 * uint(prevLen) & 63)
			}
			s.head[next&tabMask] = h
			s.start[next&tabMask], s.size[next&tabMask] = int32(o-prevLen), int32(prevLen+1)
			next++
			if next >= 1<<width-1 && width < 12 {
				width++
			}
		}

		prevHead = s.head[code&tabMask]
		if n := int(prevHead >> 56); n < 8 && o+8 <= len(dst) {
			// One 8-byte store. The bytes past n are overwritten by the
			// next string before anything reads them.
			binary.LittleEndian.PutUint64(dst[o:], prevHead)
			o += n
			prevLen = n
			continue
		}
		prevLen = int(s.size[code&tabMask])
		o += s.emitSlow(dst, o, code)
	}
	return nil
}

// emitSlow writes code's string at dst[o:] when it is eight bytes or
// longer or dst ends within eight bytes, truncating at the end of dst; it
// returns the bytes written.
func (s *lzwState) emitSlow(dst []byte, o, code int) int {
	c := code & tabMask
	ln := int(s.size[c])
	n := min(ln, len(dst)-o)
	if ln < 8 {
		for i := range n {
			dst[o+i] = byte(s.head[c] >> (8 * uint(i)))
		}
		return n
	}
	st := int(s.start[c])
	if st+ln <= o {
		copy(dst[o:o+n], dst[st:st+n])
		return n
	}
	// A KwKwK string (the previous one plus its own first byte) ends
	// where it is being written: copy the previous string, then its first
	// byte.
	m := min(ln-1, n)
	copy(dst[o:o+m], dst[st:st+m])
	if m < n {
		dst[o+m] = dst[st]
	}
	return n
}

func (s *lzwState) short(o, want int) error {
	return FormatError(fmt.Sprintf("LZW: block decodes to %d bytes, want %d", o, want))
}
