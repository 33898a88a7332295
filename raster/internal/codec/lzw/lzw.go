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

// decodeLZW decodes src into exactly len(dst) bytes.
func (s *lzwState) decodeLZW(src, dst []byte) error {
	head, size := &s.head, &s.size
	if !s.ready {
		for c := range 256 {
			head[c], size[c] = uint64(c)|1<<56, 1
		}
		s.ready = true
	}
	var (
		buf      uint64
		nbits    uint
		in       = src // the bytes not yet loaded into buf
		width    = uint(9)
		limit    = 1<<9 - 1 // next code at which width grows
		next     = lzwFirst
		havePrev bool   // false right after ClearCode
		prevHead uint64 // the previous code's head
		prevLen  int    // its length
		prevAt   int    // where it was emitted
		rest     = dst  // the bytes not yet written
	)
	for len(rest) > 0 {
		if nbits < width {
			if len(in) >= 8 {
				// Big-endian 8-byte load; the bits below the claimed bytes
				// are those the next load brings again, so OR is harmless.
				buf |= binary.BigEndian.Uint64(in) >> (nbits & 63)
				k := (63 - nbits) >> 3 & 7
				in = in[k:]
				nbits += k * 8
			} else {
				for nbits <= 56 && len(in) > 0 {
					buf |= uint64(in[0]) << ((56 - nbits) & 63)
					in = in[1:]
					nbits += 8
				}
				if nbits < width {
					return s.short(len(dst)-len(rest), len(dst))
				}
			}
		}
		// The masks tell the compiler the shifts are below 64.
		code := int(buf >> ((64 - width) & 63))
		buf <<= width & 63
		nbits -= width

		var first byte // the first byte of code's string
		kwk := false
		switch {
		case code < next:
			if uint(code-lzwClear) < 2 {
				if code == lzwEOI {
					return s.short(len(dst)-len(rest), len(dst))
				}
				width, limit, next, havePrev = 9, 1<<9-1, lzwFirst, false
				continue
			}
			if !havePrev && code >= 256 {
				return FormatError("LZW: corrupted table (string code after ClearCode)")
			}
			first = byte(head[code&tabMask])
		case !havePrev:
			return FormatError("LZW: corrupted table (string code after ClearCode)")
		case code == next:
			// KwKwK: the previous string followed by its own first byte,
			// the entry added just below.
			first, kwk = byte(prevHead), true
		default:
			return FormatError("LZW: code beyond the string table")
		}
		if havePrev && next < lzwTableSize {
			// New entry: the previous string plus this string's first byte.
			h := prevHead&(1<<56-1) | uint64(min(prevLen+1, 8))<<56
			if prevLen < 7 {
				h |= uint64(first) << (8 * uint(prevLen) & 63)
			}
			head[next&tabMask] = h
			s.start[next&tabMask], size[next&tabMask] = int32(prevAt), int32(prevLen+1)
			next++
			if next >= limit && width < 12 {
				width++
				limit = 1<<width - 1
			}
		}

		at := len(dst) - len(rest)
		h := head[code&tabMask]
		prevHead, prevAt, havePrev = h, at, true
		if n := h >> 56; n < 8 && len(rest) >= 8 {
			// One 8-byte store. The bytes past n are overwritten by the
			// next string before anything reads them.
			binary.LittleEndian.PutUint64(rest, h)
			rest = rest[n:]
			prevLen = int(n)
			continue
		}
		prevLen = int(size[code&tabMask])
		rest = rest[s.emitSlow(dst, at, code, kwk):]
	}
	return nil
}

// emitSlow writes code's string at dst[o:] when it is eight bytes or
// longer or dst ends within eight bytes, truncating at the end of dst; it
// returns the bytes written.
func (s *lzwState) emitSlow(dst []byte, o, code int, kwk bool) int {
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
	if !kwk {
		copy(dst[o:o+n], dst[st:st+n])
		return n
	}
	// A KwKwK string's last byte is where it is being written: copy the
	// previous string, then its first byte.
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
