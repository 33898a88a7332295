package regions

import (
	"encoding/binary"
	"fmt"
	"sync"
)

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
	vw := width + 1
	// out[v] holds the directions of the unwalked boundary edges leaving
	// corner v; owner[v] the label they belong to.
	sc := polyScratchPool.Get().(*polyScratch)
	defer polyScratchPool.Put(sc)
	nv := vw * (height + 1)
	// Every element of out and orig is written below; owner only where
	// out is non-zero, which is the only place it is read.
	sc.out = resize(sc.out, nv)
	sc.orig = resize(sc.orig, nv)
	sc.owner = resize(sc.owner, nv)
	sc.zero = reuse(sc.zero, width)
	out, orig, owner, zero := sc.out, sc.orig, sc.owner, sc.zero
	edges := 0 // boundary edges, at least the number of ring points
	for y := 0; y <= height; y++ {
		above, below := zero, zero
		if y > 0 {
			above = labels[(y-1)*width : y*width]
		}
		if y < height {
			below = labels[y*width : (y+1)*width]
		}
		// The corner's four pixels; the west pair slides from the
		// previous corner's east pair. In a valid labelling a corner's
		// labelled pixels share one label (they touch), so its edges
		// depend only on which pixels are labelled (cornerBits); the
		// loop is branch-free but for corners where the labels differ,
		// which cornerSlow handles as the edge checks always did.
		var nw, sw int32
		row := out[y*vw : y*vw+vw]
		rowOrig := orig[y*vw : y*vw+vw]
		rowOwner := owner[y*vw : y*vw+vw]
		for x := 0; x < len(row); x++ {
			// Skip eight background corners at a time.
			if x+8 <= width && nw|sw == 0 {
				a, b := above[x:x+8], below[x:x+8]
				if a[0]|a[1]|a[2]|a[3]|a[4]|a[5]|a[6]|a[7]|b[0]|b[1]|b[2]|b[3]|b[4]|b[5]|b[6]|b[7] == 0 {
					clear(row[x : x+8])
					clear(rowOrig[x : x+8])
					x += 7
					continue
				}
			}
			var ne, se int32
			if x < width {
				ne, se = above[x], below[x]
			}
			lab := nw | ne | sw | se
			mnw, mne, msw, mse := nonzero(nw), nonzero(ne), nonzero(sw), nonzero(se)
			bad := (nw^lab)&mnw | (ne^lab)&mne | (sw^lab)&msw | (se^lab)&mse
			k := cornerBits[mnw&8|mne&4|msw&2|mse&1]
			bits := k & 0xf
			if bad != 0 {
				var err error
				if bits, lab, err = cornerSlow(nw, ne, sw, se, x, y); err != nil {
					return nil, err
				}
				k = 4 << 4
			}
			row[x], rowOrig[x], rowOwner[x] = bits, bits, lab
			edges += int(k >> 4)
			nw, sw = ne, se
		}
	}
	polys := make([]PixelPolygon, n)
	for i := range polys {
		polys[i].Label = int32(i + 1)
	}
	err := walkRings(out, orig, vw, edges, func(v int, _ uint8, ring PixelRing) error {
		return addRing(polys, owner[v], ring)
	})
	if err != nil {
		return nil, err
	}
	return checkExteriors(polys)
}

// addRing files a traced ring under component lab of polys: the exterior
// when it runs clockwise on screen, else a hole.
func addRing(polys []PixelPolygon, lab int32, ring PixelRing) error {
	if lab < 1 || int(lab) > len(polys) {
		return fmt.Errorf("raster: label %d outside 1..%d", lab, len(polys))
	}
	p := &polys[lab-1]
	if ring.SignedArea2() > 0 {
		if p.Exterior != nil {
			return fmt.Errorf("raster: component %d has two exterior rings", lab)
		}
		p.Exterior = ring
	} else {
		p.Holes = append(p.Holes, ring)
	}
	return nil
}

// checkExteriors requires an exterior ring for every polygon.
func checkExteriors(polys []PixelPolygon) ([]PixelPolygon, error) {
	for i := range polys {
		if polys[i].Exterior == nil {
			return nil, fmt.Errorf("raster: component %d has no pixels", i+1)
		}
	}
	return polys, nil
}

// walkRings walks every boundary ring of the corner edge arrays out (the
// unwalked edges leaving each corner, cleared as they are walked) and orig
// (all of them), vw corners per row, and passes each to emit with its
// start corner and first direction (east or west). Rings are slices of
// one arena of capacity edges, the number of boundary edges; each is
// capacity-limited, so an append to one never writes into the next.
func walkRings(out, orig []uint8, vw, edges int, emit func(v int, d0 uint8, ring PixelRing) error) error {
	arena := make([]PixelPoint, 0, edges)
	// Every ring contains a horizontal edge; start at the first unwalked
	// east- or west-bound edge in corner raster order.
	const horizontal8 = (dirE | dirW) * 0x0101010101010101
	for v := 0; v < len(out); v++ {
		// Skip eight corners at a time while none has a horizontal edge
		// left (walks only clear bits, so a skipped corner stays clear).
		for v+8 <= len(out) && binary.LittleEndian.Uint64(out[v:])&horizontal8 == 0 {
			v += 8
		}
		if v == len(out) {
			break
		}
		for out[v]&(dirE|dirW) != 0 {
			d0 := uint8(dirE)
			if out[v]&dirE == 0 {
				d0 = dirW
			}
			// Walk the ring, keeping the corners where the direction
			// changes; the start corner is kept unless the last step
			// runs in the first step's direction.
			s := len(arena)
			cur, d, prev := v, d0, uint8(0)
			x, y := int32(v%vw), int32(v/vw)
			for {
				if out[cur]&d == 0 {
					return fmt.Errorf("raster: boundary walk reused an edge at corner (%d,%d)", x, y)
				}
				out[cur] &^= d
				if d != prev {
					arena = append(arena, PixelPoint{x, y})
				}
				prev = d
				switch d {
				case dirE:
					cur++
					x++
				case dirW:
					cur--
					x--
				case dirS:
					cur += vw
					y++
				default:
					cur -= vw
					y--
				}
				o := orig[cur]
				switch {
				case o == 0:
					return fmt.Errorf("raster: open boundary at corner (%d,%d)", x, y)
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
			if prev == d0 {
				s++
			}
			if err := emit(v, d0, PixelRing(arena[s:len(arena):len(arena)])); err != nil {
				return err
			}
		}
	}
	return nil
}

// polyScratch holds Polygonize's per-corner work arrays, reused across
// calls (they never escape).
type polyScratch struct {
	out, orig []uint8
	owner     []int32
	zero      []int32
	bits      []uint64 // TraceOutlines' two bit rows
}

var polyScratchPool = sync.Pool{New: func() any { return new(polyScratch) }}

// resize returns s with length n, keeping its contents, reallocating
// only when its capacity is short.
func resize[T uint8 | int32 | uint64](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// reuse returns s resized to n zeroed elements, reallocating only when its
// capacity is short.
func reuse[T uint8 | int32](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// nonzero returns -1 (all bits set) for a non-zero v and 0 for zero,
// without a branch.
func nonzero(v int32) int32 { return (v | -v) >> 31 }

// cornerBits[k], for the corner whose labelled pixels are the bits of k
// (8 nw, 4 ne, 2 sw, 1 se) and share one label, holds in its low four
// bits the boundary edges leaving the corner (east when se is labelled
// and ne is not, south when sw is and se is not, west when nw is and sw
// is not, north when ne is and nw is not), and in its high bits their
// count.
var cornerBits = func() (t [16]uint8) {
	for k := range t {
		nw, ne, sw, se := k&8 != 0, k&4 != 0, k&2 != 0, k&1 != 0
		var bits uint8
		if se && !ne {
			bits |= dirE
		}
		if sw && !se {
			bits |= dirS
		}
		if nw && !sw {
			bits |= dirW
		}
		if ne && !nw {
			bits |= dirN
		}
		c := uint8(0)
		for b := bits; b != 0; b &= b - 1 {
			c++
		}
		t[k] = bits | c<<4
	}
	return t
}()

// cornerSlow returns the edges and the label of a corner whose labelled
// pixels do not all share one label (never the case in an 8-connected
// labelling), or the error of the touching components.
func cornerSlow(nw, ne, sw, se int32, x, y int) (uint8, int32, error) {
	var bits uint8
	var lab int32
	if se != 0 && se != ne {
		bits, lab = dirE, se
	}
	if sw != 0 && sw != se {
		if lab != 0 && lab != sw {
			return 0, 0, touchError(lab, sw, x, y)
		}
		bits, lab = bits|dirS, sw
	}
	if nw != 0 && nw != sw {
		if lab != 0 && lab != nw {
			return 0, 0, touchError(lab, nw, x, y)
		}
		bits, lab = bits|dirW, nw
	}
	if ne != 0 && ne != nw {
		if lab != 0 && lab != ne {
			return 0, 0, touchError(lab, ne, x, y)
		}
		bits, lab = bits|dirN, ne
	}
	return bits, lab, nil
}

func touchError(a, b int32, x, y int) error {
	return fmt.Errorf("raster: components %d and %d touch at corner (%d,%d); not an 8-connected labelling", a, b, x, y)
}
