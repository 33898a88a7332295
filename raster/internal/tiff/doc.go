// Package tiff is the TIFF and BigTIFF container beneath raster's GeoTIFF
// reader and writer: the tag and field-type numbers, the header and image
// file directories (read with bounds and limits against hostile files), and
// the horizontal and floating-point predictors.
package tiff

import "github.com/geodisaster/engine/raster/internal/codec"

// FormatError is the error type for files that are not valid TIFF.
type FormatError = codec.FormatError
