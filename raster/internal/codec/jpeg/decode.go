// Package jpeg decodes the baseline JPEG blocks of TIFF compression 7 as
// libjpeg does (its integer IDCT, fancy upsampling and fixed-point colour
// conversion), so decoded pixels equal GDAL's; ToRGB gives Go's
// image/jpeg output the same upsampling and conversion.
package jpeg

import (
	"errors"

	"github.com/geodisaster/engine/raster/internal/codec"
)

// FormatError is the decoder's error type for corrupt streams.
type FormatError = codec.FormatError

// An Image is a decoded JPEG's component planes.
type Image struct{ d *jpegDecoder }

// Decode parses and decodes a complete JPEG stream; frames larger than
// maxW x maxH are rejected before allocation. Streams this decoder does
// not handle (progressive, arithmetic-coded...) fail with an error for
// which IsUnsupported is true.
func Decode(src []byte, maxW, maxH int) (*Image, error) {
	d, err := decodeJPEG(src, maxW, maxH)
	if err != nil {
		return nil, err
	}
	return &Image{d}, nil
}

// IsUnsupported reports whether err is Decode's error for a stream it
// does not handle.
func IsUnsupported(err error) bool {
	var u jpegUnsupported
	return errors.As(err, &u)
}

// Components returns the number of colour components.
func (m *Image) Components() int { return len(m.d.comps) }

// Size returns the frame's width and height.
func (m *Image) Size() (w, h int) { return m.d.width, m.d.height }

// ToPixels upsamples the components to full resolution as libjpeg does by
// default and writes w x h interleaved pixels into out, rows stride bytes
// apart; with ycc the three components are converted from YCbCr to RGB
// (libtiff's JPEGCOLORMODE_RGB), otherwise they are written as decoded.
func (m *Image) ToPixels(out []byte, stride, w, h int, ycc bool) {
	m.d.toPixels(out, stride, w, h, ycc)
}
