// Package geotiff reads and writes the GeoTIFF format: classic TIFF and
// BigTIFF files, tiled or stripped, and Cloud Optimized GeoTIFFs, from any
// io.ReaderAt, without the raster package's Dataset and Band.
//
// Reading starts with NewReader, which parses the header; Reader.Image
// parses the first image: its size, sample type (DataType), strip or tile
// layout (BlockSize, Blocks, Planar), compression and predictor
// (Structure), GeoKeys, geotransform, EPSG code, nodata as GDAL reads the
// GDAL_NODATA text, GDAL metadata, baseline TIFF tags, colour
// interpretation, and the overviews and internal mask that follow it in
// the file (Overview, Mask). The raw directory stays available (IFD, with
// the tag numbers as Tag constants), and ReadHeader, ReadIFD and EncodeIFD
// work on directories directly.
//
// A BlockReader decodes strips and tiles into native-order samples of the
// image's DataType: ReadBlock fills a caller's typed slice with one whole
// block, ReadWindow copies a block's part of a window into per-band
// outputs, and ReadRows streams a block of any size a chunk of rows at a
// time. Decoders cover no compression, LZW, DEFLATE, PackBits, ZSTD, LZMA,
// JPEG and WebP, with the horizontal and floating-point predictors; a
// Reader decodes further schemes registered with its RegisterDecompressor
// method (registrations are per Reader: there is no package-level state to
// change). Limits bound the memory one block may take.
//
// Write and WriteCOG encode Planes (band-sequential samples in memory,
// PlanesOf builds them from typed slices) as a tiled GeoTIFF, BigTIFF when
// it would exceed 4 GiB, or a COG with nearest-neighbour overviews; the
// output depends only on the inputs. An Encoder writes the same with
// further compressors registered with its RegisterCompressor method.
//
// Bad input gives a FormatError (not a valid or a corrupt TIFF) or an
// UnsupportedError (a valid TIFF using a feature the package does not
// implement, or a *LimitError); reading never panics (the parser and the
// decoders are fuzzed).
package geotiff
