package raster

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/raster/geotiff"

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
		if err != nil {
			continue
		}
		offsets, counts := storedBlocks(d)
		if len(offsets) == 0 || len(counts) == 0 {
			continue
		}
		raw := b[offsets[0] : offsets[0]+counts[0]]
		if tables := d.img.IFD().Bytes(geotiff.TagJPEGTables); len(tables) > 4 {
			raw = append(append([]byte(nil), tables[:len(tables)-2]...), raw[2:]...)
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
