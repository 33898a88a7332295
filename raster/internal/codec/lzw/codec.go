// Package lzw is TIFF's LZW compression (code 5, TIFF 6.0 style): a
// whole-block decoder and a streaming one.
package lzw

import (
	"bufio"
	"io"

	"github.com/geodisaster/engine/raster/internal/codec"
	xlzw "golang.org/x/image/tiff/lzw"
)

// FormatError is the codec's error type for corrupt streams.
type FormatError = codec.FormatError

// errOldStyle reports LZW as written before TIFF 6.0 (LSB-first codes).
const errOldStyle = codec.UnsupportedError("old-style (pre-TIFF 6.0) LZW")

// Codec returns the LZW codec.
func Codec() *codec.Codec {
	return &codec.Codec{Code: 5, Name: "LZW",
		NewDecoder: func() codec.Decoder { return new(lzwState) },
		NewReader:  newReader,
	}
}

// oldStyle reports whether a stream starts as pre-TIFF 6.0 LZW does.
func oldStyle(b []byte) bool { return len(b) >= 2 && b[0] == 0 && b[1]&1 != 0 }

// Decode decodes src into exactly len(dst) bytes.
func (s *lzwState) Decode(src, dst []byte) error {
	if oldStyle(src) {
		return errOldStyle
	}
	return s.decodeLZW(src, dst)
}

func newReader(r *bufio.Reader, _, _ int64) (io.Reader, func(), error) {
	if b, _ := r.Peek(2); oldStyle(b) {
		return nil, nil, errOldStyle
	}
	lr := xlzw.NewReader(r, xlzw.MSB, 8)
	return lr, func() { lr.Close() }, nil
}
