package sen1flood

import (
	"encoding/binary"
	"hash/crc32"

	"github.com/geodisaster/engine/internal/adler32"
)

// sen1PNG lays out a PNG of h scanlines of w 8-bit RGB pixels (each a
// filter byte 0 followed by the row's samples) whose single IDAT is a zlib
// stream of stored DEFLATE blocks: the SAR backscatter is speckle noise
// that DEFLATE barely shrinks (~45% at best speed for 5-10x the encoding
// time). The whole file is sized up front; scanline bytes are copied to
// their place between the block headers with put, in any order, and
// finish writes the checksums. The bytes depend only on the pixels.
type sen1PNG struct {
	out    []byte
	data   int // offset of the first stored block header
	idat   int // offset of the IDAT chunk type
	rawLen int
}

const sen1MaxStored = 65535

// newSen1PNG lays out the PNG in buf (reallocated when too small).
func newSen1PNG(buf []byte, w, h int) *sen1PNG {
	rawLen := h * (1 + 3*w)
	blocks := max(1, (rawLen+sen1MaxStored-1)/sen1MaxStored)
	zlen := 2 + rawLen + 5*blocks + 4
	size := 8 + (12 + 13) + (12 + zlen) + 12
	if cap(buf) < size {
		buf = make([]byte, 0, size)
	}
	out := append(buf[:0], "\x89PNG\r\n\x1a\n"...)
	out = binary.BigEndian.AppendUint32(out, 13)
	s := len(out)
	out = append(out, "IHDR"...)
	out = binary.BigEndian.AppendUint32(out, uint32(w))
	out = binary.BigEndian.AppendUint32(out, uint32(h))
	out = append(out, 8, 2, 0, 0, 0) // 8-bit truecolour, no interlace
	out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[s:]))
	out = binary.BigEndian.AppendUint32(out, uint32(zlen))
	p := &sen1PNG{idat: len(out), rawLen: rawLen}
	out = append(out, "IDAT"...)
	out = append(out, 0x78, 0x01) // zlib: DEFLATE, 32 KiB window, no dictionary
	p.data = len(out)
	out = out[:size]
	for b, off := 0, 0; b < blocks; b++ {
		n := min(sen1MaxStored, rawLen-off)
		final := byte(0)
		if b == blocks-1 {
			final = 1
		}
		hd := p.data + b*(sen1MaxStored+5)
		out[hd], out[hd+1], out[hd+2], out[hd+3], out[hd+4] = final, byte(n), byte(n>>8), ^byte(n), ^byte(n>>8)
		off += n
	}
	p.out = out
	return p
}

// fileOffset returns the offset in the file of raw scanline offset off
// (0 <= off <= rawLen): the bytes before it are final once the scanlines
// before off are put.
func (p *sen1PNG) fileOffset(off int) int {
	return p.data + 5*(min(off, max(p.rawLen-1, 0))/sen1MaxStored+1) + off
}

// put copies scanline bytes b to raw offset off.
func (p *sen1PNG) put(off int, b []byte) {
	for len(b) > 0 {
		blk := off / sen1MaxStored
		n := min(len(b), (blk+1)*sen1MaxStored-off)
		copy(p.out[p.data+5*(blk+1)+off:], b[:n])
		off, b = off+n, b[n:]
	}
}

// finish writes the zlib trailer (adler is the Adler-32 of the raw
// scanlines), the IDAT CRC and IEND, and returns the file.
func (p *sen1PNG) finish(adler uint32) []byte {
	end := p.data + p.rawLen + 5*max(1, (p.rawLen+sen1MaxStored-1)/sen1MaxStored)
	binary.BigEndian.PutUint32(p.out[end:], adler)
	end += 4
	binary.BigEndian.PutUint32(p.out[end:], crc32.ChecksumIEEE(p.out[p.idat:end]))
	end += 4
	binary.BigEndian.PutUint32(p.out[end:], 0)
	copy(p.out[end+4:], "IEND\xae\x42\x60\x82")
	return p.out
}

// sen1EncodePNG encodes h scanlines raw of w RGB pixels as a stored-block
// PNG (see sen1PNG).
func sen1EncodePNG(raw []byte, w, h int) []byte {
	p := newSen1PNG(nil, w, h)
	p.put(0, raw)
	return p.finish(adler32.Checksum(raw))
}

// adler32Combine returns the Adler-32 of the concatenation A||B from
// a = Adler-32(A), b = Adler-32(B) and len(B) (zlib's adler32_combine).
func adler32Combine(a, b uint32, lenB int) uint32 {
	const base = 65521
	rem := uint32(lenB % base)
	sum1 := a & 0xffff
	sum2 := uint32(uint64(rem) * uint64(sum1) % base)
	sum1 += (b & 0xffff) + base - 1
	sum2 += (a >> 16) + (b >> 16) + base - rem
	if sum1 >= base {
		sum1 -= base
	}
	if sum1 >= base {
		sum1 -= base
	}
	if sum2 >= base<<1 {
		sum2 -= base << 1
	}
	if sum2 >= base {
		sum2 -= base
	}
	return sum1 | sum2<<16
}
