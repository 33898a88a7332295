package geotiff

import (
	"fmt"
	"math"
	"sync"

	"github.com/geodisaster/engine/raster/internal/tiff"
)

// Window is a rectangular region of an image in pixel coordinates:
// columns [Col, Col+Width) and rows [Row, Row+Height).
type Window struct{ Col, Row, Width, Height int }

// A BlockReader decodes the strips or tiles of one image into native-order
// samples of its DataType (byte order, predictor, bit unpacking and
// half-float widening undone; JPEG and WebP blocks decoded to 8-bit
// samples as GDAL decodes them). It keeps its decompressors and scratch
// memory between blocks and is not safe for concurrent use: use one per
// goroutine, and Close it when done.
type BlockReader struct {
	img *Image
	lim Limits
	st  blockState
}

// NewBlockReader returns a BlockReader of the image bounded by lim (zero fields
// take their defaults).
func (d *Image) NewBlockReader(lim Limits) *BlockReader {
	br, ok := blockReaders.Get().(*BlockReader)
	if !ok {
		br = &BlockReader{}
	}
	br.img, br.lim = d, lim.withDefaults()
	return br
}

// Close releases the reader's decompressors and scratch memory for reuse
// by later BlockReaders; the reader must not be used afterwards.
func (br *BlockReader) Close() {
	if br.img != nil {
		br.img = nil
		blockReaders.Put(br)
	}
}

// ReadWindow decodes block (plane, bx, by), block column bx and row by of
// plane plane (0 unless the image is Planar), and copies its pixels inside
// window w into the outputs of bands (1-based): outs[k] receives band
// bands[k] as w.Width*w.Height row-major native-order samples of the
// DataType. A band stored in another plane is skipped; a block that
// misses the window is not read. A sparse block (byte count 0) reads as
// the nodata value, or 0 without one, as GDAL reads it.
func (br *BlockReader) ReadWindow(plane, bx, by int, bands []int, w Window, outs [][]byte) (err error) {
	d := br.img
	if plane < 0 || bx < 0 || by < 0 || bx >= d.blocksAcross || by >= d.blocksDown || (plane > 0 && (!d.planar || plane >= d.spp)) {
		return fmt.Errorf("raster: block %d,%d of plane %d out of range", bx, by, plane)
	}
	if err := d.checkOutputs(bands, w, outs); err != nil {
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			err = FormatError(fmt.Sprintf("internal error while decoding: %v", p))
		}
	}()
	return br.readBlock(plane, bx, by, bands, w, outs)
}

// checkOutputs validates a window read's bands, window and outputs.
func (d *Image) checkOutputs(bands []int, w Window, outs [][]byte) error {
	if len(bands) != len(outs) {
		return fmt.Errorf("raster: %d outputs for %d bands", len(outs), len(bands))
	}
	if w.Width <= 0 || w.Height <= 0 || w.Col < 0 || w.Row < 0 || w.Col > d.width-w.Width || w.Row > d.height-w.Height {
		return fmt.Errorf("raster: window %+v outside raster %dx%d", w, d.width, d.height)
	}
	n := w.Width * w.Height * d.dtype.Size()
	for k, b := range bands {
		if b < 1 || b > d.spp {
			return fmt.Errorf("raster: band %d out of range 1..%d", b, d.spp)
		}
		if len(outs[k]) < n {
			return fmt.Errorf("raster: output %d has %d bytes, the window needs %d", k, len(outs[k]), n)
		}
	}
	return nil
}

// ReadBlock decodes the whole block (plane, bx, by) into dst, which must
// hold its BlockSize width x BlockRows(by) pixels of BlockSamples samples
// each: native-order samples of the image's DataType, pixel-interleaved
// when the image is, row-major. T must be the Go type of the DataType
// (uint8 for Uint8, float32 for Float32, ...). Block columns past the
// image's right edge are decoded as stored.
func ReadBlock[T Sample](br *BlockReader, plane, bx, by int, dst []T) (err error) {
	d := br.img
	if dataTypeOf[T]() != d.dtype {
		return fmt.Errorf("raster: a %s image read into []%s", d.dtype, dataTypeOf[T]())
	}
	if plane < 0 || bx < 0 || by < 0 || bx >= d.blocksAcross || by >= d.blocksDown || (plane > 0 && (!d.planar || plane >= d.spp)) {
		return fmt.Errorf("raster: block %d,%d of plane %d out of range", bx, by, plane)
	}
	bs, rows := d.blockSamples(), d.blockRows(by)
	if len(dst)*d.dtype.Size() < d.blockW*rows*bs*d.dtype.Size() {
		return fmt.Errorf("raster: buffer of %d samples for a block of %d", len(dst), d.blockW*rows*bs)
	}
	out := asBytes(dst)[:d.blockW*rows*bs*d.dtype.Size()]
	defer func() {
		if p := recover(); p != nil {
			err = FormatError(fmt.Sprintf("internal error while decoding: %v", p))
		}
	}()
	idx := plane*d.blocksAcross*d.blocksDown + by*d.blocksAcross + bx
	off, cnt, err := d.blockExtent(idx)
	switch {
	case err != nil:
		return err
	case cnt == 0:
		fillValue(out, d.dtype, d.nodata, d.hasNoData)
		return nil
	case br.streamed(cnt):
		s, err := br.openBlockStream(idx, int64(rows)*d.rowBytes64())
		if err != nil {
			return err
		}
		defer s.close()
		rowOut := len(out) / rows
		return s.decodeRows(&br.st, d, rows, func(blk []byte, r int) { copy(out[r*rowOut:], blk) })
	}
	raw, err := br.readStored(idx, off, cnt)
	if err != nil {
		return err
	}
	blk, err := d.decodeBlock(&br.st, raw, rows, false)
	if err != nil {
		return fmt.Errorf("block %d: %w", idx, err)
	}
	copy(out, blk)
	return nil
}

// readStored reads the cnt stored bytes of block idx at off (its extent
// already checked) into the reader's scratch memory, for a block decoded
// whole: those that cannot be streamed are bounded by
// Limits.MaxBlockBytes first. A file in memory is not copied when only
// the package's decompressors (which never write to their input) see
// the bytes.
func (br *BlockReader) readStored(idx int, off, cnt uint64) ([]byte, error) {
	if err := br.checkInMemory(idx, cnt); err != nil {
		return nil, fmt.Errorf("block %d: %w", idx, err)
	}
	d, st := br.img, &br.st
	if d.mem != nil && d.codecs == codecs && uint64(len(d.mem)) >= off+cnt {
		return d.mem[off : off+cnt : off+cnt], nil
	}
	st.raw = grow(st.raw, int(cnt))
	if err := readFull(d.r, d.size, st.raw, off, fmt.Sprintf("block %d", idx)); err != nil {
		return nil, err
	}
	return st.raw, nil
}

// blockState is one decoding goroutine's scratch memory.
type blockState struct {
	codec codecState
	raw   []byte
	buf   []byte
	tmp   []byte
	exp   []byte
	rows  []byte // ReadRows' window rows
}

// blockReaders holds closed BlockReaders of every image: reads of many
// small files (one chip per record) reuse the decompressors' tables and
// the compressed and decoded block buffers instead of allocating and
// zeroing them per file. The pool drops them at garbage collections.
var blockReaders sync.Pool

// grow returns b resized to n bytes, reallocating when its capacity is
// insufficient.
func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// blockRows returns the number of rows of block row by that hold image data
// in the encoded block (strips at the bottom may be shorter; tiles never).
func (d *Image) blockRows(by int) int {
	if d.tiled {
		return d.blockH
	}
	if r := d.height - by*d.blockH; r < d.blockH {
		return r
	}
	return d.blockH
}

// readBlock is ReadWindow without its checks.
func (br *BlockReader) readBlock(plane, bx, by int, bands []int, w Window, outs [][]byte) error {
	d, st := br.img, &br.st
	idx := plane*d.blocksAcross*d.blocksDown + by*d.blocksAcross + bx
	rows := d.blockRows(by)
	size := d.dtype.Size()
	bs := d.blockSamples()
	// Pixel rectangle of the block inside the window, in image coordinates.
	c0, r0 := max(bx*d.blockW, w.Col), max(by*d.blockH, w.Row)
	c1, r1 := min((bx+1)*d.blockW, w.Col+w.Width), min(by*d.blockH+rows, w.Row+w.Height)
	if c0 >= c1 || r0 >= r1 {
		return nil
	}
	off, cnt, err := d.blockExtent(idx)
	if err != nil {
		return err
	}
	if cnt == 0 {
		d.fillSparse(bands, plane, w, outs, c0, r0, c1, r1)
		return nil
	}
	dst, direct := d.directOutput(plane, bx, by, rows, bands, w, outs, c0, r0, c1, r1)
	// A large block whose stored bytes are few still decodes whole, at
	// full speed, when it goes straight into the output.
	if br.streamed(cnt) && (!direct || !br.wholeIntoOutput(cnt)) {
		return br.readBlockStreamed(idx, plane, bx, by, rows, bands, w, outs, c0, r0, c1, r1)
	}
	raw, err := br.readStored(idx, off, cnt)
	if err != nil {
		return err
	}
	stride := d.blockW * bs * size
	if direct {
		// The block is a contiguous part of the output: decode it there.
		if _, err := d.decodeInto(st, raw, dst, rows, false); err != nil {
			return fmt.Errorf("block %d: %w", idx, err)
		}
		return nil
	}
	// A predictor on single-sample blocks (floating point, or horizontal
	// differencing of samples in host order) read into one output: undo
	// it row by row straight into the output, skipping the rows and
	// columns outside the window.
	k := d.soleOutput(plane, bands)
	fused := k >= 0 && bs == 1 && d.compression != CompressionJPEG && d.compression != CompressionWebP &&
		(d.predictor == 3 && (d.bps == 32 || d.bps == 64) ||
			d.predictor == 2 && d.bps == 8*size && (size == 1 || d.fileNative()))
	blk, err := d.decodeBlock(st, raw, rows, fused)
	if err != nil {
		return fmt.Errorf("block %d: %w", idx, err)
	}
	if fused {
		n := (c1 - c0) * size
		dst := outs[k]
		for r := r0; r < r1; r++ {
			row := blk[(r-by*d.blockH)*stride : (r-by*d.blockH+1)*stride]
			o := ((r-w.Row)*w.Width + (c0 - w.Col)) * size
			if d.predictor == 3 {
				tiff.UndoFloatRow(row, dst[o:o+n], c0-bx*d.blockW, size)
			} else {
				tiff.UndoHorizontalRow(row, dst[o:o+n], c0-bx*d.blockW, size)
			}
		}
		return nil
	}
	d.copyBlockRows(blk, by*d.blockH, plane, bx, bands, w, outs, c0, r0, c1, r1)
	return nil
}

// copyBlockRows copies the part of decoded block rows inside the window
// (columns [c0, c1), rows [r0, r1) in image coordinates) into each
// requested band's output; blk holds whole block rows of native-order
// samples, its first one image row y0.
func (d *Image) copyBlockRows(blk []byte, y0, plane, bx int, bands []int, w Window, outs [][]byte, c0, r0, c1, r1 int) {
	size := d.dtype.Size()
	bs := d.blockSamples()
	stride := d.blockW * bs * size
	r0, r1 = max(r0, y0), min(r1, y0+len(blk)/stride)
	n := (c1 - c0) * size
	for k, b := range bands {
		s := b - 1
		if d.planar {
			if s != plane {
				continue
			}
			s = 0
		}
		dst := outs[k]
		for r := r0; r < r1; r++ {
			src := blk[(r-y0)*stride+((c0-bx*d.blockW)*bs+s)*size:]
			o := ((r-w.Row)*w.Width + (c0 - w.Col)) * size
			if bs == 1 {
				copy(dst[o:o+n], src[:n])
				continue
			}
			gather(dst[o:o+n], src, bs, size)
		}
	}
}

// directOutput returns the part of the output that block (plane, bx, by),
// of rows encoded rows, decodes to when its decoded bytes are exactly that
// contiguous part: the block's one sample per pixel goes to one requested
// band (a planar file's plane, or a single-band file), whole rows as wide
// as the window, every encoded row inside the window, and samples that
// are decoded at their final size (no bit unpacking or half-float
// widening). Strips and single-tile rasters read whole are decoded in
// place this way, without a scratch buffer and a copy.
func (d *Image) directOutput(plane, bx, by, rows int, bands []int, w Window, outs [][]byte, c0, r0, c1, r1 int) ([]byte, bool) {
	if d.blockSamples() != 1 || w.Width != d.blockW ||
		c0 != bx*d.blockW || c1 != c0+d.blockW || r0 != by*d.blockH || r1 != r0+rows ||
		d.compression == CompressionJPEG || d.compression == CompressionWebP ||
		d.bps != d.dtype.Size()*8 || (d.bps == 16 && d.sampleFormat == 3) {
		return nil, false
	}
	k := -1
	for i, b := range bands {
		if b-1 == plane {
			if k >= 0 {
				return nil, false // the same band twice
			}
			k = i
		}
	}
	if k < 0 {
		return nil, false
	}
	o := (r0 - w.Row) * w.Width * d.dtype.Size()
	return outs[k][o : o+d.rowBytes(d.blockW)*rows], true
}

// soleOutput returns the index of the only output that the blocks of
// plane fill when they hold one sample per pixel (the plane's band of a
// planar file, band 1 of a single-band one), or -1 when none does or
// that band is requested more than once.
func (d *Image) soleOutput(plane int, bands []int) int {
	k := -1
	for i, b := range bands {
		if b-1 == plane {
			if k >= 0 {
				return -1
			}
			k = i
		}
	}
	return k
}

// gather copies every stride-th sample of size bytes from src into dst.
func gather(dst, src []byte, stride, size int) {
	switch size {
	case 1:
		for i := range dst {
			dst[i] = src[i*stride]
		}
	case 2:
		for i := 0; i < len(dst); i += 2 {
			j := i * stride
			dst[i], dst[i+1] = src[j], src[j+1]
		}
	case 4:
		for i := 0; i < len(dst); i += 4 {
			j := i * stride
			copy(dst[i:i+4], src[j:j+4])
		}
	default:
		for i := 0; i < len(dst); i += size {
			j := i * stride
			copy(dst[i:i+size], src[j:j+size])
		}
	}
}

// fillSparse fills the rectangle of a missing block (offset or byte count
// 0) with the nodata value, or 0 without one, as GDAL does.
func (d *Image) fillSparse(bands []int, plane int, w Window, outs [][]byte, c0, r0, c1, r1 int) {
	size := d.dtype.Size()
	val := make([]byte, size)
	fillValue(val, d.dtype, d.nodata, d.hasNoData)
	for k, b := range bands {
		if d.planar && b-1 != plane {
			continue
		}
		for r := r0; r < r1; r++ {
			o := ((r-w.Row)*w.Width + (c0 - w.Col)) * size
			row := outs[k][o : o+(c1-c0)*size]
			for i := 0; i < len(row); i += size {
				copy(row[i:], val)
			}
		}
	}
}

// fillValue fills b with samples of type t of the nodata value v when
// has is set, of 0 otherwise.
func fillValue(b []byte, t DataType, v float64, has bool) {
	size := t.Size()
	if !has || size == 0 {
		clear(b)
		return
	}
	encodeSample(b[:size], t, v)
	for i := size; i+size <= len(b); i += size {
		copy(b[i:i+size], b[:size])
	}
}

// encodeSample stores v converted to t (rounded and clamped like GDAL's
// GDALCopyWords) into b in host byte order.
func encodeSample(b []byte, t DataType, v float64) {
	clamp := func(lo, hi float64) float64 {
		if math.IsNaN(v) {
			return 0
		}
		r := math.Round(v)
		return math.Max(lo, math.Min(hi, r))
	}
	switch t {
	case Uint8:
		b[0] = uint8(clamp(0, 255))
	case Int8:
		b[0] = byte(int8(clamp(-128, 127)))
	case Uint16:
		tiff.U16s(b)[0] = uint16(clamp(0, 65535))
	case Int16:
		tiff.U16s(b)[0] = uint16(int16(clamp(-32768, 32767)))
	case Uint32:
		tiff.U32s(b)[0] = uint32(clamp(0, 4294967295))
	case Int32:
		tiff.U32s(b)[0] = uint32(int32(clamp(-2147483648, 2147483647)))
	case Float32:
		tiff.U32s(b)[0] = math.Float32bits(float32(v))
	case Float64:
		tiff.U64s(b)[0] = math.Float64bits(v)
	}
}

// decodeBlock decompresses one block of rows rows into native-order samples
// of the dataset's DataType, rows of blockW*blockSamples samples.
// With rawPred, the predictor is left for the caller (tiff.UndoFloatRow,
// tiff.UndoHorizontalRow): only for single-sample blocks of whole-byte
// samples in host order.
func (d *Image) decodeBlock(st *blockState, raw []byte, rows int, rawPred bool) ([]byte, error) {
	if d.compression == CompressionJPEG || d.compression == CompressionWebP {
		return d.decodeImageBlock(st, raw, rows)
	}
	st.buf = grow(st.buf, d.rowBytes(d.blockW)*rows)
	return d.decodeInto(st, raw, st.buf, rows, rawPred)
}

// decodeInto is decodeBlock decoding into buf (rows rows of the block, no
// JPEG or WebP): the result is buf itself unless samples are unpacked or
// widened.
func (d *Image) decodeInto(st *blockState, raw, buf []byte, rows int, rawPred bool) ([]byte, error) {
	if err := st.codec.decompress(d.codecs, d.compression, raw, buf); err != nil {
		return nil, err
	}
	return d.finishRows(st, buf, rows, rawPred), nil
}

// finishRows turns rows decompressed block rows in buf into native-order
// samples of the DataType: byte order, predictor, bit unpacking and
// half-float widening. The result is buf itself unless samples are
// unpacked or widened. With rawPred, the predictor is left for the
// caller (see decodeBlock).
func (d *Image) finishRows(st *blockState, buf []byte, rows int, rawPred bool) []byte {
	bs := d.blockSamples()
	rowLen := d.rowBytes(d.blockW)
	switch d.bps {
	case 8, 16, 32, 64:
	default:
		return d.expandBits(st, buf, rowLen, rows)
	}
	size := d.bps / 8
	switch d.predictor {
	case 2:
		if rawPred {
			return buf
		}
		if size > 1 && !d.fileNative() {
			tiff.SwapBytes(buf, size)
		}
		tiff.UndoHorizontal(buf, rowLen, rows, bs, size)
	case 3:
		if rawPred {
			return buf
		}
		st.tmp = grow(st.tmp, rowLen)
		tiff.UndoFloat(buf, rowLen, rows, bs, size, st.tmp)
	default:
		if size > 1 && !d.fileNative() {
			tiff.SwapBytes(buf, size)
		}
	}
	if d.bps == 16 && d.sampleFormat == 3 {
		return d.expandHalf(st, buf)
	}
	return buf
}

// fileNative reports whether the file's byte order is the host's.
func (d *Image) fileNative() bool {
	return (d.hdr.ByteOrder.Uint16([]byte{1, 0}) == 1) == tiff.NativeLE
}

// expandHalf widens native-order IEEE half floats to float32.
func (d *Image) expandHalf(st *blockState, buf []byte) []byte {
	in := tiff.U16s(buf)
	st.exp = grow(st.exp, len(in)*4)
	out := tiff.U32s(st.exp)
	for i, h := range in {
		out[i] = halfToFloat32Bits(h)
	}
	return st.exp
}

// halfToFloat32Bits converts IEEE 754 binary16 bits to binary32 bits.
func halfToFloat32Bits(h uint16) uint32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	man := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f:
		return sign | 0x7f800000 | man<<13
	case exp == 0:
		if man == 0 {
			return sign
		}
		e := uint32(127 - 15 + 1)
		for man&0x400 == 0 {
			man <<= 1
			e--
		}
		man &= 0x3ff
		return sign | e<<23 | man<<13
	}
	return sign | (exp+127-15)<<23 | man<<13
}

// expandBits unpacks rows of MSB-first packed samples of d.bps bits (1..31,
// not a multiple of 8 or 24) into native-order samples of the DataType.
func (d *Image) expandBits(st *blockState, buf []byte, rowLen, rows int) []byte {
	ns := d.blockW * d.blockSamples()
	size := d.dtype.Size()
	st.exp = grow(st.exp, ns*rows*size)
	out := st.exp
	nb := uint(d.bps)
	for r := 0; r < rows; r++ {
		row := buf[r*rowLen : (r+1)*rowLen]
		var acc uint64
		var have uint
		p := 0
		for i := 0; i < ns; i++ {
			for have < nb {
				acc = acc<<8 | uint64(row[p])
				p++
				have += 8
			}
			v := uint32(acc>>(have-nb)) & (1<<nb - 1)
			have -= nb
			acc &= 1<<have - 1
			o := (r*ns + i) * size
			switch size {
			case 1:
				out[o] = uint8(v)
			case 2:
				tiff.U16s(out[o : o+2])[0] = uint16(v)
			case 4:
				tiff.U32s(out[o : o+4])[0] = v
			}
		}
	}
	return out
}
