package raster

import (
	"fmt"

	"github.com/geodisaster/engine/raster/internal/codec"
	"github.com/geodisaster/engine/raster/internal/codec/deflate"
	"github.com/geodisaster/engine/raster/internal/codec/lzw"
	"github.com/geodisaster/engine/raster/internal/codec/packbits"
	"github.com/geodisaster/engine/raster/internal/codec/xz"
	"github.com/geodisaster/engine/raster/internal/codec/zstd"
)

// codecs maps every TIFF compression code GDAL names to its codec: those
// the reader decodes (blocks of bytes, or images for JPEG and WebP), those
// the writer encodes, and, by name only, those it recognises but does not
// decode.
var codecs = codec.NewRegistry(
	&codec.Codec{Code: CompressionNone, Name: "NONE",
		NewDecoder: func() codec.Decoder { return noneCodec{} },
		NewEncoder: func() codec.Encoder { return noneCodec{} }},
	lzw.Codec(),
	deflate.Codec(CompressionDeflate),
	deflate.Codec(CompressionDeflate2),
	packbits.Codec(),
	xz.Codec(),
	zstd.Codec(),
	&codec.Codec{Code: CompressionJPEG, Name: "JPEG", Image: true},
	&codec.Codec{Code: CompressionWebP, Name: "WEBP", Image: true},
	&codec.Codec{Code: CompressionOJPEG, Name: "OJPEG"},
	&codec.Codec{Code: CompressionLERC, Name: "LERC"},
	&codec.Codec{Code: CompressionJXL, Name: "JXL"},
	&codec.Codec{Code: 2, Name: "CCITTRLE"},
	&codec.Codec{Code: 3, Name: "CCITTFAX3"},
	&codec.Codec{Code: 4, Name: "CCITTFAX4"},
)

// compressionName returns GDAL's name of a TIFF compression code.
func compressionName(c int) string { return codecs.Name(c) }

// noneCodec copies uncompressed blocks.
type noneCodec struct{}

func (noneCodec) Decode(src, dst []byte) error {
	if len(src) < len(dst) {
		return FormatError(fmt.Sprintf("uncompressed block has %d bytes, want %d", len(src), len(dst)))
	}
	copy(dst, src)
	return nil
}

func (noneCodec) Encode(raw []byte) ([]byte, error) { return append([]byte(nil), raw...), nil }

func (noneCodec) Close() {}

// codecState holds one worker's reusable decoders, one per compression
// code met; it is not safe for concurrent use.
type codecState struct {
	decoders []codedDecoder
}

type codedDecoder struct {
	code int
	dec  codec.Decoder
}

// decompress decodes src, compressed with scheme comp, into exactly
// len(dst) bytes. It never produces more than len(dst) bytes, so a
// decompression bomb costs no memory; data that ends early is a FormatError.
func (c *codecState) decompress(comp int, src, dst []byte) error {
	// Nothing may be written past len(dst), whatever its capacity: dst
	// may be a pooled buffer or a part of a band (ZSTD's DecodeAll fills
	// capacity).
	dst = dst[:len(dst):len(dst)]
	for _, d := range c.decoders {
		if d.code == comp {
			return d.dec.Decode(src, dst)
		}
	}
	cd := codecs.Lookup(comp)
	if cd == nil || cd.NewDecoder == nil {
		return UnsupportedError(fmt.Sprintf("compression %d (%s)", comp, compressionName(comp)))
	}
	dec := cd.NewDecoder()
	c.decoders = append(c.decoders, codedDecoder{comp, dec})
	return dec.Decode(src, dst)
}
