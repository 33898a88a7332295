package jpeg

import "image"

// Fixed-point constants of libjpeg's YCbCr->RGB conversion (16 fraction bits).
const (
	jFix140200 = 91881  // FIX(1.40200)
	jFix177200 = 116130 // FIX(1.77200)
	jFix071414 = 46802  // FIX(0.71414)
	jFix034414 = 22554  // FIX(0.34414)
	jHalf      = 1 << 15
)

func clamp8(v int) byte {
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return byte(v)
}

// ToRGB converts a decoded YCbCr JPEG (Go's image/jpeg) to interleaved RGB the way
// libjpeg does by default: "fancy" (triangle-filter) chroma upsampling for
// 2x2 and 2x1 subsampling, then its fixed-point colour conversion.
func ToRGB(m *image.YCbCr, out []byte, stride, w, h int) {
	cw := (m.Rect.Dx() + 1) / 2
	ch := (m.Rect.Dy() + 1) / 2
	cb := make([]int, 2*cw+2)
	cr := make([]int, 2*cw+2)
	for y := 0; y < h; y++ {
		switch m.SubsampleRatio {
		case image.YCbCrSubsampleRatio420:
			cy, ny := ChromaRows(y, ch)
			fancyRow2(m.Cb[cy*m.CStride:], m.Cb[ny*m.CStride:], cw, cb)
			fancyRow2(m.Cr[cy*m.CStride:], m.Cr[ny*m.CStride:], cw, cr)
		case image.YCbCrSubsampleRatio422:
			fancyRow1(m.Cb[y*m.CStride:], cw, cb)
			fancyRow1(m.Cr[y*m.CStride:], cw, cr)
		default:
			for x := 0; x < w; x++ {
				ci := m.COffset(x+m.Rect.Min.X, y+m.Rect.Min.Y)
				cb[x], cr[x] = int(m.Cb[ci]), int(m.Cr[ci])
			}
		}
		yrow := m.Y[y*m.YStride:]
		o := out[y*stride:]
		for x := 0; x < w; x++ {
			yy := int(yrow[x])
			b, r := cb[x]-128, cr[x]-128
			o[3*x] = clamp8(yy + (jFix140200*r+jHalf)>>16)
			o[3*x+1] = clamp8(yy + (-jFix034414*b-jFix071414*r+jHalf)>>16)
			o[3*x+2] = clamp8(yy + (jFix177200*b+jHalf)>>16)
		}
	}
}

// fancyRow2 upsamples one chroma row 2x2 as libjpeg's h2v2 fancy
// upsampler: a 3:1 vertical blend with the nearer neighbouring row, then a
// 3:1 horizontal blend.
func fancyRow2(this, near []byte, cw int, out []int) {
	if cw == 1 {
		s := 3*int(this[0]) + int(near[0])
		out[0], out[1] = (s*4+8)>>4, (s*4+7)>>4
		return
	}
	last := 3*int(this[0]) + int(near[0])
	cur := last
	for i := 0; i < cw; i++ {
		next := cur
		if i+1 < cw {
			next = 3*int(this[i+1]) + int(near[i+1])
		}
		if i == 0 {
			out[0] = (cur*4 + 8) >> 4
		} else {
			out[2*i] = (cur*3 + last + 8) >> 4
		}
		if i == cw-1 {
			out[2*i+1] = (cur*4 + 7) >> 4
		} else {
			out[2*i+1] = (cur*3 + next + 7) >> 4
		}
		last, cur = cur, next
	}
}

// fancyRow1 upsamples one chroma row 2x1 as libjpeg's h2v1 fancy upsampler.
func fancyRow1(this []byte, cw int, out []int) {
	for i := 0; i < cw; i++ {
		c := int(this[i])
		if i == 0 {
			out[0] = c
		} else {
			out[2*i] = (c*3 + int(this[i-1]) + 1) >> 2
		}
		if i == cw-1 {
			out[2*i+1] = c
		} else {
			out[2*i+1] = (c*3 + int(this[i+1]) + 2) >> 2
		}
	}
}

// toPixels upsamples the decoded components to full resolution as libjpeg
// does by default and writes w x h interleaved pixels into out; with ycc
// the three components are converted from YCbCr to RGB (libtiff's
// JPEGCOLORMODE_RGB), otherwise they are written as decoded.
func (d *jpegDecoder) toPixels(out []byte, stride, w, h int, ycc bool) {
	nc := len(d.comps)
	rows := make([][]int, nc)
	for i := range rows {
		rows[i] = make([]int, 8*d.hmax*((d.width+8*d.hmax-1)/(8*d.hmax))+2)
	}
	for y := 0; y < h; y++ {
		for i := range d.comps {
			d.upsampleRow(&d.comps[i], y, rows[i])
		}
		o := out[y*stride:]
		if ycc && nc == 3 {
			ys, cb, cr := rows[0], rows[1], rows[2]
			for x := 0; x < w; x++ {
				yy := ys[x]
				b, r := cb[x]-128, cr[x]-128
				o[3*x] = clamp8(yy + (jFix140200*r+jHalf)>>16)
				o[3*x+1] = clamp8(yy + (-jFix034414*b-jFix071414*r+jHalf)>>16)
				o[3*x+2] = clamp8(yy + (jFix177200*b+jHalf)>>16)
			}
			continue
		}
		for x := 0; x < w; x++ {
			for i := 0; i < nc; i++ {
				o[nc*x+i] = byte(rows[i][x])
			}
		}
	}
}

// upsampleRow writes output row y of component c at full resolution into
// out, with libjpeg's fancy (triangle) upsampling for 2x1 and 2x2 when the
// component is more than 2 samples wide, and replication otherwise.
func (d *jpegDecoder) upsampleRow(c *jpegComponent, y int, out []int) {
	fx, fy := d.hmax/c.h, d.vmax/c.v
	cw := c.dw
	switch {
	case fx == 1 && fy == 1:
		row := c.plane[y*c.stride:]
		for x := 0; x < d.width; x++ {
			out[x] = int(row[x])
		}
	case fx == 2 && fy == 2 && cw > 2:
		cy := y / 2
		ny := cy - 1
		if y%2 == 1 {
			ny = cy + 1
		}
		ny = max(0, min(ny, c.dh-1))
		fancyRow2(c.plane[cy*c.stride:], c.plane[ny*c.stride:], cw, out)
	case fx == 2 && fy == 1 && cw > 2:
		fancyRow1(c.plane[y*c.stride:], cw, out)
	default:
		row := c.plane[(y/fy)*c.stride:]
		for x := 0; x < d.width; x++ {
			out[x] = int(row[x/fx])
		}
	}
}

// ChromaRows returns, for output row y of a 4:2:0 image with ch chroma
// rows, the chroma row it lies in and the nearer neighbouring one, which
// "fancy" upsampling (libjpeg's and libwebp's) blends with it; the edges
// repeat their row.
func ChromaRows(y, ch int) (cy, ny int) {
	cy = y / 2
	ny = cy - 1
	if y%2 == 1 {
		ny = cy + 1
	}
	return cy, max(0, min(ny, ch-1))
}
