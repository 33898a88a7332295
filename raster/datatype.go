package raster

import "github.com/geodisaster/engine/raster/geotiff"

// DataType is the numeric type of a band's samples (geotiff.DataType).
type DataType = geotiff.DataType

// The sample types a Dataset or Band can hold. 1-bit and other sub-byte
// integer rasters are surfaced as Uint8, 9..15-bit as Uint16 and 17..31-bit
// as Uint32, as GDAL does; 16-bit floats are widened to Float32.
const (
	Unknown = geotiff.Unknown
	Uint8   = geotiff.Uint8
	Int8    = geotiff.Int8
	Uint16  = geotiff.Uint16
	Int16   = geotiff.Int16
	Uint32  = geotiff.Uint32
	Int32   = geotiff.Int32
	Float32 = geotiff.Float32
	Float64 = geotiff.Float64
)

// ParseDataType returns the DataType named by NumPy's name ("uint8", ...).
func ParseDataType(name string) (DataType, error) { return geotiff.ParseDataType(name) }

// NoDataValue returns the nodata value v as GDAL holds it for a band of
// type t: rounded to float32 for Float32 bands, unchanged otherwise (see
// geotiff.NoDataValue).
func NoDataValue(t DataType, v float64) float64 { return geotiff.NoDataValue(t, v) }
