package raster

import "fmt"

// PixelPoint is a pixel corner: column X and row Y of the grid lines
// (0..width, 0..height), so pixel (col, row) spans [X, X+1] x [Y, Y+1].
type PixelPoint struct{ X, Y int32 }

// PixelRing is a closed ring of pixel corners, without the repeated first
// point, holding only the corners where the boundary turns.
type PixelRing []PixelPoint

// SignedArea2 returns twice the ring's signed area in pixel units with y
// pointing down (rows), positive for a ring that runs clockwise on screen.
func (r PixelRing) SignedArea2() int64 {
	var s int64
	for i := range r {
		j := (i + 1) % len(r)
		s += int64(r[i].X)*int64(r[j].Y) - int64(r[j].X)*int64(r[i].Y)
	}
	return s
}

// PixelPolygon is the outline of one labelled component.
type PixelPolygon struct {
	// Label is the component's label (1..n).
	Label int32
	// Exterior runs clockwise on screen (rows down): the component lies on
	// its right. It starts at the top-left corner of the component's first
	// pixel in raster order and heads east.
	Exterior PixelRing
	// Holes run counter-clockwise on screen, in the raster order of their
	// first traced edge.
	Holes []PixelRing
}

// Edge directions of the boundary walk (rows grow downwards).
const (
	dirE = 1 << iota
	dirS
	dirW
	dirN
)

// leftOf returns the direction after a left turn (on screen, rows down).
func leftOf(d uint8) uint8 {
	switch d {
	case dirE:
		return dirN
	case dirS:
		return dirE
	case dirW:
		return dirS
	}
	return dirW
}

// Polygonize traces the outlines of the n components of an 8-connected
// labelling (as returned by Label with Connect8; 0 is background) the way
// GDAL's polygonizer does with 8-connectivity (rasterio.features.shapes
// with connectivity=8 and a mask of the labelled pixels): one polygon per
// component whose exterior ring passes twice through a corner where two
// of its pixels touch diagonally, and one hole per enclosed 4-connected
// background region. Rings keep only the corners where the boundary turns.
// Polygons are returned in label order. Two components must never touch,
// which holds for any 8-connected labelling; a violation is an error.
func Polygonize(labels []int32, width, height, n int) ([]PixelPolygon, error) {
	if width < 0 || height < 0 || len(labels) != width*height {
		return nil, fmt.Errorf("raster: labels have %d values, want %dx%d", len(labels), width, height)
	}
	at := func(c, r int) int32 {
		if c < 0 || r < 0 || c >= width || r >= height {
			return 0
		}
		return labels[r*width+c]
	}
	vw := width + 1
	// out[v] holds the directions of the unwalked boundary edges leaving
	// corner v; owner[v] the label they belong to.
	out := make([]uint8, vw*(height+1))
	owner := make([]int32, vw*(height+1))
	for y := 0; y <= height; y++ {
		for x := 0; x <= width; x++ {
			nw, ne, sw, se := at(x-1, y-1), at(x, y-1), at(x-1, y), at(x, y)
			var bits uint8
			var lab int32
			add := func(d uint8, l int32) error {
				if lab != 0 && lab != l {
					return fmt.Errorf("raster: components %d and %d touch at corner (%d,%d); not an 8-connected labelling", lab, l, x, y)
				}
				bits |= d
				lab = l
				return nil
			}
			if se != 0 && se != ne {
				if err := add(dirE, se); err != nil {
					return nil, err
				}
			}
			if sw != 0 && sw != se {
				if err := add(dirS, sw); err != nil {
					return nil, err
				}
			}
			if nw != 0 && nw != sw {
				if err := add(dirW, nw); err != nil {
					return nil, err
				}
			}
			if ne != 0 && ne != nw {
				if err := add(dirN, ne); err != nil {
					return nil, err
				}
			}
			v := y*vw + x
			out[v], owner[v] = bits, lab
		}
	}
	polys := make([]PixelPolygon, n)
	for i := range polys {
		polys[i].Label = int32(i + 1)
	}
	orig := make([]uint8, len(out))
	copy(orig, out)
	var dirs []uint8
	var verts []PixelPoint
	// Every ring contains a horizontal edge; start at the first unwalked
	// east- or west-bound edge in corner raster order.
	for v := range out {
		for out[v]&(dirE|dirW) != 0 {
			d0 := uint8(dirE)
			if out[v]&dirE == 0 {
				d0 = dirW
			}
			lab := owner[v]
			if lab < 1 || int(lab) > n {
				return nil, fmt.Errorf("raster: label %d outside 1..%d", lab, n)
			}
			dirs, verts = dirs[:0], verts[:0]
			cur, d := v, d0
			for {
				if out[cur]&d == 0 {
					return nil, fmt.Errorf("raster: boundary walk reused an edge at corner (%d,%d)", cur%vw, cur/vw)
				}
				out[cur] &^= d
				dirs = append(dirs, d)
				verts = append(verts, PixelPoint{int32(cur % vw), int32(cur / vw)})
				switch d {
				case dirE:
					cur++
				case dirW:
					cur--
				case dirS:
					cur += vw
				default:
					cur -= vw
				}
				o := orig[cur]
				switch {
				case o == 0:
					return nil, fmt.Errorf("raster: open boundary at corner (%d,%d)", cur%vw, cur/vw)
				case o&(o-1) != 0:
					// A diagonal touch: turn left, which keeps the
					// component's two pixels connected through the
					// corner (8-connectivity).
					d = leftOf(d)
				default:
					d = o
				}
				if cur == v && d == d0 {
					break
				}
			}
			ring := make(PixelRing, 0, 8)
			for i := range dirs {
				prev := dirs[(i+len(dirs)-1)%len(dirs)]
				if dirs[i] != prev {
					ring = append(ring, verts[i])
				}
			}
			p := &polys[lab-1]
			if ring.SignedArea2() > 0 {
				if p.Exterior != nil {
					return nil, fmt.Errorf("raster: component %d has two exterior rings", lab)
				}
				p.Exterior = ring
			} else {
				p.Holes = append(p.Holes, ring)
			}
		}
	}
	for i := range polys {
		if polys[i].Exterior == nil {
			return nil, fmt.Errorf("raster: component %d has no pixels", i+1)
		}
	}
	return polys, nil
}
