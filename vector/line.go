package vector

import "github.com/paulmach/orb"

// SegmentsIntersect reports whether the closed segments ab and cd share at
// least one point (touching endpoints and collinear overlaps count).
func SegmentsIntersect(a, b, c, d orb.Point) bool {
	o1, o2 := lineOrient(a, b, c), lineOrient(a, b, d)
	o3, o4 := lineOrient(c, d, a), lineOrient(c, d, b)
	if o1 != o2 && o3 != o4 {
		return true
	}
	return (o1 == 0 && lineOnSegment(a, b, c)) || (o2 == 0 && lineOnSegment(a, b, d)) ||
		(o3 == 0 && lineOnSegment(c, d, a)) || (o4 == 0 && lineOnSegment(c, d, b))
}

// lineOrient returns the sign of the cross product (b-a) x (c-a): 1 for a
// counter-clockwise turn, -1 for clockwise, 0 for collinear. Products are
// rounded separately so no platform fuses them.
func lineOrient(a, b, c orb.Point) int {
	v := float64((b[0]-a[0])*(c[1]-a[1])) - float64((b[1]-a[1])*(c[0]-a[0]))
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// lineOnSegment reports whether p, collinear with ab, lies within its
// bounding box.
func lineOnSegment(a, b, p orb.Point) bool {
	return p[0] >= min(a[0], b[0]) && p[0] <= max(a[0], b[0]) && p[1] >= min(a[1], b[1]) && p[1] <= max(a[1], b[1])
}

// LineIntersectsPolygon reports whether a polyline shares a point with a
// polygon (planar): a vertex lies inside it, or a segment meets one of its
// rings. A line entirely inside a hole does not intersect.
func LineIntersectsPolygon(l orb.LineString, p orb.Polygon) bool {
	if len(l) == 0 || len(p) == 0 {
		return false
	}
	return LineIntersectsPolygonBounds(l, l.Bound(), p, p.Bound())
}

// LineIntersectsPolygonBounds is LineIntersectsPolygon for a line and a
// polygon whose bounds (lb = l.Bound(), pb = p.Bound()) the caller already
// has, as a join of many lines with a few polygons does.
func LineIntersectsPolygonBounds(l orb.LineString, lb orb.Bound, p orb.Polygon, pb orb.Bound) bool {
	if len(l) == 0 || len(p) == 0 {
		return false
	}
	if !lb.Intersects(pb) {
		return false
	}
	for _, pt := range l {
		if PolygonContains(p, pt) {
			return true
		}
	}
	for i := 1; i < len(l); i++ {
		for _, r := range p {
			for k := 1; k < len(r); k++ {
				if SegmentsIntersect(l[i-1], l[i], r[k-1], r[k]) {
					return true
				}
			}
		}
	}
	return false
}
