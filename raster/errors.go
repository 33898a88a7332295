package raster

// A FormatError reports that the input is not a valid TIFF/GeoTIFF or is
// corrupt (truncated data, offsets past the end of the file, inconsistent
// tags, a block that does not decompress to its expected size).
type FormatError string

func (e FormatError) Error() string { return "raster: invalid format: " + string(e) }

// An UnsupportedError reports that the input is a valid TIFF but uses a
// feature this package does not implement (a compression scheme, sample
// layout or photometric interpretation).
type UnsupportedError string

func (e UnsupportedError) Error() string { return "raster: unsupported feature: " + string(e) }
