// Package raster reads and writes GeoTIFF, BigTIFF and Cloud Optimized
// GeoTIFF files and holds band arrays with their georeferencing and nodata,
// along with the raster algorithms the engine needs (Otsu thresholding,
// connected components, polygonization, zonal and grid statistics, PNG
// rendering). It knows nothing about the benchmark.
//
// Reading follows GDAL: nodata is the GDAL_NODATA text as GDAL 3.6 parses
// it, rounded to float32 on 32-bit float bands (NoData, NoDataValue);
// strips and tiles larger than 16 MiB are decoded as a stream of rows, so
// a 289 MB single strip costs its output band and a few MB; what must be
// held in memory is bounded by Limits, which SetLimits raises (a
// *LimitError is an UnsupportedError, never a FormatError); damaged files
// GDAL refuses (a PlanarConfiguration other than 1 or 2, a block at offset
// 0) are FormatErrors. docs/real-world-inputs.md has the details.
package raster
