package raster

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// streamStatistics computes band's (1-based) exact statistics as GDAL does
// (see computeBandStatistics) without holding the band in memory: blocks
// are decoded concurrently into a bounded set of buffers and folded into
// the statistics in GDAL's block order. Memory is a few blocks per core.
func (d *Dataset) streamStatistics(ctx context.Context, band int) (Statistics, error) {
	c := newStatsCollector(d.dtype, d.nodataPtr())
	plane := 0
	if d.planar {
		plane = band - 1
	}
	if d.streamed(0) {
		return d.statisticsStreamed(ctx, c, band, plane)
	}
	n := d.blocksAcross * d.blocksDown
	workers := min(runtime.GOMAXPROCS(0), n)
	size := d.dtype.Size()
	// Each in-flight block owns one buffer; at most inflight blocks are
	// decoded ahead of the statistics.
	inflight := 2*workers + 2
	free := make(chan []byte, inflight)
	for i := 0; i < inflight; i++ {
		free <- make([]byte, d.blockW*d.blockH*size)
	}
	type slot struct {
		buf  []byte
		w, h int
		done chan struct{}
	}
	slots := make([]slot, n)
	for i := range slots {
		slots[i].done = make(chan struct{})
	}
	var (
		next    atomic.Int64
		failed  atomic.Bool
		errOnce sync.Once
		first   error
		wg      sync.WaitGroup
	)
	stop := make(chan struct{})
	fail := func(e error) {
		errOnce.Do(func() { first = e; close(stop) })
		failed.Store(true)
	}
	wg.Add(workers)
	for k := 0; k < workers; k++ {
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					fail(FormatError(fmt.Sprintf("internal error while decoding: %v", p)))
				}
			}()
			st := d.getState()
			defer d.putState(st)
			for !failed.Load() {
				// Take a buffer before claiming a block: a worker that
				// claimed block i must never wait for a buffer that only the
				// consumer of block i (still waiting for it) would release.
				var buf []byte
				select {
				case buf = <-free:
				case <-stop:
					return
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					select {
					case free <- buf:
					default:
					}
					return
				}
				if err := ctx.Err(); err != nil {
					fail(err)
					return
				}
				bx, by := i%d.blocksAcross, i/d.blocksAcross
				x0, y0 := bx*d.blockW, by*d.blockH
				w := Window{x0, y0, min(d.blockW, d.width-x0), min(d.blockH, d.height-y0)}
				buf = buf[:w.Width*w.Height*size]
				if err := d.readBlock(st, plane, bx, by, []int{band}, w, [][]byte{buf}); err != nil {
					fail(fmt.Errorf("raster: %w", err))
					return
				}
				slots[i].buf, slots[i].w, slots[i].h = buf, w.Width, w.Height
				close(slots[i].done)
			}
		}()
	}
	var loopErr error
	for i := range slots {
		select {
		case <-slots[i].done:
		case <-stop:
			loopErr = first
		}
		if loopErr != nil {
			break
		}
		s := &slots[i]
		c.add(typedView(s.buf, d.dtype), 0, s.w*s.h)
		free <- s.buf[:cap(s.buf)]
		s.buf = nil
	}
	if loopErr != nil {
		// Unblock workers waiting for buffers, then wait for them.
		failed.Store(true)
		wg.Wait()
		return Statistics{}, loopErr
	}
	wg.Wait()
	if first != nil {
		return Statistics{}, first
	}
	return c.result(int64(d.width) * int64(d.height))
}

// typedView views native-order sample bytes as a typed slice.
func typedView(b []byte, t DataType) any {
	if len(b) == 0 {
		return nil
	}
	p := unsafe.Pointer(&b[0])
	switch t {
	case Uint8:
		return b
	case Int8:
		return unsafe.Slice((*int8)(p), len(b))
	case Uint16:
		return unsafe.Slice((*uint16)(p), len(b)/2)
	case Int16:
		return unsafe.Slice((*int16)(p), len(b)/2)
	case Uint32:
		return unsafe.Slice((*uint32)(p), len(b)/4)
	case Int32:
		return unsafe.Slice((*int32)(p), len(b)/4)
	case Float32:
		return unsafe.Slice((*float32)(p), len(b)/4)
	case Float64:
		return unsafe.Slice((*float64)(p), len(b)/8)
	}
	return nil
}
