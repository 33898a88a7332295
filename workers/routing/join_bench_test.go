package routing

import (
	"fmt"
	"math"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geodisaster/engine/vector"
)

// benchExtentScene is a synth --full sized routing scene: a 35 x 36 node
// lattice at 0.001 degrees with one midpoint per edge (2,449 edges of 3
// vertices; the corpus has 2,408 to 2,499, the release about 2,275 per
// scene) and a flood extent of n 41-vertex polygons: n = 1 covers about a
// quarter of the lattice (the corpus has 1 or 2 polygons), larger n tile
// the same area with smaller polygons, as a fragmented extent would.
func benchExtentScene(n int) ([]orb.LineString, *FloodExtent) {
	const nx, ny, step = 35, 36, 0.001
	lon0, lat0 := -90.1, 29.9
	node := func(i, j int) [2]float64 { return [2]float64{lon0 + float64(i)*step, lat0 + float64(j)*step} }
	var lines []orb.LineString
	edge := func(a, b [2]float64) {
		mid := orb.Point{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2}
		lines = append(lines, orb.LineString{orb.Point(a), mid, orb.Point(b)})
	}
	for j := range ny {
		for i := range nx {
			if i+1 < nx {
				edge(node(i, j), node(i+1, j))
			}
			if j+1 < ny {
				edge(node(i, j), node(i, j+1))
			}
		}
	}
	fl := &FloodExtent{}
	side := int(math.Ceil(math.Sqrt(float64(n))))
	c0 := node(nx/3, ny/3)
	span := 0.02 // the extent's width and height in degrees
	for k := range n {
		cx := c0[0] - span/2 + span*(float64(k%side)+0.5)/float64(side)
		cy := c0[1] - span/2 + span*(float64(k/side)+0.5)/float64(side)
		r := 0.4 * span / float64(side)
		var ring [][2]float64
		for v := range 40 {
			a := 2 * math.Pi * float64(v) / 40
			ring = append(ring, [2]float64{cx + r*math.Cos(a), cy + 0.9*r*math.Sin(a)})
		}
		ring = append(ring, ring[0])
		fl.Polygons = append(fl.Polygons, [][][2]float64{ring})
	}
	return lines, fl
}

// scanMeets is the scan floodPolygons.meets replaced, kept as the
// benchmark's baseline: every polygon whose bound meets the road's, in
// polygon order.
func scanMeets(f *floodPolygons, line orb.LineString) bool {
	lb := line.Bound()
	for k, p := range f.polys {
		if len(line) > 0 && !lb.Intersects(f.bounds[k]) {
			continue
		}
		if vector.LineIntersectsPolygon(line, p) {
			return true
		}
	}
	return false
}

// BenchmarkExtentJoin measures EstimateExposure(blocked_roads)' join of
// road edges with the flood extent: the r-tree over the polygons
// (newFloodPolygons, then meets per edge) against the scan of every
// polygon bound it replaced, for the corpus' one-polygon extent and
// fragmented extents of 64 and 512 polygons.
func BenchmarkExtentJoin(b *testing.B) {
	for _, n := range []int{1, 64, 512} {
		lines, fl := benchExtentScene(n)
		f := newFloodPolygons(fl)
		met := 0
		for i, l := range lines {
			if got, want := f.meets(l), scanMeets(f, l); got != want {
				b.Fatalf("%d polygons, edge %d: r-tree %v, scan %v", n, i, got, want)
			} else if got {
				met++
			}
		}
		if met == 0 || met == len(lines) {
			b.Fatalf("%d of %d edges meet the extent", met, len(lines))
		}
		name := fmt.Sprintf("edges=%d/polygons=%d", len(lines), n)
		b.Run(name+"/scan", func(b *testing.B) {
			for b.Loop() {
				for _, l := range lines {
					scanMeets(f, l)
				}
			}
		})
		b.Run(name+"/rtree", func(b *testing.B) {
			for b.Loop() {
				f := newFloodPolygons(fl)
				for _, l := range lines {
					f.meets(l)
				}
			}
		})
	}
}
