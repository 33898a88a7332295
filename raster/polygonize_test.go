package raster

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
