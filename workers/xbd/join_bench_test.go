package xbd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/paulmach/orb"
	"github.com/tidwall/rtree"

	"github.com/geodisaster/engine/vector"
)

// benchBuildings places n rotated rectangular footprints (10 to 30 pixels
// a side) on a 1024 x 1024 frame, a third of them severe.
func benchBuildings(n int) []XBDBuilding {
	rng := rand.New(rand.NewPCG(3, 4))
	bs := make([]XBDBuilding, n)
	for i := range bs {
		cx, cy := rng.Float64()*1024, rng.Float64()*1024
		hw, hh, a := 5+rng.Float64()*10, 5+rng.Float64()*10, rng.Float64()*math.Pi
		s, c := math.Sincos(a)
		var r orb.Ring
		for _, k := range [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}} {
			x, y := k[0]*hw, k[1]*hh
			r = append(r, orb.Point{cx + x*c - y*s, cy + x*s + y*c})
		}
		class := XBDNoDamage
		if i%3 == 0 {
			class = XBDMajorDamage + i%2
		}
		bs[i] = newXBDBuilding(fmt.Sprint(i), class, orb.MultiPolygon{{r}})
	}
	return bs
}

// treeSevereAreas is the r-tree alternative to xbdGridRegions' area join:
// the cells in an r-tree, each severe building clipped only to the cells
// its bound meets (a disjoint cell adds exactly 0, and each cell still
// sums in building order).
func treeSevereAreas(bs []XBDBuilding, w, h, rows, cols int, gsd float64) []float64 {
	var tr rtree.RTreeG[int32]
	for r := range rows {
		for c := range cols {
			b := xbdCellBound(w, h, rows, cols, r, c)
			tr.Insert(b.Min, b.Max, int32(r*cols+c))
		}
	}
	out := make([]float64, rows*cols)
	g2 := gsd * gsd
	for _, b := range bs {
		if !xbdSevere(b.Class) {
			continue
		}
		bb := b.Geom.Bound()
		tr.Search(bb.Min, bb.Max, func(_, _ [2]float64, i int32) bool {
			a := vector.ClippedArea(b.Geom, xbdCellBound(w, h, rows, cols, int(i)/cols, int(i)%cols))
			out[i] += float64(a * g2)
			return true
		})
	}
	return out
}

// BenchmarkGridSevereArea measures the xBD building-to-cell join of
// AssessDamage(quadrant_2x2, grid_4x4): xbdAddSevereAreas' bound test per
// cell against an r-tree over the cells, at the synth --full corpus'
// median and largest scenes (69 and 297 buildings).
func BenchmarkGridSevereArea(b *testing.B) {
	for _, n := range []int{69, 297} {
		bs := benchBuildings(n)
		for _, grid := range []int{2, 4} {
			regs := xbdGridRegions(bs, 1024, 1024, grid, grid, 0.5)
			tree := treeSevereAreas(bs, 1024, 1024, grid, grid, 0.5)
			for i := range regs {
				if math.Float64bits(regs[i].SevereAreaM2) != math.Float64bits(tree[i]) {
					b.Fatalf("cell %d: scan %v, r-tree %v", i, regs[i].SevereAreaM2, tree[i])
				}
			}
			name := fmt.Sprintf("buildings=%d/grid=%dx%d", n, grid, grid)
			b.Run(name+"/scan", func(b *testing.B) {
				for b.Loop() {
					regs := make([]XBDRegion, grid*grid)
					for i := range regs {
						regs[i].Row, regs[i].Col = i/grid, i%grid
					}
					xbdAddSevereAreas(regs, bs, 1024, 1024, grid, grid, 0.5)
				}
			})
			b.Run(name+"/rtree", func(b *testing.B) {
				for b.Loop() {
					treeSevereAreas(bs, 1024, 1024, grid, grid, 0.5)
				}
			})
		}
	}
}

// TestGridRegionsBoundSkip: skipping the cells a building's bound cannot
// reach gives, bit for bit, the areas of clipping every building to every
// cell (buildings straddle cell edges and the frame).
func TestGridRegionsBoundSkip(t *testing.T) {
	bs := benchBuildings(297)
	for _, grid := range []int{2, 4} {
		regs := xbdGridRegions(bs, 1024, 1024, grid, grid, 0.5)
		for i := range regs {
			want := 0.0
			for _, b := range bs {
				if xbdSevere(b.Class) {
					want += float64(vector.ClippedArea(b.Geom, xbdCellBound(1024, 1024, grid, grid, regs[i].Row, regs[i].Col)) * 0.25)
				}
			}
			if math.Float64bits(regs[i].SevereAreaM2) != math.Float64bits(want) || want == 0 {
				t.Errorf("%dx%d cell %s: %v, clipping to every cell %v", grid, grid, regs[i].ID, regs[i].SevereAreaM2, want)
			}
		}
	}
}
