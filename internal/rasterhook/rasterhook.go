// Package rasterhook gives the engine's runtime two entry points of the
// raster reader that are performance hooks, not library API: a read into
// storage the caller recycles, and a read started in the background whose
// last blocks the waiting goroutine decodes itself. Package raster fills
// them in when it is initialised; they are typed by raster's dataset,
// window and band types (D, W, B), which this package cannot name without
// an import cycle.
package rasterhook

import "context"

// An Allocator supplies sample storage: it returns a byte slice of length
// n, with any contents, whose first byte is 8-byte aligned (as make
// returns). A read that succeeds writes every sample of the storage it
// was given. A slice that is too short or misaligned is not used.
type Allocator = func(n int) []byte

// A Pending is a read of bands in progress.
type Pending[B any] interface {
	// Wait decodes the blocks not taken yet on the calling goroutine,
	// waits for the others and returns the bands, or the read's first
	// error (ctx's error when ctx ends first).
	Wait(ctx context.Context) ([]B, error)
	// Done returns a channel closed once the read has finished or failed
	// and no goroutine decodes into its bands any longer.
	Done() <-chan struct{}
}

// Reader holds the hooks for dataset type D, window type W and band type
// B (*raster.Dataset, raster.Window, *raster.Band).
type Reader[D, W, B any] struct {
	// ReadBands is Dataset.ReadBands with the bands' storage from alloc
	// when it is not nil.
	ReadBands func(d D, ctx context.Context, bands []int, w W, alloc Allocator) ([]B, error)
	// StartReadBands starts ReadBands's read and returns without waiting
	// for it: blocks are decoded by up to GOMAXPROCS background goroutines
	// and by the goroutine that calls Wait, which takes the blocks no
	// other goroutine has started.
	StartReadBands func(d D, ctx context.Context, bands []int, w W, alloc Allocator) (Pending[B], error)
}

var reader any

// Set installs the hooks (package raster's init does).
func Set[D, W, B any](r Reader[D, W, B]) { reader = r }

// Get returns the hooks installed for D, W and B; it panics when package
// raster is not linked in or the types are not raster's.
func Get[D, W, B any]() Reader[D, W, B] { return reader.(Reader[D, W, B]) }
