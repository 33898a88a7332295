package lzw

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"syscall"
	"testing"
	"time"

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
		codectest.CheckDecoder(t, fmt.Sprintf("sample %d", i), s.decodeLZW, lzwCompressTIFF(in), in)
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

// FuzzLZW decodes arbitrary streams with the decoder and the reference
// one (ref_test.go) into blocks of a few sizes: the same bytes on success,
// the same error otherwise, and no panic.
func FuzzLZW(f *testing.F) {
	for _, in := range codectest.Samples() {
		if len(in) > 0 && len(in) < 5000 {
			f.Add(uint16(len(in)), lzwCompressTIFF(in))
		}
	}
	f.Add(uint16(10), []byte{0x80, 0x01, 0x02})
	f.Fuzz(func(t *testing.T, size uint16, src []byte) {
		var s lzwState
		var r refState
		for _, n := range []int{int(size) % 20000, 1, 7, 9, 1000} {
			got, want := make([]byte, n), make([]byte, n)
			gerr, werr := s.decodeLZW(src, got), r.decodeRef(src, want)
			if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
				t.Fatalf("size %d: error %v, reference %v", n, gerr, werr)
			}
			if gerr == nil && !bytes.Equal(got, want) {
				t.Fatalf("size %d: output differs from the reference", n)
			}
		}
	})
}

// sarLike returns n bytes of float32 samples shaped like SAR backscatter
// (a random walk plus noise, in dB) after TIFF predictor 2 on 32-bit words:
// the data of conformance/raster/mkbig.py's LZW file, which LZW barely
// compresses.
func sarLike(n int) []byte {
	out := make([]byte, n)
	v, seed := float32(-12), uint32(1)
	var last uint32
	for i := 0; i+4 <= n; i += 4 {
		seed = seed*1664525 + 1013904223
		v += float32(int32(seed>>20)-2048) / 4096
		w := math.Float32bits(v + float32(seed&0xff)/256)
		binary.LittleEndian.PutUint32(out[i:], w-last)
		last = w
	}
	return out
}

// BenchmarkDecodeLZW decodes one 512 x 512 float32 predictor-2 tile with
// the decoder and with the reference one.
func BenchmarkDecodeLZW(b *testing.B) {
	in := sarLike(512 * 512 * 4)
	z := lzwCompressTIFF(in)
	dst := make([]byte, len(in))
	var s lzwState
	var r refState
	for _, dec := range []struct {
		name   string
		decode func(src, dst []byte) error
	}{{"table", s.decodeLZW}, {"reference", r.decodeRef}} {
		b.Run(dec.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			start := cpuTime()
			for b.Loop() {
				if err := dec.decode(z, dst); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
			if !bytes.Equal(dst, in) {
				b.Fatal("output differs")
			}
		})
	}
}

// cpuTime returns the process's user+system CPU time, steadier than wall
// time on a shared machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
