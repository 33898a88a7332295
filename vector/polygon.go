package vector

import (
	"math"

	"github.com/paulmach/orb"
)

// RingSignedArea returns the planar area enclosed by a closed ring, positive
// for a clockwise ring in a y-up frame (counter-clockwise as drawn in a
// y-down pixel frame) and negative otherwise, as GEOS defines it. It evaluates the shoelace formula
// relative to the first vertex's x in the same order as GEOS's
// Area::ofRingSigned, so results agree with Shapely bit for bit on the same
// coordinates. Rings with fewer than three points have zero area.
func RingSignedArea(r orb.Ring) float64 {
	n := len(r)
	if n < 3 {
		return 0
	}
	x0 := r[0][0]
	p1x, p1y := 0.0, r[0][1]
	p2x, p2y := r[1][0]-x0, r[1][1]
	sum := 0.0
	for i := 1; i < n-1; i++ {
		p0y := p1y
		p1x, p1y = p2x, p2y
		p2x, p2y = r[i+1][0]-x0, r[i+1][1]
		// float64() keeps the product rounded on its own: no fused
		// multiply-add on arm64, identical bits on every architecture.
		sum += float64(p1x * (p0y - p2y))
	}
	return sum / 2
}

// PolygonArea returns a polygon's planar area: the absolute area of its
// shell minus the absolute areas of its holes (GEOS Polygon::getArea).
func PolygonArea(p orb.Polygon) float64 {
	if len(p) == 0 {
		return 0
	}
	a := math.Abs(RingSignedArea(p[0]))
	for _, h := range p[1:] {
		a -= math.Abs(RingSignedArea(h))
	}
	return a
}

// MultiPolygonArea returns the sum of the areas of a multipolygon's parts,
// summed in order.
func MultiPolygonArea(mp orb.MultiPolygon) float64 {
	a := 0.0
	for _, p := range mp {
		a += PolygonArea(p)
	}
	return a
}

// Centroid returns the area-weighted centroid of a multipolygon with GEOS's
// algorithm (triangle fans from each shell's first vertex, holes
// subtracted),
// so it agrees with Shapely's centroid on the same coordinates. ok is false
// when the total area is zero (degenerate geometry has no area centroid).
func Centroid(mp orb.MultiPolygon) (c orb.Point, ok bool) {
	var base orb.Point
	var cx, cy, area2 float64
	add := func(r orb.Ring, positive bool) {
		sign := -1.0
		if positive {
			sign = 1
		}
		for i := 0; i+1 < len(r); i++ {
			p1, p2 := r[i], r[i+1]
			tx := base[0] + p1[0] + p2[0]
			ty := base[1] + p1[1] + p2[1]
			// Products are wrapped in float64() so that arm64 does not
			// fuse them into multiply-adds (bit-identical results).
			a2 := float64((p1[0]-base[0])*(p2[1]-base[1])) - float64((p2[0]-base[0])*(p1[1]-base[1]))
			cx += float64(sign * a2 * tx)
			cy += float64(sign * a2 * ty)
			area2 += float64(sign * a2)
		}
	}
	for _, p := range mp {
		if len(p) == 0 {
			continue
		}
		// GEOS: every shell resets the fan's base point to its first
		// vertex (holes use their shell's); a shell adds positively when
		// clockwise (y-up), a hole when counter-clockwise, and
		// RingSignedArea is positive for clockwise.
		if len(p[0]) > 0 {
			base = p[0][0]
		}
		add(p[0], RingSignedArea(p[0]) > 0)
		for _, h := range p[1:] {
			add(h, RingSignedArea(h) < 0)
		}
	}
	if area2 == 0 {
		return orb.Point{}, false
	}
	return orb.Point{cx / 3 / area2, cy / 3 / area2}, true
}

// RingContains reports whether pt lies strictly inside the closed ring by
// the even-odd crossing rule (points exactly on an edge may go either way).
func RingContains(r orb.Ring, pt orb.Point) bool {
	in := false
	n := len(r)
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		xi, yi := r[i][0], r[i][1]
		xj, yj := r[j][0], r[j][1]
		if (yi > pt[1]) != (yj > pt[1]) {
			x := (xj-xi)*(pt[1]-yi)/(yj-yi) + xi
			if pt[0] < x {
				in = !in
			}
		}
	}
	return in
}

// PolygonContains reports whether pt lies inside the polygon's shell and
// outside its holes.
func PolygonContains(p orb.Polygon, pt orb.Point) bool {
	if len(p) == 0 || !RingContains(p[0], pt) {
		return false
	}
	for _, h := range p[1:] {
		if RingContains(h, pt) {
			return false
		}
	}
	return true
}

// Bound returns the bounding box of a multipolygon's shells.
func Bound(mp orb.MultiPolygon) orb.Bound {
	return mp.Bound()
}
