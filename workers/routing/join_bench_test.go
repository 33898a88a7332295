package routing

import (
	"math"
	"testing"

	"github.com/paulmach/orb"
	"github.com/tidwall/rtree"

	"github.com/geodisaster/engine/vector"
)

// benchExtentScene is a synth --full sized routing scene: a 35 x 36 node
// lattice at 0.001 degrees with one midpoint per edge (2,485 edges of 3
// vertices; the corpus has 2,408 to 2,499) and a 41-vertex flood polygon
// over about a quarter of it.
func benchExtentScene() ([]orb.LineString, *FloodExtent) {
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
	var ring [][2]float64
	c := node(nx/3, ny/3)
	for k := range 40 {
		a := 2 * math.Pi * float64(k) / 40
		ring = append(ring, [2]float64{c[0] + 0.01*math.Cos(a), c[1] + 0.009*math.Sin(a)})
	}
	ring = append(ring, ring[0])
	return lines, &FloodExtent{Polygons: [][][][2]float64{{ring}}}
}

// treeExtentJoin is the r-tree alternative to floodPolygons.meets: the
// edges' bounds in an r-tree, searched with each polygon's bound, each
// candidate tested with the same predicate.
func treeExtentJoin(lines []orb.LineString, f floodPolygons) []bool {
	var tr rtree.RTreeG[int32]
	for i, l := range lines {
		b := l.Bound()
		tr.Insert(b.Min, b.Max, int32(i))
	}
	out := make([]bool, len(lines))
	for k, p := range f.polys {
		tr.Search(f.bounds[k].Min, f.bounds[k].Max, func(_, _ [2]float64, i int32) bool {
			if !out[i] && vector.LineIntersectsPolygon(lines[i], p) {
				out[i] = true
			}
			return true
		})
	}
	return out
}

// BenchmarkExtentJoin measures EstimateExposure(blocked_roads)' join of
// road edges with the flood extent: the scan over the polygon bounds
// (floodPolygons.meets per edge) against an r-tree over the edges built
// per scene and searched per polygon.
func BenchmarkExtentJoin(b *testing.B) {
	lines, fl := benchExtentScene()
	f := newFloodPolygons(fl)
	tree := treeExtentJoin(lines, f)
	n := 0
	for i, l := range lines {
		if got := f.meets(l); got != tree[i] {
			b.Fatalf("edge %d: scan %v, r-tree %v", i, got, tree[i])
		} else if got {
			n++
		}
	}
	if n == 0 || n == len(lines) {
		b.Fatalf("%d of %d edges meet the extent", n, len(lines))
	}
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			for _, l := range lines {
				f.meets(l)
			}
		}
	})
	b.Run("rtree", func(b *testing.B) {
		for b.Loop() {
			treeExtentJoin(lines, f)
		}
	})
}
