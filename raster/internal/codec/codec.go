// Package codec is the registry of the TIFF compression schemes the raster
// reader decodes and its writer encodes, in the style of archive/zip's
// RegisterDecompressor: each scheme is a Codec, implemented in a package
// of its own (deflate, lzw, packbits, xz, zstd; jpeg decodes JPEG blocks
// to components), and a Registry maps TIFF's compression codes to them.
//
// A codec reports corrupt data as a FormatError and a valid stream it does
// not decode as an UnsupportedError; package raster re-exports both types.
package codec

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// MaxBlockBytes bounds the decoded size of one strip or tile (the memory a
// hostile file can make a decompressor allocate).
const MaxBlockBytes = 1 << 28

// A FormatError reports that the input is not a valid TIFF/GeoTIFF or is
// corrupt (truncated data, offsets past the end of the file, inconsistent
// tags, a block that does not decompress to its expected size).
type FormatError string

func (e FormatError) Error() string { return "raster: invalid format: " + string(e) }

// An UnsupportedError reports that the input is a valid TIFF but uses a
// feature this package does not implement (a compression scheme, sample
// layout or photometric interpretation).
type UnsupportedError string

func (e UnsupportedError) Error() string { return "raster: unsupported feature: " + string(e) }

// A Decoder decompresses whole blocks: Decode fills exactly len(dst) bytes
// from src and never writes past len(dst), so a decompression bomb costs no
// memory; data that ends early is a FormatError. A Decoder keeps its tables
// between calls and is not safe for concurrent use.
type Decoder interface {
	Decode(src, dst []byte) error
}

// An Encoder compresses whole blocks; it is not safe for concurrent use.
type Encoder interface {
	// Encode returns the compressed form of raw in a new slice.
	Encode(raw []byte) ([]byte, error)
	// Close releases the encoder's resources.
	Close()
}

// A Codec is one TIFF compression scheme.
type Codec struct {
	// Code is the scheme's TIFF Compression tag value.
	Code int
	// Name is GDAL's name of the scheme (its COMPRESSION metadata item).
	Name string
	// Image reports that blocks are images (JPEG, WebP) decoded whole to
	// pixels by the reader, not through NewDecoder.
	Image bool
	// NewDecoder returns a whole-block decoder; nil when the scheme is
	// known but not decoded to bytes.
	NewDecoder func() Decoder
	// NewReader returns a streaming decoder of a block read from r whose
	// rows decode to want bytes, using at most limit bytes of working
	// memory, and a function that releases it. Errors of the stream's
	// header are FormatError or UnsupportedError values; others come from
	// the underlying decompressor. Nil when the scheme is not streamed.
	NewReader func(r *bufio.Reader, want, limit int64) (io.Reader, func(), error)
	// NewEncoder returns a block encoder; nil when the writer does not
	// produce the scheme.
	NewEncoder func() Encoder
}

// Decodes reports whether the reader decodes blocks of the scheme.
func (c *Codec) Decodes() bool { return c.Image || c.NewDecoder != nil }

// A Registry maps TIFF compression codes to codecs.
type Registry struct {
	byCode map[int]*Codec
}

// NewRegistry returns a registry of codecs (a later codec of the same code
// replaces an earlier one).
func NewRegistry(codecs ...*Codec) *Registry {
	r := &Registry{byCode: make(map[int]*Codec, len(codecs))}
	for _, c := range codecs {
		r.Register(c)
	}
	return r
}

// Register adds c under its code.
func (r *Registry) Register(c *Codec) { r.byCode[c.Code] = c }

// Lookup returns the codec of a compression code, or nil.
func (r *Registry) Lookup(code int) *Codec { return r.byCode[code] }

// Name returns GDAL's name of a compression code, "unknown" when the code
// is not registered.
func (r *Registry) Name(code int) string {
	if c := r.byCode[code]; c != nil {
		return c.Name
	}
	return "unknown"
}

// Encoders returns the codecs with an encoder in the order of their codes.
func (r *Registry) Encoders() []*Codec {
	var out []*Codec
	for _, c := range r.byCode {
		if c.NewEncoder != nil {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// Encoder returns the codec with an encoder whose name is name, ignoring
// case, or nil.
func (r *Registry) Encoder(name string) *Codec {
	for _, c := range r.Encoders() {
		if strings.EqualFold(c.Name, name) {
			return c
		}
	}
	return nil
}

// ReadBlock fills dst from a decompressing reader, reporting short data as
// a FormatError naming the codec.
func ReadBlock(r io.Reader, dst []byte, codec string) error {
	n, err := io.ReadFull(r, dst)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return FormatError(fmt.Sprintf("%s: block decodes to %d bytes, want %d", codec, n, len(dst)))
		}
		return FormatError(fmt.Sprintf("%s: %v", codec, err))
	}
	return nil
}

// Clone returns a copy of r that registers codecs independently.
func (r *Registry) Clone() *Registry {
	c := &Registry{byCode: make(map[int]*Codec, len(r.byCode))}
	for k, v := range r.byCode {
		c.byCode[k] = v
	}
	return c
}
