package multihazard

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tidwall/rtree"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/workers"
)

// benchFootprint builds the footprint geometry of a disc of about cells
// positive cells on a w x h grid at the synthetic corpus' 0.0045-degree
// pitch, and n WGS84 points spread over the whole grid.
func benchFootprint(b *testing.B, w, h, cells, n int) (*footprintGeometry, [][2]float64) {
	b.Helper()
	t := crs.Affine{0.0045, 0, -120.537, 0, -0.0045, 32.6115}
	m := &HazardMask{Path: "f.tif", Info: workers.RasterInfo{Width: w, Height: h, EPSG: 4326, Transform: t, HasTransform: true}, IsSet: make([]bool, w*h)}
	r2 := float64(cells) / math.Pi
	for i := range w * h {
		dx, dy := float64(i%w)-float64(w)/2, float64(i/w)-float64(h)/2
		if dx*dx+dy*dy <= r2 {
			m.Ones = append(m.Ones, i)
			m.IsSet[i] = true
		}
	}
	g, err := newFootprintGeometry(m)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pts := make([][2]float64, n)
	for i := range pts {
		pts[i][0], pts[i][1] = t.Apply(rng.Float64()*float64(w), rng.Float64()*float64(h))
	}
	return g, pts
}

// centreTree indexes the footprint's cell centres in an r-tree: the
// alternative to footprintGeometry.nearest's scan that
// BenchmarkFootprintNearest measures.
func centreTree(g *footprintGeometry) *rtree.RTreeG[int32] {
	var tr rtree.RTreeG[int32]
	for k := range g.cx {
		p := [2]float64{g.cx[k], g.cy[k]}
		tr.Insert(p, p, int32(k))
	}
	return &tr
}

// treeNearest is footprintGeometry.nearest through the r-tree: the box
// distance bounds the exact one from below (rounding is monotone), so the
// first item the tree yields carries the scan's minimum, computed by the
// same expression.
func treeNearest(g *footprintGeometry, tr *rtree.RTreeG[int32], lon, lat float64) (float64, error) {
	px, py, err := crs.Transform(g.wgs84, g.local, lon, lat)
	if err != nil {
		return 0, err
	}
	best := math.Inf(1)
	tr.Nearby(func(min, max [2]float64, _ int32, _ bool) float64 {
		var dx, dy float64
		if px < min[0] {
			dx = min[0] - px
		} else if px > max[0] {
			dx = px - max[0]
		}
		if py < min[1] {
			dy = min[1] - py
		} else if py > max[1] {
			dy = py - max[1]
		}
		return float64(dx*dx) + float64(dy*dy)
	}, func(_, _ [2]float64, k int32, _ float64) bool {
		dx, dy := px-g.cx[k], py-g.cy[k]
		if d := math.Sqrt(float64(dx*dx) + float64(dy*dy)); d < best {
			best = d
		}
		return false
	})
	return best, nil
}

// BenchmarkFootprintNearest measures EstimateExposure's join of OSM
// points with the footprint's positive cells (the nearest cell centre of
// each point): the scan footprintGeometry.nearest runs against an r-tree
// built per footprint and queried per point. The sizes are the synth
// --full corpus' median and largest footprints (352 and 1,469 cells, 25
// and 42 OSM features) and a 40,000-cell footprint beyond any we have.
func BenchmarkFootprintNearest(b *testing.B) {
	for _, sz := range []struct{ w, h, cells, points int }{{185, 177, 352, 25}, {185, 177, 1469, 42}, {512, 512, 40000, 200}} {
		g, pts := benchFootprint(b, sz.w, sz.h, sz.cells, sz.points)
		tr := centreTree(g)
		for _, p := range pts {
			a, _ := g.nearest(p[0], p[1])
			c, _ := treeNearest(g, tr, p[0], p[1])
			if math.Float64bits(a) != math.Float64bits(c) {
				b.Fatalf("point %v: scan %v, r-tree %v", p, a, c)
			}
		}
		name := fmt.Sprintf("cells=%d/points=%d", len(g.cx), len(pts))
		b.Run(name+"/scan", func(b *testing.B) {
			for b.Loop() {
				for _, p := range pts {
					if _, err := g.nearest(p[0], p[1]); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(name+"/rtree", func(b *testing.B) {
			for b.Loop() {
				tr := centreTree(g)
				for _, p := range pts {
					if _, err := treeNearest(g, tr, p[0], p[1]); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
