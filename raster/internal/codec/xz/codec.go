// Package xz is TIFF's LZMA compression (code 34925: one .xz block per
// strip or tile, LZMA2 optionally after a delta filter): a whole-block
// decoder and a streaming one.
package xz

import (
	"bufio"
	"io"

	"github.com/geodisaster/engine/raster/internal/codec"
	"github.com/ulikunitz/xz/lzma"
)

// The codec's error types.
type (
	FormatError      = codec.FormatError
	UnsupportedError = codec.UnsupportedError
)

// Codec returns the LZMA codec.
func Codec() *codec.Codec {
	return &codec.Codec{Code: 34925, Name: "LZMA",
		NewDecoder: func() codec.Decoder { return decoder{} },
		NewReader:  newReader,
	}
}

var readBlock = codec.ReadBlock

type decoder struct{}

func (decoder) Decode(src, dst []byte) error { return decodeXZ(src, dst) }

func newReader(br *bufio.Reader, want, _ int64) (io.Reader, func(), error) {
	hdr, _ := br.Peek(xzHeaderMax)
	start, delta, dict, err := parseXZBlockHeader(hdr)
	if err != nil {
		return nil, nil, err
	}
	if _, err := br.Discard(start); err != nil {
		return nil, nil, err
	}
	// The dictionary never needs to exceed the block.
	dictCap := int(max(min(dict, want, lzma.MaxDictCap), lzma.MinDictCap))
	lr, err := lzma.Reader2Config{DictCap: dictCap}.NewReader2(br)
	if err != nil {
		return nil, nil, err
	}
	var r io.Reader = lr
	if delta > 0 {
		r = &deltaReader{r: lr, dist: delta}
	}
	return r, func() {}, nil
}

// deltaReader undoes xz's delta filter: each byte adds the decoded byte
// dist bytes before it.
type deltaReader struct {
	r    io.Reader
	dist int
	hist [256]byte
	pos  int
}

func (d *deltaReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	for i := 0; i < n; i++ {
		p[i] += d.hist[(d.pos-d.dist)&255]
		d.hist[d.pos&255] = p[i]
		d.pos++
	}
	return n, err
}
