package geotiff

import (
	"bytes"
	"fmt"
	"io"

	"github.com/geodisaster/engine/raster/internal/codec"
)

// A Reader reads the images of one TIFF or BigTIFF file. NewReader parses
// the header only; Image parses the first image and the chain of
// directories after it. A Reader decodes the compression schemes of the
// package's table (CompressionName names them) plus those registered with
// RegisterDecompressor. It is safe for concurrent use once registration
// is done.
type Reader struct {
	r      io.ReaderAt
	mem    []byte // the whole file, from NewBytesReader
	size   int64
	hdr    Header
	codecs codecTable
}

// NewReader returns a Reader of the file r, which is size bytes long,
// after reading its header.
func NewReader(r io.ReaderAt, size int64) (*Reader, error) {
	h, err := ReadHeader(r, size)
	if err != nil {
		return nil, err
	}
	return &Reader{r: r, size: size, hdr: h, codecs: codecTable{reg: codecs}}, nil
}

// NewBytesReader returns a Reader of the file held in b, after reading
// its header. The package's decompressors decode blocks straight from b,
// without copying their stored bytes first; b must not change while the
// Reader or its images are in use.
func NewBytesReader(b []byte) (*Reader, error) {
	r, err := NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	r.mem = b
	return r, nil
}

// Header returns the file's header.
func (r *Reader) Header() Header { return r.hdr }

// ReadIFD parses the directory at offset off.
func (r *Reader) ReadIFD(off uint64) (*IFD, error) { return ReadIFD(r.r, r.size, r.hdr, off) }

// Image parses the file's first image and follows the directory chain to
// its overviews and internal mask (a damaged later directory ends the
// chain, as GDAL reads it). A compression scheme neither in the package's
// table nor registered is an UnsupportedError.
func (r *Reader) Image() (img *Image, err error) {
	defer func() {
		if p := recover(); p != nil {
			img, err = nil, FormatError(fmt.Sprintf("internal error while parsing: %v", p))
		}
	}()
	first, err := r.ReadIFD(r.hdr.FirstIFD)
	if err != nil {
		return nil, err
	}
	img = r.newImage(first)
	if err := img.parseImage(first); err != nil {
		return nil, err
	}
	if err := img.parseGeo(first); err != nil {
		return nil, err
	}
	img.parseTIFFTags(first)
	img.scanSubfiles(r.hdr, first)
	return img, nil
}

// newImage returns an Image of directory f bound to the file.
func (r *Reader) newImage(f *IFD) *Image {
	return &Image{r: r.r, mem: r.mem, size: r.size, hdr: r.hdr, ifd: f, codecs: r.codecs.reg}
}

// A BlockDecoder decompresses whole blocks: Decode fills exactly len(dst)
// bytes from src and must never write past len(dst); data that ends early
// is reported as a FormatError. A BlockDecoder may keep tables between
// calls; it is used by one goroutine at a time.
type BlockDecoder = codec.Decoder

// A Decompressor returns a new BlockDecoder; each goroutine decoding
// blocks gets its own.
type Decompressor func() BlockDecoder

// RegisterDecompressor makes r decode blocks of the TIFF Compression tag
// value method with decoders from dcomp, named name (Structure's
// Compression), replacing the package's codec for that value, if any. It
// affects images r parses afterwards. Blocks of a registered scheme are
// always decoded whole, bounded by Limits.MaxBlockBytes as JPEG and WebP
// blocks are, since a Decompressor has no streaming form.
func (r *Reader) RegisterDecompressor(method int, name string, dcomp Decompressor) {
	r.codecs.register(&codec.Codec{Code: method, Name: name, NewDecoder: func() codec.Decoder { return dcomp() }})
}
