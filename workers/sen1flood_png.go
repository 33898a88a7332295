package workers

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"

	"github.com/klauspost/compress/zlib"
)

// sen1EncodePNG encodes row-major 8-bit RGB pixels as a PNG: one IDAT
// chunk, every scanline with the Up filter (flat map areas compress to
// almost nothing), zlib at best speed. The bytes depend only on the pixels
// (and the pinned compressor version).
func sen1EncodePNG(rgb []byte, w, h int) ([]byte, error) {
	var idat bytes.Buffer
	zw, err := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	if err != nil {
		return nil, err
	}
	stride := 3 * w
	line := make([]byte, 1+stride)
	line[0] = 2 // Up
	for y := 0; y < h; y++ {
		cur := rgb[y*stride : (y+1)*stride]
		if y == 0 {
			copy(line[1:], cur)
		} else {
			prev := rgb[(y-1)*stride : y*stride]
			for i := range cur {
				line[1+i] = cur[i] - prev[i]
			}
		}
		if _, err := zw.Write(line); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(data)))
		out.Write(n[:])
		crc := crc32.NewIEEE()
		crc.Write([]byte(typ))
		crc.Write(data)
		out.WriteString(typ)
		out.Write(data)
		binary.BigEndian.PutUint32(n[:], crc.Sum32())
		out.Write(n[:])
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 2 // 8-bit truecolour
	chunk("IHDR", ihdr)
	chunk("IDAT", idat.Bytes())
	chunk("IEND", nil)
	return out.Bytes(), nil
}
