package runtime

import (
	"context"
	"errors"

	"github.com/geodisaster/engine/internal/rasterhook"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// bandReader is the raster reader's entry points for reads into the
// session's recycled buffers and reads started in the background; the
// engine takes it from package raster once, in NewEngine.
type bandReader = rasterhook.Reader[*raster.Dataset, raster.Window, *raster.Band]

// A band prefetch decodes bands of a declared GeoTIFF on other goroutines
// from the moment its bytes are in memory, while the session is still
// hashing them (ReadData reads, hashes and describes the file; the workers
// that decode it come later in the chain). The decoded bands become
// visible through Band only once the bytes have matched their file card;
// bytes that fail the check are dropped with their prefetch.

// PrefetchBands implements workers.BandPrefetcher: it records that bands
// of path will be decoded, for the session's first read of path. A path
// outside the call's read gate, or one already read, is ignored (the read
// that follows reports the denial as usual).
func (e *callEnv) PrefetchBands(path string, bands []int) {
	if _, ok := e.allowed[path]; !ok {
		return
	}
	if _, ok := e.s.files[path]; ok {
		return
	}
	if e.s.prefetchHints == nil {
		e.s.prefetchHints = map[string][]int{}
	}
	e.s.prefetchHints[path] = append([]int(nil), bands...)
}

// bandPrefetch is a decode of some bands of one file in flight.
type bandPrefetch struct {
	ds     *raster.Dataset
	info   *workers.RasterInfo
	bands  map[int]int // band number -> index in the read's bands
	read   rasterhook.Pending[*raster.Band]
	cancel context.CancelFunc
}

// startPrefetch opens data as a GeoTIFF and starts decoding the requested
// bands (those in range, without repeats) on other goroutines with
// reader. It returns nil when there is nothing to decode, including when
// data is not a readable GeoTIFF: the session's synchronous open then
// reports why.
func startPrefetch(reader bandReader, data []byte, bands []int, alloc rasterhook.Allocator) *bandPrefetch {
	ds, err := raster.OpenBytes(data)
	if err != nil {
		return nil
	}
	info := rasterInfo(ds)
	p := &bandPrefetch{ds: ds, info: &info, bands: map[int]int{}}
	var list []int
	for _, b := range bands {
		if _, dup := p.bands[b]; !dup && b >= 1 && b <= info.Count {
			p.bands[b] = len(list)
			list = append(list, b)
		}
	}
	if len(list) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	r, err := reader.StartReadBands(ds, ctx, list, raster.Window{Width: info.Width, Height: info.Height}, alloc)
	if err != nil {
		cancel()
		return nil
	}
	p.read, p.cancel = r, cancel
	return p
}

// band returns band b, whether the prefetch covered it, and its decoding
// error; the caller decodes the blocks no goroutine has started yet
// (rasterhook.Pending.Wait). A prefetch stopped by Session.Close or by ctx
// reports ctx's error.
func (p *bandPrefetch) band(ctx context.Context, b int) (*raster.Band, bool, error) {
	i, ok := p.bands[b]
	if !ok {
		return nil, false, nil
	}
	out, err := p.read.Wait(ctx)
	if err != nil {
		if errors.Is(err, context.Canceled) && ctx.Err() == nil {
			// Stopped by Close; a caller still running decodes itself.
			return nil, false, nil
		}
		return nil, true, err
	}
	return out[i], true, nil
}

// stop cancels the prefetch and waits until no goroutine decodes into
// its bands.
func (p *bandPrefetch) stop() {
	p.cancel()
	<-p.read.Done()
}

// stopPrefetches cancels the session's band prefetches and waits for
// them to stop using the file bytes and band buffers.
func (s *Session) stopPrefetches() {
	for _, fe := range s.files {
		if p := fe.prefetch; p != nil {
			p.stop()
		}
	}
}

// rasterInfo describes an opened dataset for workers.
func rasterInfo(ds *raster.Dataset) workers.RasterInfo {
	info := workers.RasterInfo{
		Width: ds.Width(), Height: ds.Height(), Count: ds.Count(),
		DataType: ds.DataType(), EPSG: ds.EPSG(),
	}
	info.Transform, info.HasTransform = ds.Transform()
	info.NoData, info.HasNoData = ds.NoData()
	for b := 1; b <= info.Count; b++ {
		info.Descriptions = append(info.Descriptions, ds.BandDescription(b))
	}
	return info
}
