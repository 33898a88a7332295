package raster

import (
	"encoding/binary"
	"fmt"
	"math/bits"
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

// Outlines are the boundary rings of the 8-connected regions of a mask's
// pixels equal to one value, traced before the regions are labelled (see
// TraceOutlines); Polygons groups them by component.
type Outlines struct {
	rings  []outlineRing
	pixels int // width*height of the traced mask
}

// outlineRing is a traced ring and the row-major index of a mask pixel on
// its inner side (which carries the component's label).
type outlineRing struct {
	ring  PixelRing
	pixel int
}

// TraceOutlines traces the outlines of the 8-connected regions of the
// pixels of mask (row-major, width x height) equal to value, as Polygonize
// traces them from those regions' labels: the same rings, walked from the
// same corners, in the same order. It needs no labelling, so it can run
// while the mask is being labelled; Outlines.Polygons then groups the
// rings by label.
func TraceOutlines(mask []uint8, value uint8, width, height int) (*Outlines, error) {
	if width < 0 || height < 0 || len(mask) != width*height {
		return nil, fmt.Errorf("raster: mask has %d values, want %dx%d", len(mask), width, height)
	}
	vw := width + 1
	sc := outlineScratchPool.Get().(*polyScratch)
	defer outlineScratchPool.Put(sc)
	nv := vw * (height + 1)
	sc.out = resize(sc.out, nv)
	sc.orig = resize(sc.orig, nv)
	out, orig := sc.out, sc.orig
	// Corners are classified 64 at a time from bit rows of the pixels
	// equal to value: for the corners of grid line y, above holds row y-1
	// and below row y (bit x is pixel x; zero outside the grid), so the
	// ne and se pixels of corner x are bit x and the nw and sw pixels bit
	// x-1. The edge rules of cornerBits then apply to whole words.
	nw := (vw + 63) / 64
	sc.bits = resize(sc.bits, 2*nw)
	above, below := sc.bits[:nw], sc.bits[nw:]
	clear(above)
	edges := 0
	for y := 0; y <= height; y++ {
		if y < height {
			equalBits(below, mask[y*width:(y+1)*width], value)
		} else {
			clear(below)
		}
		row := out[y*vw : y*vw+vw]
		rowOrig := orig[y*vw : y*vw+vw]
		var carryA, carryB uint64 // bit 63 of the previous words
		for j := range nw {
			ne, se := above[j], below[j]
			nwPix, swPix := ne<<1|carryA, se<<1|carryB
			carryA, carryB = ne>>63, se>>63
			e, so, w, n := se&^ne, swPix&^se, nwPix&^swPix, ne&^nwPix
			x0 := j * 64
			if e|so|w|n == 0 {
				end := min(x0+64, vw)
				clear(row[x0:end])
				clear(rowOrig[x0:end])
				continue
			}
			edges += bits.OnesCount64(e) + bits.OnesCount64(so) + bits.OnesCount64(w) + bits.OnesCount64(n)
			for g := uint(0); g < 64 && x0+int(g) < vw; g += 8 {
				c := spreadBits[e>>g&0xff]*dirE | spreadBits[so>>g&0xff]*dirS |
					spreadBits[w>>g&0xff]*dirW | spreadBits[n>>g&0xff]*dirN
				x := x0 + int(g)
				if x+8 <= vw {
					binary.LittleEndian.PutUint64(row[x:], c)
					binary.LittleEndian.PutUint64(rowOrig[x:], c)
					continue
				}
				for ; x < vw; x++ {
					row[x], rowOrig[x] = uint8(c), uint8(c)
					c >>= 8
				}
			}
		}
		above, below = below, above
	}
	o := &Outlines{pixels: len(mask)}
	err := walkRings(out, orig, vw, edges, func(v int, d0 uint8, ring PixelRing) error {
		// An east edge leaving corner (x, y) runs along the top of
		// pixel (x, y); a west edge along the bottom of (x-1, y-1).
		x, y := v%vw, v/vw
		p := y*width + x
		if d0 == dirW {
			p = (y-1)*width + x - 1
		}
		o.rings = append(o.rings, outlineRing{ring: ring, pixel: p})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return o, nil
}

// Polygons groups the outlines by component: labels must be the n-component
// 8-connected labelling of the mask the outlines were traced from (Label or
// LabelValue with Connect8). The result equals Polygonize(labels, width,
// height, n).
func (o *Outlines) Polygons(labels []int32, n int) ([]PixelPolygon, error) {
	if len(labels) != o.pixels {
		return nil, fmt.Errorf("raster: labels have %d values, the outlines' mask %d", len(labels), o.pixels)
	}
	return o.PolygonsAt(func(i int) int32 { return labels[i] }, n)
}

// PolygonsAt is Polygons with the labelling given by the label of each
// pixel (row-major index), e.g. RunLabels.At before its labels are
// filled in.
func (o *Outlines) PolygonsAt(label func(pixel int) int32, n int) ([]PixelPolygon, error) {
	polys := make([]PixelPolygon, n)
	for i := range polys {
		polys[i].Label = int32(i + 1)
	}
	for _, r := range o.rings {
		if err := addRing(polys, label(r.pixel), r.ring); err != nil {
			return nil, err
		}
	}
	return checkExteriors(polys)
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

// outlineScratchPool recycles TraceOutlines' corner arrays (a pool of its
// own, as TraceOutlines and Polygonize may run at once).
var outlineScratchPool = sync.Pool{New: func() any { return new(polyScratch) }}

// equalBits sets bit x of dst (64 pixels per word) when row[x] == value
// and clears the bits past len(row).
func equalBits(dst []uint64, row []uint8, value uint8) {
	lanes := uint64(value) * 0x0101010101010101
	clear(dst)
	x := 0
	for ; x+8 <= len(row); x += 8 {
		d := binary.LittleEndian.Uint64(row[x:]) ^ lanes
		// High bit of each byte set when the byte is zero (no carries
		// leave a byte: each is at most 0x7f+0x7f), then gathered into
		// eight bits in pixel order.
		z := ^((d&0x7f7f7f7f7f7f7f7f + 0x7f7f7f7f7f7f7f7f) | d) & 0x8080808080808080
		dst[x>>6] |= (z >> 7 * 0x0102040810204080 >> 56) << (x & 63)
	}
	for ; x < len(row); x++ {
		if row[x] == value {
			dst[x>>6] |= 1 << (x & 63)
		}
	}
}

// spreadBits[b] holds bit i of b in the low bit of byte i.
var spreadBits = func() (t [256]uint64) {
	for b := range t {
		for i := range 8 {
			t[b] |= uint64(b>>i&1) << (8 * i)
		}
	}
	return t
}()

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
