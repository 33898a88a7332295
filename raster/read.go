package raster

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/geodisaster/engine/internal/rasterhook"
	"github.com/geodisaster/engine/raster/geotiff"
)

// ReadBand reads a whole band (1-based), decoding blocks concurrently.
func (d *Dataset) ReadBand(ctx context.Context, band int) (*Band, error) {
	return d.ReadWindow(ctx, band, Window{0, 0, d.Width(), d.Height()})
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
	bands := make([]int, d.Count())
	for i := range bands {
		bands[i] = i + 1
	}
	return d.ReadBands(ctx, bands, Window{0, 0, d.Width(), d.Height()})
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
	img := d.img
	spp, width, height, dtype := img.Count(), img.Width(), img.Height(), img.DataType()
	if len(bands) == 0 {
		return nil, fmt.Errorf("raster: no bands requested")
	}
	for _, b := range bands {
		if b < 1 || b > spp {
			return nil, fmt.Errorf("raster: band %d out of range 1..%d", b, spp)
		}
	}
	if w.Width <= 0 || w.Height <= 0 || w.Col < 0 || w.Row < 0 ||
		w.Col > width-w.Width || w.Row > height-w.Height {
		return nil, fmt.Errorf("raster: window %+v outside raster %dx%d", w, width, height)
	}
	lim := d.Limits()
	if need := int64(w.Width) * int64(w.Height) * int64(dtype.Size()); need > lim.MaxReadBytes {
		return nil, &LimitError{What: fmt.Sprintf("window %dx%d", w.Width, w.Height), Field: "MaxReadBytes", Need: need, Max: lim.MaxReadBytes}
	}
	op := &readOp{out: make([]*Band, len(bands)), finished: make(chan struct{})}
	outBytes := make([][]byte, len(bands))
	for i := range bands {
		b, err := newBandAlloc(w.Width, w.Height, dtype, alloc)
		if err != nil {
			return nil, err
		}
		op.out[i] = b
		outBytes[i] = b.Bytes()
	}
	blockW, blockH := img.BlockSize()
	bx0, bx1 := w.Col/blockW, (w.Col+w.Width-1)/blockW
	by0, by1 := w.Row/blockH, (w.Row+w.Height-1)/blockH
	planes := []int{0}
	if img.Planar() {
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
	gw := geotiff.Window(w)
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
		br := img.NewBlockReader(lim.blockLimits())
		defer br.Close()
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
			if err := br.ReadWindow(j.plane, j.bx, j.by, bands, gw, outBytes); err != nil {
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
