package raster

import (
	"bytes"
	"compress/zlib"
	"math/rand"
	"testing"
)

// zlibCompress compresses b with the standard library at the given level.
func zlibCompress(t testing.TB, b []byte, level int) []byte {
	var buf bytes.Buffer
	w, err := zlib.NewWriterLevel(&buf, level)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// inflateSamples returns test inputs with literals, runs and matches.
func inflateSamples() [][]byte {
	r := rand.New(rand.NewSource(1))
	var out [][]byte
	for _, n := range []int{0, 1, 7, 100, 1000, 65536, 300000} {
		random := make([]byte, n)
		r.Read(random)
		text := make([]byte, n)
		for i := range text {
			text[i] = "abcdefgh  \n"[r.Intn(11)]
		}
		runs := make([]byte, n)
		for i := range runs {
			runs[i] = byte(i / 1000)
		}
		ramp := make([]byte, n)
		for i := range ramp {
			ramp[i] = byte(i*i>>9) ^ byte(r.Intn(3))
		}
		// Geometric symbol frequencies give 15-bit codes (subtables).
		skew := make([]byte, n)
		for i := range skew {
			k := 0
			for k < 40 && r.Intn(2) == 0 {
				k++
			}
			skew[i] = byte(k*5 + r.Intn(2))
		}
		out = append(out, random, text, runs, ramp, skew)
	}
	return out
}

func TestInflateMatchesStdlib(t *testing.T) {
	var f inflater
	for i, in := range inflateSamples() {
		for _, level := range []int{0, 1, 6, 9, -2} {
			z := zlibCompress(t, in, level)
			dst := make([]byte, len(in))
			if err := f.inflateZlib(z, dst); err != nil {
				t.Fatalf("sample %d (%d bytes) level %d: %v", i, len(in), level, err)
			}
			if !bytes.Equal(dst, in) {
				t.Fatalf("sample %d (%d bytes) level %d: output differs", i, len(in), level)
			}
			// Asking for less output than the stream holds is not an error.
			if len(in) > 10 {
				short := make([]byte, len(in)/2)
				if err := f.inflateZlib(z, short); err != nil || !bytes.Equal(short, in[:len(short)]) {
					t.Fatalf("sample %d level %d: prefix decode: %v", i, level, err)
				}
			}
			// Asking for more is.
			if err := f.inflateZlib(z, make([]byte, len(in)+1)); err == nil {
				t.Fatalf("sample %d level %d: over-long output accepted", i, level)
			}
			// Truncation and corruption are errors, never panics.
			if len(z) > 6 {
				if err := f.inflateZlib(z[:len(z)-5], dst); err == nil && len(in) > 0 {
					t.Fatalf("sample %d level %d: truncated stream accepted", i, level)
				}
				bad := append([]byte(nil), z...)
				bad[len(bad)-1] ^= 1
				if err := f.inflateZlib(bad, dst); err == nil {
					t.Fatalf("sample %d level %d: bad checksum accepted", i, level)
				}
			}
		}
	}
}

// TestLZWMatchesXImage compares the LZW decoder with golang.org/x/image's
// TIFF LZW reader on streams from its writer-compatible encoder.
func TestLZWMatchesXImage(t *testing.T) {
	var s lzwState
	for i, in := range inflateSamples() {
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
