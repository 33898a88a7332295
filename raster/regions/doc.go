// Package regions finds the connected regions of a raster mask and traces
// their outlines, as the reference stack does: Label, LabelValue and
// LabelRuns number components like scipy.ndimage.label (4- or
// 8-connected), and Polygonize and TraceOutlines trace 8-connected
// components the way GDAL's polygonizer does (rasterio.features.shapes
// with connectivity 8), in pixel corner coordinates.
//
// Masks and labellings are row-major slices of width*height values; label 0
// is the background and components are numbered 1..n in the raster order
// of their first pixel.
package regions
