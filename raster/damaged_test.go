package raster

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/geodisaster/engine/raster/geotiff"

	"github.com/geodisaster/engine/raster/internal/codec/codectest"
)

// A damagedCase is a crafted file and what GDAL 3.6 does with it.
type damagedCase struct {
	name string
	file []byte
	// openErr and readErr are the substrings of the FormatError Open or
	// ReadBand must return ("" for success).
	openErr, readErr string
	// pixels is the band GDAL reads when both succeed (nil: not checked).
	pixels []byte
	// gdal is what GDAL does: "open" (refuses to open), "read" (opens,
	// fails to read), "pixels" (reads pixels equal to ours), "header"
	// (reads the TIFF header bytes as pixels, which we refuse).
	gdal string
}

// stripEntries returns the entries of a w x h one-band 8-bit image in
// strips of rps rows at the given offsets and byte counts.
func stripEntries(w, h, rps uint32, comp uint16, offsets, counts []uint32) []geotiff.Entry {
	return []geotiff.Entry{
		geotiff.LongEntry(geotiff.TagImageWidth, w), geotiff.LongEntry(geotiff.TagImageLength, h),
		geotiff.ShortsEntry(geotiff.TagBitsPerSample, 8), geotiff.ShortsEntry(geotiff.TagCompression, comp),
		geotiff.ShortsEntry(geotiff.TagPhotometric, 1), longsEntry(geotiff.TagStripOffsets, offsets),
		geotiff.LongEntry(geotiff.TagRowsPerStrip, rps), longsEntry(geotiff.TagStripByteCounts, counts),
	}
}

// withEntry inserts e into es in tag order.
func withEntry(es []geotiff.Entry, e geotiff.Entry) []geotiff.Entry {
	out := append(append([]geotiff.Entry(nil), es...), e)
	sort.Slice(out, func(i, j int) bool { return out[i].Tag < out[j].Tag })
	return out
}

// damagedCases are the damaged files of issue 22 (GDAL refuses them) and
// neighbours GDAL reads, each as GDAL 3.6.2 treats it.
func damagedCases(t testing.TB) []damagedCase {
	px := make([]byte, 256)
	for i := range px {
		px[i] = byte(i*7 + 1)
	}
	z := codectest.ZlibCompress(t, px, 6)
	strip := func(comp uint16, data []byte, off, cnt uint32) []byte {
		return craftTIFF(stripEntries(16, 16, 16, comp, []uint32{off}, []uint32{cnt}), data)
	}
	planar := func(pc uint16) []byte {
		return craftTIFF(withEntry(stripEntries(16, 16, 16, 1, []uint32{8}, []uint32{256}), geotiff.ShortsEntry(geotiff.TagPlanarConfig, pc)), px)
	}
	return []damagedCase{
		{name: "planar0", file: planar(0), openErr: "PlanarConfiguration 0", gdal: "open"},
		{name: "planar3", file: planar(3), openErr: "PlanarConfiguration 3", gdal: "open"},
		{name: "planar2_one_band", file: planar(2), pixels: px, gdal: "pixels"},
		{name: "offset0_deflate_strip", file: strip(geotiff.CompressionDeflate, z, 0, uint32(len(z))), readErr: "offset 0", gdal: "read"},
		{name: "offset0_deflate_tile", file: craftTIFF(tiledEntries(16, 16, 16, 8, geotiff.CompressionDeflate, []uint32{0}, []uint32{uint32(len(z))}), z), readErr: "offset 0", gdal: "read"},
		{name: "offset0_none_strip", file: strip(1, px, 0, 256), readErr: "offset 0", gdal: "header"},
		{name: "offset0_count0_strip", file: strip(1, px, 0, 0), pixels: make([]byte, 256), gdal: "pixels"},
		{name: "count0_none_strip", file: strip(1, px, 8, 0), pixels: px, gdal: "pixels"},
		{name: "short_count_none_strip", file: strip(1, px, 8, 100), pixels: px, gdal: "pixels"},
		{name: "count0_deflate_strip", file: strip(geotiff.CompressionDeflate, z, 8, 0), pixels: px, gdal: "pixels"},
		{name: "count0_tile", file: craftTIFF(tiledEntries(16, 16, 16, 8, 1, []uint32{8}, []uint32{0}), px), pixels: make([]byte, 256), gdal: "pixels"},
	}
}

// TestDamagedFiles requires each damaged file to be refused with a typed
// FormatError naming the reason, and the neighbouring repairable files to
// decode as GDAL decodes them.
func TestDamagedFiles(t *testing.T) {
	for _, c := range damagedCases(t) {
		t.Run(c.name, func(t *testing.T) {
			d, err := openBytes(c.file)
			if c.openErr != "" {
				wantFormatError(t, err, c.openErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := d.ReadBand(context.Background(), 1)
			if c.readErr != "" {
				wantFormatError(t, err, c.readErr)
				// Statistics read the same blocks.
				_, err = d.Statistics(context.Background(), 1)
				wantFormatError(t, err, c.readErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.pixels != nil && !bytes.Equal(b.Bytes(), c.pixels) {
				t.Errorf("pixels %v, want %v", b.Bytes()[:8], c.pixels[:8])
			}
		})
	}
}

// TestDamagedFilesByGDAL runs GDAL itself on the damaged files and
// requires it to do what damagedCases says.
func TestDamagedFilesByGDAL(t *testing.T) {
	requireGDALPython(t)
	dir := t.TempDir()
	cases := damagedCases(t)
	var paths []string
	for _, c := range cases {
		p := filepath.Join(dir, c.name+".tif")
		if err := os.WriteFile(p, c.file, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	out := runGDALPython(t, `
import sys, json
from osgeo import gdal
gdal.UseExceptions()
gdal.PushErrorHandler("CPLQuietErrorHandler")
res = []
for p in sys.argv[1:]:
    try:
        ds = gdal.Open(p)
    except RuntimeError as e:
        res.append({"open": str(e)})
        continue
    try:
        a = ds.GetRasterBand(1).ReadRaster()
        res.append({"pixels": list(bytearray(a))})
    except RuntimeError as e:
        res.append({"read": str(e)})
print(json.dumps(res))
`, paths...)
	var got []struct {
		Open   string `json:"open"`
		Read   string `json:"read"`
		Pixels []byte `json:"pixels"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		g := got[i]
		switch c.gdal {
		case "open":
			if g.Open == "" {
				t.Errorf("%s: GDAL opens it", c.name)
			}
		case "read":
			if g.Open != "" || g.Read == "" {
				t.Errorf("%s: GDAL open %q read %q, want a read error", c.name, g.Open, g.Read)
			}
		case "pixels":
			if g.Open != "" || g.Read != "" || !bytes.Equal(g.Pixels, c.pixels) {
				t.Errorf("%s: GDAL open %q read %q pixels %v, want %v", c.name, g.Open, g.Read, g.Pixels, c.pixels[:8])
			}
		case "header":
			if len(g.Pixels) < 4 || !bytes.Equal(g.Pixels[:4], c.file[:4]) {
				t.Errorf("%s: GDAL reads %v, expected the header bytes", c.name, g.Pixels)
			}
		}
	}
}
