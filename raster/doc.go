// Package raster reads and writes GeoTIFF, BigTIFF and Cloud Optimized
// GeoTIFF files and holds band arrays with their georeferencing and nodata,
// along with the raster algorithms the engine needs (Otsu thresholding,
// connected components, polygonization, zonal and grid statistics, PNG
// rendering). It knows nothing about the benchmark.
package raster
