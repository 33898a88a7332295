package workers

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster"
)

// The real Sen1Floods11 chip Spain_7370579: S1Hand.tif and LabelHand.tif
// (../shared/data/sen1floods11/) as rasterio reports their transforms.
var (
	s1HandGrid = RasterInfo{Width: 512, Height: 512, EPSG: 4326, HasTransform: true,
		Transform: crs.Affine{8.983152841195215e-05, 0, -0.7818936232976315, 0, -8.983152841195215e-05, 38.12881257139627}}
	labelHandGrid = RasterInfo{Width: 512, Height: 512, EPSG: 4326, HasTransform: true,
		Transform: crs.Affine{8.983152841195184e-05, 0, -0.7818936232976315, 0, -8.983152841195184e-05, 38.12881257139627}}
)

const sen1Chip = "../../shared/data/sen1floods11/Spain_7370579/"

// gridOf reads a GeoTIFF's grid.
func gridOf(t *testing.T, path string) RasterInfo {
	t.Helper()
	d, err := raster.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	r := RasterInfo{Width: d.Width(), Height: d.Height(), EPSG: d.EPSG()}
	r.Transform, r.HasTransform = d.Transform()
	return r
}

func TestRealSen1GridsAreOneGrid(t *testing.T) {
	s1, label := s1HandGrid, labelHandGrid
	if _, err := os.Stat(sen1Chip + "LabelHand.tif"); err == nil {
		s1, label = gridOf(t, sen1Chip+"S1Hand.tif"), gridOf(t, sen1Chip+"LabelHand.tif")
		if describeGrid(s1) != describeGrid(s1HandGrid) || describeGrid(label) != describeGrid(labelHandGrid) {
			t.Fatalf("the real grids are %+v and %+v", s1, label)
		}
	} else {
		t.Logf("corpus absent: %s (using the transforms recorded from it)", sen1Chip)
	}
	if s1.Transform == label.Transform {
		t.Fatal("the real transforms are expected to differ by export noise")
	}
	d := GridDisplacement(s1, label)
	t.Logf("S1Hand vs LabelHand: pixel sizes differ by %g deg, far corner displaced by %.3g pixel", s1.Transform[0]-label.Transform[0], d)
	if d > 1e-11 {
		t.Errorf("displacement %g", d)
	}
	for _, pair := range [][2]RasterInfo{{s1, label}, {label, s1}} {
		if err := CheckSameGrid("S1Hand.tif", pair[0], "LabelHand.tif", pair[1]); err != nil {
			t.Error(err)
		}
	}
}

func TestGridMismatches(t *testing.T) {
	a := s1HandGrid
	px := a.Transform[0]
	with := func(f func(*RasterInfo)) RasterInfo {
		b := a
		f(&b)
		return b
	}
	cases := []struct {
		name string
		b    RasterInfo
		ok   bool
		why  string
	}{
		{"same", a, true, ""},
		{"origin off by 5e-7 pixel", with(func(b *RasterInfo) { b.Transform[2] += float64(5e-7 * px) }), true, ""},
		{"origin off by 2e-6 pixel", with(func(b *RasterInfo) { b.Transform[2] += float64(2e-6 * px) }), false, "pixel corner"},
		{"half a pixel", with(func(b *RasterInfo) { b.Transform[5] += float64(0.5 * px) }), false, "pixel corner 0.5 pixels apart"},
		// A relative pixel-size error e moves the far corner 512*e pixels.
		{"pixel size 1e-9 relative", with(func(b *RasterInfo) { b.Transform[0] *= 1 + 1e-9 }), true, ""},
		{"pixel size 1e-8 relative", with(func(b *RasterInfo) { b.Transform[4] *= 1 + 1e-8 }), false, "pixel corner"},
		{"rotation", with(func(b *RasterInfo) { b.Transform[1] = float64(1e-6 * px) }), false, "pixel corner"},
		{"shape", with(func(b *RasterInfo) { b.Width = 511 }), false, "shapes differ"},
		{"CRS", with(func(b *RasterInfo) { b.EPSG = 4269 }), false, "CRSs differ"},
		{"no transform", with(func(b *RasterInfo) { b.HasTransform = false }), false, "only one has a geotransform"},
	}
	for _, c := range cases {
		err := CheckSameGrid("a.tif", a, "b.tif", c.b)
		if c.ok != (err == nil) {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if err == nil {
			continue
		}
		var ge *GridMismatchError
		if !errors.As(err, &ge) || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s: %v", c.name, err)
		}
		// Both grids are printed in full.
		msg := err.Error()
		if !strings.Contains(msg, "a.tif (512x512, EPSG:4326, transform [8.983152841195215e-05 0 -0.7818936232976315 0 -8.983152841195215e-05 38.12881257139627])") ||
			!strings.Contains(msg, "b.tif ("+describeGrid(c.b)+")") {
			t.Errorf("%s: the error does not print both grids: %s", c.name, msg)
		}
	}
	bad := a
	bad.Transform = crs.Affine{0, 0, 0, 0, 0, 0}
	if err := CheckSameGrid("a", bad, "b", bad); err == nil {
		t.Error("a degenerate transform is on no grid")
	}
}
