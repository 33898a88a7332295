// Package codectest holds the test inputs the codec packages' tests and
// the raster tests share.
package codectest

import (
	"bytes"
	"compress/zlib"
	"math/rand"
	"testing"
)

// ZlibCompress compresses b with the standard library at the given level.
func ZlibCompress(t testing.TB, b []byte, level int) []byte {
	var buf bytes.Buffer
	w, err := zlib.NewWriterLevel(&buf, level)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// Samples returns test inputs with literals, runs and matches.
func Samples() [][]byte {
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

// CheckDecoder checks a whole-block decoder on the stream z of the bytes
// in: the output matches in, a shorter output decodes to the prefix (a
// block may hold more data than it needs), and an output one byte longer
// than the stream holds is an error. what names the case in failures.
func CheckDecoder(t testing.TB, what string, decode func(src, dst []byte) error, z, in []byte) {
	t.Helper()
	dst := make([]byte, len(in))
	if err := decode(z, dst); err != nil {
		t.Fatalf("%s (%d bytes): %v", what, len(in), err)
	}
	if !bytes.Equal(dst, in) {
		t.Fatalf("%s (%d bytes): output differs", what, len(in))
	}
	if len(in) > 2 {
		short := make([]byte, len(in)/2)
		if err := decode(z, short); err != nil || !bytes.Equal(short, in[:len(short)]) {
			t.Fatalf("%s: prefix decode: %v", what, err)
		}
	}
	if err := decode(z, make([]byte, len(in)+1)); err == nil {
		t.Fatalf("%s: over-long output accepted", what)
	}
}
