package xz

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
	start, delta, _, err := parseXZBlockHeader(src)
	if err != nil {
		return err
	}
	dictCap := max(len(dst), lzma.MinDictCap)
	r, err := lzma.Reader2Config{DictCap: dictCap}.NewReader2(bytes.NewReader(src[start:]))
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

// xzHeaderMax bounds the stream and block headers parseXZBlockHeader reads.
const xzHeaderMax = 12 + 1024

// parseXZBlockHeader parses the xz stream header and the first block's
// header at the start of src. It returns where the block's LZMA2 data
// starts, the delta filter's distance (0 without one) and the LZMA2
// dictionary size the header declares.
func parseXZBlockHeader(src []byte) (start, delta int, dictSize int64, err error) {
	if len(src) < 12 || !bytes.Equal(src[:6], []byte{0xFD, '7', 'z', 'X', 'Z', 0}) {
		return 0, 0, 0, FormatError("LZMA: missing xz stream header")
	}
	p := src[12:]
	if len(p) < 1 || p[0] == 0 {
		return 0, 0, 0, FormatError("LZMA: xz stream has no block")
	}
	hsize := (int(p[0]) + 1) * 4
	if hsize > len(p) {
		return 0, 0, 0, FormatError("LZMA: truncated xz block header")
	}
	h := p[1 : hsize-4] // without the size byte and CRC32
	if len(h) < 1 {
		return 0, 0, 0, FormatError("LZMA: bad xz block header")
	}
	flags := h[0]
	h = h[1:]
	nfilters := int(flags&3) + 1
	if flags&0x40 != 0 {
		if _, h, err = readVLI(h); err != nil {
			return 0, 0, 0, err
		}
	}
	if flags&0x80 != 0 {
		if _, h, err = readVLI(h); err != nil {
			return 0, 0, 0, err
		}
	}
	dictSize = -1
	for i := 0; i < nfilters; i++ {
		var id, psize uint64
		if id, h, err = readVLI(h); err != nil {
			return 0, 0, 0, err
		}
		if psize, h, err = readVLI(h); err != nil {
			return 0, 0, 0, err
		}
		if psize > uint64(len(h)) {
			return 0, 0, 0, FormatError("LZMA: truncated xz filter properties")
		}
		props := h[:psize]
		h = h[psize:]
		switch {
		case id == 0x03 && psize == 1 && i < nfilters-1:
			delta = int(props[0]) + 1
		case id == 0x21 && psize == 1 && i == nfilters-1:
			b := props[0] & 0x3f
			if b > 40 {
				return 0, 0, 0, FormatError("LZMA: bad LZMA2 dictionary size")
			}
			if b == 40 {
				dictSize = 1<<32 - 1
			} else {
				dictSize = int64(2|b&1) << (b/2 + 11)
			}
		default:
			return 0, 0, 0, UnsupportedError(fmt.Sprintf("LZMA: xz filter 0x%x", id))
		}
	}
	if dictSize < 0 {
		return 0, 0, 0, FormatError("LZMA: xz block without LZMA2 filter")
	}
	return 12 + hsize, delta, dictSize, nil
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
