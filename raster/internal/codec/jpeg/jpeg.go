package jpeg

import (
	"encoding/binary"
	"fmt"
)

// A baseline (sequential Huffman, 8-bit) JPEG decoder that reproduces
// libjpeg's default output bit for bit: the "islow" integer IDCT of
// jidctint.c with its range-limit table, then the caller's upsampling and
// colour conversion. Go's image/jpeg uses a different IDCT, which differs
// from libjpeg by one or two levels on some samples. Progressive,
// arithmetic-coded and 12-bit streams are reported as unsupported so the
// caller can fall back to image/jpeg.

// jpegComponent is one colour component of a frame.
type jpegComponent struct {
	id       uint8
	h, v     int
	tq       int
	td, ta   int
	pred     int32
	plane    []byte // decoded samples, stride bw*8
	bw, bh   int    // blocks across and down (padded to whole MCUs)
	dw, dh   int    // downsampled width and height in samples
	stride   int
	scanned  bool
	coefBase int
}

// jpegHuffman is a decoding table: a 9-bit fast lookup plus canonical
// code ranges for longer codes.
type jpegHuffman struct {
	fast    [512]uint16 // symbol<<8 | length, 0 when the code is longer
	maxCode [18]int32
	valPtr  [17]int32
	minCode [17]int32
	vals    [256]uint8
	present bool
}

// jpegDecoder holds one stream's state.
type jpegDecoder struct {
	src        []byte
	pos        int
	bits       uint64
	nbits      uint
	marker     bool // a marker was met inside entropy-coded data
	width      int
	height     int
	comps      []jpegComponent
	hmax, vmax int
	quant      [4][64]int32
	dc, ac     [4]jpegHuffman
	restart    int
	adobe      bool
	adobeXform int
	frame      bool
	maxW, maxH int
	rangeLimit [1024]uint8
}

// jpegUnsupported marks streams this decoder does not handle.
type jpegUnsupported string

func (e jpegUnsupported) Error() string { return "JPEG: " + string(e) }

// zigzag maps zig-zag order to natural order.
var zigzag = [64]uint8{
	0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
	12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
	58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
}

// decodeJPEG parses and decodes a complete JPEG stream into component
// planes; frames larger than maxW x maxH are rejected before allocation.
func decodeJPEG(src []byte, maxW, maxH int) (*jpegDecoder, error) {
	d := &jpegDecoder{src: src, adobeXform: -1, maxW: maxW, maxH: maxH}
	d.initRangeLimit()
	if len(src) < 4 || src[0] != 0xFF || src[1] != 0xD8 {
		return nil, FormatError("JPEG: missing SOI marker")
	}
	d.pos = 2
	for {
		m, err := d.nextMarker()
		if err != nil {
			return nil, err
		}
		switch {
		case m == 0xD9: // EOI
			if !d.frame {
				return nil, FormatError("JPEG: no frame")
			}
			return d, nil
		case m == 0xC0 || m == 0xC1:
			if err := d.readSOF(); err != nil {
				return nil, err
			}
		case m >= 0xC2 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC:
			return nil, jpegUnsupported(fmt.Sprintf("SOF%d frames", m-0xC0))
		case m == 0xC4:
			if err := d.readDHT(); err != nil {
				return nil, err
			}
		case m == 0xDB:
			if err := d.readDQT(); err != nil {
				return nil, err
			}
		case m == 0xDD:
			seg, err := d.segment()
			if err != nil {
				return nil, err
			}
			if len(seg) < 2 {
				return nil, FormatError("JPEG: bad DRI")
			}
			d.restart = int(binary.BigEndian.Uint16(seg))
		case m == 0xDA:
			if err := d.readScan(); err != nil {
				return nil, err
			}
		case m == 0xEE:
			seg, err := d.segment()
			if err != nil {
				return nil, err
			}
			if len(seg) >= 12 && string(seg[:5]) == "Adobe" {
				d.adobe, d.adobeXform = true, int(seg[11])
			}
		case m >= 0xD0 && m <= 0xD7:
			// Stray RST marker outside a scan: ignore.
		default:
			if _, err := d.segment(); err != nil {
				return nil, err
			}
		}
	}
}

// nextMarker skips to the next marker and returns its code.
func (d *jpegDecoder) nextMarker() (byte, error) {
	for d.pos+1 < len(d.src) {
		if d.src[d.pos] != 0xFF {
			d.pos++
			continue
		}
		m := d.src[d.pos+1]
		if m == 0xFF {
			d.pos++
			continue
		}
		d.pos += 2
		if m == 0 {
			continue
		}
		return m, nil
	}
	return 0, FormatError("JPEG: truncated stream (no EOI)")
}

// segment returns the payload of a length-prefixed marker segment.
func (d *jpegDecoder) segment() ([]byte, error) {
	if d.pos+2 > len(d.src) {
		return nil, FormatError("JPEG: truncated segment")
	}
	n := int(binary.BigEndian.Uint16(d.src[d.pos:]))
	if n < 2 || d.pos+n > len(d.src) {
		return nil, FormatError("JPEG: bad segment length")
	}
	seg := d.src[d.pos+2 : d.pos+n]
	d.pos += n
	return seg, nil
}

func (d *jpegDecoder) readSOF() error {
	seg, err := d.segment()
	if err != nil {
		return err
	}
	if d.frame {
		return FormatError("JPEG: second frame")
	}
	if len(seg) < 6 {
		return FormatError("JPEG: short SOF")
	}
	if seg[0] != 8 {
		return jpegUnsupported(fmt.Sprintf("%d-bit samples", seg[0]))
	}
	d.height = int(binary.BigEndian.Uint16(seg[1:]))
	d.width = int(binary.BigEndian.Uint16(seg[3:]))
	nc := int(seg[5])
	if d.width == 0 || d.height == 0 {
		return jpegUnsupported("DNL-defined height")
	}
	if d.width > d.maxW || d.height > d.maxH {
		return FormatError(fmt.Sprintf("JPEG: embedded image is %dx%d, block is %dx%d", d.width, d.height, d.maxW, d.maxH))
	}
	if nc < 1 || nc > 4 || len(seg) < 6+3*nc {
		return FormatError("JPEG: bad component count")
	}
	d.comps = make([]jpegComponent, nc)
	for i := range d.comps {
		c := &d.comps[i]
		c.id = seg[6+3*i]
		c.h, c.v = int(seg[7+3*i]>>4), int(seg[7+3*i]&15)
		c.tq = int(seg[8+3*i])
		if c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4 || c.tq > 3 {
			return FormatError("JPEG: bad component parameters")
		}
		d.hmax, d.vmax = max(d.hmax, c.h), max(d.vmax, c.v)
	}
	mcuW, mcuH := 8*d.hmax, 8*d.vmax
	mx, my := (d.width+mcuW-1)/mcuW, (d.height+mcuH-1)/mcuH
	for i := range d.comps {
		c := &d.comps[i]
		c.bw, c.bh = mx*c.h, my*c.v
		c.dw = (d.width*c.h + d.hmax - 1) / d.hmax
		c.dh = (d.height*c.v + d.vmax - 1) / d.vmax
		c.stride = c.bw * 8
		c.plane = make([]byte, c.stride*c.bh*8)
	}
	d.frame = true
	return nil
}

func (d *jpegDecoder) readDQT() error {
	seg, err := d.segment()
	if err != nil {
		return err
	}
	for len(seg) > 0 {
		pq, tq := seg[0]>>4, int(seg[0]&15)
		if tq > 3 {
			return FormatError("JPEG: bad DQT table id")
		}
		seg = seg[1:]
		for k := 0; k < 64; k++ {
			var q int32
			if pq == 0 {
				if len(seg) < 1 {
					return FormatError("JPEG: short DQT")
				}
				q, seg = int32(seg[0]), seg[1:]
			} else {
				if len(seg) < 2 {
					return FormatError("JPEG: short DQT")
				}
				q, seg = int32(binary.BigEndian.Uint16(seg)), seg[2:]
			}
			d.quant[tq][zigzag[k]] = q
		}
	}
	return nil
}

func (d *jpegDecoder) readDHT() error {
	seg, err := d.segment()
	if err != nil {
		return err
	}
	for len(seg) > 0 {
		if len(seg) < 17 {
			return FormatError("JPEG: short DHT")
		}
		tc, th := seg[0]>>4, int(seg[0]&15)
		if tc > 1 || th > 3 {
			return FormatError("JPEG: bad DHT table")
		}
		var counts [17]int
		total := 0
		for i := 1; i <= 16; i++ {
			counts[i] = int(seg[i])
			total += counts[i]
		}
		if total > 256 || len(seg) < 17+total {
			return FormatError("JPEG: bad DHT counts")
		}
		h := &d.dc[th]
		if tc == 1 {
			h = &d.ac[th]
		}
		*h = jpegHuffman{present: true}
		copy(h.vals[:], seg[17:17+total])
		code, k := int32(0), int32(0)
		for l := 1; l <= 16; l++ {
			h.valPtr[l] = k
			h.minCode[l] = code
			code += int32(counts[l])
			k += int32(counts[l])
			if counts[l] > 0 {
				h.maxCode[l] = code - 1
			} else {
				h.maxCode[l] = -1
			}
			// Fill the fast table for codes of up to 9 bits.
			if l <= 9 {
				for c := code - int32(counts[l]); c < code; c++ {
					sym := h.vals[h.valPtr[l]+c-h.minCode[l]]
					shift := uint(9 - l)
					for f := c << shift; f < (c+1)<<shift; f++ {
						if f >= 0 && f < 512 {
							h.fast[f] = uint16(sym)<<8 | uint16(l)
						}
					}
				}
			}
			if code > 1<<l {
				return FormatError("JPEG: over-subscribed Huffman table")
			}
			code <<= 1
		}
		h.maxCode[17] = 1 << 30
		seg = seg[17+total:]
	}
	return nil
}

// fill tops the bit buffer up to at least 25 bits, handling byte stuffing
// and stopping (with zero bits) at a marker, as libjpeg does.
func (d *jpegDecoder) fill() {
	for d.nbits <= 56 {
		var b byte
		if !d.marker && d.pos < len(d.src) {
			b = d.src[d.pos]
			if b == 0xFF {
				if d.pos+1 < len(d.src) && d.src[d.pos+1] == 0 {
					d.pos += 2
				} else {
					d.marker = true
					b = 0
				}
			} else {
				d.pos++
			}
		}
		d.bits |= uint64(b) << (56 - d.nbits)
		d.nbits += 8
	}
}

// receive reads n bits (n <= 16).
func (d *jpegDecoder) receive(n uint) int32 {
	if n == 0 {
		return 0
	}
	if d.nbits < n {
		d.fill()
	}
	v := int32(d.bits >> (64 - n))
	d.bits <<= n
	d.nbits -= n
	return v
}

// extend sign-extends a received n-bit value (JPEG's EXTEND).
func extend(v int32, n uint) int32 {
	if n == 0 {
		return 0
	}
	if v < 1<<(n-1) {
		return v - (1 << n) + 1
	}
	return v
}

// decodeHuff decodes one Huffman symbol.
func (d *jpegDecoder) decodeHuff(h *jpegHuffman) (byte, error) {
	if d.nbits < 16 {
		d.fill()
	}
	if f := h.fast[d.bits>>55]; f != 0 {
		l := uint(f & 0xff)
		d.bits <<= l
		d.nbits -= l
		return byte(f >> 8), nil
	}
	code := int32(0)
	for l := 1; l <= 16; l++ {
		code = code<<1 | int32(d.bits>>63)
		d.bits <<= 1
		d.nbits--
		if code <= h.maxCode[l] {
			return h.vals[h.valPtr[l]+code-h.minCode[l]], nil
		}
	}
	return 0, FormatError("JPEG: bad Huffman code")
}

func (d *jpegDecoder) readScan() error {
	seg, err := d.segment()
	if err != nil {
		return err
	}
	if !d.frame {
		return FormatError("JPEG: scan before frame")
	}
	if len(seg) < 1 {
		return FormatError("JPEG: short SOS")
	}
	ns := int(seg[0])
	if ns < 1 || ns > len(d.comps) || len(seg) < 4+2*ns {
		return FormatError("JPEG: bad SOS")
	}
	scomps := make([]*jpegComponent, ns)
	for i := 0; i < ns; i++ {
		id := seg[1+2*i]
		var c *jpegComponent
		for k := range d.comps {
			if d.comps[k].id == id {
				c = &d.comps[k]
			}
		}
		if c == nil {
			return FormatError("JPEG: scan names an unknown component")
		}
		c.td, c.ta = int(seg[2+2*i]>>4), int(seg[2+2*i]&15)
		if c.td > 3 || c.ta > 3 || !d.dc[c.td].present || !d.ac[c.ta].present {
			return FormatError("JPEG: scan uses an undefined Huffman table")
		}
		c.pred = 0
		scomps[i] = c
	}
	ss, se, ahal := seg[1+2*ns], seg[2+2*ns], seg[3+2*ns]
	if ss != 0 || se != 63 || ahal != 0 {
		return jpegUnsupported("progressive scan")
	}
	d.bits, d.nbits, d.marker = 0, 0, false
	var mx, my int
	if ns == 1 {
		c := scomps[0]
		mx, my = (c.dw+7)/8, (c.dh+7)/8
	} else {
		mx, my = (d.width+8*d.hmax-1)/(8*d.hmax), (d.height+8*d.vmax-1)/(8*d.vmax)
	}
	var blk [64]int32
	mcus := 0
	for y := 0; y < my; y++ {
		for x := 0; x < mx; x++ {
			if d.restart > 0 && mcus > 0 && mcus%d.restart == 0 {
				d.resync(scomps)
			}
			mcus++
			for _, c := range scomps {
				hb, vb := c.h, c.v
				if ns == 1 {
					hb, vb = 1, 1
				}
				for by := 0; by < vb; by++ {
					for bx := 0; bx < hb; bx++ {
						if err := d.decodeBlock(c, &blk); err != nil {
							return err
						}
						col, row := x*hb+bx, y*vb+by
						if col < c.bw && row < c.bh {
							d.idctIslow(&blk, &d.quant[c.tq], c.plane[row*8*c.stride+col*8:], c.stride)
						}
					}
				}
			}
		}
	}
	return nil
}

// resync handles a restart marker: discard buffered bits, skip the RST
// marker and reset the DC predictors.
func (d *jpegDecoder) resync(scomps []*jpegComponent) {
	d.bits, d.nbits = 0, 0
	if d.marker {
		d.marker = false
	}
	for d.pos+1 < len(d.src) {
		if d.src[d.pos] == 0xFF && d.src[d.pos+1] >= 0xD0 && d.src[d.pos+1] <= 0xD7 {
			d.pos += 2
			break
		}
		if d.src[d.pos] == 0xFF && d.src[d.pos+1] != 0 {
			break
		}
		d.pos++
	}
	for _, c := range scomps {
		c.pred = 0
	}
}

// decodeBlock reads one block's coefficients in natural order.
func (d *jpegDecoder) decodeBlock(c *jpegComponent, blk *[64]int32) error {
	*blk = [64]int32{}
	s, err := d.decodeHuff(&d.dc[c.td])
	if err != nil {
		return err
	}
	if s > 16 {
		return FormatError("JPEG: bad DC size")
	}
	c.pred += extend(d.receive(uint(s)), uint(s))
	blk[0] = c.pred
	ac := &d.ac[c.ta]
	for k := 1; k < 64; {
		rs, err := d.decodeHuff(ac)
		if err != nil {
			return err
		}
		r, sz := int(rs>>4), uint(rs&15)
		if sz == 0 {
			if r != 15 {
				break
			}
			k += 16
			continue
		}
		k += r
		if k > 63 {
			return FormatError("JPEG: coefficient index out of range")
		}
		blk[zigzag[k]] = extend(d.receive(sz), sz)
		k++
	}
	return nil
}

// initRangeLimit builds libjpeg's post-IDCT range-limit table, indexed by
// the descaled value masked to 10 bits.
func (d *jpegDecoder) initRangeLimit() {
	for i := range d.rangeLimit {
		switch {
		case i < 128:
			d.rangeLimit[i] = uint8(i + 128)
		case i < 512:
			d.rangeLimit[i] = 255
		case i < 896:
			d.rangeLimit[i] = 0
		default:
			d.rangeLimit[i] = uint8(i - 896)
		}
	}
}

// Fixed-point constants of libjpeg's islow IDCT (CONST_BITS = 13).
const (
	islowConstBits = 13
	islowPass1Bits = 2
	fix0298631336  = 2446
	fix0390180644  = 3196
	fix0541196100  = 4433
	fix0765366865  = 6270
	fix0899976223  = 7373
	fix1175875602  = 9633
	fix1501321110  = 12299
	fix1847759065  = 15137
	fix1961570560  = 16069
	fix2053119869  = 16819
	fix2562915447  = 20995
	fix3072711026  = 25172
)

func descale(x int32, n uint) int32 { return (x + 1<<(n-1)) >> n }

// idctIslow dequantizes and inverse-transforms one block into out (8 rows
// of stride bytes), exactly as libjpeg's jpeg_idct_islow.
func (d *jpegDecoder) idctIslow(in *[64]int32, q *[64]int32, out []byte, stride int) {
	var ws [64]int32
	for col := 0; col < 8; col++ {
		if in[8+col] == 0 && in[16+col] == 0 && in[24+col] == 0 && in[32+col] == 0 &&
			in[40+col] == 0 && in[48+col] == 0 && in[56+col] == 0 {
			dc := (in[col] * q[col]) << islowPass1Bits
			for r := 0; r < 8; r++ {
				ws[r*8+col] = dc
			}
			continue
		}
		z2 := in[16+col] * q[16+col]
		z3 := in[48+col] * q[48+col]
		z1 := (z2 + z3) * fix0541196100
		tmp2 := z1 + z3*-fix1847759065
		tmp3 := z1 + z2*fix0765366865
		z2 = in[col] * q[col]
		z3 = in[32+col] * q[32+col]
		tmp0 := (z2 + z3) << islowConstBits
		tmp1 := (z2 - z3) << islowConstBits
		tmp10, tmp13 := tmp0+tmp3, tmp0-tmp3
		tmp11, tmp12 := tmp1+tmp2, tmp1-tmp2
		tmp0 = in[56+col] * q[56+col]
		tmp1 = in[40+col] * q[40+col]
		tmp2 = in[24+col] * q[24+col]
		tmp3 = in[8+col] * q[8+col]
		z1 = tmp0 + tmp3
		z2 = tmp1 + tmp2
		z3 = tmp0 + tmp2
		z4 := tmp1 + tmp3
		z5 := (z3 + z4) * fix1175875602
		tmp0 *= fix0298631336
		tmp1 *= fix2053119869
		tmp2 *= fix3072711026
		tmp3 *= fix1501321110
		z1 *= -fix0899976223
		z2 *= -fix2562915447
		z3 *= -fix1961570560
		z4 *= -fix0390180644
		z3 += z5
		z4 += z5
		tmp0 += z1 + z3
		tmp1 += z2 + z4
		tmp2 += z2 + z3
		tmp3 += z1 + z4
		const sh = islowConstBits - islowPass1Bits
		ws[col] = descale(tmp10+tmp3, sh)
		ws[56+col] = descale(tmp10-tmp3, sh)
		ws[8+col] = descale(tmp11+tmp2, sh)
		ws[48+col] = descale(tmp11-tmp2, sh)
		ws[16+col] = descale(tmp12+tmp1, sh)
		ws[40+col] = descale(tmp12-tmp1, sh)
		ws[24+col] = descale(tmp13+tmp0, sh)
		ws[32+col] = descale(tmp13-tmp0, sh)
	}
	rl := &d.rangeLimit
	for r := 0; r < 8; r++ {
		w := ws[r*8 : r*8+8]
		o := out[r*stride : r*stride+8]
		if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
			v := rl[descale(w[0], islowPass1Bits+3)&1023]
			for i := range o {
				o[i] = v
			}
			continue
		}
		z2, z3 := w[2], w[6]
		z1 := (z2 + z3) * fix0541196100
		tmp2 := z1 + z3*-fix1847759065
		tmp3 := z1 + z2*fix0765366865
		tmp0 := (w[0] + w[4]) << islowConstBits
		tmp1 := (w[0] - w[4]) << islowConstBits
		tmp10, tmp13 := tmp0+tmp3, tmp0-tmp3
		tmp11, tmp12 := tmp1+tmp2, tmp1-tmp2
		tmp0, tmp1, tmp2, tmp3 = w[7], w[5], w[3], w[1]
		z1 = tmp0 + tmp3
		z2 = tmp1 + tmp2
		z3 = tmp0 + tmp2
		z4 := tmp1 + tmp3
		z5 := (z3 + z4) * fix1175875602
		tmp0 *= fix0298631336
		tmp1 *= fix2053119869
		tmp2 *= fix3072711026
		tmp3 *= fix1501321110
		z1 *= -fix0899976223
		z2 *= -fix2562915447
		z3 *= -fix1961570560
		z4 *= -fix0390180644
		z3 += z5
		z4 += z5
		tmp0 += z1 + z3
		tmp1 += z2 + z4
		tmp2 += z2 + z3
		tmp3 += z1 + z4
		const sh = islowConstBits + islowPass1Bits + 3
		o[0] = rl[descale(tmp10+tmp3, sh)&1023]
		o[7] = rl[descale(tmp10-tmp3, sh)&1023]
		o[1] = rl[descale(tmp11+tmp2, sh)&1023]
		o[6] = rl[descale(tmp11-tmp2, sh)&1023]
		o[2] = rl[descale(tmp12+tmp1, sh)&1023]
		o[5] = rl[descale(tmp12-tmp1, sh)&1023]
		o[3] = rl[descale(tmp13+tmp0, sh)&1023]
		o[4] = rl[descale(tmp13-tmp0, sh)&1023]
	}
}
