package raster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/geodisaster/engine/crs"
)

// sharedData is the real-data folder shared by the project's sessions.
const sharedData = "../../shared/data"

// realFile is what GDAL 3.6.2 reports for one file of ../shared/data
// (band SHA-256 of ReadAsArray().tobytes(), little-endian).
type realFile struct {
	path      string
	w, h      int
	dtype     DataType
	epsg      int
	gt        crs.Affine
	nodata    float64
	hasNoData bool
	desc1     string
	sha       []string
}

var realFiles = []realFile{
	{"rasterio/RGB.byte.tif", 791, 718, Uint8, 32618,
		crs.Affine{300.0379266750948, 0, 101985, 0, -300.041782729805, 2826915}, 0, true, "",
		[]string{"a17a2785a0ecc3756ef5b25c8adef12d7960f249304476b2b3373a40a9f1211e",
			"8fcd55b2ea0fc8b06408db09f0992ed1263f60eb32b44507f4dbf7ad6d8cc3cc",
			"6d0e37e529ac14dd1ee81860b87748d6cbfc4ebfc2d373c353ae418cf00187df"}},
	{"rasterio/shade.tif", 1024, 1024, Uint8, 3857,
		crs.Affine{9.5546285343, 0, -11858134.818413004, 0, -9.5546285343, 4813698.2926443005}, 255, true, "",
		[]string{"b5b454b3564c65733634d7d06b65b1e5534ade66e0c4b3b567f81ce8c148ca35"}},
	{"rasterio/world.byte.tif", 2880, 1200, Uint8, 4326,
		crs.Affine{0.125, 0, -180, 0, -0.125, 75}, 0, false, "",
		[]string{"9627a22016a41f5ac6c0b65bb80ee101c9302d1ce2f913092127c938631e556b"}},
	{"sen1floods11/Spain_7370579/LabelHand.tif", 512, 512, Int16, 4326,
		crs.Affine{8.983152841195184e-05, 0, -0.7818936232976315, 0, -8.983152841195184e-05, 38.12881257139627}, 0, false, "",
		[]string{"5391e05d257a769ed7e5f1bd2701adea3b9c052db8a9649b58df3b3f955110f7"}},
	{"sen1floods11/Spain_7370579/S1Hand.tif", 512, 512, Float32, 4326,
		crs.Affine{8.983152841195215e-05, 0, -0.7818936232976315, 0, -8.983152841195215e-05, 38.12881257139627}, math.NaN(), true, "VV",
		[]string{"aa76623fa89253587310bf727f95e008effd49f506e33fc9ac92bd49a4ab9f77",
			"e9c314b5ce5c34882d32b4492c3615741c165b6ff5b7c185abb0684e98d8e778"}},
	{"sen1floods11/Spain_7370579/S2Hand.tif", 512, 512, Int16, 4326,
		crs.Affine{8.983152841195215e-05, 0, -0.7818936232976315, 0, -8.983152841195215e-05, 38.12881257139627}, 0, true, "B1",
		[]string{"eca347a490242ecf74da119e69a446a3b386f1642596e8973eb18d9a3692826a",
			"24121e16ac0841126c1e5a34fb22c872719d6c65950f71ba1f724de1363239b3",
			"27a41ead05e93f77c195ced8e491bfd1c1bdae385e4f4a616f00caad5c97f841",
			"c3c68960a58006abe82e2ea8fc778a90011e23e78e8e884b98e068fe68dc5eed",
			"86bc3e1c5e7b76448130cb38c19f5137dd2c5ef811573337f13d4d9cf428bfab",
			"13185a70b2234fc507338dc0419bb63557817bdb525a81a5a4f0c863547b3f01",
			"8587ebe424957bad780343cd9d72d69716614f3d15859c2487c1792cefb009a4",
			"9f1db8e1b3e543046857022f5db391dbaf07fd9f2a933a6d5bcc71a66cea5785",
			"678099a6c5bcccafb99297047a78675b4f3921e0c38b5fc57981080283d553e9",
			"421d29c335584d0fe64e95e9ae0d5d82a87bc66682a9234b2f0a9ab25f0031c8",
			"0c13e276b08f428b0b35375c1ff66cccdf2b9e6ff686f03e3e55c1dff67cb48a",
			"cb2897ee105265a0bd4d1dfd6db470e70f483fbfe1f29ec1dde226ef9f0c4802",
			"b713fcbe24503c713cd1356292653e66829ae25c75e6945065b1ae30e26aa34d"}},
}

// requireData skips the test when the shared corpus is absent.
func requireData(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(sharedData, rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus absent: %s", p)
	}
	return p
}

// bandSHA256 returns the hex SHA-256 of a band's samples, little-endian.
func bandSHA256(b *Band) string {
	h := sha256.Sum256(LittleEndianBytes(b))
	return hex.EncodeToString(h[:])
}

func sameFloat(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

// TestRealFiles checks every file of ../shared/data against GDAL's pixels,
// size, type, transform, EPSG, nodata and band description.
func TestRealFiles(t *testing.T) {
	for _, rf := range realFiles {
		t.Run(filepath.Base(rf.path), func(t *testing.T) {
			p := requireData(t, rf.path)
			d, err := Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if d.Width() != rf.w || d.Height() != rf.h || d.DataType() != rf.dtype || d.Count() != len(rf.sha) {
				t.Fatalf("got %dx%d x%d %v, want %dx%d x%d %v", d.Width(), d.Height(), d.Count(), d.DataType(), rf.w, rf.h, len(rf.sha), rf.dtype)
			}
			if d.EPSG() != rf.epsg {
				t.Errorf("EPSG %d, want %d", d.EPSG(), rf.epsg)
			}
			if gt, ok := d.Transform(); !ok || gt != rf.gt {
				t.Errorf("transform %v (%v), want %v", gt, ok, rf.gt)
			}
			if nd, ok := d.NoData(); ok != rf.hasNoData || (ok && !sameFloat(nd, rf.nodata)) {
				t.Errorf("nodata %v (%v), want %v (%v)", nd, ok, rf.nodata, rf.hasNoData)
			}
			if got := d.BandDescription(1); got != rf.desc1 {
				t.Errorf("band 1 description %q, want %q", got, rf.desc1)
			}
			for i, want := range rf.sha {
				b, err := d.ReadBand(context.Background(), i+1)
				if err != nil {
					t.Fatalf("band %d: %v", i+1, err)
				}
				if got := bandSHA256(b); got != want {
					t.Errorf("band %d sha256 %s, want %s", i+1, got, want)
				}
			}
		})
	}
}
