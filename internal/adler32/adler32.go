// Package adler32 computes the Adler-32 checksum of RFC 1950 (zlib) eight
// bytes per step, for the DEFLATE codecs of raster and the PNG writers of
// workers; it returns what hash/adler32 returns, several times faster.
package adler32

import "encoding/binary"

// adlerBlock is how many bytes Update adds up between reductions
// modulo 65521. With 64-bit sums the bound is loose: after a block s1 <
// 65521 + 255*adlerBlock (< 2^24) and s2 grows by less than adlerBlock
// times that (< 2^40), far from overflow.
const adlerBlock = 1 << 15

// Checksum returns the Adler-32 checksum of p, as hash/adler32.Checksum
// does.
func Checksum(p []byte) uint32 { return Update(1, p) }

// Update returns the Adler-32 checksum of the bytes whose checksum is adler
// followed by p (Update(Checksum(a), b) == Checksum(a||b)), 64 bytes per
// step. Within a step the even
// and odd bytes of each 8-byte word are added into 16-bit lanes (s: all
// bytes so far, ev: the even ones, ps: s before each word), none of which
// can carry into the next lane in 8 words; the step then adds
//
//	s1 += the lane sum of s
//	s2 += 64*s1 + 8*(lane sum of ps) + sum over the word positions of
//	      (8-k)*(the bytes at position k)
//
// the last term from ev (positions 0, 2, 4, 6 in lanes 0-3, weights 8, 6,
// 4, 2) and s-ev (positions 1, 3, 5, 7, weights 7, 5, 3, 1), each lane
// sum and weighted sum read from the top lane of one multiplication.
func Update(adler uint32, p []byte) uint32 {
	const (
		mod   = 65521
		lanes = 0x00ff00ff00ff00ff
		ones  = 0x0001000100010001
		wEven = 0x0008000600040002
		wOdd  = 0x0007000500030001
	)
	s1, s2 := uint64(adler&0xffff), uint64(adler>>16)
	for len(p) > 0 {
		blk := p[:min(len(p), adlerBlock)]
		p = p[len(blk):]
		i := 0
		for ; i+64 <= len(blk); i += 64 {
			c := blk[i : i+64]
			var w, e, o, s, ev, ps uint64
			w = binary.LittleEndian.Uint64(c[0:8])
			e, o = w&lanes, w>>8&lanes
			ps += s
			ev += e
			s += e + o
			w = binary.LittleEndian.Uint64(c[8:16])
			e, o = w&lanes, w>>8&lanes
			ps += s
			ev += e
			s += e + o
			w = binary.LittleEndian.Uint64(c[16:24])
			e, o = w&lanes, w>>8&lanes
			ps += s
			ev += e
			s += e + o
			w = binary.LittleEndian.Uint64(c[24:32])
			e, o = w&lanes, w>>8&lanes
			ps += s
			ev += e
			s += e + o
			w = binary.LittleEndian.Uint64(c[32:40])
			e, o = w&lanes, w>>8&lanes
			ps += s
			ev += e
			s += e + o
			w = binary.LittleEndian.Uint64(c[40:48])
			e, o = w&lanes, w>>8&lanes
			ps += s
			ev += e
			s += e + o
			w = binary.LittleEndian.Uint64(c[48:56])
			e, o = w&lanes, w>>8&lanes
			ps += s
			ev += e
			s += e + o
			w = binary.LittleEndian.Uint64(c[56:64])
			e, o = w&lanes, w>>8&lanes
			ps += s
			ev += e
			s += e + o
			s2 += 64*s1 + 8*(ps*ones>>48) + (ev*wEven)>>48 + ((s-ev)*wOdd)>>48
			s1 += s * ones >> 48
		}
		for _, b := range blk[i:] {
			s1 += uint64(b)
			s2 += s1
		}
		s1 %= mod
		s2 %= mod
	}
	return uint32(s2<<16 | s1)
}
