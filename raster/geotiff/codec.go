package geotiff

import (
	"fmt"

	"github.com/geodisaster/engine/raster/internal/codec"
	"github.com/geodisaster/engine/raster/internal/codec/deflate"
	"github.com/geodisaster/engine/raster/internal/codec/lzw"
	"github.com/geodisaster/engine/raster/internal/codec/packbits"
	"github.com/geodisaster/engine/raster/internal/codec/xz"
	"github.com/geodisaster/engine/raster/internal/codec/zstd"
)

// TIFF compression schemes (the Compression tag's values).
const (
	CompressionNone     = 1
	CompressionLZW      = 5
	CompressionOJPEG    = 6
	CompressionJPEG     = 7
	CompressionDeflate  = 8
	CompressionPackBits = 32773
	CompressionDeflate2 = 32946
	CompressionLZMA     = 34925
	CompressionZSTD     = 50000
	CompressionWebP     = 50001
	CompressionLERC     = 34887
	CompressionJXL      = 50002
)

// codecs is the package's table of TIFF compression codes GDAL names:
// those the reader decodes (blocks of bytes, or images for JPEG and WebP),
// those the writer encodes, and, by name only, those it recognises but
// does not decode. It is never modified: a Reader's registrations go to
// its own copy.
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

// codecTable is a Reader's or an Encoder's codecs: the package's table
// until its first registration, then a copy of its own.
type codecTable struct {
	reg *codec.Registry
	own bool
}

// register adds c to the table's own copy.
func (t *codecTable) register(c *codec.Codec) {
	if !t.own {
		t.reg, t.own = t.reg.Clone(), true
	}
	t.reg.Register(c)
}

// CompressionName returns GDAL's name of a TIFF compression code (its
// COMPRESSION metadata item: "LZW", "DEFLATE", ...), "unknown" for a code
// the package does not know.
func CompressionName(c int) string { return codecs.Name(c) }

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

// codecState holds one goroutine's reusable decoders, one per registry and
// compression code met (so a Reader's own registration never meets
// another Reader's decoder of the same code); it is not safe for
// concurrent use.
type codecState struct {
	decoders []codedDecoder
}

type codedDecoder struct {
	reg  *codec.Registry
	code int
	dec  codec.Decoder
}

// decompress decodes src, compressed with scheme comp of reg, into exactly
// len(dst) bytes. It never produces more than len(dst) bytes, so a
// decompression bomb costs no memory; data that ends early is a FormatError.
func (c *codecState) decompress(reg *codec.Registry, comp int, src, dst []byte) error {
	// Nothing may be written past len(dst), whatever its capacity: dst
	// may be a pooled buffer or a part of a band (ZSTD's DecodeAll fills
	// capacity).
	dst = dst[:len(dst):len(dst)]
	for _, d := range c.decoders {
		if d.code == comp && d.reg == reg {
			return d.dec.Decode(src, dst)
		}
	}
	cd := reg.Lookup(comp)
	if cd == nil || cd.NewDecoder == nil {
		return UnsupportedError(fmt.Sprintf("compression %d (%s)", comp, reg.Name(comp)))
	}
	dec := cd.NewDecoder()
	c.decoders = append(c.decoders, codedDecoder{reg, comp, dec})
	return dec.Decode(src, dst)
}
