package regions

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
)

// canonicalRing normalizes a ring for comparison: closing point and
// collinear points dropped, positive screen orientation, and the rotation
// that is lexicographically smallest.
func canonicalRing(pts []PixelPoint) string {
	if len(pts) > 1 && pts[0] == pts[len(pts)-1] {
		pts = pts[:len(pts)-1]
	}
	// Drop collinear points until none is left.
	for changed := true; changed && len(pts) > 2; {
		changed = false
		for i := range pts {
			a, b, c := pts[(i+len(pts)-1)%len(pts)], pts[i], pts[(i+1)%len(pts)]
			if (b.X-a.X)*(c.Y-b.Y)-(b.Y-a.Y)*(c.X-b.X) == 0 {
				pts = slices.Delete(slices.Clone(pts), i, i+1)
				changed = true
				break
			}
		}
	}
	if PixelRing(pts).SignedArea2() < 0 {
		pts = slices.Clone(pts)
		slices.Reverse(pts)
	}
	best := ""
	for s := range pts {
		var sb strings.Builder
		for k := range pts {
			p := pts[(s+k)%len(pts)]
			fmt.Fprintf(&sb, "%d,%d;", p.X, p.Y)
		}
		if best == "" || sb.String() < best {
			best = sb.String()
		}
	}
	return best
}

// canonicalPolygon is the exterior followed by the sorted holes.
func canonicalPolygon(rings [][]PixelPoint) string {
	ext := canonicalRing(rings[0])
	var holes []string
	for _, h := range rings[1:] {
		holes = append(holes, canonicalRing(h))
	}
	sort.Strings(holes)
	return ext + "|" + strings.Join(holes, "|")
}

func TestPolygonizeMatchesGDAL(t *testing.T) {
	g := loadAlgorithmGoldens(t)
	for k, c := range g.Masks {
		labels, n, err := Label(goldenMask(c.Mask), c.Width, c.Height, Connect8)
		if err != nil {
			t.Fatal(err)
		}
		polys, err := Polygonize(labels, c.Width, c.Height, n)
		if err != nil {
			t.Fatalf("mask %d: %v", k, err)
		}
		if len(polys) != len(c.Polygons) {
			t.Errorf("mask %d: %d polygons, GDAL %d", k, len(polys), len(c.Polygons))
			continue
		}
		var got, want []string
		for _, p := range polys {
			if p.Exterior.SignedArea2() <= 0 {
				t.Errorf("mask %d label %d: exterior not clockwise on screen", k, p.Label)
			}
			for _, h := range p.Holes {
				if h.SignedArea2() >= 0 {
					t.Errorf("mask %d label %d: hole not counter-clockwise", k, p.Label)
				}
			}
			rings := [][]PixelPoint{p.Exterior}
			for _, h := range p.Holes {
				rings = append(rings, h)
			}
			got = append(got, canonicalPolygon(rings))
		}
		for _, poly := range c.Polygons {
			var rings [][]PixelPoint
			for _, r := range poly {
				var pts []PixelPoint
				for _, xy := range r {
					pts = append(pts, PixelPoint{int32(xy[0]), int32(xy[1])})
				}
				rings = append(rings, pts)
			}
			want = append(want, canonicalPolygon(rings))
		}
		sort.Strings(got)
		sort.Strings(want)
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("mask %d (%dx%d %s): polygon differs\n go:   %s\n gdal: %s", k, c.Width, c.Height, c.Mask, got[i], want[i])
				break
			}
		}
	}
}

func TestPolygonizeShapes(t *testing.T) {
	// Two pixels touching at a corner: one ring through the corner twice.
	labels := []int32{1, 0, 0, 1}
	polys, err := Polygonize(labels, 2, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := PixelRing{{0, 0}, {1, 0}, {1, 1}, {2, 1}, {2, 2}, {1, 2}, {1, 1}, {0, 1}}
	if len(polys) != 1 || !slices.Equal(polys[0].Exterior, want) || len(polys[0].Holes) != 0 {
		t.Errorf("diagonal pair: %+v", polys)
	}
	// A ring of 8 pixels around a hole.
	ring := []int32{1, 1, 1, 1, 0, 1, 1, 1, 1}
	polys, err = Polygonize(ring, 3, 3, 1)
	if err != nil || len(polys) != 1 || len(polys[0].Holes) != 1 {
		t.Fatalf("annulus: %+v %v", polys, err)
	}
	if a := polys[0].Exterior.SignedArea2() + polys[0].Holes[0].SignedArea2(); a != 16 {
		t.Errorf("annulus area*2 = %d, want 16", a)
	}
	// Touching components are not an 8-connected labelling.
	if _, err := Polygonize([]int32{1, 2}, 2, 1, 2); err == nil {
		t.Error("touching components accepted")
	}
	if _, err := Polygonize([]int32{1}, 2, 1, 1); err == nil {
		t.Error("size mismatch accepted")
	}
	if _, err := Polygonize([]int32{0, 0}, 2, 1, 1); err == nil {
		t.Error("missing component accepted")
	}
}

// TestPolygonizeRandomMatchesReference compares Polygonize with the
// straightforward corner-by-corner tracer it replaced (polygonizeRef,
// below) on random 8-connected labellings: same rings, same vertex order.
func TestPolygonizeRandomMatchesReference(t *testing.T) {
	rnd := xorshift32(777)
	for trial := 0; trial < 300; trial++ {
		w, h := int(rnd()%30)+1, int(rnd()%30)+1
		density := rnd() % 100
		mask := make([]bool, w*h)
		for i := range mask {
			mask[i] = rnd()%100 < density
		}
		labels, n, _ := Label(mask, w, h, Connect8)
		got, err := Polygonize(labels, w, h, n)
		want, werr := polygonizeRef(labels, w, h, n)
		if err != nil || werr != nil {
			t.Fatalf("trial %d: %v / %v", trial, err, werr)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("trial %d %dx%d: polygons\n%v\nreference\n%v", trial, w, h, got, want)
		}
	}
	// Touching components are refused by both.
	if _, err := Polygonize([]int32{1, 2}, 2, 1, 2); err == nil {
		t.Error("touching components accepted")
	}
}

// polygonizeRef is the original Polygonize, kept as a test oracle.
func polygonizeRef(labels []int32, width, height, n int) ([]PixelPolygon, error) {
	if width < 0 || height < 0 || len(labels) != width*height {
		return nil, fmt.Errorf("raster: labels have %d values, want %dx%d", len(labels), width, height)
	}
	at := func(c, r int) int32 {
		if c < 0 || r < 0 || c >= width || r >= height {
			return 0
		}
		return labels[r*width+c]
	}
	vw := width + 1
	// out[v] holds the directions of the unwalked boundary edges leaving
	// corner v; owner[v] the label they belong to.
	out := make([]uint8, vw*(height+1))
	owner := make([]int32, vw*(height+1))
	for y := 0; y <= height; y++ {
		for x := 0; x <= width; x++ {
			nw, ne, sw, se := at(x-1, y-1), at(x, y-1), at(x-1, y), at(x, y)
			var bits uint8
			var lab int32
			add := func(d uint8, l int32) error {
				if lab != 0 && lab != l {
					return fmt.Errorf("raster: components %d and %d touch at corner (%d,%d); not an 8-connected labelling", lab, l, x, y)
				}
				bits |= d
				lab = l
				return nil
			}
			// An edge leaves the corner where a component's pixel (l)
			// meets a different one (other) across it.
			for _, e := range [...]struct {
				d        uint8
				l, other int32
			}{{dirE, se, ne}, {dirS, sw, se}, {dirW, nw, sw}, {dirN, ne, nw}} {
				if e.l != 0 && e.l != e.other {
					if err := add(e.d, e.l); err != nil {
						return nil, err
					}
				}
			}
			v := y*vw + x
			out[v], owner[v] = bits, lab
		}
	}
	polys := make([]PixelPolygon, n)
	for i := range polys {
		polys[i].Label = int32(i + 1)
	}
	orig := make([]uint8, len(out))
	copy(orig, out)
	var dirs []uint8
	var verts []PixelPoint
	// Every ring contains a horizontal edge; start at the first unwalked
	// east- or west-bound edge in corner raster order.
	for v := range out {
		for out[v]&(dirE|dirW) != 0 {
			d0 := uint8(dirE)
			if out[v]&dirE == 0 {
				d0 = dirW
			}
			lab := owner[v]
			if lab < 1 || int(lab) > n {
				return nil, fmt.Errorf("raster: label %d outside 1..%d", lab, n)
			}
			dirs, verts = dirs[:0], verts[:0]
			cur, d := v, d0
			for {
				if out[cur]&d == 0 {
					return nil, fmt.Errorf("raster: boundary walk reused an edge at corner (%d,%d)", cur%vw, cur/vw)
				}
				out[cur] &^= d
				dirs = append(dirs, d)
				verts = append(verts, PixelPoint{int32(cur % vw), int32(cur / vw)})
				switch d {
				case dirE:
					cur++
				case dirW:
					cur--
				case dirS:
					cur += vw
				default:
					cur -= vw
				}
				o := orig[cur]
				switch {
				case o == 0:
					return nil, fmt.Errorf("raster: open boundary at corner (%d,%d)", cur%vw, cur/vw)
				case o&(o-1) != 0:
					// A diagonal touch: turn left, which keeps the
					// component's two pixels connected through the
					// corner (8-connectivity).
					d = leftOf(d)
				default:
					d = o
				}
				if cur == v && d == d0 {
					break
				}
			}
			ring := make(PixelRing, 0, 8)
			for i := range dirs {
				prev := dirs[(i+len(dirs)-1)%len(dirs)]
				if dirs[i] != prev {
					ring = append(ring, verts[i])
				}
			}
			p := &polys[lab-1]
			if ring.SignedArea2() > 0 {
				if p.Exterior != nil {
					return nil, fmt.Errorf("raster: component %d has two exterior rings", lab)
				}
				p.Exterior = ring
			} else {
				p.Holes = append(p.Holes, ring)
			}
		}
	}
	for i := range polys {
		if polys[i].Exterior == nil {
			return nil, fmt.Errorf("raster: component %d has no pixels", i+1)
		}
	}
	return polys, nil
}
