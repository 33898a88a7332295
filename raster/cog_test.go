package raster

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/crs"
)

func TestWriteCOG(t *testing.T) {
	nd := -1.0
	bands := []*Band{testBand(t, 700, 500, Int16, 1), testBand(t, 700, 500, Int16, 2)}
	opts := WriteOptions{Compression: "deflate", Predictor: 2, TileSize: 128, NoData: &nd, EPSG: 32618,
		Transform: crs.Affine{30, 0, 400000, 0, -30, 3000000}, BandDescriptions: []string{"a", "b"}}
	var buf, again bytes.Buffer
	if err := WriteCOG(&buf, bands, opts); err != nil {
		t.Fatal(err)
	}
	if err := WriteCOG(&again, bands, opts); err != nil || !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Fatalf("COG output not deterministic (%v)", err)
	}
	d, err := OpenReaderAt(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	got, err := d.ReadAll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := range bands {
		if !bytes.Equal(got[i].Bytes(), bands[i].Bytes()) {
			t.Errorf("band %d differs", i+1)
		}
	}
	// 700x500 in 128 tiles: overviews 350x250, 175x125, 88x63.
	if ov := d.Structure().Overviews; ov != 3 {
		t.Errorf("%d overviews, want 3", ov)
	}
	tr, _ := d.Transform()
	if d.EPSG() != 32618 || tr != opts.Transform || d.BandDescription(2) != "b" {
		t.Errorf("georef lost: %d %v %q", d.EPSG(), tr, d.BandDescription(2))
	}
	// cogger writes GDAL's ghost-area header for single-plane images.
	var one bytes.Buffer
	if err := WriteCOG(&one, bands[:1], opts); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(one.Bytes()[:512], []byte("LAYOUT=IFDS_BEFORE_DATA")) {
		t.Error("no GDAL ghost-area header")
	}
}

// TestWriteCOGValidatesWithGDAL runs GDAL's COG validator on our output.
func TestWriteCOGValidatesWithGDAL(t *testing.T) {
	if err := exec.Command(gdalPython, "-c", "import osgeo_utils.samples.validate_cloud_optimized_geotiff").Run(); err != nil {
		t.Skip("GDAL's validate_cloud_optimized_geotiff absent: " + gdalPython)
	}
	p := filepath.Join(t.TempDir(), "cog.tif")
	b := testBand(t, 1000, 900, Float32, 3)
	if err := WriteCOGFile(p, []*Band{b}, WriteOptions{Predictor: 3, TileSize: 256, EPSG: 4326,
		Transform: crs.Affine{0.001, 0, 10, 0, -0.001, 50}}); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(gdalPython, "-m", "osgeo_utils.samples.validate_cloud_optimized_geotiff", "--full-check=yes", p).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "is a valid cloud optimized GeoTIFF") {
		t.Errorf("GDAL validator: %v\n%s", err, out)
	}
}
