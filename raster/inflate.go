package raster

import (
	"encoding/binary"
	"fmt"
	"hash/adler32"
)

// A whole-buffer DEFLATE (RFC 1951) decoder. TIFF blocks have a known
// decoded size, so the output buffer doubles as the LZ77 window: matches
// copy within dst and nothing is buffered or copied twice. Decoding stops
// as soon as dst is full (as libtiff stops calling inflate), so trailing
// or hostile extra data costs nothing.

// Huffman table entry layout (uint32):
//
//	bits 0-3   code length to consume (primary width for subtable links)
//	bits 4-7   extra bits to read after the code (subtable width for links)
//	bits 8-9   kind: literal, base+extra (length or distance), end of block, link
//	bit  10    invalid code
//	bits 16-31 literal, base value or subtable offset
const (
	kindLiteral = 0 << 8
	kindBase    = 1 << 8
	kindEOB     = 2 << 8
	kindLink    = 3 << 8
	kindMask    = 3 << 8
	entInvalid  = 1 << 10

	litlenBits = 10
	distBits   = 8
	// Worst-case table sizes (primary table plus subtables), from zlib's
	// enough program for 286/30 symbols with these primary widths, rounded up.
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
		if e&entInvalid != 0 {
			return FormatError("DEFLATE: bad code length")
		}
		r.buf >>= e & 15
		r.n -= uint(e & 15)
		sym := e >> 16
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
		syms[i] = uint32(i)<<16 | kindLiteral
	}
	return fillTable(t, lens, 7, syms[:])
}

// buildTable builds a literal/length (lit) or distance table.
func buildTable(t []uint32, lens []uint8, primary uint, lit bool) bool {
	var syms [288]uint32
	for i := range lens {
		switch {
		case lit && i < 256:
			syms[i] = uint32(i)<<16 | kindLiteral
		case lit && i == 256:
			syms[i] = kindEOB
		case lit && i-257 < 29:
			syms[i] = uint32(lengthBase[i-257])<<16 | kindBase | uint32(lengthExtra[i-257])<<4
		case !lit && i < 30:
			syms[i] = uint32(distBase[i])<<16 | kindBase | uint32(distExtra[i])<<4
		default:
			syms[i] = entInvalid
		}
	}
	return fillTable(t, lens, primary, syms[:len(lens)])
}

// fillTable builds a canonical Huffman decoding table from code lengths:
// codes up to primary bits resolve in one lookup, longer ones through a
// link to a subtable. Unused entries are marked invalid. It returns false
// for over-subscribed codes or tables that do not fit t. Incomplete codes
// are accepted (zlib accepts a single distance code); the missing codes
// decode as invalid.
func fillTable(t []uint32, lens []uint8, primary uint, syms []uint32) bool {
	var count [16]int
	for _, l := range lens {
		count[l]++
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
	for i := 0; i < size; i++ {
		t[i] = entInvalid | uint32(primary)
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
			rev := reverseBits(uint32(code), l)
			code++
			remaining[l]--
			if l <= primary {
				e := syms[s] | uint32(l)
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
					t[base+i] = entInvalid | uint32(sub)
				}
				end += 1 << sub
				t[pi] = uint32(base)<<16 | kindLink | uint32(sub)<<4 | uint32(primary)
				curPrefix = pi
			}
			if l-primary > sub {
				return false
			}
			e := syms[s] | uint32(l-primary)
			for i := int(rev >> primary); i < 1<<sub; i += 1 << (l - primary) {
				t[base+i] = e
			}
		}
		code <<= 1
	}
	return true
}

// reverseBits reverses the low n bits of v.
func reverseBits(v uint32, n uint) uint32 {
	var r uint32
	for i := uint(0); i < n; i++ {
		r = r<<1 | v&1
		v >>= 1
	}
	return r
}

// decodeBlock decodes one Huffman-coded block into dst starting at o,
// returning the new output position and whether it stopped because dst is
// full and more output was coming (rather than at the end of the block).
func (f *inflater) decodeBlock(r *bitReader, dst []byte, o int, lt *[litlenTableSize]uint32, dt *[distTableSize]uint32) (int, bool, error) {
	src := r.src
	pos, buf, n := r.pos, r.buf, r.n
	for {
		// Refill to at least 56 bits: enough for a length code with its
		// extra bits and a distance code with its extra bits (15+5+15+13).
		if n < 48 {
			if pos+8 <= len(src) {
				buf |= binary.LittleEndian.Uint64(src[pos:]) << n
				k := (63 - n) >> 3
				pos += int(k)
				n += k * 8
			} else {
				r.pos, r.buf, r.n = pos, buf, n
				r.refill()
				pos, buf, n = r.pos, r.buf, r.n
				if r.overrun() {
					return o, false, FormatError("DEFLATE: truncated stream")
				}
			}
		}
		e := lt[buf&(1<<litlenBits-1)]
		if e&(kindMask|entInvalid) == kindLiteral {
			// Literal fast path; after a refill there are bits for two.
			if o >= len(dst) {
				r.pos, r.buf, r.n = pos, buf, n
				return o, true, nil
			}
			dst[o] = byte(e >> 16)
			o++
			buf >>= e & 15
			n -= uint(e & 15)
			e = lt[buf&(1<<litlenBits-1)]
			if e&(kindMask|entInvalid) != kindLiteral || n < 15 {
				continue
			}
			if o >= len(dst) {
				r.pos, r.buf, r.n = pos, buf, n
				return o, true, nil
			}
			dst[o] = byte(e >> 16)
			o++
			buf >>= e & 15
			n -= uint(e & 15)
			continue
		}
		if e&kindMask == kindLink {
			buf >>= litlenBits
			n -= litlenBits
			e = lt[int(e>>16)+int(buf&(1<<((e>>4)&15)-1))]
		}
		if e&entInvalid != 0 {
			return o, false, FormatError("DEFLATE: invalid literal/length code")
		}
		if e&kindMask == kindEOB {
			buf >>= e & 15
			n -= uint(e & 15)
			r.pos, r.buf, r.n = pos, buf, n
			return o, false, nil
		}
		if o == len(dst) {
			r.pos, r.buf, r.n = pos, buf, n
			return o, true, nil
		}
		buf >>= e & 15
		n -= uint(e & 15)
		if e&kindMask == kindLiteral {
			dst[o] = byte(e >> 16)
			o++
			continue
		}
		xb := uint(e>>4) & 15
		length := int(e>>16) + int(buf&(1<<xb-1))
		buf >>= xb
		n -= xb
		d := dt[buf&(1<<distBits-1)]
		if d&kindMask == kindLink {
			buf >>= distBits
			n -= distBits
			d = dt[int(d>>16)+int(buf&(1<<((d>>4)&15)-1))]
		}
		if d&entInvalid != 0 {
			return o, false, FormatError("DEFLATE: invalid distance code")
		}
		buf >>= d & 15
		n -= uint(d & 15)
		xb = uint(d>>4) & 15
		dist := int(d>>16) + int(buf&(1<<xb-1))
		buf >>= xb
		n -= xb
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
		} else if dist == 1 {
			b := dst[from]
			s := dst[o : o+length]
			for i := range s {
				s[i] = b
			}
		} else {
			for i := 0; i < length; i++ {
				dst[o+i] = dst[from+i]
			}
		}
		o += length
		if full {
			r.pos, r.buf, r.n = pos, buf, n
			return o, true, nil
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
