package raster

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/raster/internal/codec/codectest"
	jpegdec "github.com/geodisaster/engine/raster/internal/codec/jpeg"
)

// fuzzSeeds adds small committed corpus files as seeds.
func fuzzSeeds(f *testing.F, max int) {
	files, _ := filepath.Glob(filepath.Join(compactCorpus, "*.tif"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err == nil && len(b) <= max {
			f.Add(b)
		}
	}
}

// FuzzOpen feeds arbitrary bytes to the TIFF/IFD parser and, when they
// parse, decodes a bounded window of every band: errors are fine, panics
// and unbounded allocations are not.
func FuzzOpen(f *testing.F) {
	fuzzSeeds(f, 12000)
	// The damaged files GDAL refuses (PlanarConfiguration 0 and 3, a block
	// at offset 0) and their repairable neighbours.
	for _, c := range damagedCases(f) {
		f.Add(c.file)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := OpenReaderAt(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			if !isTyped(err) {
				t.Fatalf("untyped error: %v", err)
			}
			return
		}
		w := Window{Width: min(d.Width(), 64), Height: min(d.Height(), 64)}
		bands := make([]int, min(d.Count(), 4))
		for i := range bands {
			bands[i] = i + 1
		}
		out, err := d.ReadBands(context.Background(), bands, w)
		// The same window with every block streamed (the path of blocks
		// over 16 MiB) must decode to the same samples.
		s, serr := OpenReaderAt(bytes.NewReader(b), int64(len(b)))
		if serr != nil {
			t.Fatalf("second open: %v", serr)
		}
		s.SetLimits(Limits{streamAbove: 1})
		sout, serr := s.ReadBands(context.Background(), bands, w)
		if serr != nil && !isTyped(serr) {
			t.Fatalf("untyped streamed error: %v", serr)
		}
		if err != nil {
			return
		}
		for i, o := range out {
			if o.Validate() != nil {
				t.Fatal("invalid band returned")
			}
			if serr == nil && !bytes.Equal(o.Bytes(), sout[i].Bytes()) {
				t.Fatalf("band %d: streamed decode differs", bands[i])
			}
		}
		_, _ = computeBandStatistics(out[0], 16, 16, nil)
	})
}

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
		err := c.decompress(comps[int(sel)%len(comps)], src, dst)
		if err != nil && !isTyped(err) {
			t.Fatalf("untyped error: %v", err)
		}
	})
}

// FuzzJPEG feeds arbitrary streams to the libjpeg-compatible decoder and
// its pixel conversion: typed errors only, bounded frame size.
func FuzzJPEG(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(compactCorpus, "jpeg_*.tif"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		d, err := OpenReaderAt(bytes.NewReader(b), int64(len(b)))
		if err != nil || len(d.offsets) == 0 {
			continue
		}
		raw := b[d.offsets[0] : d.offsets[0]+d.counts[0]]
		if len(d.jpegTables) > 4 {
			raw = append(append([]byte(nil), d.jpegTables[:len(d.jpegTables)-2]...), raw[2:]...)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		jd, err := jpegdec.Decode(b, 256, 256)
		if err != nil {
			if !jpegdec.IsUnsupported(err) && !isTyped(err) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		w, h := jd.Size()
		nc := jd.Components()
		out := make([]byte, w*h*nc)
		jd.ToPixels(out, w*nc, w, h, nc == 3)
	})
}
