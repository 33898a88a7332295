package regions

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"sync"
)

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

// outlineScratchPool recycles TraceOutlines' corner arrays (a pool of its
// own, as TraceOutlines and Polygonize may run at once).
var outlineScratchPool = sync.Pool{New: func() any { return new(polyScratch) }}

// spreadBits[b] holds bit i of b in the low bit of byte i.
var spreadBits = func() (t [256]uint64) {
	for b := range t {
		for i := range 8 {
			t[b] |= uint64(b>>i&1) << (8 * i)
		}
	}
	return t
}()
