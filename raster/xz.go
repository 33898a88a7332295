package raster

import (
	"bytes"
	"fmt"

	"github.com/ulikunitz/xz/lzma"
)

// decodeXZ decodes the first block of an .xz stream (what libtiff's LZMA
// codec writes for each strip or tile) into dst. It supports the filter
// chains libtiff produces: LZMA2, optionally preceded by a delta filter.
// The dictionary is capped at the output size, so a hostile header cannot
// make it allocate more than the block needs.
func decodeXZ(src, dst []byte) error {
	if len(src) < 12 || !bytes.Equal(src[:6], []byte{0xFD, '7', 'z', 'X', 'Z', 0}) {
		return FormatError("LZMA: missing xz stream header")
	}
	p := src[12:]
	if len(p) < 1 || p[0] == 0 {
		return FormatError("LZMA: xz stream has no block")
	}
	hsize := (int(p[0]) + 1) * 4
	if hsize > len(p) {
		return FormatError("LZMA: truncated xz block header")
	}
	h := p[1 : hsize-4] // without the size byte and CRC32
	data := p[hsize:]
	if len(h) < 1 {
		return FormatError("LZMA: bad xz block header")
	}
	flags := h[0]
	h = h[1:]
	nfilters := int(flags&3) + 1
	var err error
	if flags&0x40 != 0 {
		if _, h, err = readVLI(h); err != nil {
			return err
		}
	}
	if flags&0x80 != 0 {
		if _, h, err = readVLI(h); err != nil {
			return err
		}
	}
	delta := 0
	dictCap := -1
	for i := 0; i < nfilters; i++ {
		var id, psize uint64
		if id, h, err = readVLI(h); err != nil {
			return err
		}
		if psize, h, err = readVLI(h); err != nil {
			return err
		}
		if psize > uint64(len(h)) {
			return FormatError("LZMA: truncated xz filter properties")
		}
		props := h[:psize]
		h = h[psize:]
		switch {
		case id == 0x03 && psize == 1 && i < nfilters-1:
			delta = int(props[0]) + 1
		case id == 0x21 && psize == 1 && i == nfilters-1:
			b := props[0] & 0x3f
			if b > 40 {
				return FormatError("LZMA: bad LZMA2 dictionary size")
			}
			dictCap = 0
		default:
			return UnsupportedError(fmt.Sprintf("LZMA: xz filter 0x%x", id))
		}
	}
	if dictCap < 0 {
		return FormatError("LZMA: xz block without LZMA2 filter")
	}
	dictCap = max(len(dst), lzma.MinDictCap)
	r, err := lzma.Reader2Config{DictCap: dictCap}.NewReader2(bytes.NewReader(data))
	if err != nil {
		return FormatError("LZMA: " + err.Error())
	}
	if err := readBlock(r, dst, "LZMA"); err != nil {
		return err
	}
	if delta > 0 {
		for i := delta; i < len(dst); i++ {
			dst[i] += dst[i-delta]
		}
	}
	return nil
}

// readVLI reads an xz variable-length integer.
func readVLI(b []byte) (uint64, []byte, error) {
	var v uint64
	for i := 0; i < 9 && i < len(b); i++ {
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i]&0x80 == 0 {
			return v, b[i+1:], nil
		}
	}
	return 0, nil, FormatError("LZMA: bad xz integer")
}
