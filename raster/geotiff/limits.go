package geotiff

import (
	"fmt"

	"github.com/geodisaster/engine/raster/internal/codec"
)

// Limits bound the memory a BlockReader may allocate for one block. A
// file that needs more is valid: decoding it fails with a *LimitError (an
// UnsupportedError) and succeeds with a larger limit.
type Limits struct {
	// MaxBlockBytes bounds a strip or tile that must be held in memory
	// whole to be decoded (JPEG and WebP blocks and those of registered
	// schemes, compressed and decoded size each) and one row of a
	// streamed block. Zero means DefaultMaxBlockBytes.
	MaxBlockBytes int64
	// StreamBlockBytes is the decoded or stored block size above which
	// the other blocks are decoded as a stream of rows, a chunk at a
	// time, so that their size needs no memory. Zero means
	// DefaultStreamBlockBytes.
	StreamBlockBytes int64
}

// Default limits.
const (
	DefaultMaxBlockBytes    = codec.MaxBlockBytes // 256 MiB
	DefaultStreamBlockBytes = 16 << 20
)

// withDefaults returns l with zero fields set to their defaults.
func (l Limits) withDefaults() Limits {
	if l.MaxBlockBytes <= 0 {
		l.MaxBlockBytes = DefaultMaxBlockBytes
	}
	if l.StreamBlockBytes <= 0 {
		l.StreamBlockBytes = DefaultStreamBlockBytes
	}
	return l
}

// A LimitError reports that a read needs more memory than a limit
// allows. It unwraps to an UnsupportedError: the file is valid, and the
// read succeeds with a larger limit.
type LimitError struct {
	// What needs the memory, such as "window 70000x70000" or "JPEG block 3".
	What string
	// Field is the limit exceeded ("MaxReadBytes", "MaxBlockBytes").
	Field string
	// Need and Max are the bytes needed and the limit.
	Need, Max int64
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("raster: unsupported feature: %s needs %d bytes in memory, over the limit of %d (raise Limits.%s with Dataset.SetLimits)", e.What, e.Need, e.Max, e.Field)
}

// Unwrap returns the UnsupportedError the limit stands for, so that
// errors.As(err, &UnsupportedError) holds.
func (e *LimitError) Unwrap() error {
	return UnsupportedError(fmt.Sprintf("%s over Limits.%s", e.What, e.Field))
}
