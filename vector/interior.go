package vector

import (
	"math"
	"sort"

	"github.com/paulmach/orb"
)

// InteriorPoint returns the point GEOS's getInteriorPoint computes for g,
// which is Shapely's representative_point() (GEOS 3.8 and later):
//
//   - areal geometries: for each polygon, a horizontal scan line at the
//     middle of the widest band of Y values between vertices that
//     contains the centre of the polygon's Y extent; the midpoint of its
//     widest section inside the polygon, from the polygon whose section is
//     widest (the first when equal; a polygon of zero area gives its first
//     vertex);
//   - linear geometries: the interior vertex nearest the length-weighted
//     centroid, or the nearest endpoint when no line has an interior
//     vertex;
//   - points: the point nearest their mean.
//
// A collection uses its components of its highest dimension. Rings are
// closed when their last point is not their first. The arithmetic is
// GEOS's, operation for operation, so the result is bit for bit the same.
// ok is false for an empty geometry.
func InteriorPoint(g orb.Geometry) (p orb.Point, ok bool) {
	switch dimension(g) {
	case 0:
		return interiorPointPoint(g)
	case 1:
		return interiorPointLine(g)
	case 2:
		return interiorPointArea(g)
	}
	return orb.Point{}, false
}

// dimension returns GEOS's dimension of g: 0 points, 1 lines, 2 areas,
// the highest of a collection's components, -1 for an empty collection.
func dimension(g orb.Geometry) int {
	switch g := g.(type) {
	case orb.Point, orb.MultiPoint:
		return 0
	case orb.LineString, orb.MultiLineString, orb.Ring:
		return 1
	case orb.Polygon, orb.MultiPolygon, orb.Bound:
		return 2
	case orb.Collection:
		d := -1
		for _, c := range g {
			d = max(d, dimension(c))
		}
		return d
	}
	return -1
}

// dist is GEOS's Coordinate::distance.
func dist(a, b orb.Point) float64 {
	dx, dy := a[0]-b[0], a[1]-b[1]
	return math.Sqrt(float64(dx*dx) + float64(dy*dy)) // float64(): no fused multiply-add
}

// closed returns r with its first point appended when it is not closed.
func closed(r []orb.Point) []orb.Point {
	if len(r) > 0 && r[0] != r[len(r)-1] {
		return append(append(make([]orb.Point, 0, len(r)+1), r...), r[0])
	}
	return r
}

// components calls fn with each single geometry of g in order: a Point,
// LineString, Ring, Polygon or Bound, with multi-geometries and
// collections expanded.
func components(g orb.Geometry, fn func(orb.Geometry)) {
	switch g := g.(type) {
	case orb.MultiPoint:
		for _, p := range g {
			fn(p)
		}
	case orb.MultiLineString:
		for _, l := range g {
			fn(l)
		}
	case orb.MultiPolygon:
		for _, p := range g {
			fn(p)
		}
	case orb.Collection:
		for _, c := range g {
			components(c, fn)
		}
	default:
		fn(g)
	}
}

// interiorPointPoint is GEOS's InteriorPointPoint.
func interiorPointPoint(g orb.Geometry) (orb.Point, bool) {
	var pts []orb.Point
	components(g, func(c orb.Geometry) {
		if p, ok := c.(orb.Point); ok {
			pts = append(pts, p)
		}
	})
	if len(pts) == 0 {
		return orb.Point{}, false
	}
	var sx, sy float64
	for _, p := range pts {
		sx += p[0]
		sy += p[1]
	}
	c := orb.Point{sx / float64(len(pts)), sy / float64(len(pts))}
	best, bestD := pts[0], math.MaxFloat64
	for _, p := range pts {
		if d := dist(p, c); d < bestD {
			best, bestD = p, d
		}
	}
	return best, true
}

// line returns a LineString or Ring component's points (a ring closed).
func line(c orb.Geometry) ([]orb.Point, bool) {
	switch c := c.(type) {
	case orb.LineString:
		return c, true
	case orb.Ring:
		return closed(c), true
	}
	return nil, false
}

// lines returns a geometry's line strings, in order.
func lines(g orb.Geometry) [][]orb.Point {
	var out [][]orb.Point
	components(g, func(c orb.Geometry) {
		if l, ok := line(c); ok {
			out = append(out, l)
		}
	})
	return out
}

// lineCentroid is GEOS's Centroid of a linear geometry: segment midpoints
// weighted by length, or the mean of the first points of zero-length
// lines (and of the geometry's points) when every line has zero length.
func lineCentroid(g orb.Geometry) (orb.Point, bool) {
	var sumX, sumY, total, ptX, ptY float64
	n := 0
	addPoint := func(p orb.Point) {
		n++
		ptX += p[0]
		ptY += p[1]
	}
	components(g, func(c orb.Geometry) {
		if p, ok := c.(orb.Point); ok {
			addPoint(p)
			return
		}
		l, ok := line(c)
		if !ok {
			return
		}
		length := 0.0
		for i := 0; i+1 < len(l); i++ {
			s := dist(l[i], l[i+1])
			if s == 0 {
				continue
			}
			length += s
			sumX += float64(s * ((l[i][0] + l[i+1][0]) / 2))
			sumY += float64(s * ((l[i][1] + l[i+1][1]) / 2))
		}
		total += length
		if length == 0 && len(l) > 0 {
			addPoint(l[0])
		}
	})
	switch {
	case total > 0:
		return orb.Point{sumX / total, sumY / total}, true
	case n > 0:
		return orb.Point{ptX / float64(n), ptY / float64(n)}, true
	}
	return orb.Point{}, false
}

// interiorPointLine is GEOS's InteriorPointLine.
func interiorPointLine(g orb.Geometry) (orb.Point, bool) {
	ls := lines(g)
	var best orb.Point
	bestD, have := math.MaxFloat64, false
	add := func(p, c orb.Point) {
		if d := dist(p, c); !have || d < bestD {
			best, bestD, have = p, d, true
		}
	}
	if c, ok := lineCentroid(g); ok {
		for _, l := range ls {
			for i := 1; i < len(l)-1; i++ {
				add(l[i], c)
			}
		}
		if !have {
			for _, l := range ls {
				if len(l) > 0 {
					add(l[0], c)
					if len(l) > 1 {
						add(l[len(l)-1], c)
					}
				}
			}
		}
	}
	return best, have
}

// polygons returns a geometry's polygons, in order.
func polygons(g orb.Geometry) []orb.Polygon {
	var out []orb.Polygon
	components(g, func(c orb.Geometry) {
		switch c := c.(type) {
		case orb.Polygon:
			out = append(out, c)
		case orb.Bound:
			out = append(out, c.ToPolygon())
		}
	})
	return out
}

// interiorPointArea is GEOS's InteriorPointArea.
func interiorPointArea(g orb.Geometry) (orb.Point, bool) {
	var best orb.Point
	maxWidth := -1.0
	for _, poly := range polygons(g) {
		if len(poly) == 0 || len(poly[0]) == 0 {
			continue // empty
		}
		p, width := polygonInteriorPoint(poly)
		if width > maxWidth {
			best, maxWidth = p, width
		}
	}
	return best, maxWidth >= 0
}

// avg is GEOS's avg. The compiler turns the halving into a product by 0.5;
// float64() keeps it rounded on its own, so arm64 cannot fuse it into the
// subtraction that follows (the value is the same, halving being exact).
func avg(a, b float64) float64 { return float64((a + b) / 2.0) }

// polygonInteriorPoint is GEOS's InteriorPointPolygon: the point and the
// width of the interior section it is the midpoint of.
func polygonInteriorPoint(poly orb.Polygon) (orb.Point, float64) {
	rings := make([][]orb.Point, len(poly))
	for i, r := range poly {
		rings[i] = closed(r)
	}
	shellLo, shellHi := yRange(rings[0])
	// ScanLineYOrdinateFinder: the band between vertex Ys around the
	// centre of the Y extent.
	lo, hi := shellLo, shellHi
	centre := avg(lo, hi)
	for _, r := range rings {
		for _, p := range r {
			y := p[1]
			if y <= centre {
				if y > lo {
					lo = y
				}
			} else if y < hi {
				hi = y
			}
		}
	}
	scanY := avg(hi, lo)
	point, width := rings[0][0], 0.0 // zero-area polygons: the first vertex
	var crossings []float64
	for _, r := range rings {
		rlo, rhi := yRange(r)
		if scanY < rlo || scanY > rhi {
			continue
		}
		for i := 1; i < len(r); i++ {
			p0, p1 := r[i-1], r[i]
			if (p0[1] > scanY && p1[1] > scanY) || (p0[1] < scanY && p1[1] < scanY) {
				continue
			}
			// Horizontal edges and vertices on the scan line: a downward
			// edge excludes its start, an upward edge its end.
			if p0[1] == p1[1] || (p0[1] == scanY && p1[1] < scanY) || (p1[1] == scanY && p0[1] < scanY) {
				continue
			}
			x := p0[0]
			if p0[0] != p1[0] {
				m := (p1[1] - p0[1]) / (p1[0] - p0[0])
				x = p0[0] + ((scanY - p0[1]) / m)
			}
			crossings = append(crossings, x)
		}
	}
	sort.Float64s(crossings)
	for i := 0; i+1 < len(crossings); i += 2 {
		x1, x2 := crossings[i], crossings[i+1]
		if w := x2 - x1; w > width {
			width = w
			point = orb.Point{avg(x1, x2), scanY}
		}
	}
	return point, width
}

// yRange returns the smallest and largest Y of points.
func yRange(pts []orb.Point) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		lo, hi = math.Min(lo, p[1]), math.Max(hi, p[1])
	}
	return lo, hi
}
