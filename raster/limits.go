package raster

import "github.com/geodisaster/engine/raster/geotiff"

// Limits bound the memory reads of a Dataset may allocate. A file that
// needs more is valid: reading it fails with a *LimitError (an
// UnsupportedError) and succeeds once the limit is raised with SetLimits.
// Strips and tiles larger than 16 MiB (other than JPEG and WebP ones) are
// decoded as a stream of rows straight into the output, so their size
// needs no memory and meets no limit.
type Limits struct {
	// MaxReadBytes bounds the samples one read returns: window width x
	// height x sample size, per band. Zero means the default, 4 GiB.
	MaxReadBytes int64
	// MaxBlockBytes bounds a strip or tile that must be held in memory
	// whole to be decoded (JPEG and WebP blocks, compressed and decoded
	// size each) and one row of a streamed block. Zero means the default,
	// 256 MiB.
	MaxBlockBytes int64

	// streamAbove replaces the block size above which blocks are
	// streamed when positive (tests stream every block with 1).
	streamAbove int64
}

// Default limits.
const (
	DefaultMaxReadBytes  = 1 << 32
	DefaultMaxBlockBytes = geotiff.DefaultMaxBlockBytes
)

// withDefaults returns l with zero fields set to their defaults.
func (l Limits) withDefaults() Limits {
	if l.MaxReadBytes <= 0 {
		l.MaxReadBytes = DefaultMaxReadBytes
	}
	if l.MaxBlockBytes <= 0 {
		l.MaxBlockBytes = DefaultMaxBlockBytes
	}
	return l
}

// Limits returns the dataset's read limits (defaults filled in).
func (d *Dataset) Limits() Limits {
	if l := d.limits.Load(); l != nil {
		return *l
	}
	return Limits{}.withDefaults()
}

// SetLimits sets the dataset's read limits; zero fields take their
// defaults. Reads already started keep the limits they started with.
func (d *Dataset) SetLimits(l Limits) {
	l = l.withDefaults()
	d.limits.Store(&l)
}

// blockLimits returns the block decoder's limits of l.
func (l Limits) blockLimits() geotiff.Limits {
	return geotiff.Limits{MaxBlockBytes: l.MaxBlockBytes, StreamBlockBytes: l.streamAbove}
}
