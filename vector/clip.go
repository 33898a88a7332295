package vector

import "github.com/paulmach/orb"

// ClipRing clips a closed ring to an axis-aligned rectangle with the
// Sutherland-Hodgman algorithm and returns the closed clipped ring (nil when
// nothing remains). For a simple ring and a convex window the clipped
// ring's area equals the area of the exact intersection; where the
// intersection has several parts they are joined by zero-area slivers
// along the window's edges, which add no area.
func ClipRing(r orb.Ring, b orb.Bound) orb.Ring {
	if len(r) < 4 {
		return nil
	}
	pts := make([]orb.Point, len(r)-1)
	copy(pts, r[:len(r)-1])
	type edge struct {
		inside func(p orb.Point) bool
		cross  func(a, b orb.Point) orb.Point
	}
	xAt := func(x float64) func(a, c orb.Point) orb.Point {
		return func(a, c orb.Point) orb.Point {
			t := (x - a[0]) / (c[0] - a[0])
			return orb.Point{x, a[1] + float64(t*(c[1]-a[1]))}
		}
	}
	yAt := func(y float64) func(a, c orb.Point) orb.Point {
		return func(a, c orb.Point) orb.Point {
			t := (y - a[1]) / (c[1] - a[1])
			return orb.Point{a[0] + float64(t*(c[0]-a[0])), y}
		}
	}
	edges := [4]edge{
		{func(p orb.Point) bool { return p[0] >= b.Min[0] }, xAt(b.Min[0])},
		{func(p orb.Point) bool { return p[0] <= b.Max[0] }, xAt(b.Max[0])},
		{func(p orb.Point) bool { return p[1] >= b.Min[1] }, yAt(b.Min[1])},
		{func(p orb.Point) bool { return p[1] <= b.Max[1] }, yAt(b.Max[1])},
	}
	for _, e := range edges {
		if len(pts) == 0 {
			return nil
		}
		out := make([]orb.Point, 0, len(pts)+4)
		prev := pts[len(pts)-1]
		prevIn := e.inside(prev)
		for _, cur := range pts {
			curIn := e.inside(cur)
			switch {
			case curIn && prevIn:
				out = append(out, cur)
			case curIn && !prevIn:
				out = append(out, e.cross(prev, cur), cur)
			case !curIn && prevIn:
				out = append(out, e.cross(prev, cur))
			}
			prev, prevIn = cur, curIn
		}
		pts = out
	}
	if len(pts) < 3 {
		return nil
	}
	ring := make(orb.Ring, 0, len(pts)+1)
	ring = append(ring, pts...)
	return append(ring, pts[0])
}

// ClippedArea returns the area of the part of a multipolygon inside an
// axis-aligned rectangle: for every polygon, the clipped shell's area minus
// the clipped holes' areas, summed in order. A polygon wholly inside the
// rectangle contributes exactly PolygonArea, one wholly outside exactly 0.
// The result equals the area of Shapely's geometry.intersection(box) up to
// floating-point rounding.
func ClippedArea(mp orb.MultiPolygon, b orb.Bound) float64 {
	a := 0.0
	for _, p := range mp {
		if len(p) == 0 {
			continue
		}
		pb := p[0].Bound()
		if b.Contains(pb.Min) && b.Contains(pb.Max) {
			a += PolygonArea(p)
			continue
		}
		if pb.Max[0] <= b.Min[0] || pb.Min[0] >= b.Max[0] || pb.Max[1] <= b.Min[1] || pb.Min[1] >= b.Max[1] {
			continue
		}
		pa := 0.0
		if r := ClipRing(p[0], b); r != nil {
			pa = clipAbs(RingSignedArea(r))
		}
		for _, h := range p[1:] {
			if r := ClipRing(h, b); r != nil {
				pa -= clipAbs(RingSignedArea(r))
			}
		}
		a += pa
	}
	return a
}

func clipAbs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
