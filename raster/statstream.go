package raster

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/geodisaster/engine/raster/geotiff"
)

// streamStatistics computes band's (1-based) exact statistics as GDAL does
// (see computeBandStatistics) without holding the band in memory: blocks
// are decoded concurrently into a bounded set of buffers and folded into
// the statistics in GDAL's block order. Memory is a few blocks per core.
func (d *Dataset) streamStatistics(ctx context.Context, band int) (Statistics, error) {
	img, dtype := d.img, d.DataType()
	c := newStatsCollector(dtype, d.nodataPtr())
	plane := 0
	if img.Planar() {
		plane = band - 1
	}
	lim := d.Limits().blockLimits()
	width, height := img.Width(), img.Height()
	blockW, blockH := img.BlockSize()
	across, down := img.Blocks()
	br := img.NewBlockReader(lim)
	if br.Streams() {
		defer br.Close()
		return d.statisticsStreamed(ctx, br, c, band, plane)
	}
	br.Close() // the workers below take their own
	n := across * down
	workers := min(runtime.GOMAXPROCS(0), n)
	size := dtype.Size()
	// Each in-flight block owns one buffer; at most inflight blocks are
	// decoded ahead of the statistics.
	inflight := 2*workers + 2
	free := make(chan []byte, inflight)
	for i := 0; i < inflight; i++ {
		free <- make([]byte, blockW*blockH*size)
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
			br := img.NewBlockReader(lim)
			defer br.Close()
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
				bx, by := i%across, i/across
				x0, y0 := bx*blockW, by*blockH
				w := Window{x0, y0, min(blockW, width-x0), min(blockH, height-y0)}
				buf = buf[:w.Width*w.Height*size]
				if err := br.ReadWindow(plane, bx, by, []int{band}, geotiff.Window(w), [][]byte{buf}); err != nil {
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
		c.add(typedView(s.buf, dtype), 0, s.w*s.h)
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
	return c.result(int64(width) * int64(height))
}

// statisticsStreamed is Statistics for streamed blocks: they are decoded
// in block order, one at a time and a chunk of rows at a time, and each
// chunk's samples of band are folded into c, so memory stays a few MB.
func (d *Dataset) statisticsStreamed(ctx context.Context, br *geotiff.BlockReader, c *statsCollector, band, plane int) (Statistics, error) {
	across, down := d.img.Blocks()
	dtype := d.DataType()
	for by := 0; by < down; by++ {
		for bx := 0; bx < across; bx++ {
			if err := ctx.Err(); err != nil {
				return Statistics{}, err
			}
			err := br.ReadRows(plane, bx, by, band, func(samples []byte, w geotiff.Window) {
				c.add(typedView(samples, dtype), 0, w.Width*w.Height)
			})
			if err != nil {
				return Statistics{}, fmt.Errorf("raster: %w", err)
			}
		}
	}
	return c.result(int64(d.Width()) * int64(d.Height()))
}
