package raster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/crs"
)

// encodeTIFF encodes bands with write (Write or WriteCOG) and opts and
// returns the file. A failure fails tb.
func encodeTIFF(tb testing.TB, write func(io.Writer, []*Band, WriteOptions) error, bands []*Band, opts WriteOptions) []byte {
	tb.Helper()
	var buf bytes.Buffer
	if err := write(&buf, bands, opts); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// openTIFF encodes bands as a GeoTIFF with opts and opens the file from
// memory. A failure fails tb.
func openTIFF(tb testing.TB, write func(io.Writer, []*Band, WriteOptions) error, bands []*Band, opts WriteOptions) *Dataset {
	tb.Helper()
	d, err := openBytes(encodeTIFF(tb, write, bands, opts))
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// testBand returns a deterministic band of type t with a mix of values.
func testBand(t *testing.T, w, h int, typ DataType, seed int) *Band {
	t.Helper()
	b, err := NewBand(w, h, typ)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < w*h; i++ {
		v := float64((i*7919+seed*104729)%1000) - 300 + float64(i%w)*0.25
		switch s := b.Data.(type) {
		case []uint8:
			s[i] = uint8(int(v) & 0xff)
		case []int8:
			s[i] = int8(int(v) & 0x7f)
		case []uint16:
			s[i] = uint16(int(v) & 0xffff)
		case []int16:
			s[i] = int16(v)
		case []uint32:
			s[i] = uint32(int64(v) & 0xffffffff)
		case []int32:
			s[i] = int32(v) * 1000
		case []float32:
			s[i] = float32(v) / 3
			if i%97 == 0 {
				s[i] = float32(math.NaN())
			}
		case []float64:
			s[i] = v / 7
		}
	}
	return b
}

func TestWriteRoundTrip(t *testing.T) {
	nd := -9999.0
	tr := crs.Affine{10, 0, 500000, 0, -10, 4200000}
	for _, typ := range []DataType{Uint8, Int8, Uint16, Int16, Uint32, Int32, Float32, Float64} {
		for _, comp := range []string{"none", "deflate", "zstd"} {
			for _, pred := range []int{1, 2, 3} {
				if pred == 3 && !typ.IsFloat() {
					continue
				}
				bands := []*Band{testBand(t, 83, 47, typ, 1), testBand(t, 83, 47, typ, 2)}
				opts := WriteOptions{Compression: comp, Predictor: pred, TileSize: 32, NoData: &nd, EPSG: 32633,
					Transform: tr, BandDescriptions: []string{"a<&>", "b"}}
				var buf bytes.Buffer
				if err := Write(&buf, bands, opts); err != nil {
					t.Fatalf("%v %s p%d: %v", typ, comp, pred, err)
				}
				var again bytes.Buffer
				if err := Write(&again, bands, opts); err != nil || !bytes.Equal(buf.Bytes(), again.Bytes()) {
					t.Fatalf("%v %s p%d: output not deterministic (%v)", typ, comp, pred, err)
				}
				d, err := OpenReaderAt(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
				if err != nil {
					t.Fatalf("%v %s p%d: %v", typ, comp, pred, err)
				}
				got, err := d.ReadAll(context.Background())
				if err != nil {
					t.Fatalf("%v %s p%d: %v", typ, comp, pred, err)
				}
				for i := range bands {
					if !bytes.Equal(got[i].Bytes(), bands[i].Bytes()) || got[i].Type != typ {
						t.Errorf("%v %s p%d: band %d differs after round trip", typ, comp, pred, i+1)
					}
				}
				g, _ := d.Transform()
				v, _ := d.NoData()
				if g != tr || d.EPSG() != 32633 || v != nd || d.BandDescription(1) != "a<&>" {
					t.Errorf("%v %s p%d: georef %v %d %v %q", typ, comp, pred, g, d.EPSG(), v, d.BandDescription(1))
				}
			}
		}
	}
}

func TestWriteErrors(t *testing.T) {
	b := testBand(t, 10, 10, Uint8, 1)
	var buf bytes.Buffer
	for _, o := range []WriteOptions{{Compression: "lzw"}, {TileSize: 17}, {Predictor: 3}, {Predictor: 5}, {EPSG: -1},
		{Transform: crs.Affine{1, 0, 0, 0, 0, 0}}} {
		if err := Write(&buf, []*Band{b}, o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
	if err := Write(&buf, nil, WriteOptions{}); err == nil {
		t.Error("no bands accepted")
	}
	if err := Write(&buf, []*Band{b, testBand(t, 10, 9, Uint8, 1)}, WriteOptions{}); err == nil {
		t.Error("bands of different sizes accepted")
	}
	if err := Write(&buf, []*Band{{Width: 2, Height: 2, Type: Uint8, Data: []uint8{1}}}, WriteOptions{}); err == nil {
		t.Error("short band accepted")
	}
}

// TestWritePinned pins the bytes of an uncompressed file so that layout
// changes are noticed.
func TestWritePinned(t *testing.T) {
	var buf bytes.Buffer
	nd := 0.0
	err := Write(&buf, []*Band{testBand(t, 20, 18, Int16, 3)}, WriteOptions{Compression: "none", TileSize: 16,
		NoData: &nd, EPSG: 4326, Transform: crs.Affine{0.5, 0, -10, 0, -0.5, 50}})
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(buf.Bytes())
	const want = "105aa8fe469ffc66e2b1b1ddd7a5802108548e740780ce1549818d57efa13a0c"
	if got := hex.EncodeToString(h[:]); got != want {
		t.Errorf("sha256 %s, want %s", got, want)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.tif")
	b := testBand(t, 40, 30, Float32, 1)
	if err := WriteFile(p, []*Band{b}, WriteOptions{Predictor: 3}); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
	d, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	got, err := d.ReadBand(context.Background(), 1)
	if err != nil || !bytes.Equal(got.Bytes(), b.Bytes()) {
		t.Errorf("read back: %v", err)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x.tif"), []*Band{b}, WriteOptions{}); err == nil {
		t.Error("write into a missing directory succeeded")
	}
}

// gdalPython is the interpreter with GDAL's Python bindings (Debian's).
const gdalPython = "/usr/bin/python3"

// TestWriteReadByGDAL checks that GDAL decodes what Write produces to the
// same samples, transform, EPSG, nodata and descriptions.
func TestWriteReadByGDAL(t *testing.T) {
	requireGDALPython(t)
	dir := t.TempDir()
	nd := -9999.0
	type want struct {
		SHA  []string
		GT   []float64
		EPSG int
		ND   string
		Desc string
	}
	wants := map[string]want{}
	var files []string
	i := 0
	for _, typ := range []DataType{Uint8, Int16, Uint16, Int32, Uint32, Float32, Float64} {
		for _, comp := range []string{"none", "deflate", "zstd"} {
			i++
			pred := 1 + i%2
			if typ.IsFloat() && i%3 == 0 {
				pred = 3
			}
			epsg := []int{4326, 32618, 3857}[i%3]
			tr := crs.Affine{0.25, 0, -70, 0, -0.25, 40}
			if i%4 == 0 {
				tr = crs.Affine{30, 2, 100000, 1, -30, 200000}
			}
			bands := []*Band{testBand(t, 70, 45, typ, i), testBand(t, 70, 45, typ, i+1)}
			p := filepath.Join(dir, typ.String()+"_"+comp+".tif")
			if err := WriteFile(p, bands, WriteOptions{Compression: comp, Predictor: pred, TileSize: 32, NoData: &nd,
				EPSG: epsg, Transform: tr, BandDescriptions: []string{"x & <y>"}}); err != nil {
				t.Fatal(err)
			}
			files = append(files, p)
			var w want
			for _, b := range bands {
				w.SHA = append(w.SHA, bandSHA256(b))
			}
			w.GT, w.EPSG, w.ND, w.Desc = tr[:], epsg, "-9999.0", "x & <y>"
			wants[p] = w
		}
	}
	script := `
import sys, json, hashlib
import numpy as np
from osgeo import gdal
gdal.UseExceptions()
out = {}
for p in sys.argv[1:]:
    ds = gdal.Open(p)
    gt = ds.GetGeoTransform()
    srs = ds.GetSpatialRef()
    out[p] = {"SHA": [hashlib.sha256(np.ascontiguousarray(ds.GetRasterBand(b).ReadAsArray()).astype('<' + ds.GetRasterBand(b).ReadAsArray().dtype.str[1:]).tobytes()).hexdigest() for b in range(1, ds.RasterCount + 1)],
              "GT": [gt[1], gt[2], gt[0], gt[4], gt[5], gt[3]],
              "EPSG": int(srs.GetAuthorityCode(None)) if srs is not None and srs.GetAuthorityCode(None) else 0,
              "ND": repr(ds.GetRasterBand(1).GetNoDataValue()),
              "Desc": ds.GetRasterBand(1).GetDescription()}
print(json.dumps(out))
`
	outb := runGDALPython(t, script, files...)
	var got map[string]want
	if err := json.Unmarshal(outb, &got); err != nil {
		t.Fatal(err)
	}
	for _, p := range files {
		g, w := got[p], wants[p]
		gj, _ := json.Marshal(g)
		wj, _ := json.Marshal(w)
		if string(gj) != string(wj) {
			t.Errorf("%s: GDAL reads %s\n want %s", filepath.Base(p), gj, wj)
		}
	}
}
