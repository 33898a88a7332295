package geotiff

import "github.com/geodisaster/engine/raster/internal/codec"

// A FormatError reports that the input is not a valid TIFF/GeoTIFF or is
// corrupt (truncated data, offsets past the end of the file, inconsistent
// tags, a block that does not decompress to its expected size).
type FormatError = codec.FormatError

// An UnsupportedError reports that the input is a valid TIFF but uses a
// feature this package does not implement (a compression scheme, sample
// layout or photometric interpretation).
type UnsupportedError = codec.UnsupportedError
