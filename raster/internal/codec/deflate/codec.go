// Package deflate is TIFF's DEFLATE compression (zlib streams, codes 8 and
// 32946): a whole-block decoder that uses the block as its window, a
// streaming decoder and a block encoder.
package deflate

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"fmt"
	"io"

	"github.com/geodisaster/engine/raster/internal/codec"
	kzlib "github.com/klauspost/compress/zlib"
)

// FormatError is the codec's error type for corrupt streams.
type FormatError = codec.FormatError

// Codec returns the DEFLATE codec under TIFF compression code (8, or
// Adobe's older 32946); only code 8 has an encoder.
func Codec(code int) *codec.Codec {
	c := &codec.Codec{Code: code, Name: "DEFLATE",
		NewDecoder: func() codec.Decoder { return new(inflater) },
		NewReader:  newReader,
	}
	if code == 8 {
		c.NewEncoder = func() codec.Encoder { return new(encoder) }
	}
	return c
}

// Decode decodes a zlib stream into exactly len(dst) bytes.
func (f *inflater) Decode(src, dst []byte) error { return f.inflateZlib(src, dst) }

func newReader(r *bufio.Reader, _, _ int64) (io.Reader, func(), error) {
	zr, err := zlib.NewReader(r)
	if err != nil {
		return nil, nil, err
	}
	return zr, func() {}, nil
}

// encoder compresses blocks with klauspost/compress's zlib at level 6
// (GDAL's default).
type encoder struct {
	buf bytes.Buffer
	zw  *kzlib.Writer
}

func (e *encoder) Encode(raw []byte) ([]byte, error) {
	e.buf.Reset()
	if e.zw == nil {
		zw, err := kzlib.NewWriterLevel(&e.buf, 6)
		if err != nil {
			return nil, fmt.Errorf("raster: %w", err)
		}
		e.zw = zw
	} else {
		e.zw.Reset(&e.buf)
	}
	if _, err := e.zw.Write(raw); err != nil {
		return nil, fmt.Errorf("raster: deflate: %w", err)
	}
	if err := e.zw.Close(); err != nil {
		return nil, fmt.Errorf("raster: deflate: %w", err)
	}
	return append([]byte(nil), e.buf.Bytes()...), nil
}

func (e *encoder) Close() {}
