package geotiff

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
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

// FuzzReader feeds arbitrary bytes to the header, directory and image
// parser and, when they parse, decodes the first blocks through ReadBlock,
// ReadRows and ReadWindow, and parses the overviews and mask: errors must
// be typed, panics and unbounded allocations are failures. The seeds are
// the raster package's compact corpus.
func FuzzReader(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "conformance", "raster", "testdata", "*.tif"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && len(b) <= 12000 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			if !isTyped(err) {
				t.Fatalf("untyped header error: %v", err)
			}
			return
		}
		img, err := r.Image()
		if err != nil {
			if !isTyped(err) {
				t.Fatalf("untyped image error: %v", err)
			}
			return
		}
		check := func(what string, err error) {
			var le *LimitError
			if err != nil && !isTyped(err) && !errors.As(err, &le) {
				t.Fatalf("%s: untyped error: %v", what, err)
			}
		}
		br := img.NewBlockReader(Limits{MaxBlockBytes: 1 << 22})
		defer br.Close()
		// Whole blocks are read when small: a sparse block of a huge
		// image is valid and fills all its rows.
		bw, _ := img.BlockSize()
		if n := bw * img.BlockRows(0) * img.BlockSamples(); n <= 1<<20 {
			check("ReadBlock", readBlockAny(br, img.DataType(), n))
			check("ReadRows", br.ReadRows(0, 0, 0, 1, func([]byte, Window) {}))
		}
		w := Window{Width: min(img.Width(), 32), Height: min(img.Height(), 32)}
		out := make([]byte, w.Width*w.Height*img.DataType().Size())
		check("ReadWindow", br.ReadWindow(0, 0, 0, []int{1}, w, [][]byte{out}))
		for i := 0; i < img.OverviewCount(); i++ {
			_, err := img.Overview(i)
			check("Overview", err)
		}
		if img.HasMask() {
			_, err := img.Mask()
			check("Mask", err)
		}
	})
}

// readBlockAny reads block 0 into a slice of n samples of type t.
func readBlockAny(br *BlockReader, t DataType, n int) error {
	switch t {
	case Uint8:
		return ReadBlock(br, 0, 0, 0, make([]uint8, n))
	case Int8:
		return ReadBlock(br, 0, 0, 0, make([]int8, n))
	case Uint16:
		return ReadBlock(br, 0, 0, 0, make([]uint16, n))
	case Int16:
		return ReadBlock(br, 0, 0, 0, make([]int16, n))
	case Uint32:
		return ReadBlock(br, 0, 0, 0, make([]uint32, n))
	case Int32:
		return ReadBlock(br, 0, 0, 0, make([]int32, n))
	case Float32:
		return ReadBlock(br, 0, 0, 0, make([]float32, n))
	}
	return ReadBlock(br, 0, 0, 0, make([]float64, n))
}
