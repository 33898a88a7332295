package deflate

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/geodisaster/engine/internal/adler32"
)

// A whole-buffer DEFLATE (RFC 1951) decoder. TIFF blocks have a known
// decoded size, so the output buffer doubles as the LZ77 window: matches
// copy within dst and nothing is buffered or copied twice. Decoding stops
// as soon as dst is full (as libtiff stops calling inflate), so trailing
// or hostile extra data costs nothing.

// Huffman table entry layout (uint32), one lookup per code:
//
//	bits 0-5   bits to consume: code length plus the extra bits of a
//	           length or distance (the primary width for subtable links;
//	           both codes' lengths for a literal pair)
//	bit  6     literal pair: a second literal follows in bits 24-31
//	bits 8-11  code length (subtable width for links); extra bits start here
//	bit  12    literal (the byte in bits 16-23)
//	bit  13    link to a subtable (with entExc)
//	bit  14    end of block (with entExc)
//	bit  15    exceptional: link, end of block or invalid code
//	bits 16-30 length or distance base, or subtable offset
//
// A length or distance entry has neither flag, so the hot loop decodes it
// as base + (bits >> codeLen) & mask(consume - codeLen) after one lookup.
// Primary litlen entries whose code is followed, within the primary width,
// by a complete code for another literal decode both (common with skewed
// literal statistics: a 2-bit code next to 7-9-bit codes).
const (
	entPair    = 1 << 6
	entLiteral = 1 << 12
	entExc     = 1 << 15
	entEOB     = 1 << 14
	entLink    = 1 << 13

	litlenBits = 11
	distBits   = 8
	// Worst-case table sizes (primary table plus subtables), from zlib's
	// enough program for 286/30 symbols with these primary widths (2342
	// and 402), rounded up to powers of two (with room to spare for
	// incomplete codes) so masked indexes need no bounds checks.
	litlenTableSize = 1 << 12
	distTableSize   = 1 << 10
)

var lengthBase = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
var lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
var distBase = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
var distExtra = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}

// codeLenOrder is the order of code length code lengths in a dynamic block.
var codeLenOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// inflater holds reusable decoding tables; it is not safe for concurrent use.
type inflater struct {
	litlen   [litlenTableSize]uint32
	dist     [distTableSize]uint32
	codelen  [1 << 7]uint32
	lens     [288 + 32]uint8
	fixedLit [litlenTableSize]uint32
	fixedDst [distTableSize]uint32
	haveFix  bool
}

// inflateZlib decodes a zlib stream (RFC 1950) into exactly len(dst) bytes.
// The Adler-32 trailer is verified when the stream ends within dst.
func (f *inflater) inflateZlib(src, dst []byte) error {
	if len(src) < 2 {
		return FormatError("DEFLATE: truncated zlib header")
	}
	cmf, flg := src[0], src[1]
	if cmf&0x0f != 8 || (uint16(cmf)<<8|uint16(flg))%31 != 0 {
		return FormatError("DEFLATE: bad zlib header")
	}
	if flg&0x20 != 0 {
		return FormatError("DEFLATE: zlib preset dictionary not supported")
	}
	end, done, err := f.inflate(src[2:], dst)
	if err != nil {
		return err
	}
	if done {
		p := 2 + end
		if p+4 <= len(src) {
			if binary.BigEndian.Uint32(src[p:]) != adler32.Checksum(dst) {
				return FormatError("DEFLATE: Adler-32 checksum mismatch")
			}
		}
	}
	return nil
}

// bitReader is the decoder's input state, kept in locals by the hot loop.
type bitReader struct {
	src    []byte
	pos    int    // next byte of src to load
	buf    uint64 // bits not yet consumed, LSB first
	n      uint   // number of valid bits in buf
	excess int    // zero bytes appended past the end of src
}

// refill tops buf up to at least 56 bits (zero padding past the end).
func (r *bitReader) refill() {
	if r.pos+8 <= len(r.src) {
		r.buf |= binary.LittleEndian.Uint64(r.src[r.pos:]) << r.n
		k := (63 - r.n) >> 3
		r.pos += int(k)
		r.n += k * 8
		return
	}
	for r.n < 56 {
		var b byte
		if r.pos < len(r.src) {
			b = r.src[r.pos]
			r.pos++
		} else {
			r.excess++
		}
		r.buf |= uint64(b) << r.n
		r.n += 8
	}
}

// overrun reports whether more bits were consumed than src holds.
func (r *bitReader) overrun() bool {
	return r.excess > 0 && int(r.n/8) < r.excess
}

// bits consumes and returns n bits (n <= 32, after a refill).
func (r *bitReader) bits(n uint) uint32 {
	if r.n < n {
		r.refill()
	}
	v := uint32(r.buf & (1<<n - 1))
	r.buf >>= n
	r.n -= n
	return v
}

// inflate decodes raw DEFLATE data from src into dst. It returns the
// number of src bytes consumed (meaningful when done) and whether the
// final block ended; it stops without error once dst is full.
func (f *inflater) inflate(src, dst []byte) (int, bool, error) {
	r := bitReader{src: src}
	o := 0
	for {
		r.refill()
		final := r.bits(1)
		typ := r.bits(2)
		var err error
		switch typ {
		case 0:
			// Stored block: skip to a byte boundary.
			r.bits(r.n & 7)
			if r.overrun() {
				return 0, false, FormatError("DEFLATE: truncated stream")
			}
			// Return whole unconsumed bytes to the input.
			r.pos -= int(r.n/8) - r.excess
			r.buf, r.n, r.excess = 0, 0, 0
			if r.pos+4 > len(src) {
				return 0, false, FormatError("DEFLATE: truncated stored block")
			}
			ln := int(binary.LittleEndian.Uint16(src[r.pos:]))
			nln := int(binary.LittleEndian.Uint16(src[r.pos+2:]))
			if ln != ^nln&0xffff {
				return 0, false, FormatError("DEFLATE: stored block length check failed")
			}
			r.pos += 4
			if r.pos+ln > len(src) {
				// Copy what there is; the output check reports it.
				n := copy(dst[o:], src[r.pos:])
				o += n
				if o == len(dst) {
					return 0, false, nil
				}
				return 0, false, FormatError("DEFLATE: truncated stored block")
			}
			n := copy(dst[o:], src[r.pos:r.pos+ln])
			o += n
			r.pos += ln
			if n < ln {
				return 0, false, nil
			}
		case 1:
			f.buildFixed()
			var full bool
			o, full, err = f.decodeBlock(&r, dst, o, &f.fixedLit, &f.fixedDst)
			if err == nil && full {
				return 0, false, nil
			}
		case 2:
			if err = f.readDynamic(&r); err != nil {
				return 0, false, err
			}
			var full bool
			o, full, err = f.decodeBlock(&r, dst, o, &f.litlen, &f.dist)
			if err == nil && full {
				return 0, false, nil
			}
		default:
			return 0, false, FormatError("DEFLATE: invalid block type 3")
		}
		if err != nil {
			return 0, false, err
		}
		if r.overrun() {
			return 0, false, FormatError("DEFLATE: truncated stream")
		}
		if final == 1 {
			if o < len(dst) {
				return 0, false, FormatError(fmt.Sprintf("DEFLATE: block decodes to %d bytes, want %d", o, len(dst)))
			}
			r.bits(r.n & 7)
			return r.pos - int(r.n/8) + r.excess, true, nil
		}
	}
}

// buildFixed builds the fixed Huffman tables once.
func (f *inflater) buildFixed() {
	if f.haveFix {
		return
	}
	var l [288 + 32]uint8
	for i := 0; i < 144; i++ {
		l[i] = 8
	}
	for i := 144; i < 256; i++ {
		l[i] = 9
	}
	for i := 256; i < 280; i++ {
		l[i] = 7
	}
	for i := 280; i < 288; i++ {
		l[i] = 8
	}
	for i := 288; i < 288+30; i++ {
		l[i] = 5
	}
	buildTable(f.fixedLit[:], l[:288], litlenBits, true)
	buildTable(f.fixedDst[:], l[288:288+30], distBits, false)
	f.haveFix = true
}

// readDynamic reads a dynamic block's code lengths and builds its tables.
func (f *inflater) readDynamic(r *bitReader) error {
	r.refill()
	hlit := int(r.bits(5)) + 257
	hdist := int(r.bits(5)) + 1
	hclen := int(r.bits(4)) + 4
	if hlit > 286 || hdist > 30 {
		return FormatError("DEFLATE: too many length or distance codes")
	}
	var cl [19]uint8
	for i := 0; i < hclen; i++ {
		cl[codeLenOrder[i]] = uint8(r.bits(3))
	}
	if !buildCodeLenTable(f.codelen[:], cl[:]) {
		return FormatError("DEFLATE: bad code length code")
	}
	lens := f.lens[:hlit+hdist]
	for i := 0; i < len(lens); {
		if r.n < 16 {
			r.refill()
		}
		e := f.codelen[r.buf&(1<<7-1)]
		if e&entExc != 0 {
			return FormatError("DEFLATE: bad code length")
		}
		r.buf >>= e & 63
		r.n -= uint(e & 63)
		sym := (e >> 16) & 31
		switch {
		case sym < 16:
			lens[i] = uint8(sym)
			i++
			continue
		case sym == 16:
			if i == 0 {
				return FormatError("DEFLATE: repeat with no previous length")
			}
			n := 3 + int(r.bits(2))
			if i+n > len(lens) {
				return FormatError("DEFLATE: code lengths overflow")
			}
			prev := lens[i-1]
			for k := 0; k < n; k++ {
				lens[i+k] = prev
			}
			i += n
		default:
			var n int
			if sym == 17 {
				n = 3 + int(r.bits(3))
			} else {
				n = 11 + int(r.bits(7))
			}
			if i+n > len(lens) {
				return FormatError("DEFLATE: code lengths overflow")
			}
			for k := 0; k < n; k++ {
				lens[i+k] = 0
			}
			i += n
		}
	}
	if r.overrun() {
		return FormatError("DEFLATE: truncated stream")
	}
	if lens[256] == 0 {
		return FormatError("DEFLATE: no end-of-block code")
	}
	if !buildTable(f.litlen[:], lens[:hlit], litlenBits, true) {
		return FormatError("DEFLATE: bad literal/length code")
	}
	if !buildTable(f.dist[:], lens[hlit:], distBits, false) {
		return FormatError("DEFLATE: bad distance code")
	}
	return nil
}

// buildCodeLenTable builds the 7-bit table of the code length code.
func buildCodeLenTable(t []uint32, lens []uint8) bool {
	var syms [19]uint32
	for i := range syms {
		syms[i] = uint32(i) << 16
	}
	return fillTable(t, lens, 7, syms[:])
}

// litSyms and distSyms are the symbols' flags and values as fillTable
// takes them (computed once: fixed by RFC 1951).
var litSyms, distSyms = func() (l [288]uint32, d [32]uint32) {
	for i := range l {
		switch {
		case i < 256:
			l[i] = entLiteral | uint32(i)<<16
		case i == 256:
			l[i] = entExc | entEOB
		case i-257 < 29:
			l[i] = uint32(lengthBase[i-257])<<16 | uint32(lengthExtra[i-257])
		default:
			l[i] = entExc
		}
	}
	for i := range d {
		d[i] = entExc
		if i < 30 {
			d[i] = uint32(distBase[i])<<16 | uint32(distExtra[i])
		}
	}
	return l, d
}()

// buildTable builds a literal/length (lit) or distance table.
func buildTable(t []uint32, lens []uint8, primary uint, lit bool) bool {
	syms := distSyms[:]
	if lit {
		syms = litSyms[:]
	}
	if !fillTable(t, lens, primary, syms[:len(lens)]) {
		return false
	}
	if lit {
		// No pair fits when the shortest literal code is longer than
		// half the primary width (near-uniform literals, as in noisy
		// rasters): skip the pass over the table.
		shortest := uint(16)
		for _, l := range lens[:min(len(lens), 256)] {
			if l != 0 {
				shortest = min(shortest, uint(l))
			}
		}
		if 2*shortest <= primary {
			pairLiterals(t[:1<<primary])
		}
	}
	return true
}

// pairLiterals merges primary entries of a literal followed by another
// literal whose code fits in the remaining bits of the index into one
// entry for both. Entries are visited from the top down so that i>>l (the
// index of the second code, < i for i > 0) still holds a single symbol.
func pairLiterals(t []uint32) {
	for i := len(t) - 1; i >= 0; i-- {
		e := t[i]
		if e&entLiteral == 0 {
			continue
		}
		l1 := e & 63
		e2 := t[(i>>l1)&(len(t)-1)]
		if e2&entLiteral == 0 || e2&entPair != 0 || l1+e2&63 > uint32(bits.Len(uint(len(t)-1))) {
			continue
		}
		t[i] = e + e2&63 | entPair | (e2>>16&0xff)<<24
	}
}

// fillTable builds a canonical Huffman decoding table from code lengths:
// codes up to primary bits resolve in one lookup, longer ones through a
// link to a subtable. syms holds each symbol's flags and value with its
// extra-bit count in bits 0-5; the code length is added here. Unused
// entries are marked invalid. It returns false for over-subscribed codes
// or tables that do not fit t. Incomplete codes are accepted (zlib accepts
// a single distance code); the missing codes decode as invalid.
func fillTable(t []uint32, lens []uint8, primary uint, syms []uint32) bool {
	var count [16]int
	for _, l := range lens {
		count[l&15]++
	}
	count[0] = 0
	left := 1
	for l := 1; l < 16; l++ {
		left = left<<1 - count[l]
		if left < 0 {
			return false
		}
	}
	// Symbols in canonical order: by length, then by symbol.
	var offs [16]int
	for l := 1; l < 15; l++ {
		offs[l+1] = offs[l] + count[l]
	}
	var sorted [320]uint16
	for s, l := range lens {
		if l != 0 {
			sorted[offs[l]] = uint16(s)
			offs[l]++
		}
	}
	remaining := count
	maxLen := uint(0)
	for l := uint(1); l < 16; l++ {
		if count[l] > 0 {
			maxLen = l
		}
	}
	size := 1 << primary
	// A complete code writes every primary entry (a code or a subtable
	// link); only an incomplete one leaves some to mark invalid.
	if left != 0 {
		inv := uint32(entExc) | uint32(primary)
		for i := range t[:size] {
			t[i] = inv
		}
	}
	end := size     // next free subtable slot
	code := 0       // current canonical code
	curPrefix := -1 // primary prefix of the open subtable
	var sub uint
	var base int
	k := 0
	for l := uint(1); l < 16; l++ {
		for c := 0; c < count[l]; c++ {
			s := sorted[k]
			k++
			rev := bits.Reverse32(uint32(code)) >> (32 - l)
			code++
			remaining[l]--
			if l <= primary {
				e := syms[s] + uint32(l)<<8 + uint32(l)
				for i := int(rev); i < size; i += 1 << l {
					t[i] = e
				}
				continue
			}
			pi := int(rev & (1<<primary - 1))
			if pi != curPrefix {
				// Open a subtable sized for the codes that share this
				// prefix: grow it while the remaining codes overfill it.
				sub = l - primary
				room := 1 << sub
				for sub+primary < maxLen {
					room -= remaining[sub+primary] + b2i(sub+primary == l)
					if room <= 0 {
						break
					}
					sub++
					room <<= 1
				}
				base = end
				if base+(1<<sub) > len(t) {
					return false
				}
				for i := 0; i < 1<<sub; i++ {
					t[base+i] = entExc | uint32(sub)
				}
				end += 1 << sub
				t[pi] = uint32(base)<<16 | entExc | entLink | uint32(sub)<<8 | uint32(primary)
				curPrefix = pi
			}
			if l-primary > sub {
				return false
			}
			e := syms[s] + uint32(l-primary)<<8 + uint32(l-primary)
			for i := int(rev >> primary); i < 1<<sub; i += 1 << (l - primary) {
				t[base+i] = e
			}
		}
		code <<= 1
	}
	return true
}

// Fast-loop margins. Each iteration of the fast loop starts with at least
// inMargin input bytes left (two unconditional 8-byte refills, each
// advancing at most 7 bytes) and outMargin bytes of room in dst (five
// literal pairs or four and a 258-byte match, plus the up to 15 bytes a
// word-wise match copy writes past its end).
const (
	inMargin  = 16
	outMargin = 10 + 258 + 16
)

// decodeBlock decodes one Huffman-coded block into dst starting at o,
// returning the new output position and whether it stopped because dst is
// full and more output was coming (rather than at the end of the block).
//
// The fast loop runs while there are at least inMargin bytes of input and
// outMargin bytes of output left: it refills the 64-bit bit buffer with one
// unaligned load (at least 56 valid bits: bits above n are the next input
// bytes, so topping up again ORs identical bits) and decodes up to five
// literals, or a length and distance, per refill without any end checks.
// The careful loop finishes the block one symbol at a time, padding the
// input with zeros and reporting truncation and a full dst.
func (f *inflater) decodeBlock(r *bitReader, dst []byte, o int, lt *[litlenTableSize]uint32, dt *[distTableSize]uint32) (int, bool, error) {
	src := r.src
	pos, buf, n := r.pos, r.buf, r.n
	const lmask = 1<<litlenBits - 1
	const dmask = 1<<distBits - 1
	inEnd := len(src) - inMargin
	outEnd := len(dst) - outMargin
	// Every fast-loop store lies below o+outMargin <= len(dst) (o <= outEnd
	// at the top of each iteration) and every load at or above
	// o-dist >= 0 (checked); the slices keep their bounds checks anyway,
	// so a mistake here is a panic the reader recovers, never a write
	// outside dst.
	out := dst
	for pos <= inEnd && o <= outEnd {
		buf |= binary.LittleEndian.Uint64(src[pos:]) << (n & 63)
		pos += int((63 - n) >> 3)
		n |= 56
		e := lt[buf&lmask]
		if e&entLiteral != 0 {
			// Up to five primary literal entries (one or two literals,
			// at most litlenBits bits each): 5*11 bits <= 56. Both bytes
			// of an entry are stored; a single's second byte is
			// overwritten by what follows.
			buf >>= e & 63
			n -= uint(e & 63)
			binary.LittleEndian.PutUint16(at2(out, o), uint16(e>>16))
			o += 1 + int(e>>6&1)
			e = lt[buf&lmask]
			if e&entLiteral == 0 {
				goto refill
			}
			buf >>= e & 63
			n -= uint(e & 63)
			binary.LittleEndian.PutUint16(at2(out, o), uint16(e>>16))
			o += 1 + int(e>>6&1)
			e = lt[buf&lmask]
			if e&entLiteral == 0 {
				goto refill
			}
			buf >>= e & 63
			n -= uint(e & 63)
			binary.LittleEndian.PutUint16(at2(out, o), uint16(e>>16))
			o += 1 + int(e>>6&1)
			e = lt[buf&lmask]
			if e&entLiteral == 0 {
				goto refill
			}
			buf >>= e & 63
			n -= uint(e & 63)
			binary.LittleEndian.PutUint16(at2(out, o), uint16(e>>16))
			o += 1 + int(e>>6&1)
			e = lt[buf&lmask]
			if e&entLiteral == 0 {
				goto refill
			}
			buf >>= e & 63
			n -= uint(e & 63)
			binary.LittleEndian.PutUint16(at2(out, o), uint16(e>>16))
			o += 1 + int(e>>6&1)
			continue
		refill:
			// A length and distance need up to 48 bits; e stays valid as
			// the refill only adds bits above n.
			buf |= binary.LittleEndian.Uint64(src[pos:]) << (n & 63)
			pos += int((63 - n) >> 3)
			n |= 56
		}
		if e&entExc != 0 {
			if e&entLink != 0 {
				buf >>= litlenBits
				n -= litlenBits
				e = lt[(e>>16+uint32(buf)&(1<<((e>>8)&15)-1))&(litlenTableSize-1)]
				if e&entLiteral != 0 {
					buf >>= e & 63
					n -= uint(e & 63)
					at2(out, o)[0] = byte(e >> 16)
					o++
					continue
				}
			}
			if e&entExc != 0 {
				if e&entEOB != 0 {
					buf >>= e & 63
					n -= uint(e & 63)
					r.pos, r.buf, r.n = pos, buf, n
					return o, false, nil
				}
				r.pos, r.buf, r.n = pos, buf, n
				return o, false, FormatError("DEFLATE: invalid literal/length code")
			}
		}
		saved := buf
		buf >>= e & 63
		n -= uint(e & 63)
		length := int(e>>16) + int((saved&(1<<(e&63)-1))>>((e>>8)&15))
		d := dt[buf&dmask]
		if d&entExc != 0 {
			if d&entLink != 0 {
				buf >>= distBits
				n -= distBits
				d = dt[(d>>16+uint32(buf)&(1<<((d>>8)&15)-1))&(distTableSize-1)]
			}
			if d&entExc != 0 {
				r.pos, r.buf, r.n = pos, buf, n
				return o, false, FormatError("DEFLATE: invalid distance code")
			}
		}
		saved = buf
		buf >>= d & 63
		n -= uint(d & 63)
		dist := int(d>>16) + int((saved&(1<<(d&63)-1))>>((d>>8)&15))
		if dist > o {
			r.pos, r.buf, r.n = pos, buf, n
			return o, false, FormatError("DEFLATE: distance too far back")
		}
		from := o - dist
		switch {
		case dist >= 8:
			// Each word read lies at least 8 bytes behind the write, so
			// it only sees finished output. Most matches are short: two
			// words before the loop.
			binary.LittleEndian.PutUint64(at8(out, o), binary.LittleEndian.Uint64(at8(out, from)))
			binary.LittleEndian.PutUint64(at8(out, o+8), binary.LittleEndian.Uint64(at8(out, from+8)))
			for k := 16; k < length; k += 8 {
				binary.LittleEndian.PutUint64(at8(out, o+k), binary.LittleEndian.Uint64(at8(out, from+k)))
			}
		case dist == 1:
			v := uint64(at2(out, from)[0]) * 0x0101010101010101
			binary.LittleEndian.PutUint64(at8(out, o), v)
			binary.LittleEndian.PutUint64(at8(out, o+8), v)
			for k := 16; k < length; k += 8 {
				binary.LittleEndian.PutUint64(at8(out, o+k), v)
			}
		default:
			// Short periods: each 8-byte store gets its first dist bytes
			// right; the next one, dist bytes on, overwrites the rest.
			for k := 0; k < length; k += dist {
				binary.LittleEndian.PutUint64(at8(out, o+k), binary.LittleEndian.Uint64(at8(out, from+k)))
			}
		}
		o += length
	}
	r.pos, r.buf, r.n = pos, buf, n
	return f.decodeBlockSlow(r, dst, o, lt, dt)
}

// decodeBlockSlow is decodeBlock's careful loop for the last bytes of
// input or output: one symbol per iteration, every end checked.
func (f *inflater) decodeBlockSlow(r *bitReader, dst []byte, o int, lt *[litlenTableSize]uint32, dt *[distTableSize]uint32) (int, bool, error) {
	const lmask = 1<<litlenBits - 1
	const dmask = 1<<distBits - 1
	for {
		// At least 56 bits: enough for a length code with its extra bits
		// and a distance code with its extra bits (15+5+15+13).
		if r.n < 48 {
			r.refill()
		}
		buf, n := r.buf, r.n
		e := lt[buf&lmask]
		if e&entLink != 0 {
			buf >>= litlenBits
			n -= litlenBits
			e = lt[(e>>16+uint32(buf)&(1<<((e>>8)&15)-1))&(litlenTableSize-1)]
		}
		if e&entLiteral != 0 {
			if o >= len(dst) {
				return o, true, nil
			}
			// One literal at a time, even from a pair entry.
			l := (e >> 8) & 15
			buf >>= l
			n -= uint(l)
			r.buf, r.n = buf, n
			if r.overrun() {
				return o, false, FormatError("DEFLATE: truncated stream")
			}
			dst[o] = byte(e >> 16)
			o++
			continue
		}
		if e&entExc != 0 {
			if e&entEOB != 0 {
				r.buf, r.n = buf>>(e&63), n-uint(e&63)
				return o, false, nil
			}
			return o, false, FormatError("DEFLATE: invalid literal/length code")
		}
		if o == len(dst) {
			return o, true, nil
		}
		saved := buf
		buf >>= e & 63
		n -= uint(e & 63)
		length := int(e>>16) + int((saved&(1<<(e&63)-1))>>((e>>8)&15))
		d := dt[buf&dmask]
		if d&entLink != 0 {
			buf >>= distBits
			n -= distBits
			d = dt[(d>>16+uint32(buf)&(1<<((d>>8)&15)-1))&(distTableSize-1)]
		}
		if d&entExc != 0 {
			return o, false, FormatError("DEFLATE: invalid distance code")
		}
		saved = buf
		buf >>= d & 63
		n -= uint(d & 63)
		dist := int(d>>16) + int((saved&(1<<(d&63)-1))>>((d>>8)&15))
		r.buf, r.n = buf, n
		if r.overrun() {
			return o, false, FormatError("DEFLATE: truncated stream")
		}
		if dist > o {
			return o, false, FormatError("DEFLATE: distance too far back")
		}
		full := false
		if rem := len(dst) - o; length > rem {
			length, full = rem, true
		}
		from := o - dist
		if dist >= length {
			copy(dst[o:o+length], dst[from:from+length])
		} else {
			s := dst[o : o+length]
			for i := range s {
				s[i] = dst[from+i]
			}
		}
		o += length
		if full {
			return o, true, nil
		}
	}
}

// at2 and at8 are the 2 or 8 bytes of b at i (bounds-checked).
func at2(b []byte, i int) []byte { return b[i : i+2 : i+2] }

func at8(b []byte, i int) []byte { return b[i : i+8 : i+8] }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
