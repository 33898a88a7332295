package raster

import (
	"bytes"
	"context"
	"math"
	"testing"
)

func TestOverviewsOfACOG(t *testing.T) {
	band := testBand(t, 1000, 600, Uint8, 9)
	d := openTIFF(t, WriteCOG, []*Band{band}, WriteOptions{Compression: "deflate", TileSize: 256, EPSG: 32633,
		Transform: [6]float64{10, 0, 500000, 0, -10, 4000000}})
	if d.OverviewCount() != 2 || d.Structure().Overviews != 2 {
		t.Fatalf("%d overviews", d.OverviewCount())
	}
	o, err := d.Overview(0)
	if err != nil {
		t.Fatal(err)
	}
	if o.Width() != 500 || o.Height() != 300 || o.EPSG() != 32633 {
		t.Fatalf("overview 0: %dx%d EPSG %d", o.Width(), o.Height(), o.EPSG())
	}
	if tr, ok := o.Transform(); !ok || tr[0] != 20 || tr[4] != -20 || tr[2] != 500000 {
		t.Errorf("overview transform %v", tr)
	}
	ob, err := o.ReadBand(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	// Nearest-neighbour overviews hold the sample at each 2x2 block's
	// centre-right pixel (GDAL NEAREST at pixel centres).
	want := nearest(band, 500, 300)
	if !bytes.Equal(ob.Bytes(), want.Bytes()) {
		t.Error("overview pixels differ from the decimated band")
	}
	if _, err := d.Overview(2); err == nil {
		t.Error("overview 2 of 2 opened")
	}
	if d.HasMask() {
		t.Error("mask without one")
	}
	if _, err := d.Mask(); err == nil {
		t.Error("Mask without one")
	}
	if !d.COGLayout() {
		t.Error("the COG header was not recognised")
	}
}

func TestChecksumKnownValues(t *testing.T) {
	// Hand-computed GDAL checksums: sum of v % prime (7, 11, ...) & 0xffff.
	b := &Band{Width: 4, Height: 1, Type: Uint8, Data: []uint8{10, 20, 30, 40}}
	if c, _ := Checksum(b); c != 10%7+20%11+30%13+40%17 {
		t.Errorf("uint8: %d", c)
	}
	f := &Band{Width: 3, Height: 1, Type: Float32, Data: []float32{-1.5, 2.5, float32(math.NaN())}}
	// -1.5+0.5 = -1 -> -1 % 7 = -1; 2.5+0.5 = 3 -> 3 % 11 = 3; NaN -> -2^31 % 13 = -11.
	if c, _ := Checksum(f); c != (-1+3-11)&0xffff {
		t.Errorf("float32: %d", c)
	}
	u := &Band{Width: 1, Height: 1, Type: Uint32, Data: []uint32{4294967295}}
	if c, _ := Checksum(u); c != 2147483647%7 {
		t.Errorf("uint32 clamp: %d", c)
	}
	if _, err := Checksum(&Band{Width: 2, Height: 2, Type: Uint8, Data: []uint8{1}}); err == nil {
		t.Error("invalid band accepted")
	}
}

// nearest resamples b to w x h by nearest neighbour at pixel centres.
func nearest(b *Band, w, h int) *Band {
	out, _ := NewBand(w, h, b.Type)
	for y := 0; y < h; y++ {
		yy := min(int((float64(y)+0.5)*float64(b.Height)/float64(h)), b.Height-1)
		for x := 0; x < w; x++ {
			xx := min(int((float64(x)+0.5)*float64(b.Width)/float64(w)), b.Width-1)
			size := b.Type.Size()
			copy(out.Bytes()[(y*w+x)*size:(y*w+x+1)*size], b.Bytes()[(yy*b.Width+xx)*size:])
		}
	}
	return out
}
