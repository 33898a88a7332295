package routing

import (
	"fmt"
	"math"
	"testing"

	"github.com/paulmach/orb"
	"github.com/tidwall/rtree"

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

// polygonTree is the r-tree alternative to floodPolygons.meets that
// BenchmarkExtentJoin measures: the polygons' bounds in a tidwall/rtree,
// searched with each road's bound, each candidate tested with the same
// predicate (LineIntersectsPolygon rejects a polygon whose bound misses
// the road's, inclusively as the tree compares, so the answer is the
// scan's whatever order the tree returns candidates in).
type polygonTree struct {
	f     floodPolygons
	index rtree.RTreeG[int32]
}

func newPolygonTree(f floodPolygons) *polygonTree {
	t := &polygonTree{f: f}
	for k, b := range f.bounds {
		t.index.Insert(b.Min, b.Max, int32(k))
	}
	return t
}

func (t *polygonTree) meets(line orb.LineString) bool {
	if len(line) == 0 {
		return false
	}
	lb := line.Bound()
	meets := false
	t.index.Search(lb.Min, lb.Max, func(_, _ [2]float64, k int32) bool {
		meets = vector.LineIntersectsPolygon(line, t.f.polys[k])
		return !meets
	})
	return meets
}

// BenchmarkExtentJoin measures EstimateExposure(blocked_roads)' join of
// road edges with the flood extent: floodPolygons.meets' scan of every
// polygon bound against an r-tree of them built per scene, for the
// corpus' one-polygon extent and fragmented extents of 64 and 512
// polygons.
func BenchmarkExtentJoin(b *testing.B) {
	for _, n := range []int{1, 64, 512} {
		lines, fl := benchExtentScene(n)
		f := newFloodPolygons(fl)
		t := newPolygonTree(f)
		met := 0
		for i, l := range lines {
			if got, tree := f.meets(l), t.meets(l); got != tree {
				b.Fatalf("%d polygons, edge %d: scan %v, r-tree %v", n, i, got, tree)
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
					f.meets(l)
				}
			}
		})
		b.Run(name+"/rtree", func(b *testing.B) {
			for b.Loop() {
				t := newPolygonTree(f)
				for _, l := range lines {
					t.meets(l)
				}
			}
		})
	}
}
