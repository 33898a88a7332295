// Package overlay draws map overlays on RGBA images deterministically and
// encodes them as PNG. Every function works in integer pixel space after
// one floor of its float coordinates, so the same inputs draw the same
// pixels on every platform; colours blend with integer arithmetic. Pixel
// (x, y) covers [x, x+1) x [y, y+1); a point at (px, py) lands in pixel
// (floor(px), floor(py)).
package overlay

import (
	"encoding/binary"
	"image"
	"image/color"
	"math"
	"sort"
)

// BlendPixel blends c over the pixel at (x, y) with c.A as opacity
// (255 replaces the pixel). Pixels outside clip are left untouched. It
// reports whether the pixel changed.
func BlendPixel(img *image.RGBA, clip image.Rectangle, x, y int, c color.RGBA) bool {
	if !(image.Point{x, y}).In(clip) || !(image.Point{x, y}).In(img.Rect) {
		return false
	}
	return blendAt(img, x, y, c)
}

// blendAt is BlendPixel for a pixel known to lie in img.Rect (and the
// clip).
func blendAt(img *image.RGBA, x, y int, c color.RGBA) bool {
	i := img.PixOffset(x, y)
	p := img.Pix[i : i+4 : i+4]
	if c.A == 255 { // the blend below gives c itself
		changed := p[0] != c.R || p[1] != c.G || p[2] != c.B || p[3] != 255
		p[0], p[1], p[2], p[3] = c.R, c.G, c.B, 255
		return changed
	}
	a := uint32(c.A)
	mix := func(s uint8, d uint8) uint8 {
		return uint8((uint32(s)*a + uint32(d)*(255-a) + 127) / 255)
	}
	n := [4]uint8{mix(c.R, p[0]), mix(c.G, p[1]), mix(c.B, p[2]), 255}
	changed := n[0] != p[0] || n[1] != p[1] || n[2] != p[2] || n[3] != p[3]
	copy(p, n[:])
	return changed
}

// FillRect blends c over the pixels of r within clip.
func FillRect(img *image.RGBA, clip image.Rectangle, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(clip).Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			BlendPixel(img, clip, x, y, c)
		}
	}
}

// floorInt floors a finite coordinate to an int, saturating far outside
// any image.
func floorInt(v float64) int {
	f := math.Floor(v)
	switch {
	case math.IsNaN(f):
		return math.MinInt32
	case f < -1e9:
		return -1e9
	case f > 1e9:
		return 1e9
	}
	return int(f)
}

// stamp blends a width x width square centred on pixel (x, y) and
// returns the number of pixels it changed; r is the clip within
// img.Rect.
func stamp(img *image.RGBA, r image.Rectangle, x, y, width int, c color.RGBA) int {
	lo := -(width - 1) / 2
	x0, y0 := max(x+lo, r.Min.X), max(y+lo, r.Min.Y)
	x1, y1 := min(x+lo+width, r.Max.X), min(y+lo+width, r.Max.Y)
	n := 0
	for py := y0; py < y1; py++ {
		for px := x0; px < x1; px++ {
			if blendAt(img, px, py, c) {
				n++
			}
		}
	}
	return n
}

// clipSegment clips the segment to the box [x0,x1]x[y0,y1]
// (Liang-Barsky); ok is false when nothing remains.
func clipSegment(ax, ay, bx, by, x0, y0, x1, y1 float64) (cax, cay, cbx, cby float64, ok bool) {
	t0, t1 := 0.0, 1.0
	dx, dy := bx-ax, by-ay
	for _, pq := range [4][2]float64{{-dx, ax - x0}, {dx, x1 - ax}, {-dy, ay - y0}, {dy, y1 - ay}} {
		p, q := pq[0], pq[1]
		if p == 0 {
			if q < 0 {
				return 0, 0, 0, 0, false
			}
			continue
		}
		r := q / p
		if p < 0 {
			if r > t1 {
				return 0, 0, 0, 0, false
			}
			if r > t0 {
				t0 = r
			}
		} else {
			if r < t0 {
				return 0, 0, 0, 0, false
			}
			if r < t1 {
				t1 = r
			}
		}
	}
	return ax + float64(t0*dx), ay + float64(t0*dy), ax + float64(t1*dx), ay + float64(t1*dy), true
}

// DrawLine draws the segment from (ax, ay) to (bx, by) in pixel
// coordinates with a square pen width pixels wide, sampling it at unit
// steps along its major axis; pixels outside clip are not touched. It
// returns the number of pixels it changed.
func DrawLine(img *image.RGBA, clip image.Rectangle, ax, ay, bx, by float64, width int, c color.RGBA) int {
	for _, v := range []float64{ax, ay, bx, by} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0
		}
	}
	m := float64(width + 2)
	ax, ay, bx, by, ok := clipSegment(ax, ay, bx, by, float64(clip.Min.X)-m, float64(clip.Min.Y)-m, float64(clip.Max.X)+m, float64(clip.Max.Y)+m)
	if !ok {
		return 0
	}
	dx, dy := bx-ax, by-ay
	n := int(math.Ceil(math.Max(math.Abs(dx), math.Abs(dy))))
	if n < 1 {
		n = 1
	}
	changed := 0
	r := clip.Intersect(img.Rect)
	lastX, lastY := math.MinInt32, math.MinInt32
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		x := floorInt(ax + float64(t*dx))
		y := floorInt(ay + float64(t*dy))
		if x == lastX && y == lastY {
			continue
		}
		lastX, lastY = x, y
		changed += stamp(img, r, x, y, width, c)
	}
	return changed
}

// DrawPolyline draws consecutive segments of pts (pixel coordinates) and
// returns the number of pixel changes.
func DrawPolyline(img *image.RGBA, clip image.Rectangle, pts [][2]float64, width int, c color.RGBA) int {
	n := 0
	for i := 1; i < len(pts); i++ {
		n += DrawLine(img, clip, pts[i-1][0], pts[i-1][1], pts[i][0], pts[i][1], width, c)
	}
	return n
}

// FillPolygon fills a polygon given as rings of pixel-coordinate vertices
// (exterior and holes, even-odd rule): a pixel is inside when its centre
// is. Pixels outside clip are not touched.
func FillPolygon(img *image.RGBA, clip image.Rectangle, rings [][][2]float64, c color.RGBA) {
	r := clip.Intersect(img.Rect)
	var xs []float64
	for y := r.Min.Y; y < r.Max.Y; y++ {
		yc := float64(y) + 0.5
		xs = xs[:0]
		for _, ring := range rings {
			n := len(ring)
			for i := 0; i < n; i++ {
				p, q := ring[i], ring[(i+1)%n]
				if (p[1] <= yc) == (q[1] <= yc) {
					continue
				}
				x := p[0] + float64((yc-p[1])*(q[0]-p[0]))/(q[1]-p[1])
				xs = append(xs, x)
			}
		}
		sort.Float64s(xs)
		for k := 0; k+1 < len(xs); k += 2 {
			// Pixels whose centre x+0.5 lies in [xs[k], xs[k+1]).
			x0 := int(math.Ceil(xs[k] - 0.5))
			x1 := int(math.Ceil(xs[k+1] - 0.5))
			if x0 < r.Min.X {
				x0 = r.Min.X
			}
			if x1 > r.Max.X {
				x1 = r.Max.X
			}
			for x := x0; x < x1; x++ {
				BlendPixel(img, clip, x, y, c)
			}
		}
	}
}

// FillDisc fills the pixels whose centres lie within radius of (cx, cy).
func FillDisc(img *image.RGBA, clip image.Rectangle, cx, cy, radius float64, c color.RGBA) {
	x0, x1 := floorInt(cx-radius), floorInt(cx+radius)
	y0, y1 := floorInt(cy-radius), floorInt(cy+radius)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			if float64(dx*dx)+float64(dy*dy) <= float64(radius*radius) {
				BlendPixel(img, clip, x, y, c)
			}
		}
	}
}

// ChangedPixels counts the pixels of r whose RGB differs between a and b
// (two images of the same bounds).
func ChangedPixels(a, b *image.RGBA, r image.Rectangle) int {
	r = r.Intersect(a.Rect).Intersect(b.Rect)
	if r.Empty() {
		return 0
	}
	const rgb = 0x00ffffff00ffffff // the RGB bytes of two pixels
	n := 0
	w := 4 * r.Dx()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		i, j := a.PixOffset(r.Min.X, y), b.PixOffset(r.Min.X, y)
		pa, pb := a.Pix[i:i+w:i+w], b.Pix[j:j+w:j+w]
		// Eight pixels a test, then two a step: most are unchanged.
		x := 0
		for ; x+32 <= w; x += 32 {
			qa, qb := pa[x:x+32:x+32], pb[x:x+32:x+32]
			d0 := (binary.LittleEndian.Uint64(qa) ^ binary.LittleEndian.Uint64(qb)) & rgb
			d1 := (binary.LittleEndian.Uint64(qa[8:]) ^ binary.LittleEndian.Uint64(qb[8:])) & rgb
			d2 := (binary.LittleEndian.Uint64(qa[16:]) ^ binary.LittleEndian.Uint64(qb[16:])) & rgb
			d3 := (binary.LittleEndian.Uint64(qa[24:]) ^ binary.LittleEndian.Uint64(qb[24:])) & rgb
			if d0|d1|d2|d3 == 0 {
				continue
			}
			for _, d := range [4]uint64{d0, d1, d2, d3} {
				if d&0xffffff != 0 {
					n++
				}
				if d>>32 != 0 {
					n++
				}
			}
		}
		for ; x+8 <= w; x += 8 {
			d := (binary.LittleEndian.Uint64(pa[x:]) ^ binary.LittleEndian.Uint64(pb[x:])) & rgb
			if d != 0 {
				if d&0xffffff != 0 {
					n++
				}
				if d>>32 != 0 {
					n++
				}
			}
		}
		if x < w {
			if pa[x] != pb[x] || pa[x+1] != pb[x+1] || pa[x+2] != pb[x+2] {
				n++
			}
		}
	}
	return n
}
