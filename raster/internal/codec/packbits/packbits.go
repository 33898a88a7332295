// Package packbits is TIFF's PackBits run-length compression (code
// 32773): a whole-block decoder and a streaming one.
package packbits

import (
	"bufio"
	"fmt"
	"io"

	"github.com/geodisaster/engine/raster/internal/codec"
)

type decoder struct{}

// Decode decodes PackBits data into dst.
func (decoder) Decode(src, dst []byte) error {
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
		return codec.FormatError(fmt.Sprintf("PackBits: block decodes to %d bytes, want %d", o, len(dst)))
	}
	return nil
}

// reader decodes a PackBits stream.
type reader struct {
	r        *bufio.Reader
	lit, run int
	b        byte
}

func (p *reader) Read(out []byte) (int, error) {
	n := 0
	for n < len(out) {
		switch {
		case p.lit > 0:
			k, err := p.r.Read(out[n : n+min(p.lit, len(out)-n)])
			n += k
			p.lit -= k
			if err != nil {
				return n, err
			}
		case p.run > 0:
			k := min(p.run, len(out)-n)
			for i := n; i < n+k; i++ {
				out[i] = p.b
			}
			n += k
			p.run -= k
		default:
			c, err := p.r.ReadByte()
			if err != nil {
				return n, err
			}
			switch v := int(int8(c)); {
			case v >= 0:
				p.lit = v + 1
			case v != -128:
				if p.b, err = p.r.ReadByte(); err != nil {
					return n, err
				}
				p.run = 1 - v
			}
		}
	}
	return n, nil
}

// Codec returns the PackBits codec.
func Codec() *codec.Codec {
	return &codec.Codec{Code: 32773, Name: "PACKBITS",
		NewDecoder: func() codec.Decoder { return decoder{} },
		NewReader: func(r *bufio.Reader, _, _ int64) (io.Reader, func(), error) {
			return &reader{r: r}, func() {}, nil
		},
	}
}
