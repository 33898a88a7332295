package sen1flood

import (
	"bytes"
	"image/png"
	"testing"
)

// TestSen1EncodePNG decodes the stored-block PNG with image/png.
func TestSen1EncodePNG(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {3, 2}, {512, 512}, {200, 150}} {
		w, h := sz[0], sz[1]
		raw := make([]byte, h*(1+3*w))
		for i := range raw {
			raw[i] = byte(i*7 + i/13)
		}
		for y := 0; y < h; y++ {
			raw[y*(1+3*w)] = 0
		}
		img, err := png.Decode(bytes.NewReader(sen1EncodePNG(raw, w, h)))
		if err != nil {
			t.Fatalf("%dx%d: %v", w, h, err)
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				p := raw[y*(1+3*w)+1+3*x:]
				if uint8(r>>8) != p[0] || uint8(g>>8) != p[1] || uint8(b>>8) != p[2] {
					t.Fatalf("%dx%d pixel (%d,%d) decodes as %d,%d,%d, want %v", w, h, x, y, r>>8, g>>8, b>>8, p[:3])
				}
			}
		}
	}
}
