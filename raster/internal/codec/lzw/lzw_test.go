package lzw

import (
	"bytes"
	"testing"

	"github.com/geodisaster/engine/raster/internal/codec/codectest"
)

// TestLZWMatchesXImage compares the LZW decoder with golang.org/x/image's
// TIFF LZW reader on streams from its writer-compatible encoder.
func TestLZWMatchesXImage(t *testing.T) {
	var s lzwState
	for i, in := range codectest.Samples() {
		if len(in) == 0 {
			continue
		}
		z := lzwCompressTIFF(in)
		dst := make([]byte, len(in))
		if err := s.decodeLZW(z, dst); err != nil {
			t.Fatalf("sample %d (%d bytes): %v", i, len(in), err)
		}
		if !bytes.Equal(dst, in) {
			t.Fatalf("sample %d (%d bytes): output differs", i, len(in))
		}
		if err := s.decodeLZW(z, make([]byte, len(in)+1)); err == nil {
			t.Fatalf("sample %d: over-long output accepted", i)
		}
		if len(in) > 2 {
			if err := s.decodeLZW(z, dst[:len(in)/2]); err != nil {
				t.Fatalf("sample %d: prefix: %v", i, err)
			}
		}
	}
}

// lzwCompressTIFF is a straightforward TIFF LZW encoder (early change,
// ClearCode when the table fills) for tests.
func lzwCompressTIFF(in []byte) []byte {
	var out []byte
	var acc uint64
	var nacc uint
	width := uint(9)
	put := func(code int) {
		acc = acc<<width | uint64(code)
		nacc += width
		for nacc >= 8 {
			out = append(out, byte(acc>>(nacc-8)))
			nacc -= 8
		}
	}
	dict := map[string]int{}
	next := lzwFirst
	put(lzwClear)
	w := ""
	for _, c := range in {
		wc := w + string([]byte{c})
		if _, ok := dict[wc]; ok || len(wc) == 1 {
			w = wc
			continue
		}
		if len(w) == 1 {
			put(int(w[0]))
		} else {
			put(dict[w])
		}
		dict[wc] = next
		next++
		if next > (1<<width)-1 && width < 12 {
			width++
		}
		if next >= 4094 {
			put(lzwClear)
			dict = map[string]int{}
			next = lzwFirst
			width = 9
		}
		w = string([]byte{c})
	}
	if len(w) == 1 {
		put(int(w[0]))
	} else if w != "" {
		put(dict[w])
	}
	put(lzwEOI)
	if nacc > 0 {
		out = append(out, byte(acc<<(8-nacc)))
	}
	return out
}
