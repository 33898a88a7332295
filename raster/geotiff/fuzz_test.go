package geotiff

import (
	"errors"
	"math"
	"testing"

	"github.com/geodisaster/engine/raster/internal/codec/codectest"
)

// FuzzNoDataText parses arbitrary GDAL_NODATA texts: no panics, the same
// value twice, and a float32-representable value on float32 bands.
func FuzzNoDataText(f *testing.F) {
	for _, s := range []string{"-3.4e38", "nan", "1,5", "0x1p3", "1.#INF", " -1.#IND", "1e", "", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := parseGDALNoData(s, 64, 3)
		v2, ok2 := parseGDALNoData(s, 64, 3)
		if ok != ok2 || (v != v2 && !(math.IsNaN(v) && math.IsNaN(v2))) {
			t.Fatalf("%q: %v then %v", s, v, v2)
		}
		if f32, ok := parseGDALNoData(s, 32, 3); ok && !math.IsNaN(f32) && float64(float32(f32)) != f32 {
			t.Fatalf("%q: float32 nodata %v is not a float32", s, f32)
		}
	})
}

// FuzzDecompress runs every codec on arbitrary input into a fixed-size
// block: only typed errors, no panics, no output beyond the block.
func FuzzDecompress(f *testing.F) {
	f.Add(uint8(0), []byte{0x80, 0x01, 0x02})
	f.Add(uint8(1), []byte{0x80, 0x00, 0x80})
	f.Add(uint8(2), codectest.ZlibCompress(f, []byte("hello hello hello"), 6))
	f.Add(uint8(3), []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58, 0x11, 0x00, 0x00})
	f.Add(uint8(4), []byte{0xfd, '7', 'z', 'X', 'Z', 0, 0, 0, 0xff, 0x12, 0xd9, 0x41, 2, 0, 0x21, 1, 0, 0})
	comps := []int{CompressionPackBits, CompressionLZW, CompressionDeflate, CompressionZSTD, CompressionLZMA, CompressionNone}
	f.Fuzz(func(t *testing.T, sel uint8, src []byte) {
		var c codecState
		dst := make([]byte, 1000)
		err := c.decompress(codecs, comps[int(sel)%len(comps)], src, dst)
		if err != nil && !isTyped(err) {
			t.Fatalf("untyped error: %v", err)
		}
	})
}

func isTyped(err error) bool {
	var fe FormatError
	var ue UnsupportedError
	return errors.As(err, &fe) || errors.As(err, &ue)
}
