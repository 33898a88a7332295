package overlay

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"

	"github.com/geodisaster/engine/internal/adler32"
)

func TestEncodeRGBPNG(t *testing.T) {
	img := blank(7, 5, color.RGBA{10, 20, 30, 255})
	DrawLine(img, img.Rect, 0, 0, 7, 5, 1, red)
	b1, err := EncodeRGBPNG(img)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := EncodeRGBPNG(img)
	if sha256.Sum256(b1) != sha256.Sum256(b2) {
		t.Error("encoding is not deterministic")
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b1))
	if err != nil || cfg.Width != 7 || cfg.Height != 5 || cfg.ColorModel != color.RGBAModel {
		t.Errorf("decoded config %+v, %v (want 8-bit RGB)", cfg, err)
	}
	img.Pix[3] = 0
	if _, err := EncodeRGBPNG(img); err == nil {
		t.Error("a transparent pixel was encoded")
	}
}

// overlayLike returns a 912 x 512 opaque image shaped like a route overlay:
// a textured 512 x 512 chip (smooth gradient plus noise), a flat legend
// panel, and a few drawn lines.
func overlayLike() *image.RGBA {
	img := blank(912, 512, color.RGBA{36, 36, 36, 255})
	seed := uint32(12345)
	for y := 0; y < 512; y++ {
		for x := 0; x < 512; x++ {
			seed = seed*1664525 + 1013904223
			n := uint8(seed >> 28)
			o := img.PixOffset(x, y)
			img.Pix[o], img.Pix[o+1], img.Pix[o+2] = uint8(x/4)+n, uint8(y/4)+n, uint8((x+y)/8)+n
		}
	}
	for k := 0; k < 40; k++ {
		DrawLine(img, image.Rect(0, 0, 512, 512), float64(k*12), 0, float64(511-k*7), 511, 1+k%3, red)
	}
	return img
}

// TestEncodeRGBPNGRoundTrip decodes the encoder's output with image/png
// and compares every pixel, for a full image and a sub-image.
func TestEncodeRGBPNGRoundTrip(t *testing.T) {
	img := overlayLike()
	for _, im := range []*image.RGBA{img, img.SubImage(image.Rect(100, 37, 777, 500)).(*image.RGBA), blank(1, 1, red)} {
		b, err := EncodeRGBPNG(im)
		if err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		r := im.Rect
		if got.Bounds().Dx() != r.Dx() || got.Bounds().Dy() != r.Dy() {
			t.Fatalf("decoded %v, want %v", got.Bounds(), r)
		}
		if _, ok := got.(*image.RGBA); !ok {
			t.Errorf("decoded as %T, want 8-bit RGB", got)
		}
		for y := 0; y < r.Dy(); y++ {
			for x := 0; x < r.Dx(); x++ {
				if want, g := im.RGBAAt(r.Min.X+x, r.Min.Y+y), color.RGBAModel.Convert(got.At(x, y)); want != g {
					t.Fatalf("pixel (%d,%d): %v, want %v", x, y, g, want)
				}
			}
		}
	}
}

// TestEncodeRGBPNGPinned pins the encoder's bytes for a fixed image so
// that a change of filter or of deflateZeroRuns is noticed (route overlay
// hashes are pinned in runtime tests too).
func TestEncodeRGBPNGPinned(t *testing.T) {
	b, err := EncodeRGBPNG(overlayLike())
	if err != nil {
		t.Fatal(err)
	}
	// Re-pinned when the encoder moved from filter None + compress/flate
	// BestSpeed (dc063e48286749d71fd433fee16d8e314e67be23076bc28019bca4482e8800c2)
	// to filter Sub + deflateZeroRuns: same pixels, bytes of our own.
	const want = "8edd9d103e294a31d2001a967e33327e34db43c9db447ae622d022feb48002ef"
	if got := hexSum(b); got != want {
		t.Errorf("overlay-like PNG SHA-256 %s (%d bytes), pinned %s", got, len(b), want)
	}
}

func hexSum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// BenchmarkEncodeRGBPNG encodes an overlay-sized image (the route overlay
// hot path).
func BenchmarkEncodeRGBPNG(b *testing.B) {
	img := overlayLike()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeRGBPNG(img); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodeRGBPNGStdlibDefault is the previous encoder (image/png
// at default compression over an NRGBA copy), for comparison.
func BenchmarkEncodeRGBPNGStdlibDefault(b *testing.B) {
	img := overlayLike()
	b.ReportAllocs()
	for b.Loop() {
		rgb := image.NewNRGBA(img.Rect)
		copy(rgb.Pix, img.Pix)
		var buf bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&buf, rgb); err != nil {
			b.Fatal(err)
		}
	}
}

// encodeRGBPNGRef is EncodeRGBPNG filtering pixel by pixel, as the
// encoder did before it took two pixels a step.
func encodeRGBPNGRef(img *image.RGBA) []byte {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	stride := 1 + 3*w
	raw := make([]byte, h*stride)
	var hist zeroRunHistogram
	var runs []zeroRun
	for y := 0; y < h; y++ {
		src := img.Pix[y*img.Stride : y*img.Stride+4*w]
		row := raw[y*stride : (y+1)*stride]
		row[0] = pngFilterSub
		hist[pngFilterSub]++
		left, run := uint32(0xff000000), 0
		for x := 0; x < w; x++ {
			v := binary.LittleEndian.Uint32(src[4*x:])
			o := 1 + 3*x
			if v == left {
				run++
				continue
			}
			r0, r1, r2 := byte(v)-byte(left), byte(v>>8)-byte(left>>8), byte(v>>16)-byte(left>>16)
			row[o], row[o+1], row[o+2] = r0, r1, r2
			left = v
			runs = endRun(runs, &hist, y*stride+o, run)
			run = 0
			hist[r0]++
			hist[r1]++
			hist[r2]++
		}
		runs = endRun(runs, &hist, (y+1)*stride, run)
	}
	idat := deflateZeroRuns([]byte{0x78, 0x01}, raw, runs, &hist)
	idat = binary.BigEndian.AppendUint32(idat, adler32.Checksum(raw))
	out := []byte("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 2
	out = appendPNGChunk(out, "IHDR", ihdr[:])
	out = appendPNGChunk(out, "IDAT", idat)
	return appendPNGChunk(out, "IEND", nil)
}

// TestEncodeRGBPNGMatchesPixelByPixel compares the encoder with the
// pixel-by-pixel filter on random images of odd and even widths made of
// runs of repeated pixels (of every length, crossing row ends) and noise,
// and on sub-images.
func TestEncodeRGBPNGMatchesPixelByPixel(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, w := range []int{1, 2, 3, 4, 5, 17, 64, 101} {
		img := blank(w, 23, color.RGBA{0, 0, 0, 255})
		c := color.RGBA{0, 0, 0, 255}
		for i := 0; i < len(img.Pix); i += 4 {
			switch k := r.IntN(10); {
			case k < 2:
				c = color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255}
			case k < 3:
				c.R++
			}
			img.Pix[i], img.Pix[i+1], img.Pix[i+2] = c.R, c.G, c.B
		}
		for _, im := range []*image.RGBA{img, img.SubImage(image.Rect(w/3, 2, w, 20)).(*image.RGBA)} {
			got, err := EncodeRGBPNG(im)
			if err != nil {
				t.Fatal(err)
			}
			if want := encodeRGBPNGRef(im); !bytes.Equal(got, want) {
				t.Fatalf("width %d, %v: bytes differ from the pixel-by-pixel filter", w, im.Rect)
			}
		}
	}
	img := overlayLike()
	if got, _ := EncodeRGBPNG(img); !bytes.Equal(got, encodeRGBPNGRef(img)) {
		t.Error("overlay-like image: bytes differ from the pixel-by-pixel filter")
	}
}
