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
// Band statistics and checksums are computed exactly as GDAL computes them
// (Dataset.Statistics, Checksum). Connected-component labelling and the
// polygonization of masks are in raster/regions. The package and its
// sub-packages know nothing about the benchmark (deps_test.go checks it).
//
// The format itself is raster/geotiff (public: header and directories,
// image parsing, block decoding, the writers), with each compression
// scheme a package of raster/internal/codec behind its registry and the
// predictors in raster/internal/tiff; this package adds the Dataset and
// Band types, concurrent window reads, statistics and checksums, and HTTP
// range reading (raster/internal/httprange).
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
