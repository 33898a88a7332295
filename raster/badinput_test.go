package raster

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/raster/geotiff"

	"github.com/klauspost/compress/zstd"

	"github.com/geodisaster/engine/raster/internal/codec/codectest"
)

// craftTIFF builds a little-endian classic TIFF: header, then data at
// offset 8, then an IFD of the given entries (sorted by the caller).
func craftTIFF(entries []geotiff.Entry, data []byte) []byte {
	ifdOff := uint64(8 + len(data))
	if ifdOff%2 == 1 {
		data = append(data, 0)
		ifdOff++
	}
	out := []byte{'I', 'I', 42, 0}
	out = binary.LittleEndian.AppendUint32(out, uint32(ifdOff))
	out = append(out, data...)
	return append(out, geotiff.EncodeIFD(entries, ifdOff, false)...)
}

// tiledEntries returns the entries of a one-band tiled image whose tiles
// start at offsets with the given byte counts.
func tiledEntries(w, h, tile uint32, bps uint16, comp uint16, offsets, counts []uint32) []geotiff.Entry {
	long := longsEntry
	return []geotiff.Entry{
		geotiff.LongEntry(geotiff.TagImageWidth, w), geotiff.LongEntry(geotiff.TagImageLength, h),
		geotiff.ShortsEntry(geotiff.TagBitsPerSample, bps), geotiff.ShortsEntry(geotiff.TagCompression, comp),
		geotiff.ShortsEntry(geotiff.TagPhotometric, 1),
		geotiff.LongEntry(geotiff.TagTileWidth, tile), geotiff.LongEntry(geotiff.TagTileLength, tile),
		long(geotiff.TagTileOffsets, offsets), long(geotiff.TagTileByteCounts, counts),
	}
}

// longsEntry returns a LONG entry of little-endian values.
func longsEntry(tag uint16, v []uint32) geotiff.Entry {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return geotiff.Entry{Tag: tag, Type: geotiff.TypeLong, Count: uint64(len(v)), Data: b}
}

func openBytes(b []byte) (*Dataset, error) { return OpenReaderAt(bytes.NewReader(b), int64(len(b))) }

// isTyped reports whether err is a FormatError or UnsupportedError.
func isTyped(err error) bool {
	var fe FormatError
	var ue UnsupportedError
	return errors.As(err, &fe) || errors.As(err, &ue)
}

func wantFormatError(t *testing.T, err error, substr string) {
	t.Helper()
	var fe FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("want FormatError containing %q, got %v", substr, err)
	}
	if !strings.Contains(err.Error(), substr) {
		t.Errorf("error %q does not mention %q", err, substr)
	}
}

func TestBadHeaders(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("II"), []byte("GIF89a.."), []byte("II\x2b\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"),
		[]byte("MM\x00\x2a\x00\x00\x00\x08"), []byte("II*\x00\xff\xff\xff\x00")} {
		_, err := openBytes(b)
		if err == nil || !isTyped(err) {
			t.Errorf("%q: got %v, want a FormatError", b, err)
		}
	}
}

func TestAbsurdDimensions(t *testing.T) {
	b := craftTIFF(tiledEntries(1<<30, 16, 16, 8, 1, []uint32{8}, []uint32{256}), make([]byte, 256))
	_, err := openBytes(b)
	wantFormatError(t, err, "out of range")
	// 2^24 x 2^24 pixels in 16x16 tiles is 2^40 tiles.
	b = craftTIFF(tiledEntries(1<<24, 1<<24, 16, 8, 1, []uint32{8}, []uint32{256}), make([]byte, 256))
	_, err = openBytes(b)
	wantFormatError(t, err, "blocks")
	// Fewer offsets than tiles.
	b = craftTIFF(tiledEntries(64, 64, 16, 8, 1, []uint32{8}, []uint32{256}), make([]byte, 256))
	_, err = openBytes(b)
	wantFormatError(t, err, "offsets")
	// A tile of 2^20 x 2^20 bytes opens (as GDAL opens it): it is
	// streamed, and its 256 stored bytes are short of its first 16 rows.
	b = craftTIFF(tiledEntries(16, 16, 1<<20, 8, 1, []uint32{8}, []uint32{256}), make([]byte, 256))
	d, err := openBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.ReadBand(context.Background(), 1)
	wantFormatError(t, err, "decodes to 256 bytes")
	// Its 1 MiB rows exceed a lowered MaxBlockBytes: a limit, not corruption.
	d.SetLimits(Limits{MaxBlockBytes: 1 << 16})
	_, err = d.ReadBand(context.Background(), 1)
	var le *LimitError
	var ue UnsupportedError
	if !errors.As(err, &le) || !errors.As(err, &ue) || le.Field != "MaxBlockBytes" || !strings.Contains(err.Error(), "raise Limits.MaxBlockBytes") {
		t.Errorf("lowered limit: %v", err)
	}
}

func TestOffsetsPastEOF(t *testing.T) {
	b := craftTIFF(tiledEntries(16, 16, 16, 8, 1, []uint32{1 << 20}, []uint32{256}), make([]byte, 256))
	d, err := openBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.ReadBand(context.Background(), 1)
	wantFormatError(t, err, "past the end")
	// A tag value past the end fails at Open.
	es := tiledEntries(16, 16, 16, 8, 1, []uint32{8, 8, 8, 8}, []uint32{256, 256, 256, 256})
	b = craftTIFF(es, make([]byte, 256))
	_, err = openBytes(b[:len(b)-30])
	if err == nil || !isTyped(err) {
		t.Errorf("truncated IFD: %v", err)
	}
}

func TestDecompressionBombs(t *testing.T) {
	huge := make([]byte, 16<<20)
	var z bytes.Buffer
	zw, _ := zstd.NewWriter(&z)
	zw.Write(huge)
	zw.Close()
	for _, c := range []struct {
		name string
		comp uint16
		data []byte
	}{
		{"deflate", geotiff.CompressionDeflate, codectest.ZlibCompress(t, huge, 9)},
		{"zstd", geotiff.CompressionZSTD, z.Bytes()},
	} {
		b := craftTIFF(tiledEntries(16, 16, 16, 8, c.comp, []uint32{8}, []uint32{uint32(len(c.data))}), c.data)
		d, err := openBytes(b)
		if err != nil {
			t.Fatal(err)
		}
		band, err := d.ReadBand(context.Background(), 1)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !bytes.Equal(band.Bytes(), make([]byte, 256)) {
			t.Errorf("%s: wrong pixels", c.name)
		}
	}
	// A block whose data ends early is an error.
	short := codectest.ZlibCompress(t, make([]byte, 100), 6)
	b := craftTIFF(tiledEntries(16, 16, 16, 8, geotiff.CompressionDeflate, []uint32{8}, []uint32{uint32(len(short))}), short)
	d, _ := openBytes(b)
	_, err := d.ReadBand(context.Background(), 1)
	wantFormatError(t, err, "want 256")
}

func TestUnsupported(t *testing.T) {
	for _, comp := range []uint16{2, 34712, geotiff.CompressionLERC, geotiff.CompressionOJPEG, 9999} {
		b := craftTIFF(tiledEntries(16, 16, 16, 8, comp, []uint32{8}, []uint32{256}), make([]byte, 256))
		_, err := openBytes(b)
		var ue UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "compression") {
			t.Errorf("compression %d: got %v, want UnsupportedError", comp, err)
		}
	}
	// Complex samples.
	es := append(tiledEntries(16, 16, 16, 32, 1, []uint32{8}, []uint32{1024}), geotiff.ShortsEntry(geotiff.TagSampleFormat, 6))
	_, err := openBytes(craftTIFF(es, make([]byte, 1024)))
	var ue UnsupportedError
	if !errors.As(err, &ue) {
		t.Errorf("complex samples: %v", err)
	}
}

func TestUnknownTagsAndLoops(t *testing.T) {
	es := tiledEntries(16, 16, 16, 8, 1, []uint32{8}, []uint32{256})
	es = append(es, geotiff.Entry{Tag: 60000, Type: 99, Count: 1, Data: []byte{1, 2, 3, 4}}, geotiff.Entry{Tag: 60001, Type: geotiff.TypeASCII, Count: 3, Data: []byte("hi\x00")})
	b := craftTIFF(es, make([]byte, 256))
	// Point the next-IFD offset at the IFD itself.
	ifdOff := binary.LittleEndian.Uint32(b[4:])
	n := int(binary.LittleEndian.Uint16(b[ifdOff:]))
	binary.LittleEndian.PutUint32(b[int(ifdOff)+2+12*n:], ifdOff)
	d, err := openBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.ReadBand(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
}

func TestSparseFill(t *testing.T) {
	es := tiledEntries(20, 16, 16, 8, 1, []uint32{0, 8}, []uint32{0, 256})
	es = append(es, geotiff.ASCIIEntry(geotiff.TagGDALNoData, "7"))
	data := bytes.Repeat([]byte{3}, 256)
	d, err := openBytes(craftTIFF(es, data))
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.ReadBand(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	px := b.Data.([]uint8)
	if px[0] != 7 || px[16] != 3 || px[20*15+19] != 3 {
		t.Errorf("sparse tile not filled with nodata: %v %v %v", px[0], px[16], px[20*15+19])
	}
}

// TestTruncatedCorpus cuts committed corpus files at many lengths: every
// cut must give a typed error or valid data, never a panic.
func TestTruncatedCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(compactCorpus, "*.tif"))
	if len(files) == 0 {
		t.Skipf("corpus absent: %s", compactCorpus)
	}
	for i, f := range files {
		if i%4 != 0 && !strings.Contains(f, "jpeg") && !strings.Contains(f, "webp") && !strings.Contains(f, "lzma") {
			continue
		}
		full, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{0, 7, 8, 15, 16, 100, len(full) / 3, len(full) / 2, len(full) - 100, len(full) - 1} {
			if n < 0 || n > len(full) {
				continue
			}
			d, err := openBytes(full[:n])
			if err != nil {
				if !isTyped(err) {
					t.Errorf("%s cut at %d: untyped error %v", filepath.Base(f), n, err)
				}
				continue
			}
			if _, err := d.ReadAll(context.Background()); err != nil && !isTyped(err) {
				t.Errorf("%s cut at %d: untyped error %v", filepath.Base(f), n, err)
			}
		}
	}
}
