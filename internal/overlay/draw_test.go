package overlay

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"
)

func blank(w, h int, c color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, 255
	}
	return img
}

func painted(img *image.RGBA, c color.RGBA) int {
	n := 0
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i] == c.R && img.Pix[i+1] == c.G && img.Pix[i+2] == c.B {
			n++
		}
	}
	return n
}

var red = color.RGBA{255, 0, 0, 255}

func TestBlendPixel(t *testing.T) {
	img := blank(2, 1, color.RGBA{0, 0, 0, 255})
	clip := img.Rect
	if !BlendPixel(img, clip, 0, 0, color.RGBA{255, 100, 0, 128}) {
		t.Fatal("blend reported no change")
	}
	// (255*128 + 0*127 + 127)/255 = 128; (100*128+127)/255 = 50.
	if got := img.Pix[:4]; got[0] != 128 || got[1] != 50 || got[2] != 0 || got[3] != 255 {
		t.Errorf("blended pixel %v", got)
	}
	if BlendPixel(img, image.Rect(0, 0, 1, 1), 1, 0, red) {
		t.Error("pixel outside the clip changed")
	}
	if BlendPixel(img, clip, 5, 5, red) {
		t.Error("pixel outside the image changed")
	}
}

func TestDrawLine(t *testing.T) {
	img := blank(20, 10, color.RGBA{})
	clip := image.Rect(0, 0, 10, 10)
	// A horizontal line across the clip edge paints only the clip's part.
	n := DrawLine(img, clip, 2.5, 4.5, 18.5, 4.5, 1, red)
	if n != 8 || painted(img, red) != 8 {
		t.Errorf("horizontal line changed %d pixels (%d red), want 8 (x 2..9)", n, painted(img, red))
	}
	img = blank(10, 10, color.RGBA{})
	DrawLine(img, img.Rect, 0.5, 0.5, 9.5, 9.5, 1, red)
	for i := 0; i < 10; i++ {
		if img.RGBAAt(i, i) != red {
			t.Errorf("diagonal misses (%d,%d)", i, i)
		}
	}
	if painted(img, red) != 10 {
		t.Errorf("diagonal painted %d pixels", painted(img, red))
	}
	img = blank(10, 10, color.RGBA{})
	DrawLine(img, img.Rect, 5.5, 2, 5.5, 7, 3, red)
	// Rows 2..7 sampled, the square pen adds a row above and below: 8x3.
	if painted(img, red) != 8*3 {
		t.Errorf("3-wide vertical line painted %d pixels, want 24", painted(img, red))
	}
	if DrawLine(img, img.Rect, -50, -50, -40, -60, 1, red) != 0 {
		t.Error("a segment outside the clip drew")
	}
}

func TestFillPolygon(t *testing.T) {
	img := blank(10, 10, color.RGBA{})
	square := [][2]float64{{2, 2}, {8, 2}, {8, 8}, {2, 8}, {2, 2}}
	FillPolygon(img, img.Rect, [][][2]float64{square}, red)
	if n := painted(img, red); n != 36 {
		t.Errorf("6x6 square filled %d pixels", n)
	}
	img = blank(10, 10, color.RGBA{})
	hole := [][2]float64{{4, 4}, {6, 4}, {6, 6}, {4, 6}, {4, 4}}
	FillPolygon(img, img.Rect, [][][2]float64{square, hole}, red)
	if n := painted(img, red); n != 32 {
		t.Errorf("square with a 2x2 hole filled %d pixels", n)
	}
	img = blank(10, 10, color.RGBA{})
	FillPolygon(img, image.Rect(0, 0, 5, 10), [][][2]float64{square}, red)
	if n := painted(img, red); n != 18 {
		t.Errorf("clipped square filled %d pixels", n)
	}
}

func TestFillDiscAndChanged(t *testing.T) {
	a := blank(9, 9, color.RGBA{})
	b := blank(9, 9, color.RGBA{})
	FillDisc(b, b.Rect, 4.5, 4.5, 1, red)
	// Pixel centres at distance <= 1: the centre and its 4 neighbours.
	if n := ChangedPixels(a, b, a.Rect); n != 5 {
		t.Errorf("radius-1 disc changed %d pixels, want 5", n)
	}
	FillDisc(b, b.Rect, 4.5, 4.5, 2, red)
	// Integer offsets with dx*dx+dy*dy <= 4: 13 pixels.
	if n := ChangedPixels(a, b, a.Rect); n != 13 {
		t.Errorf("radius-2 disc changed %d pixels, want 13", n)
	}
}

// TestBlendPixelOpaqueIsTheColour checks the opaque shortcut against the
// blend formula for every channel value.
func TestBlendPixelOpaqueIsTheColour(t *testing.T) {
	img := blank(1, 1, color.RGBA{0, 0, 0, 255})
	for s := 0; s < 256; s++ {
		for d := 0; d < 256; d += 15 {
			img.Pix[0], img.Pix[1], img.Pix[2] = uint8(d), uint8(d), uint8(d)
			c := color.RGBA{uint8(s), uint8(255 - s), uint8(s / 2), 255}
			changed := BlendPixel(img, img.Rect, 0, 0, c)
			if got := img.RGBAAt(0, 0); got != c || changed != (s != d || 255-s != d || s/2 != d) {
				t.Fatalf("over %d: %v (changed %v), want %v", d, got, changed, c)
			}
			if want := uint8((uint32(s)*255 + uint32(d)*0 + 127) / 255); want != uint8(s) {
				t.Fatalf("blend formula gives %d for %d", want, s)
			}
		}
	}
}

// changedPixelsRef is ChangedPixels pixel by pixel.
func changedPixelsRef(a, b *image.RGBA, r image.Rectangle) int {
	r = r.Intersect(a.Rect).Intersect(b.Rect)
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			i, j := a.PixOffset(x, y), b.PixOffset(x, y)
			if a.Pix[i] != b.Pix[j] || a.Pix[i+1] != b.Pix[j+1] || a.Pix[i+2] != b.Pix[j+2] {
				n++
			}
		}
	}
	return n
}

// TestChangedPixelsMatchesPixelByPixel compares the eight- and two-pixel
// steps with the pixel-by-pixel count over odd and even widths, changed
// alpha only, sub-images and a compact copy of a rectangle.
func TestChangedPixelsMatchesPixelByPixel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, w := range []int{1, 2, 3, 7, 8, 9, 15, 16, 17, 33, 40, 71} {
		a := blank(w, 9, color.RGBA{1, 2, 3, 255})
		b := blank(w, 9, color.RGBA{1, 2, 3, 255})
		for i := range b.Pix {
			if r.IntN(7) == 0 {
				b.Pix[i]++
			}
		}
		for _, rect := range []image.Rectangle{a.Rect, image.Rect(1, 1, w, 8), image.Rect(0, 3, w/2+1, 4), image.Rect(5, 5, 5, 5)} {
			if got, want := ChangedPixels(a, b, rect), changedPixelsRef(a, b, rect); got != want {
				t.Errorf("width %d, %v: %d changed, want %d", w, rect, got, want)
			}
			sa, sb := a.SubImage(rect).(*image.RGBA), b.SubImage(rect).(*image.RGBA)
			if got, want := ChangedPixels(sa, sb, rect), changedPixelsRef(sa, sb, rect); got != want {
				t.Errorf("sub-image width %d, %v: %d changed, want %d", w, rect, got, want)
			}
			// The rectangle's rows alone, as RenderMap keeps the chip.
			ca := image.NewRGBA(rect)
			for y := rect.Min.Y; y < rect.Max.Y; y++ {
				copy(ca.Pix[ca.PixOffset(rect.Min.X, y):], a.Pix[a.PixOffset(rect.Min.X, y):a.PixOffset(rect.Max.X, y)])
			}
			if got, want := ChangedPixels(ca, b, rect), changedPixelsRef(a, b, rect); got != want {
				t.Errorf("compact copy width %d, %v: %d changed, want %d", w, rect, got, want)
			}
		}
	}
}

// BenchmarkChangedPixels counts the changed pixels of an overlay's chip.
func BenchmarkChangedPixels(b *testing.B) {
	a := overlayLike()
	c := overlayLike()
	DrawLine(c, c.Rect, 0, 100, 511, 300, 3, color.RGBA{1, 2, 3, 255})
	chip := image.Rect(0, 0, 512, 512)
	for b.Loop() {
		ChangedPixels(a, c, chip)
	}
}

// drawLineRef is DrawLine stamping pixel by pixel through BlendPixel.
func drawLineRef(img *image.RGBA, clip image.Rectangle, ax, ay, bx, by float64, width int, c color.RGBA) int {
	m := float64(width + 2)
	ax, ay, bx, by, ok := clipSegment(ax, ay, bx, by, float64(clip.Min.X)-m, float64(clip.Min.Y)-m, float64(clip.Max.X)+m, float64(clip.Max.Y)+m)
	if !ok {
		return 0
	}
	dx, dy := bx-ax, by-ay
	n := max(1, int(math.Ceil(math.Max(math.Abs(dx), math.Abs(dy)))))
	changed := 0
	lastX, lastY := math.MinInt32, math.MinInt32
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		x, y := floorInt(ax+float64(t*dx)), floorInt(ay+float64(t*dy))
		if x == lastX && y == lastY {
			continue
		}
		lastX, lastY = x, y
		lo := -(width - 1) / 2
		for py := y + lo; py < y+lo+width; py++ {
			for px := x + lo; px < x+lo+width; px++ {
				if BlendPixel(img, clip, px, py, c) {
					changed++
				}
			}
		}
	}
	return changed
}

// TestDrawLineMatchesPixelByPixel draws random segments, partly outside
// the clip and the image, with opaque and translucent pens of widths 1 to
// 4, and compares pixels and counts with the pixel-by-pixel stamp.
func TestDrawLineMatchesPixelByPixel(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	a := blank(60, 40, color.RGBA{9, 9, 9, 255})
	b := blank(60, 40, color.RGBA{9, 9, 9, 255})
	clip := image.Rect(5, -3, 50, 38)
	for k := range 500 {
		ax, ay := r.Float64()*80-10, r.Float64()*60-10
		bx, by := r.Float64()*80-10, r.Float64()*60-10
		w := 1 + k%4
		c := color.RGBA{uint8(k), uint8(3 * k), 200, []uint8{255, 120}[k%2]}
		if got, want := DrawLine(a, clip, ax, ay, bx, by, w, c), drawLineRef(b, clip, ax, ay, bx, by, w, c); got != want {
			t.Fatalf("segment %d: %d pixels changed, want %d", k, got, want)
		}
	}
	if !bytes.Equal(a.Pix, b.Pix) {
		t.Error("pixels differ")
	}
}
