package workers

import (
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
)

// sen1EncodePNG wraps h PNG scanlines of w 8-bit RGB pixels (each a filter
// byte 0 followed by the row's samples; the SAR backscatter is speckle
// noise that DEFLATE barely shrinks, ~45% at best speed for 5-10x the
// encoding time) into a PNG whose single IDAT is a zlib stream of stored
// DEFLATE blocks. The bytes depend only on the pixels.
func sen1EncodePNG(raw []byte, w, h int) []byte {
	const maxStored = 65535
	blocks := max(1, (len(raw)+maxStored-1)/maxStored)
	zlen := 2 + len(raw) + 5*blocks + 4
	out := make([]byte, 0, 8+(12+13)+(12+zlen)+12)
	out = append(out, "\x89PNG\r\n\x1a\n"...)
	chunk := func(typ string, data []byte) {
		out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
		s := len(out)
		out = append(out, typ...)
		out = append(out, data...)
		out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[s:]))
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 2 // 8-bit truecolour
	chunk("IHDR", ihdr)
	out = binary.BigEndian.AppendUint32(out, uint32(zlen))
	s := len(out)
	out = append(out, "IDAT"...)
	out = append(out, 0x78, 0x01) // zlib: DEFLATE, 32 KiB window, no dictionary
	for off := 0; ; {
		n := min(maxStored, len(raw)-off)
		final := byte(0)
		if off+n == len(raw) {
			final = 1
		}
		out = append(out, final, byte(n), byte(n>>8), ^byte(n), ^byte(n>>8))
		out = append(out, raw[off:off+n]...)
		if off += n; final == 1 {
			break
		}
	}
	out = binary.BigEndian.AppendUint32(out, adler32.Checksum(raw))
	out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[s:]))
	chunk("IEND", nil)
	return out
}
