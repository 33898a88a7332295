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
// Reading follows GDAL: nodata is the GDAL_NODATA text as GDAL 3.6 parses
// it, rounded to float32 on 32-bit float bands (NoData, NoDataValue);
// strips and tiles larger than 16 MiB are decoded as a stream of rows, so
// a 289 MB single strip costs its output band and a few MB; what must be
// held in memory is bounded by Limits, which SetLimits raises (a
// *LimitError is an UnsupportedError, never a FormatError); damaged files
// GDAL refuses (a PlanarConfiguration other than 1 or 2, a block at offset
// 0) are FormatErrors. docs/real-world-inputs.md has the details.
//
// Bad input gives a FormatError (not a valid or a corrupt TIFF) or an
// UnsupportedError (a valid TIFF using a feature the package does not
// implement); reading never panics.
package raster
