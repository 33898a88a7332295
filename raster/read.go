package raster

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/geodisaster/engine/internal/rasterhook"
	"github.com/geodisaster/engine/raster/internal/tiff"
)

// ReadBand reads a whole band (1-based), decoding blocks concurrently.
func (d *Dataset) ReadBand(ctx context.Context, band int) (*Band, error) {
	return d.ReadWindow(ctx, band, Window{0, 0, d.width, d.height})
}

// ReadWindow reads the window w of band (1-based). The window must lie
// inside the raster.
func (d *Dataset) ReadWindow(ctx context.Context, band int, w Window) (*Band, error) {
	bs, err := d.ReadBands(ctx, []int{band}, w)
	if err != nil {
		return nil, err
	}
	return bs[0], nil
}

// ReadAll reads every band of the dataset; pixel-interleaved files are
// decoded once for all bands.
func (d *Dataset) ReadAll(ctx context.Context) ([]*Band, error) {
	bands := make([]int, d.spp)
	for i := range bands {
		bands[i] = i + 1
	}
	return d.ReadBands(ctx, bands, Window{0, 0, d.width, d.height})
}

// ReadBands reads the window w of several bands (1-based) at once, so
// pixel-interleaved blocks are decoded only once. Blocks are decoded
// concurrently by up to GOMAXPROCS goroutines and by the calling one.
func (d *Dataset) ReadBands(ctx context.Context, bands []int, w Window) ([]*Band, error) {
	return d.readBandsAlloc(ctx, bands, w, nil)
}

func init() {
	rasterhook.Set(rasterhook.Reader[*Dataset, Window, *Band]{
		ReadBands: (*Dataset).readBandsAlloc,
		StartReadBands: func(d *Dataset, ctx context.Context, bands []int, w Window, alloc rasterhook.Allocator) (rasterhook.Pending[*Band], error) {
			r, err := d.startReadBands(ctx, bands, w, alloc)
			if err != nil {
				return nil, err
			}
			return r, nil
		},
	})
}

// readBandsAlloc is ReadBands with the bands' sample storage taken from
// alloc (a rasterhook.Allocator) when it is not nil, so a caller can
// recycle the memory of bands it no longer uses (fresh memory costs page
// faults and zeroing).
func (d *Dataset) readBandsAlloc(ctx context.Context, bands []int, w Window, alloc func(n int) []byte) ([]*Band, error) {
	op, err := d.startRead(ctx, bands, w, alloc)
	if err != nil {
		return nil, err
	}
	if err := op.wait(); err != nil {
		return nil, err
	}
	return op.out, nil
}

// A bandRead is a read of bands in progress, started by startReadBands.
type bandRead struct{ op *readOp }

// startReadBands starts readBandsAlloc's read and returns without waiting
// for it: blocks are decoded by up to GOMAXPROCS background goroutines
// and by the goroutine that calls Wait, which takes the blocks no other
// goroutine has started (a caller that waits would otherwise leave its
// core idle while a background goroutine waits for one).
func (d *Dataset) startReadBands(ctx context.Context, bands []int, w Window, alloc func(n int) []byte) (*bandRead, error) {
	op, err := d.startRead(ctx, bands, w, alloc)
	if err != nil {
		return nil, err
	}
	return &bandRead{op: op}, nil
}

// Wait decodes the blocks not taken yet on the calling goroutine, waits
// for the others and returns the bands, or the read's first error
// (ctx's error when ctx ends first).
func (r *bandRead) Wait(ctx context.Context) ([]*Band, error) {
	r.op.work()
	select {
	case <-r.op.finished:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if r.op.err != nil {
		return nil, r.op.err
	}
	return r.op.out, nil
}

// Done returns a channel closed once the read has finished or failed and
// no goroutine decodes into its bands any longer.
func (r *bandRead) Done() <-chan struct{} { return r.op.finished }

// readJob is one block to decode: plane (band index for planar files, else
// 0) and block column/row.
type readJob struct{ plane, bx, by int }

// readOp is a read in progress: its outputs, its jobs in block order, and
// a channel per job closed when the job is done. Jobs are taken in order
// by workers running work: background goroutines and waiting callers.
// finished is closed by the last worker to leave once every job is taken
// (or the read failed); a worker arriving after that leaves at once, so
// nothing writes to the outputs once finished is closed.
type readOp struct {
	out      []*Band
	jobs     []readJob
	ready    []chan struct{}
	finished chan struct{}
	err      error
	work     func() // decodes jobs until none is left or the read fails

	mu     sync.Mutex
	active int  // workers inside work
	closed bool // finished is closed
}

// enter admits a worker unless finished is closed.
func (op *readOp) enter() bool {
	op.mu.Lock()
	defer op.mu.Unlock()
	if op.closed {
		return false
	}
	op.active++
	return true
}

// leave lets a worker go; the last one out closes finished when no job is
// left to take (done reports that).
func (op *readOp) leave(done bool) {
	op.mu.Lock()
	defer op.mu.Unlock()
	op.active--
	if op.active == 0 && done && !op.closed {
		op.closed = true
		close(op.finished)
	}
}

// waitJob blocks until job i is decoded; it returns false if the read
// failed first.
func (op *readOp) waitJob(i int) bool {
	select {
	case <-op.ready[i]:
		return true
	case <-op.finished:
		select {
		case <-op.ready[i]:
			return op.err == nil
		default:
			return false
		}
	}
}

// wait decodes jobs not taken yet, blocks until every job is done and
// returns the first error.
func (op *readOp) wait() error {
	op.work()
	<-op.finished
	return op.err
}

// startRead validates a read, allocates its outputs and starts decoding
// its blocks in the background.
func (d *Dataset) startRead(ctx context.Context, bands []int, w Window, alloc func(n int) []byte) (*readOp, error) {
	if len(bands) == 0 {
		return nil, fmt.Errorf("raster: no bands requested")
	}
	for _, b := range bands {
		if b < 1 || b > d.spp {
			return nil, fmt.Errorf("raster: band %d out of range 1..%d", b, d.spp)
		}
	}
	if w.Width <= 0 || w.Height <= 0 || w.Col < 0 || w.Row < 0 ||
		w.Col > d.width-w.Width || w.Row > d.height-w.Height {
		return nil, fmt.Errorf("raster: window %+v outside raster %dx%d", w, d.width, d.height)
	}
	if need, lim := int64(w.Width)*int64(w.Height)*int64(d.dtype.Size()), d.Limits().MaxReadBytes; need > lim {
		return nil, &LimitError{What: fmt.Sprintf("window %dx%d", w.Width, w.Height), Field: "MaxReadBytes", Need: need, Max: lim}
	}
	op := &readOp{out: make([]*Band, len(bands)), finished: make(chan struct{})}
	outBytes := make([][]byte, len(bands))
	for i := range bands {
		b, err := newBandAlloc(w.Width, w.Height, d.dtype, alloc)
		if err != nil {
			return nil, err
		}
		op.out[i] = b
		outBytes[i] = b.Bytes()
	}
	bx0, bx1 := w.Col/d.blockW, (w.Col+w.Width-1)/d.blockW
	by0, by1 := w.Row/d.blockH, (w.Row+w.Height-1)/d.blockH
	planes := []int{0}
	if d.planar {
		planes = planes[:0]
		seen := map[int]bool{}
		for _, b := range bands {
			if !seen[b] {
				seen[b] = true
				planes = append(planes, b-1)
			}
		}
	}
	for _, p := range planes {
		for by := by0; by <= by1; by++ {
			for bx := bx0; bx <= bx1; bx++ {
				op.jobs = append(op.jobs, readJob{p, bx, by})
			}
		}
	}
	op.ready = make([]chan struct{}, len(op.jobs))
	for i := range op.ready {
		op.ready[i] = make(chan struct{})
	}
	workers := min(runtime.GOMAXPROCS(0), len(op.jobs))
	var (
		next    atomic.Int64
		failed  atomic.Bool
		errOnce sync.Once
	)
	fail := func(e error) {
		errOnce.Do(func() { op.err = e })
		failed.Store(true)
	}
	// taken reports whether no job is left to start.
	taken := func() bool { return failed.Load() || next.Load() >= int64(len(op.jobs)) }
	op.work = func() {
		if !op.enter() {
			return
		}
		defer func() {
			if p := recover(); p != nil {
				fail(FormatError(fmt.Sprintf("internal error while decoding: %v", p)))
			}
			op.leave(taken())
		}()
		if taken() {
			return
		}
		st := d.getState()
		defer d.putState(st)
		for !failed.Load() {
			i := int(next.Add(1) - 1)
			if i >= len(op.jobs) {
				return
			}
			if err := ctx.Err(); err != nil {
				fail(err)
				return
			}
			j := op.jobs[i]
			if err := d.readBlock(st, j.plane, j.bx, j.by, bands, w, outBytes); err != nil {
				fail(err)
				return
			}
			close(op.ready[i])
		}
	}
	for k := 0; k < workers; k++ {
		go op.work()
	}
	return op, nil
}

// blockState is one decoding goroutine's scratch memory.
type blockState struct {
	codec codecState
	raw   []byte
	buf   []byte
	tmp   []byte
	exp   []byte
}

// blockStates holds decoding scratch states for every dataset: reads of
// many small files (one chip per record) reuse the decompressors' tables
// and the compressed and decoded block buffers instead of allocating and
// zeroing them per file. The pool drops them at garbage collections.
var blockStates sync.Pool

// getState returns a scratch state from the package's pool.
func (d *Dataset) getState() *blockState {
	if s, ok := blockStates.Get().(*blockState); ok {
		return s
	}
	return &blockState{}
}

// putState returns a scratch state to the pool.
func (d *Dataset) putState(s *blockState) { blockStates.Put(s) }

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
func (d *Dataset) blockRows(by int) int {
	if d.tiled {
		return d.blockH
	}
	if r := d.height - by*d.blockH; r < d.blockH {
		return r
	}
	return d.blockH
}

// readBlock decodes block (plane, bx, by) and copies the part inside w into
// each requested band's output.
func (d *Dataset) readBlock(st *blockState, plane, bx, by int, bands []int, w Window, outs [][]byte) error {
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
	if d.streamed(cnt) {
		// A large block whose stored bytes are few still decodes whole,
		// at full speed, when it goes straight into the output.
		if _, direct := d.directOutput(plane, bx, by, rows, bands, w, outs, c0, r0, c1, r1); !direct || !d.wholeIntoOutput(cnt) {
			return d.readBlockStreamed(st, idx, plane, bx, by, rows, bands, w, outs, c0, r0, c1, r1)
		}
	}
	if err := d.checkInMemory(idx, cnt); err != nil {
		return fmt.Errorf("block %d: %w", idx, err)
	}
	st.raw = grow(st.raw, int(cnt))
	if err := tiff.ReadFull(d.r, d.size, st.raw, off, fmt.Sprintf("block %d", idx)); err != nil {
		return err
	}
	stride := d.blockW * bs * size
	if dst, ok := d.directOutput(plane, bx, by, rows, bands, w, outs, c0, r0, c1, r1); ok {
		// The block is a contiguous part of the output: decode it there.
		if _, err := d.decodeInto(st, st.raw, dst, rows, false); err != nil {
			return fmt.Errorf("block %d: %w", idx, err)
		}
		return nil
	}
	// Floating-point predictor on single-sample blocks: undo it row by row
	// straight into the output, skipping rows outside the window.
	fused := d.predictor == 3 && bs == 1 && (d.bps == 32 || d.bps == 64) && len(bands) == 1
	blk, err := d.decodeBlock(st, st.raw, rows, fused)
	if err != nil {
		return fmt.Errorf("block %d: %w", idx, err)
	}
	if fused {
		n := (c1 - c0) * size
		dst := outs[0]
		for r := r0; r < r1; r++ {
			row := blk[(r-by*d.blockH)*stride : (r-by*d.blockH+1)*stride]
			o := ((r-w.Row)*w.Width + (c0 - w.Col)) * size
			tiff.UndoFloatRow(row, dst[o:o+n], c0-bx*d.blockW, size)
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
func (d *Dataset) copyBlockRows(blk []byte, y0, plane, bx int, bands []int, w Window, outs [][]byte, c0, r0, c1, r1 int) {
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
func (d *Dataset) directOutput(plane, bx, by, rows int, bands []int, w Window, outs [][]byte, c0, r0, c1, r1 int) ([]byte, bool) {
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
func (d *Dataset) fillSparse(bands []int, plane int, w Window, outs [][]byte, c0, r0, c1, r1 int) {
	size := d.dtype.Size()
	val := make([]byte, size)
	if d.hasNoData {
		encodeSample(val, d.dtype, d.nodata)
	}
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
// With rawFloat, the floating-point predictor is left for the caller
// (tiff.UndoFloatRow).
func (d *Dataset) decodeBlock(st *blockState, raw []byte, rows int, rawFloat bool) ([]byte, error) {
	if d.compression == CompressionJPEG || d.compression == CompressionWebP {
		return d.decodeImageBlock(st, raw, rows)
	}
	st.buf = grow(st.buf, d.rowBytes(d.blockW)*rows)
	return d.decodeInto(st, raw, st.buf, rows, rawFloat)
}

// decodeInto is decodeBlock decoding into buf (rows rows of the block, no
// JPEG or WebP): the result is buf itself unless samples are unpacked or
// widened.
func (d *Dataset) decodeInto(st *blockState, raw, buf []byte, rows int, rawFloat bool) ([]byte, error) {
	if err := st.codec.decompress(d.compression, raw, buf); err != nil {
		return nil, err
	}
	return d.finishRows(st, buf, rows, rawFloat), nil
}

// finishRows turns rows decompressed block rows in buf into native-order
// samples of the DataType: byte order, predictor, bit unpacking and
// half-float widening. The result is buf itself unless samples are
// unpacked or widened. With rawFloat, the floating-point predictor is
// left for the caller.
func (d *Dataset) finishRows(st *blockState, buf []byte, rows int, rawFloat bool) []byte {
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
		if size > 1 && !d.fileNative() {
			tiff.SwapBytes(buf, size)
		}
		tiff.UndoHorizontal(buf, rowLen, rows, bs, size)
	case 3:
		if rawFloat {
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
func (d *Dataset) fileNative() bool {
	return (d.bo.Uint16([]byte{1, 0}) == 1) == tiff.NativeLE
}

// expandHalf widens native-order IEEE half floats to float32.
func (d *Dataset) expandHalf(st *blockState, buf []byte) []byte {
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
func (d *Dataset) expandBits(st *blockState, buf []byte, rowLen, rows int) []byte {
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
