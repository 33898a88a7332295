package raster

import "github.com/geodisaster/engine/raster/geotiff"

// A FormatError reports that the input is not a valid TIFF/GeoTIFF or is
// corrupt (truncated data, offsets past the end of the file, inconsistent
// tags, a block that does not decompress to its expected size).
type FormatError = geotiff.FormatError

// An UnsupportedError reports that the input is a valid TIFF but uses a
// feature this package does not implement (a compression scheme, sample
// layout or photometric interpretation).
type UnsupportedError = geotiff.UnsupportedError

// A LimitError reports that a read needs more memory than a Limits field
// allows. It unwraps to an UnsupportedError: the file is valid, and the
// read succeeds with a larger limit.
type LimitError = geotiff.LimitError
