package overlay

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"io"
	"sync"
)

// EncodeRGBPNG encodes an opaque image as an 8-bit RGB PNG (colour type
// 2, no interlace). The output depends only on the pixels and the Go
// version's compress/flate: IHDR, one IDAT and IEND, no timestamps or
// ancillary chunks. Every row uses filter type 0 (None) and the stream is
// compressed at flate.BestSpeed: about ten times faster than image/png's
// per-row filter search at default compression (route overlays: ~10 ms
// instead of ~110 ms of CPU), for files about a third larger.
func EncodeRGBPNG(img *image.RGBA) ([]byte, error) {
	b := img.Rect
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("raster: EncodeRGBPNG: empty image %v", b)
	}
	stride := 1 + 3*w
	raw := make([]byte, h*stride)
	for y := 0; y < h; y++ {
		src := img.Pix[y*img.Stride : y*img.Stride+4*w]
		row := raw[y*stride : (y+1)*stride]
		row[0] = pngFilterNone
		for x, o := 0, 1; x < w; x, o = x+1, o+3 {
			p := src[4*x : 4*x+4 : 4*x+4]
			if p[3] != 255 {
				return nil, fmt.Errorf("raster: EncodeRGBPNG: pixel (%d,%d) is not opaque", b.Min.X+x, b.Min.Y+y)
			}
			row[o], row[o+1], row[o+2] = p[0], p[1], p[2]
		}
	}
	var idat bytes.Buffer
	idat.Grow(len(raw)/4 + 64)
	zw := pngZlibPool.Get().(*zlib.Writer)
	zw.Reset(&idat)
	_, err := zw.Write(raw)
	if err == nil {
		err = zw.Close()
	}
	pngZlibPool.Put(zw)
	if err != nil {
		return nil, fmt.Errorf("raster: EncodeRGBPNG: %w", err)
	}
	out := make([]byte, 0, 8+25+12+idat.Len()+12)
	out = append(out, "\x89PNG\r\n\x1a\n"...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 2 // bit depth 8, colour type RGB; compression, filter, interlace 0
	out = appendPNGChunk(out, "IHDR", ihdr[:])
	out = appendPNGChunk(out, "IDAT", idat.Bytes())
	out = appendPNGChunk(out, "IEND", nil)
	return out, nil
}

// pngFilterNone is PNG filter type 0 (None).
const pngFilterNone = 0

// pngZlibPool reuses BestSpeed zlib writers (Reset gives the same output
// as a fresh writer).
var pngZlibPool = sync.Pool{New: func() any {
	zw, _ := zlib.NewWriterLevel(io.Discard, zlib.BestSpeed)
	return zw
}}

// appendPNGChunk appends one PNG chunk: length, type, data, CRC-32 of type
// and data.
func appendPNGChunk(out []byte, typ string, data []byte) []byte {
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	start := len(out)
	out = append(out, typ...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start:]))
}
