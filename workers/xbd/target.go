package xbd

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"io"
	"math/bits"
	"sync"

	"github.com/geodisaster/engine/internal/adler32"
)

// DecodeXBDTarget decodes a post_target.png damage mask into its code
// histogram: every pixel must hold a code 0-4 (0 background, 1 no-damage,
// 2 minor-damage, 3 major-damage, 4 destroyed). Gray and 16-bit gray PNGs
// use the sample value, paletted PNGs the palette index, RGB(A) PNGs the
// red channel of gray pixels.
//
// An 8-bit gray, non-interlaced PNG (what xView2 targets are) is counted
// as it is inflated, one row at a time, without an image; any other PNG,
// and any file the row decoder does not accept as it is (including every
// malformed one and every mask holding a code above 4), is decoded by
// image/png, so that results and errors are image/png's.
func DecodeXBDTarget(p string, b []byte) (hist [5]int64, w, h int, err error) {
	if hist, w, h, ok := gray8TargetHistogram(b); ok {
		return hist, w, h, nil
	}
	return decodeXBDTargetImage(p, b)
}

// decodeXBDTargetImage is DecodeXBDTarget through image/png.
func decodeXBDTargetImage(p string, b []byte) (hist [5]int64, w, h int, err error) {
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return hist, 0, 0, fmt.Errorf("%s: not a PNG: %w", p, err)
	}
	r := img.Bounds()
	w, h = r.Dx(), r.Dy()
	bad := func(x, y int, v uint32) error {
		return fmt.Errorf("%s: pixel (%d,%d) holds %d; the target mask permits only codes 0-4", p, x, y, v)
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			var v uint32
			switch im := img.(type) {
			case *image.Gray:
				v = uint32(im.GrayAt(x, y).Y)
			case *image.Gray16:
				v = uint32(im.Gray16At(x, y).Y)
			case *image.Paletted:
				v = uint32(im.ColorIndexAt(x, y))
			default:
				rr, gg, bb, _ := img.At(x, y).RGBA()
				if rr != gg || gg != bb {
					return hist, 0, 0, fmt.Errorf("%s: pixel (%d,%d) is not gray; cannot read a damage code", p, x, y)
				}
				v = rr >> 8
			}
			if v > 4 {
				return hist, 0, 0, bad(x, y, v)
			}
			hist[v]++
		}
	}
	return hist, w, h, nil
}

const pngSignature = "\x89PNG\r\n\x1a\n"

// maxTargetPixels bounds the frames the row decoder takes (image/png
// decodes larger ones, or refuses them).
const maxTargetPixels = 1 << 32

// targetScratch is the row decoder's reusable state: the inflater (its
// window and tables), the IDAT reader and the two rows.
type targetScratch struct {
	fr     io.ReadCloser
	idat   idatReader
	chunks [][]byte
	rows   []byte
}

var targetScratchPool = sync.Pool{New: func() any { return new(targetScratch) }}

// gray8TargetHistogram counts the codes of an 8-bit gray, non-interlaced
// PNG whose pixels are all 0-4, row by row as it inflates them. ok is
// false (and the caller decodes with image/png) unless the file is one
// image/png decodes to an *image.Gray with these pixels: the signature;
// IHDR first (13 bytes: depth 8, color type 0, methods 0, no interlace); no
// PLTE or tRNS; one run of consecutive IDAT chunks whose concatenated data
// is exactly one zlib stream (valid header and Adler-32) of h filtered
// rows of 1+w bytes, with filter types 0-4; other chunks only before the
// run or between it and IEND; IEND empty; every chunk's length at most
// 2^31-1 and its CRC valid. Bytes after IEND are not read, as image/png
// does not read them.
func gray8TargetHistogram(b []byte) (hist [5]int64, w, h int, ok bool) {
	if len(b) < len(pngSignature) || string(b[:len(pngSignature)]) != pngSignature {
		return hist, 0, 0, false
	}
	rest := b[len(pngSignature):]
	typ, ihdr, rest, ok := pngChunk(rest)
	if !ok || string(typ) != "IHDR" || len(ihdr) != 13 {
		return hist, 0, 0, false
	}
	// Depth 8, gray, deflate, adaptive filtering, no interlace.
	if ihdr[8] != 8 || ihdr[9] != 0 || ihdr[10] != 0 || ihdr[11] != 0 || ihdr[12] != 0 {
		return hist, 0, 0, false
	}
	w32, h32 := int32(binary.BigEndian.Uint32(ihdr[0:4])), int32(binary.BigEndian.Uint32(ihdr[4:8]))
	if w32 <= 0 || h32 <= 0 || int64(w32)*int64(h32) > maxTargetPixels {
		return hist, 0, 0, false
	}
	w, h = int(w32), int(h32)

	s := targetScratchPool.Get().(*targetScratch)
	defer func() {
		clear(s.chunks)
		s.chunks = s.chunks[:0]
		s.idat = idatReader{}
		targetScratchPool.Put(s)
	}()
	runEnded := false
chunks:
	for {
		var data []byte
		typ, data, rest, ok = pngChunk(rest)
		if !ok {
			return hist, 0, 0, false
		}
		switch string(typ) {
		case "IDAT":
			if runEnded {
				return hist, 0, 0, false
			}
			s.chunks = append(s.chunks, data)
		case "IEND":
			if len(s.chunks) == 0 || len(data) != 0 {
				return hist, 0, 0, false
			}
			break chunks
		case "IHDR", "PLTE", "tRNS":
			return hist, 0, 0, false
		default:
			// An ancillary or unknown chunk, which image/png skips.
			runEnded = len(s.chunks) > 0
		}
	}

	s.idat = idatReader{chunks: s.chunks}
	// The zlib header (RFC 1950) as compress/zlib checks it; a preset
	// dictionary is left to image/png.
	cmf, err1 := s.idat.ReadByte()
	flg, err2 := s.idat.ReadByte()
	if err1 != nil || err2 != nil || cmf&0x0f != 8 || cmf>>4 > 7 || (uint16(cmf)<<8|uint16(flg))%31 != 0 || flg&0x20 != 0 {
		return hist, 0, 0, false
	}
	if s.fr == nil {
		s.fr = flate.NewReader(&s.idat)
	} else if err := s.fr.(flate.Resetter).Reset(&s.idat, nil); err != nil {
		return hist, 0, 0, false
	}
	rowSize := 1 + w
	if cap(s.rows) < 2*rowSize {
		s.rows = make([]byte, 2*rowSize)
	}
	cr, pr := s.rows[:rowSize], s.rows[rowSize:2*rowSize]
	clear(pr)
	var total, last rowCounts // last: the row above (zeros above the first)
	sum := uint32(1)          // Adler-32 of the inflated bytes
	for y := 0; y < h; y++ {
		if _, err := io.ReadFull(s.fr, cr); err != nil {
			return hist, 0, 0, false
		}
		sum = adler32.Update(sum, cr)
		zero := allZero(cr[1:])
		if cr[0] == 2 {
			// Up: the deltas go onto the row above in place, which
			// becomes this row (a row without delta repeats it), and
			// only the changed words are recounted.
			if !zero {
				var ok bool
				if last, ok = unfilterUpCounted(cr[1:], pr[1:], last); !ok {
					return hist, 0, 0, false
				}
			}
			total.add(last)
			continue
		}
		if !unfilterGray8(cr[0], cr[1:], pr[1:]) {
			return hist, 0, 0, false
		}
		rc, ok := recountRow(cr[1:], pr[1:], last)
		if !ok {
			return hist, 0, 0, false
		}
		total.add(rc)
		last = rc
		cr, pr = pr, cr
	}
	// The stream ends here, its Adler-32 (big-endian) follows, and it took
	// every IDAT byte.
	var one [1]byte
	if n, err := s.fr.Read(one[:]); n != 0 || err != io.EOF {
		return hist, 0, 0, false
	}
	var want uint32
	for range 4 {
		c, err := s.idat.ReadByte()
		if err != nil {
			return hist, 0, 0, false
		}
		want = want<<8 | uint32(c)
	}
	if want != sum || s.idat.remaining() != 0 {
		return hist, 0, 0, false
	}
	return total.histogram(int64(w) * int64(h)), w, h, true
}

// allZero reports whether p holds only zero bytes, a word at a time.
func allZero(p []byte) bool {
	var or uint64
	for ; len(p) >= 8; p = p[8:] {
		or |= binary.LittleEndian.Uint64(p)
	}
	for _, c := range p {
		or |= uint64(c)
	}
	return or == 0
}

// pngChunk splits the first chunk off b: its type, its data and the bytes
// after it. ok is false for a truncated chunk, a length above 2^31-1 or a
// CRC mismatch.
func pngChunk(b []byte) (typ, data, rest []byte, ok bool) {
	if len(b) < 12 {
		return nil, nil, nil, false
	}
	n := binary.BigEndian.Uint32(b[:4])
	if n > 0x7fffffff || uint64(len(b)-12) < uint64(n) {
		return nil, nil, nil, false
	}
	end := 8 + int(n)
	if crc32.ChecksumIEEE(b[4:end]) != binary.BigEndian.Uint32(b[end:end+4]) {
		return nil, nil, nil, false
	}
	return b[4:8], b[8:end], b[end+4:], true
}

// idatReader reads the concatenated data of IDAT chunks; it is an
// io.ByteReader, so the inflater reads no byte beyond its stream.
type idatReader struct {
	chunks [][]byte
	cur    []byte
}

func (r *idatReader) next() bool {
	for len(r.cur) == 0 {
		if len(r.chunks) == 0 {
			return false
		}
		r.cur, r.chunks = r.chunks[0], r.chunks[1:]
	}
	return true
}

func (r *idatReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if !r.next() {
		return 0, io.EOF
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

func (r *idatReader) ReadByte() (byte, error) {
	if !r.next() {
		return 0, io.EOF
	}
	c := r.cur[0]
	r.cur = r.cur[1:]
	return c, nil
}

// remaining is the number of unread bytes.
func (r *idatReader) remaining() int {
	n := len(r.cur)
	for _, c := range r.chunks {
		n += len(c)
	}
	return n
}

const (
	bytes01 = 0x0101010101010101
	bytes80 = 0x8080808080808080
	bytes7f = 0x7f7f7f7f7f7f7f7f
)

// unfilterGray8 reverses a row's PNG filter in place (one byte per pixel):
// cdat is the filtered row, pdat the previous unfiltered row (zeros above
// the first). It is image/png's arithmetic, eight bytes at a time where
// the result is the same: Up adds bytes without carries between them,
// Sub and Paeth fill a run of zero deltas with the pixel before it (Paeth
// predicts the left pixel wherever the row above is flat). It returns
// false for a filter type above 4.
func unfilterGray8(ft byte, cdat, pdat []byte) bool {
	pdat = pdat[:len(cdat)]
	switch ft {
	case 0:
	case 1:
		unfilterSub(cdat)
	case 2:
		i := 0
		for ; i+8 <= len(cdat); i += 8 {
			x := binary.LittleEndian.Uint64(cdat[i:])
			y := binary.LittleEndian.Uint64(pdat[i:])
			binary.LittleEndian.PutUint64(cdat[i:], ((x&bytes7f)+(y&bytes7f))^((x^y)&bytes80))
		}
		for ; i < len(cdat); i++ {
			cdat[i] += pdat[i]
		}
	case 3:
		unfilterAverage(cdat, pdat)
	case 4:
		unfilterPaeth(cdat, pdat)
	default:
		return false
	}
	return true
}

// unfilterSub reverses the Sub filter: each byte adds the one before it.
func unfilterSub(cdat []byte) {
	i := 1
	for i < len(cdat) {
		if i+8 <= len(cdat) && binary.LittleEndian.Uint64(cdat[i:]) == 0 {
			binary.LittleEndian.PutUint64(cdat[i:], uint64(cdat[i-1])*bytes01)
			i += 8
			continue
		}
		end := min(i+8, len(cdat))
		for ; i < end; i++ {
			cdat[i] += cdat[i-1]
		}
	}
}

// unfilterAverage reverses the Average filter: each byte adds the mean
// of the left and upper pixels (rounded down). A run of zero deltas under
// a row above that holds the left pixel's value repeats that value.
func unfilterAverage(cdat, pdat []byte) {
	cdat[0] += pdat[0] / 2
	i := 1
	for i < len(cdat) {
		if i+8 <= len(cdat) {
			a := uint64(cdat[i-1]) * bytes01
			if binary.LittleEndian.Uint64(cdat[i:]) == 0 && binary.LittleEndian.Uint64(pdat[i:]) == a {
				binary.LittleEndian.PutUint64(cdat[i:], a)
				i += 8
				continue
			}
		}
		end := min(i+8, len(cdat))
		for ; i < end; i++ {
			cdat[i] += uint8((int(cdat[i-1]) + int(pdat[i])) / 2)
		}
	}
}

// unfilterPaeth reverses the Paeth filter. Where the row above holds one
// value over pdat[i-1:i+8], b == c at each of the eight pixels, so the
// predictor is the left pixel a (pa = |b-c| = 0 is the smallest
// distance): the run is Sub's, and a run of zero deltas repeats a.
func unfilterPaeth(cdat, pdat []byte) {
	// The first pixel has a = c = 0: the predictor is b.
	cdat[0] += pdat[0]
	i := 1
	for i < len(cdat) {
		if i+32 <= len(cdat) {
			// Thirty-two zero deltas under a flat row repeat a.
			v := uint64(pdat[i-1]) * bytes01
			c, p := cdat[i:i+32], pdat[i:i+32]
			if binary.LittleEndian.Uint64(c[0:])|binary.LittleEndian.Uint64(c[8:])|binary.LittleEndian.Uint64(c[16:])|binary.LittleEndian.Uint64(c[24:]) == 0 &&
				binary.LittleEndian.Uint64(p[0:])|binary.LittleEndian.Uint64(p[8:])|binary.LittleEndian.Uint64(p[16:])|binary.LittleEndian.Uint64(p[24:]) == v &&
				binary.LittleEndian.Uint64(p[0:])&binary.LittleEndian.Uint64(p[8:])&binary.LittleEndian.Uint64(p[16:])&binary.LittleEndian.Uint64(p[24:]) == v {
				a := uint64(cdat[i-1]) * bytes01
				binary.LittleEndian.PutUint64(c[0:], a)
				binary.LittleEndian.PutUint64(c[8:], a)
				binary.LittleEndian.PutUint64(c[16:], a)
				binary.LittleEndian.PutUint64(c[24:], a)
				i += 32
				continue
			}
		}
		if i+8 <= len(cdat) && binary.LittleEndian.Uint64(pdat[i:]) == uint64(pdat[i-1])*bytes01 {
			if binary.LittleEndian.Uint64(cdat[i:]) == 0 {
				binary.LittleEndian.PutUint64(cdat[i:], uint64(cdat[i-1])*bytes01)
				i += 8
				continue
			}
			for end := i + 8; i < end; i++ {
				cdat[i] += cdat[i-1]
			}
			continue
		}
		end := min(i+8, len(cdat))
		for ; i < end; i++ {
			a, b, c := cdat[i-1], pdat[i], pdat[i-1]
			if b == c {
				// pa = 0: the predictor is a.
				cdat[i] += a
			} else {
				cdat[i] += paeth(a, b, c)
			}
		}
	}
}

// paeth is the PNG Paeth predictor of left a, above b and upper-left c,
// computed as image/png computes it.
func paeth(a, b, c uint8) uint8 {
	pc := int(c)
	pa := int(b) - pc
	pb := int(a) - pc
	pc = absInt(pa + pb)
	pa = absInt(pa)
	pb = absInt(pb)
	if pa <= pb && pa <= pc {
		return a
	} else if pb <= pc {
		return b
	}
	return c
}

func absInt(x int) int {
	m := x >> (bits.UintSize - 1)
	return (x ^ m) - m
}

// rowCounts are a mask's code counts by bit plane: codes 0-4 are 000,
// 001, 010, 011 and 100, so bit 0 counts codes 1 and 3, bit 1 codes 2 and
// 3, bits 0 and 1 together code 3, and bit 2 code 4.
type rowCounts struct {
	bit0, bit1, bit01, bit2 int64
}

func (c *rowCounts) add(o rowCounts) {
	c.bit0 += o.bit0
	c.bit1 += o.bit1
	c.bit01 += o.bit01
	c.bit2 += o.bit2
}

// histogram returns the counts of codes 0-4 over n pixels.
func (c *rowCounts) histogram(n int64) [5]int64 {
	three := c.bit01
	one, two, four := c.bit0-three, c.bit1-three, c.bit2
	return [5]int64{n - one - two - three - four, one, two, three, four}
}

// wordCounts are the bit-plane counts of the eight bytes of x.
func wordCounts(x uint64) rowCounts {
	return rowCounts{
		int64(bits.OnesCount64(x & bytes01)),
		int64(bits.OnesCount64(x & (bytes01 << 1))),
		int64(bits.OnesCount64(x & (x >> 1) & bytes01)),
		int64(bits.OnesCount64(x & (bytes01 << 2))),
	}
}

func (c *rowCounts) sub(o rowCounts) {
	c.bit0 -= o.bit0
	c.bit1 -= o.bit1
	c.bit01 -= o.bit01
	c.bit2 -= o.bit2
}

// badWord is nonzero if a byte of x is above 4: such a byte sets its high
// bit in x or in x + 0x7b (a carry into a byte comes only from a byte
// above 0x84 below it).
func badWord(x uint64) uint64 { return (x | (x + 0x7b*bytes01)) & bytes80 }

// recountRow counts a row's codes from rc, the counts of the row above,
// prev: only the words that differ from it change the counts (mask rows
// mostly repeat the row above). ok is false if a byte of row is above 4
// (prev's bytes are all 0-4).
func recountRow(row, prev []byte, rc rowCounts) (rowCounts, bool) {
	prev = prev[:len(row)]
	var bad uint64
	i := 0
	for ; i+8 <= len(row); i += 8 {
		if i+32 <= len(row) {
			a, b := row[i:i+32], prev[i:i+32]
			if binary.LittleEndian.Uint64(a[0:]) == binary.LittleEndian.Uint64(b[0:]) &&
				binary.LittleEndian.Uint64(a[8:]) == binary.LittleEndian.Uint64(b[8:]) &&
				binary.LittleEndian.Uint64(a[16:]) == binary.LittleEndian.Uint64(b[16:]) &&
				binary.LittleEndian.Uint64(a[24:]) == binary.LittleEndian.Uint64(b[24:]) {
				i += 24 // and 8 more by the loop
				continue
			}
		}
		x, y := binary.LittleEndian.Uint64(row[i:]), binary.LittleEndian.Uint64(prev[i:])
		if x != y {
			bad |= badWord(x)
			rc.sub(wordCounts(y))
			rc.add(wordCounts(x))
		}
	}
	for ; i < len(row); i++ {
		if x, y := row[i], prev[i]; x != y {
			bad |= badWord(uint64(x))
			rc.sub(wordCounts(uint64(y)))
			rc.add(wordCounts(uint64(x)))
		}
	}
	return rc, bad == 0
}

// unfilterUpCounted adds the Up deltas cdat onto the row above, pdat, in
// place, and returns the counts of the new row from rc, the counts of the
// row above: only the words with a delta change. ok is false if a byte of
// the new row is above 4.
func unfilterUpCounted(cdat, pdat []byte, rc rowCounts) (rowCounts, bool) {
	pdat = pdat[:len(cdat)]
	var bad uint64
	i := 0
	for ; i+8 <= len(cdat); i += 8 {
		if i+32 <= len(cdat) {
			b := cdat[i : i+32]
			if binary.LittleEndian.Uint64(b[0:])|binary.LittleEndian.Uint64(b[8:])|binary.LittleEndian.Uint64(b[16:])|binary.LittleEndian.Uint64(b[24:]) == 0 {
				i += 24 // and 8 more by the loop
				continue
			}
		}
		x := binary.LittleEndian.Uint64(cdat[i:])
		if x == 0 {
			continue
		}
		y := binary.LittleEndian.Uint64(pdat[i:])
		z := ((x & bytes7f) + (y & bytes7f)) ^ ((x ^ y) & bytes80)
		binary.LittleEndian.PutUint64(pdat[i:], z)
		bad |= badWord(z)
		rc.sub(wordCounts(y))
		rc.add(wordCounts(z))
	}
	for ; i < len(cdat); i++ {
		y := pdat[i]
		z := y + cdat[i]
		pdat[i] = z
		bad |= badWord(uint64(z))
		rc.sub(wordCounts(uint64(y)))
		rc.add(wordCounts(uint64(z)))
	}
	return rc, bad == 0
}
