package htmlreport

import (
	"bytes"
	"image"
	"image/color"
	"image/color/palette"
	"image/draw"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// overlayLike writes a 912 x 512 RGB PNG of flat map colours crossed by
// lines, the shape of a routing overlay, and returns its path.
func overlayLike(tb testing.TB) string {
	tb.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 912, 512))
	for y := 0; y < 512; y++ {
		for x := 0; x < 912; x++ {
			c := color.RGBA{0xf2, 0xef, 0xe9, 0xff}
			switch {
			case (x+2*y)%97 < 3:
				c = color.RGBA{0x33, 0x33, 0x33, 0xff}
			case x > 456 && y > 100 && y < 300:
				c = color.RGBA{0x6b, 0xa6, 0xd6, 0xff}
			case (x*7+y*3)%211 < 2:
				c = color.RGBA{0xd6, 0x27, 0x28, 0xff}
			}
			img.SetRGBA(x, y, c)
		}
	}
	p := filepath.Join(tb.TempDir(), "overlay.png")
	f, err := os.Create(p)
	if err != nil {
		tb.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return p
}

func BenchmarkPNGThumbnail(b *testing.B) {
	p := overlayLike(b)
	for b.Loop() {
		if _, err := makeThumb(p, 160); err != nil {
			b.Fatal(err)
		}
	}
}

// TestToPlan9MatchesDraw checks the remembered palette mapping against
// draw.Draw's, on a map-like image and on noise (every pixel distinct).
func TestToPlan9MatchesDraw(t *testing.T) {
	f, err := os.Open(overlayLike(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	decoded, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	overlay, ok := decoded.(*image.RGBA)
	if !ok {
		t.Fatalf("decoded %T, want *image.RGBA", decoded)
	}
	noise := image.NewRGBA(image.Rect(3, 5, 203, 105))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range noise.Pix {
		noise.Pix[i] = uint8(rng.Uint32())
	}
	for i := 3; i < len(noise.Pix); i += 4 {
		noise.Pix[i] = max(noise.Pix[i], noise.Pix[i-1], noise.Pix[i-2], noise.Pix[i-3]) // premultiplied
	}
	for name, img := range map[string]*image.RGBA{"overlay": overlay, "noise": noise} {
		want := image.NewPaletted(img.Bounds(), palette.Plan9)
		draw.Draw(want, want.Bounds(), img, img.Bounds().Min, draw.Src)
		got := toPlan9(img)
		if got.Rect != want.Rect || !bytes.Equal(got.Pix, want.Pix) {
			t.Errorf("%s: toPlan9 differs from draw.Draw", name)
		}
	}
}

// TestBoxOverWhite checks the preview filter: each output pixel is the
// rounded mean of its source block, premultiplied colour over white.
func TestBoxOverWhite(t *testing.T) {
	src := image.NewRGBA(image.Rect(10, 20, 16, 24)) // 6 x 4, shrunk to 3 x 2
	for y := 20; y < 24; y++ {
		for x := 10; x < 16; x++ {
			c := color.RGBA{200, 100, 50, 255}
			switch {
			case x >= 14: // the right blocks are transparent
				c = color.RGBA{}
			case x >= 12 && y >= 22: // this block is half red, half blue
				c = color.RGBA{255, 0, 0, 255}
				if x == 13 {
					c = color.RGBA{0, 0, 255, 255}
				}
			}
			src.SetRGBA(x, y, c)
		}
	}
	got := boxOverWhite(src, 3, 2)
	want := map[image.Point]color.RGBA{
		{0, 0}: {200, 100, 50, 255}, {1, 0}: {200, 100, 50, 255}, {2, 0}: {255, 255, 255, 255},
		{0, 1}: {200, 100, 50, 255}, {1, 1}: {128, 0, 128, 255}, {2, 1}: {255, 255, 255, 255},
	}
	for p, c := range want {
		if g := got.RGBAAt(p.X, p.Y); g != c {
			t.Errorf("pixel %v = %v, want %v", p, g, c)
		}
	}
}
