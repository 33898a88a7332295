package lzw

import (
	"encoding/binary"
	"fmt"
)

// A whole-buffer decoder for TIFF's LZW (MSB-first codes of 9 to 12 bits,
// "early change", ClearCode 256, EndOfInformation 257). Like libtiff, it
// stops once dst is full, and running out of codes before that is an
// error.
//
// The string table is one 64-bit word per code: a string of up to seven
// bytes is emitted with one 8-byte store of its word, a longer one is
// copied word by word from where it was first written in dst.

const (
	lzwClear = 256
	lzwEOI   = 257
	lzwFirst = 258
	// lzwMaxCode is one past the largest 12-bit code. Writers may emit a
	// few codes past a full table before ClearCode (libtiff tolerates it,
	// and so does the reference decoder with its room for 1024 more
	// entries), but no 12-bit code can name an entry past 4095, so the
	// table stops growing there.
	lzwMaxCode = 4096
	// lzwTableSize is the reference decoder's table (ref_test.go).
	lzwTableSize = lzwMaxCode + 1024
)

// Entry words. A string of n < 8 bytes is its bytes, little-endian, with
// n in the top byte (bytes past n are zero). A string of 8 bytes or more
// has entLong in the top byte, its first byte in bits 0-7, its length in
// bits 8-23 and where it was first written in dst in bits 24-55.
const (
	entLong    = 8
	entLenBits = 56
)

// lzwState holds the reusable string table: 32 KB, the decoder's only
// random access, read once per code.
type lzwState struct {
	tab [lzwMaxCode]uint64
	// byteAt[k] is 1<<(8*k): multiplying a byte by it moves it to byte
	// k. A multiplication, not a shift: amd64 shifts by a variable count
	// only through CX, which costs the hot loop a register; and a table
	// here, not a global, is addressed from the register that holds tab.
	byteAt [8]uint64
	ready  bool // the tables are set
}

// extend returns the entry of the string of entry prev, last written
// just before o in dst, followed by the byte first.
func (s *lzwState) extend(prev uint64, o int, first uint64) uint64 {
	if n := prev >> entLenBits; n < 7 {
		return prev + first*s.byteAt[n&7] + 1<<entLenBits
	}
	n := uint64(entryLen(prev))
	return prev&0xff | (n+1)<<8 | (uint64(o)-n)<<24 | entLong<<entLenBits
}

// decodeLZW decodes src into exactly len(dst) bytes.
//
// Each code is read with one big-endian 8-byte load at its bit position,
// so there is no bit buffer to refill. The inner loop keeps few variables
// live, so that they stay in registers, and leaves the rare cases (the
// code after ClearCode, which adds no entry; the end of src) to the
// outer one.
func (s *lzwState) decodeLZW(src, dst []byte) error {
	tab := &s.tab
	if !s.ready {
		for c := range 256 {
			tab[c] = uint64(c) | 1<<entLenBits
		}
		for k := range s.byteAt {
			s.byteAt[k] = 1 << (8 * k)
		}
		s.ready = true
	}
	var (
		bitpos int           // next code's position in src, in bits
		shift  uint = 64 - 9 // 64 less the code width
		code   int
		o      int // bytes written
	)
	if len(dst) == 0 {
		return nil
	}
	fast := 8 * (len(src) - 8) // the last bitpos an 8-byte load reads from
	for {
		// code is to be read: the stream's first or one after ClearCode,
		// which adds no entry.
		code, bitpos = readCode(src, bitpos, shift)
		switch {
		case code < 0 || code == lzwEOI:
			return s.short(o, len(dst))
		case code == lzwClear:
			shift = 64 - 9
			continue
		case code > lzwEOI:
			return FormatError("LZW: corrupted table (string code after ClearCode)")
		}
		prev := tab[code]
		dst[o] = byte(code)
		o++
		next := lzwFirst
		for o < len(dst) {
			if bitpos <= fast {
				p := bitpos >> 3
				code = int(binary.BigEndian.Uint64(src[p:p+8]) << (uint(bitpos) & 7) >> (shift & 63))
				bitpos += 64 - int(shift)
			} else {
				code, bitpos = readCode(src, bitpos, shift)
				if code < 0 {
					return s.short(o, len(dst))
				}
			}
			var e, first uint64
			if code < next {
				if uint(code-lzwClear) < 2 {
					break
				}
				e = tab[code&(lzwMaxCode-1)]
				first = e & 0xff
			} else {
				if code > next {
					return FormatError("LZW: code beyond the string table")
				}
				// KwKwK: the previous string followed by its own first
				// byte, the entry added just below.
				first = prev & 0xff
				e = s.extend(prev, o, first)
			}
			if next < lzwMaxCode {
				// New entry: the previous string plus this string's first
				// byte, which is what follows it in dst.
				tab[next&(lzwMaxCode-1)] = s.extend(prev, o, first)
				next++
				// Widths 10, 11 and 12 start at next = 511, 1023 and 2047.
				if next&(next+1) == 0 && next < lzwMaxCode-1 {
					shift--
				}
			}
			prev = e
			if e>>entLenBits < entLong && o+8 <= len(dst) {
				// One 8-byte store. The bytes past the string are
				// overwritten by the next one before anything reads them.
				binary.LittleEndian.PutUint64(dst[o:o+8], e)
				o += int(e >> entLenBits)
				continue
			}
			o = emitSlow(dst, o, e)
		}
		if o == len(dst) {
			return nil
		}
		if code == lzwEOI {
			return s.short(o, len(dst))
		}
		shift = 64 - 9
	}
}

// readCode reads the code at bitpos, 64-shift bits wide, and returns it
// (-1 when src ends first) and the next code's position.
func readCode(src []byte, bitpos int, shift uint) (int, int) {
	width := 64 - int(shift)
	if bitpos+width > 8*len(src) {
		return -1, bitpos
	}
	var w uint64
	p := bitpos >> 3
	for i := range 8 {
		if p+i < len(src) {
			w |= uint64(src[p+i]) << (56 - 8*i)
		}
	}
	return int(w << (uint(bitpos) & 7) >> (shift & 63)), bitpos + width
}

// entryLen returns the length of an entry's string.
func entryLen(e uint64) int {
	if n := int(e >> entLenBits); n < entLong {
		return n
	}
	return int(e >> 8 & 0xffff)
}

// emitSlow writes e's string at dst[o:] when it is eight bytes or longer
// or dst ends within eight bytes, truncating at the end of dst, and
// returns the new output position.
func emitSlow(dst []byte, o int, e uint64) int {
	n := entryLen(e)
	if n < entLong {
		m := min(n, len(dst)-o)
		for i := range m {
			dst[o+i] = byte(e >> (8 * uint(i) & 63))
		}
		return o + m
	}
	st := int(e >> 24 & 0xffffffff)
	if o+n+8 <= len(dst) {
		// Word copy. The string was first written dist >= n bytes back,
		// or, for KwKwK, dist = n-1 >= 7 bytes back: then the words step
		// by dist, each getting its first dist bytes right.
		step := min(o-st, 8)
		for k := 0; k < n; k += step {
			binary.LittleEndian.PutUint64(dst[o+k:o+k+8:o+k+8], binary.LittleEndian.Uint64(dst[st+k:st+k+8:st+k+8]))
		}
		return o + n
	}
	m := min(n, len(dst)-o)
	for i := range m {
		dst[o+i] = dst[st+i]
	}
	return o + m
}

func (s *lzwState) short(o, want int) error {
	return FormatError(fmt.Sprintf("LZW: block decodes to %d bytes, want %d", o, want))
}
