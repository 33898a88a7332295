package geotiff

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"io"

	jpegdec "github.com/geodisaster/engine/raster/internal/codec/jpeg"
	"golang.org/x/image/webp"
)

// decodeImageBlock decodes a JPEG- or WebP-compressed block of rows rows
// into 8-bit samples, rows of blockW*blockSamples bytes.
func (d *Image) decodeImageBlock(st *blockState, raw []byte, rows int) ([]byte, error) {
	bs := d.blockSamples()
	stride := d.blockW * bs
	st.buf = grow(st.buf, stride*rows)
	out := st.buf
	clear(out)
	var img image.Image
	var err error
	if d.compression == CompressionJPEG {
		stream := raw
		if len(d.jpegTables) > 4 && len(raw) > 2 && raw[0] == 0xFF && raw[1] == 0xD8 {
			// Abbreviated stream: splice the tables (without their EOI) in
			// front of the block's data (without its SOI).
			st.tmp = append(append(st.tmp[:0], d.jpegTables[:len(d.jpegTables)-2]...), raw[2:]...)
			stream = st.tmp
		}
		jd, err := jpegdec.Decode(stream, d.blockW, d.blockH)
		if err == nil {
			if jd.Components() != bs {
				return nil, FormatError(fmt.Sprintf("JPEG block has %d components, want %d", jd.Components(), bs))
			}
			jw, jh := jd.Size()
			jd.ToPixels(out, stride, min(jw, d.blockW), min(jh, rows), d.photometric == photoYCbCr)
			return out, nil
		}
		if !jpegdec.IsUnsupported(err) {
			return nil, err
		}
		// Progressive or otherwise unusual streams: Go's decoder (its IDCT
		// may differ from libjpeg's by a level or two).
		if err := checkImageSize(jpeg.DecodeConfig, stream, d.blockW, d.blockH); err != nil {
			return nil, err
		}
		img, err = jpeg.Decode(bytes.NewReader(stream))
		if err != nil {
			return nil, FormatError("JPEG: " + err.Error())
		}
	} else {
		if err := checkImageSize(webp.DecodeConfig, raw, d.blockW, d.blockH); err != nil {
			return nil, err
		}
		img, err = webp.Decode(bytes.NewReader(raw))
		if err != nil {
			return nil, FormatError("WebP: " + err.Error())
		}
	}
	b := img.Bounds()
	w, h := min(b.Dx(), d.blockW), min(b.Dy(), rows)
	switch m := img.(type) {
	case *image.Gray:
		if bs != 1 {
			return nil, FormatError(fmt.Sprintf("%s block has 1 component, want %d", d.codecs.Name(d.compression), bs))
		}
		for y := 0; y < h; y++ {
			copy(out[y*stride:y*stride+w], m.Pix[y*m.Stride:])
		}
	case *image.YCbCr:
		if bs != 3 && !(bs == 4 && d.compression == CompressionWebP) {
			return nil, FormatError(fmt.Sprintf("%s block has 3 components, want %d", d.codecs.Name(d.compression), bs))
		}
		if d.compression == CompressionWebP {
			// libwebp decodes to RGBA; without an alpha plane alpha is opaque.
			webpToRGB(m, out, stride, bs, w, h, nil)
			if bs == 4 {
				for y := 0; y < h; y++ {
					for x := 0; x < w; x++ {
						out[y*stride+x*4+3] = 255
					}
				}
			}
		} else {
			jpegdec.ToRGB(m, out, stride, w, h)
		}
	case *image.NYCbCrA:
		if bs != 4 && bs != 3 {
			return nil, FormatError(fmt.Sprintf("WebP block has 4 components, want %d", bs))
		}
		webpToRGB(&m.YCbCr, out, stride, bs, w, h, m.A)
		if bs == 4 {
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					out[y*stride+x*4+3] = m.A[y*m.AStride+x]
				}
			}
		}
	case *image.NRGBA:
		if bs != 3 && bs != 4 {
			return nil, FormatError(fmt.Sprintf("%s block has 4 components, want %d", d.codecs.Name(d.compression), bs))
		}
		for y := 0; y < h; y++ {
			row := m.Pix[y*m.Stride:]
			o := out[y*stride:]
			for x := 0; x < w; x++ {
				copy(o[x*bs:x*bs+bs], row[x*4:x*4+bs])
			}
		}
	case *image.RGBA:
		// Go returns RGBA for Adobe-transform-0 (RGB) JPEGs, always opaque.
		if bs != 3 {
			return nil, FormatError(fmt.Sprintf("%s block has 3 components, want %d", d.codecs.Name(d.compression), bs))
		}
		for y := 0; y < h; y++ {
			row := m.Pix[y*m.Stride:]
			o := out[y*stride:]
			for x := 0; x < w; x++ {
				copy(o[x*3:x*3+3], row[x*4:x*4+3])
			}
		}
	default:
		return nil, UnsupportedError(fmt.Sprintf("%s block decoded as %T", d.codecs.Name(d.compression), img))
	}
	return out, nil
}

// webpToRGB converts a lossy WebP's 4:2:0 YUV to RGB the way libwebp does
// by default: its "fancy" upsampler and 14-bit fixed-point conversion.
func webpToRGB(m *image.YCbCr, out []byte, stride, bs, w, h int, _ []byte) {
	cw := (m.Rect.Dx() + 1) / 2
	ch := (m.Rect.Dy() + 1) / 2
	u := make([]int, 2*cw+2)
	v := make([]int, 2*cw+2)
	for y := 0; y < h; y++ {
		cy, ny := jpegdec.ChromaRows(y, ch)
		webpUpsampleRow(m.Cb[cy*m.CStride:], m.Cb[ny*m.CStride:], cw, u)
		webpUpsampleRow(m.Cr[cy*m.CStride:], m.Cr[ny*m.CStride:], cw, v)
		yrow := m.Y[y*m.YStride:]
		o := out[y*stride:]
		for x := 0; x < w; x++ {
			r, g, b := webpYUVToRGB(int(yrow[x]), u[x], v[x])
			o[bs*x], o[bs*x+1], o[bs*x+2] = r, g, b
		}
	}
}

// webpUpsampleRow interpolates one row of chroma for output pixels using
// libwebp's fancy upsampling weights (9,3,3,1)/16 with its rounding.
func webpUpsampleRow(this, near []byte, cw int, out []int) {
	at := func(row []byte, i int) int { return int(row[max(0, min(i, cw-1))]) }
	for i := 0; i < cw; i++ {
		// Output pixel 2i sits between chroma i-1 and i (left side) and
		// 2i+1 between i and i+1; libwebp's first and last pixels copy.
		t, n := at(this, i), at(near, i)
		for k := 0; k < 2; k++ {
			j := i - 1 + 2*k // horizontal neighbour
			tl, nl := at(this, j), at(near, j)
			avg := t + tl + n + nl + 8
			diag := (avg + 2*(tl+n)) >> 3
			out[2*i+k] = (diag + t) >> 1
		}
	}
	// libwebp's row edges: the first output pixel uses only column 0.
	out[0] = (3*int(this[0]) + int(near[0]) + 2) >> 2
	if w := 2 * cw; w >= 2 {
		last := cw - 1
		out[w-1] = (3*int(this[last]) + int(near[last]) + 2) >> 2
	}
}

// webpYUVToRGB is libwebp's 14-bit fixed-point BT.601 conversion.
func webpYUVToRGB(y, u, v int) (byte, byte, byte) {
	mulHi := func(a, c int) int { return (a * c) >> 8 }
	clip := func(x int) byte {
		if x&^16383 == 0 {
			return byte(x >> 6)
		}
		if x < 0 {
			return 0
		}
		return 255
	}
	yy := mulHi(y, 19077)
	return clip(yy + mulHi(v, 26149) - 14234),
		clip(yy - mulHi(u, 6419) - mulHi(v, 13320) + 8708),
		clip(yy + mulHi(u, 33050) - 17685)
}

// checkImageSize rejects embedded JPEG/WebP images larger than their block
// before decoding them, so a hostile header cannot allocate a huge image.
func checkImageSize(decodeConfig func(io.Reader) (image.Config, error), b []byte, bw, bh int) error {
	cfg, err := decodeConfig(bytes.NewReader(b))
	if err != nil {
		return FormatError("embedded image: " + err.Error())
	}
	if cfg.Width > bw || cfg.Height > bh || cfg.Width <= 0 || cfg.Height <= 0 {
		return FormatError(fmt.Sprintf("embedded image is %dx%d, block is %dx%d", cfg.Width, cfg.Height, bw, bh))
	}
	return nil
}
