// Package zstd is TIFF's ZSTD compression (code 50000) on
// github.com/klauspost/compress/zstd: a whole-block decoder, a streaming
// one and a block encoder.
package zstd

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/geodisaster/engine/raster/internal/codec"
	"github.com/klauspost/compress/zstd"
)

// Codec returns the ZSTD codec.
func Codec() *codec.Codec {
	return &codec.Codec{Code: 50000, Name: "ZSTD",
		NewDecoder: func() codec.Decoder { return new(decoder) },
		NewReader:  newReader,
		NewEncoder: func() codec.Encoder { return new(encoder) },
	}
}

// decoder holds a reusable zstd decoder, made on first use.
type decoder struct{ zstd *zstd.Decoder }

// Decode decodes src into exactly len(dst) bytes.
func (c *decoder) Decode(src, dst []byte) error {
	if c.zstd == nil {
		z, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true),
			zstd.WithDecoderMaxMemory(codec.MaxBlockBytes))
		if err != nil {
			return fmt.Errorf("raster: ZSTD decoder: %w", err)
		}
		c.zstd = z
	}
	out, err := c.zstd.DecodeAll(src, dst[:0])
	if errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		// More data than the block needs: keep the first len(dst)
		// bytes, as libtiff does, streaming with bounded memory.
		if err := c.zstd.Reset(bytes.NewReader(src)); err != nil {
			return codec.FormatError("ZSTD: " + err.Error())
		}
		err := codec.ReadBlock(c.zstd, dst, "ZSTD")
		// Release the stream: a decoder left in the middle of one
		// blocks the next DecodeAll forever.
		_ = c.zstd.Reset(nil)
		return err
	}
	if err != nil {
		return codec.FormatError("ZSTD: " + err.Error())
	}
	if len(out) < len(dst) {
		return codec.FormatError(fmt.Sprintf("ZSTD: block decodes to %d bytes, want %d", len(out), len(dst)))
	}
	if &out[0] != &dst[0] {
		copy(dst, out)
	}
	return nil
}

func newReader(br *bufio.Reader, _, limit int64) (io.Reader, func(), error) {
	zd, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxMemory(uint64(limit)))
	if err != nil {
		return nil, nil, err
	}
	return zd, zd.Close, nil
}

// encoder compresses blocks at zstd's default level, one goroutine.
type encoder struct{ zstd *zstd.Encoder }

func (e *encoder) Encode(raw []byte) ([]byte, error) {
	if e.zstd == nil {
		z, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedDefault))
		if err != nil {
			return nil, fmt.Errorf("raster: %w", err)
		}
		e.zstd = z
	}
	return e.zstd.EncodeAll(raw, nil), nil
}

func (e *encoder) Close() {
	if e.zstd != nil {
		e.zstd.Close()
	}
}
