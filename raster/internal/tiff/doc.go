// Package tiff holds the sample-level helpers beneath raster/geotiff: the
// horizontal and floating-point predictors (undone when reading, applied
// when writing), byte swapping, and native-order views of sample bytes.
package tiff
