package raster

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// codecState holds one worker's reusable decompressors; it is not safe for
// concurrent use.
type codecState struct {
	br   bytes.Reader
	inf  *inflater
	lzw  *lzwState
	zstd *zstd.Decoder
}

// close releases the decompressors' resources.
func (c *codecState) close() {
	if c.zstd != nil {
		c.zstd.Close()
		c.zstd = nil
	}
}

// decompress decodes src, compressed with scheme comp, into exactly
// len(dst) bytes. It never produces more than len(dst) bytes, so a
// decompression bomb costs no memory; data that ends early is a FormatError.
func (c *codecState) decompress(comp int, src, dst []byte) error {
	// Nothing may be written past len(dst), whatever its capacity: dst
	// may be a pooled buffer or a part of a band (ZSTD's DecodeAll fills
	// capacity).
	dst = dst[:len(dst):len(dst)]
	switch comp {
	case CompressionNone:
		if len(src) < len(dst) {
			return FormatError(fmt.Sprintf("uncompressed block has %d bytes, want %d", len(src), len(dst)))
		}
		copy(dst, src)
		return nil
	case CompressionPackBits:
		return unpackBits(src, dst)
	case CompressionLZW:
		if len(src) >= 2 && src[0] == 0 && src[1]&1 != 0 {
			return UnsupportedError("old-style (pre-TIFF 6.0) LZW")
		}
		if c.lzw == nil {
			c.lzw = new(lzwState)
		}
		return c.lzw.decodeLZW(src, dst)
	case CompressionDeflate, CompressionDeflate2:
		if c.inf == nil {
			c.inf = new(inflater)
		}
		return c.inf.inflateZlib(src, dst)
	case CompressionZSTD:
		if c.zstd == nil {
			z, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true),
				zstd.WithDecoderMaxMemory(maxBlockBytes))
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
				return FormatError("ZSTD: " + err.Error())
			}
			err := readBlock(c.zstd, dst, "ZSTD")
			// Release the stream: a decoder left in the middle of one
			// blocks the next DecodeAll forever.
			_ = c.zstd.Reset(nil)
			return err
		}
		if err != nil {
			return FormatError("ZSTD: " + err.Error())
		}
		if len(out) < len(dst) {
			return FormatError(fmt.Sprintf("ZSTD: block decodes to %d bytes, want %d", len(out), len(dst)))
		}
		if &out[0] != &dst[0] {
			copy(dst, out)
		}
		return nil
	case CompressionLZMA:
		return decodeXZ(src, dst)
	}
	return UnsupportedError(fmt.Sprintf("compression %d (%s)", comp, compressionName(comp)))
}

// readBlock fills dst from a decompressing reader, reporting short data.
func readBlock(r io.Reader, dst []byte, codec string) error {
	n, err := io.ReadFull(r, dst)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return FormatError(fmt.Sprintf("%s: block decodes to %d bytes, want %d", codec, n, len(dst)))
		}
		return FormatError(fmt.Sprintf("%s: %v", codec, err))
	}
	return nil
}

// unpackBits decodes PackBits data into dst.
func unpackBits(src, dst []byte) error {
	o := 0
	for i := 0; i < len(src) && o < len(dst); {
		n := int(int8(src[i]))
		i++
		switch {
		case n >= 0:
			cnt := n + 1
			if i+cnt > len(src) {
				cnt = len(src) - i
			}
			if o+cnt > len(dst) {
				cnt = len(dst) - o
			}
			copy(dst[o:], src[i:i+cnt])
			i += n + 1
			o += cnt
		case n != -128:
			if i >= len(src) {
				i = len(src)
				break
			}
			cnt := 1 - n
			if o+cnt > len(dst) {
				cnt = len(dst) - o
			}
			b := src[i]
			i++
			for k := 0; k < cnt; k++ {
				dst[o+k] = b
			}
			o += cnt
		}
	}
	if o < len(dst) {
		return FormatError(fmt.Sprintf("PackBits: block decodes to %d bytes, want %d", o, len(dst)))
	}
	return nil
}
