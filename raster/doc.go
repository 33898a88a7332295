// Package raster reads GeoTIFF, BigTIFF and Cloud Optimized GeoTIFF files,
// from disk or over HTTP with range requests (Open and its options), and
// writes GeoTIFFs and COGs (Write, WriteCOG). A Dataset gives the image's
// size, sample type, georeferencing (geotransform, EPSG code, GeoKeys),
// nodata, GDAL metadata, storage layout, overviews and internal mask;
// bands, windows and overviews are read as typed sample arrays (Band),
// decoding blocks concurrently. Decoders cover no compression, LZW,
// DEFLATE, PackBits, ZSTD, LZMA, JPEG and WebP with the horizontal and
// floating-point predictors.
//
// Beside reading, it computes what the engine needs on bands: exact band
// statistics and checksums as GDAL computes them (Dataset.Statistics,
// Checksum), NumPy-order float32 sums and means, Otsu thresholds,
// connected-component labelling, polygonization of labelled masks, and
// drawing and PNG encoding of RGBA images. It knows nothing about the
// benchmark.
//
// Bad input gives a FormatError (not a valid or a corrupt TIFF) or an
// UnsupportedError (a valid TIFF using a feature the package does not
// implement); reading never panics.
package raster
