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

// TestLiteralsMatchesBits checks the batched literal writer against one
// bits call per literal, from every pending bit count and for lengths
// around its three-literal step.
func TestLiteralsMatchesBits(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var lit [256]uint32
	for b := range lit {
		l := 1 + r.IntN(15)
		lit[b] = uint32(r.IntN(1<<l)) | uint32(l)<<16
	}
	for pending := uint(0); pending < 32; pending++ {
		for _, n := range []int{0, 1, 2, 3, 4, 5, 100, 1001} {
			p := make([]byte, n)
			for i := range p {
				p[i] = byte(r.IntN(256))
			}
			a := bitWriter{out: []byte{9}}
			b := bitWriter{out: []byte{9}}
			a.bits(uint64(r.IntN(1<<16))&(1<<pending-1), pending)
			b.acc, b.n = a.acc, a.n
			a.literals(p, &lit)
			for _, c := range p {
				b.bits(uint64(lit[c]&0xffff), uint(lit[c]>>16))
			}
			a.bits(5, 3)
			b.bits(5, 3)
			if got, want := a.flush(), b.flush(); !bytes.Equal(got, want) {
				t.Fatalf("%d pending bits, %d literals: streams differ", pending, n)
			}
		}
	}
}
