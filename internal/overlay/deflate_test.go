package overlay

import (
	"bytes"
	"compress/flate"
	"io"
	"math/rand/v2"
	"testing"
)

// zeroRunsOf finds the runs of at least minRun zeros in data, as the PNG
// encoder's filter pass does for pixels, and counts the rest as literals.
func zeroRunsOf(data []byte, minRun int) ([]zeroRun, *zeroRunHistogram) {
	var runs []zeroRun
	hist := new(zeroRunHistogram)
	for i := 0; i < len(data); {
		n := 0
		for i+n < len(data) && data[i+n] == 0 {
			n++
		}
		switch {
		case n >= minRun:
			runs = append(runs, zeroRun{i, n})
			hist.addRun(n)
			i += n
		case n > 0:
			hist[0] += uint32(n)
			i += n
		default:
			hist[data[i]]++
			i++
		}
	}
	return runs, hist
}

// TestDeflateZeroRunsInflates checks the stream against compress/flate's
// decoder on data with short and long zero runs, a single symbol, all
// 256 byte values and heavily skewed frequencies (codes past 15 bits
// before limiting).
func TestDeflateZeroRunsInflates(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	cases := map[string][]byte{
		"empty":    {},
		"one byte": {7},
		"zeros":    make([]byte, 100000),
		"all bytes": func() []byte {
			b := make([]byte, 2560)
			for i := range b {
				b[i] = byte(i)
			}
			return b
		}(),
	}
	mixed := make([]byte, 300000)
	for i := range mixed {
		switch k := r.IntN(10); {
		case k < 5:
			mixed[i] = 0
		case k < 8:
			mixed[i] = byte(r.IntN(8))
		default:
			mixed[i] = byte(r.IntN(256))
		}
	}
	for i := 1000; i < 300000; i += 7919 {
		clear(mixed[i : i+min(258*3+r.IntN(600), 300000-i)])
	}
	cases["mixed"] = mixed
	// Fibonacci frequencies give a Huffman tree 30 levels deep.
	var fib []byte
	a, b := 1, 1
	for s := 1; s < 30; s++ {
		for range a {
			fib = append(fib, byte(s))
		}
		a, b = b, a+b
	}
	cases["fibonacci"] = fib
	for name, data := range cases {
		for _, minRun := range []int{6, 1 << 30} {
			runs, hist := zeroRunsOf(data, minRun)
			out := deflateZeroRuns(nil, data, runs, hist)
			got, err := io.ReadAll(flate.NewReader(bytes.NewReader(out)))
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("%s (runs from %d): inflated %d bytes, %v; want %d bytes", name, minRun, len(got), err, len(data))
			}
		}
	}
}

func TestHuffmanLengthsLimited(t *testing.T) {
	freq := make([]uint32, 40)
	a, b := uint32(1), uint32(1)
	for i := range freq {
		freq[i] = a
		a, b = b, a+b
	}
	lens := make([]uint8, len(freq))
	huffmanLengths(freq, 15, lens)
	kraft := 0.0
	for s, l := range lens {
		if l == 0 || l > 15 {
			t.Fatalf("symbol %d: length %d", s, l)
		}
		kraft += 1 / float64(uint(1)<<l)
	}
	if kraft != 1 {
		t.Errorf("Kraft sum %v, want a complete code", kraft)
	}
}
