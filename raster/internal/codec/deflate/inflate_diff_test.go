package deflate

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand"
	"slices"
	"strconv"
	"testing"

	kflate "github.com/klauspost/compress/flate"
)

// diffInputs returns inputs that exercise every decoder path: literals of
// every code length, runs, long matches, matches at every distance class,
// predictor-3 float planes and the empty input.
func diffInputs() map[string][]byte {
	r := rand.New(rand.NewSource(11))
	in := map[string][]byte{"empty": {}, "one": {42}}
	for _, n := range []int{1, 2, 7, 8, 9, 15, 16, 17, 255, 256, 257, 300, 1000, 4096, 70000} {
		b := make([]byte, n)
		r.Read(b)
		in["random"+itoa(n)] = b
	}
	// Long matches: 258-byte runs, long repeats, and runs longer than the
	// window.
	zeros := make([]byte, 100000)
	in["zeros"] = zeros
	rep := make([]byte, 0, 200000)
	unit := make([]byte, 777)
	r.Read(unit)
	for len(rep) < 190000 {
		rep = append(rep, unit...)
	}
	in["repeat777"] = rep
	// Periodic data at a given distance, so the compressors emit matches of
	// that distance (1..32768: every distance class, both ends of each).
	dists := []int{}
	for d := 1; d <= 40; d++ {
		dists = append(dists, d)
	}
	for _, b := range []int{65, 129, 257, 513, 1025, 2049, 4097, 8193, 16385, 24577} {
		dists = append(dists, b-1, b, b+1)
	}
	dists = append(dists, 32767, 32768)
	for _, d := range dists {
		unit := make([]byte, d)
		r.Read(unit)
		b := make([]byte, 0, d+3000)
		b = append(b, unit...)
		for len(b) < d+2000+r.Intn(600) {
			b = append(b, b[len(b)-d])
		}
		in["dist"+itoa(d)] = b
	}
	// Mixed literals and short matches with skewed symbol statistics
	// (long codes, subtables) and a float32 predictor-3 row layout.
	skew := make([]byte, 60000)
	for i := range skew {
		k := 0
		for k < 40 && r.Intn(2) == 0 {
			k++
		}
		skew[i] = byte(k*5 + r.Intn(2))
	}
	in["skew"] = skew
	fl := make([]byte, 256*4*64)
	for row := 0; row < 64; row++ {
		v := make([]byte, 256*4)
		for i := 0; i < 256; i++ {
			x := float32(0.05 + 0.01*math.Sin(float64(i)/9) + 0.002*r.NormFloat64())
			u := math.Float32bits(x)
			for k := 0; k < 4; k++ {
				v[k*256+i] = byte(u >> (24 - 8*k))
			}
		}
		for i := len(v) - 1; i > 0; i-- {
			v[i] -= v[i-1]
		}
		copy(fl[row*len(v):], v)
	}
	in["float"] = fl
	text := make([]byte, 50000)
	for i := range text {
		text[i] = "the quick brown fox  \n"[r.Intn(22)]
	}
	in["text"] = text
	return in
}

func itoa(n int) string { return strconv.Itoa(n) }

// deflateStd compresses b as raw DEFLATE with compress/flate or
// klauspost/compress/flate at level, calling Flush at the given input
// offsets (each makes a block boundary) and returning the compressed
// offsets of those boundaries.
func deflateStd(t testing.TB, b []byte, level int, klaus bool, flushAt []int) ([]byte, []int) {
	var buf bytes.Buffer
	type flusher interface {
		io.WriteCloser
		Flush() error
	}
	var w flusher
	var err error
	if klaus {
		w, err = kflate.NewWriter(&buf, level)
	} else {
		w, err = flate.NewWriter(&buf, level)
	}
	if err != nil {
		t.Fatal(err)
	}
	var marks []int
	prev := 0
	for _, at := range flushAt {
		w.Write(b[prev:at])
		w.Flush()
		marks = append(marks, buf.Len())
		prev = at
	}
	w.Write(b[prev:])
	w.Close()
	return buf.Bytes(), marks
}

// stdInflate decodes raw DEFLATE with compress/flate, reading at most
// limit bytes.
func stdInflate(src []byte, limit int) ([]byte, error) {
	r := flate.NewReader(bytes.NewReader(src))
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, int64(limit)))
}

// TestInflateDifferential decodes streams from both compressors at every
// level with our inflater and compares with compress/flate: whole streams,
// prefixes ending at each block boundary, streams truncated at every
// block boundary and at random points, and corrupted streams.
func TestInflateDifferential(t *testing.T) { testInflateDifferential(t, 12) }

func testInflateDifferential(t *testing.T, seed int64) {
	r := rand.New(rand.NewSource(seed))
	var f inflater
	levels := []int{-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	short := testing.Short()
	inputs := diffInputs()
	for _, name := range slices.Sorted(maps.Keys(inputs)) {
		in := inputs[name]
		for _, klaus := range []bool{false, true} {
			for _, level := range levels {
				if short && level != 1 && level != 6 && level != -2 {
					continue
				}
				var flushAt []int
				if len(in) > 0 && r.Intn(2) == 0 {
					for k := 0; k < 1+r.Intn(4); k++ {
						flushAt = append(flushAt, r.Intn(len(in)+1))
					}
					sortInts(flushAt)
				}
				z, marks := deflateStd(t, in, level, klaus, flushAt)
				what := func() string {
					return fmt.Sprintf("%s (klauspost %v, level %d, flushes at %v)", name, klaus, level, flushAt)
				}
				// Whole stream.
				dst := make([]byte, len(in))
				_, done, err := f.inflate(z, dst)
				if err != nil || !done || !bytes.Equal(dst, in) {
					t.Fatalf("%s: err %v done %v equal %v", what(), err, done, bytes.Equal(dst, in))
				}
				// Decoding stops without error once dst is full.
				for _, at := range flushAt {
					p := make([]byte, at)
					if _, _, err := f.inflate(z, p); err != nil || !bytes.Equal(p, in[:at]) {
						t.Fatalf("%s: prefix %d: %v", what(), at, err)
					}
				}
				if len(in) > 3 {
					at := r.Intn(len(in))
					p := make([]byte, at)
					if _, _, err := f.inflate(z, p); err != nil || !bytes.Equal(p, in[:at]) {
						t.Fatalf("%s: prefix %d: %v", what(), at, err)
					}
				}
				// Asking for more than the stream holds is an error.
				if _, _, err := f.inflate(z, make([]byte, len(in)+1)); err == nil {
					t.Fatalf("%s: over-long output accepted", what())
				}
				// Truncation at block boundaries and elsewhere: both
				// decoders fail.
				cuts := append([]int(nil), marks...)
				for k := 0; k < 6; k++ {
					cuts = append(cuts, r.Intn(len(z)))
				}
				cuts = append(cuts, 0, len(z)-1)
				for _, c := range cuts {
					if c < 0 || c >= len(z) {
						continue
					}
					tz := z[:c]
					got := make([]byte, len(in))
					_, done, err := f.inflate(tz, got)
					if sw, _ := stdInflate(tz, len(in)); len(sw) == len(in) {
						// All of the output precedes the cut: decoding
						// may stop once dst is full, or report the cut.
						if err == nil && !bytes.Equal(got, in) {
							t.Fatalf("%s: cut at %d/%d after the data: %v", what(), c, len(z), err)
						}
						continue
					}
					// compress/flate may hold back output it decoded
					// before the cut; ours may fill dst from the bits
					// before it, but must never make up data.
					if err == nil && (done || !bytes.Equal(got, in)) {
						t.Fatalf("%s: truncated at %d/%d accepted (done %v)", what(), c, len(z), done)
					}
				}
				// Corruption: never a panic; when both accept the
				// stream, the outputs agree.
				for k := 0; k < 4 && len(z) > 0; k++ {
					bad := append([]byte(nil), z...)
					for j := 0; j < 1+r.Intn(3); j++ {
						bad[r.Intn(len(bad))] ^= 1 << r.Intn(8)
					}
					want, serr := stdInflate(bad, len(in)+1000)
					got := make([]byte, len(in))
					_, done, err := f.inflate(bad, got)
					if err == nil && done && serr == nil && !bytes.Equal(got, want) {
						t.Fatalf("%s: corrupted stream decodes differently", what())
					}
					if err != nil {
						if _, ok := err.(FormatError); !ok {
							t.Fatalf("%s: untyped error %v", what(), err)
						}
					}
				}
			}
		}
	}
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// TestInflateHandmade checks hand-built streams: stored blocks of every
// size class, fixed-Huffman blocks, a single-distance-code dynamic block,
// and invalid constructs (reserved block type, bad stored length, distance
// too far back, invalid codes).
func TestInflateHandmade(t *testing.T) {
	var f inflater
	// Stored blocks: lengths 0..70000 split into several blocks.
	r := rand.New(rand.NewSource(13))
	for _, n := range []int{0, 1, 5, 65535, 65536, 70000} {
		in := make([]byte, n)
		r.Read(in)
		var z []byte
		rest := in
		for {
			k := min(len(rest), 1+r.Intn(40000))
			final := byte(0)
			if k == len(rest) {
				final = 1
			}
			z = append(z, final)
			z = binary.LittleEndian.AppendUint16(z, uint16(k))
			z = binary.LittleEndian.AppendUint16(z, ^uint16(k))
			z = append(z, rest[:k]...)
			rest = rest[k:]
			if final == 1 {
				break
			}
		}
		dst := make([]byte, n)
		if _, done, err := f.inflate(z, dst); err != nil || !done || !bytes.Equal(dst, in) {
			t.Fatalf("stored %d: %v %v", n, err, done)
		}
		want, err := stdInflate(z, n+1)
		if err != nil || !bytes.Equal(want, in) {
			t.Fatalf("stored %d: stdlib disagrees: %v", n, err)
		}
		if len(z) > 5 {
			if _, _, err := f.inflate(z[:len(z)-1], dst); err == nil && n > 0 {
				t.Fatalf("stored %d: truncated accepted", n)
			}
		}
	}
	for _, c := range []struct {
		name string
		z    []byte
		n    int
	}{
		{"reserved block type", []byte{0x07, 0, 0, 0}, 1},
		{"stored length check", []byte{0x01, 0x01, 0x00, 0xff, 0xff, 'a'}, 1},
		{"distance too far", fixedStream([]int{'a'}, [][2]int{{3, 2}}), 4},
		{"invalid length symbol 286", fixedSymbols(286), 4},
		{"invalid distance symbol 30", fixedStream([]int{'a'}, [][2]int{{3, 31}}), 4},
		{"empty input", nil, 1},
	} {
		dst := make([]byte, c.n)
		if _, _, err := f.inflate(c.z, dst); err == nil {
			t.Errorf("%s: accepted", c.name)
		} else if _, ok := err.(FormatError); !ok {
			t.Errorf("%s: untyped error %v", c.name, err)
		}
	}
	// Every length 3..258 at distance 1 and at a far distance, fixed codes.
	for l := 3; l <= 258; l++ {
		z := fixedStream([]int{'x', 'y'}, [][2]int{{l, 1}, {l, 2}})
		want := []byte("xy")
		for i := 0; i < l; i++ {
			want = append(want, want[len(want)-1])
		}
		for i := 0; i < l; i++ {
			want = append(want, want[len(want)-2])
		}
		dst := make([]byte, len(want))
		if _, done, err := f.inflate(z, dst); err != nil || !done || !bytes.Equal(dst, want) {
			t.Fatalf("fixed length %d: %v %v", l, err, done)
		}
		std, err := stdInflate(z, len(want)+1)
		if err != nil || !bytes.Equal(std, want) {
			t.Fatalf("fixed length %d: stdlib disagrees: %v", l, err)
		}
	}
}

// bitWriter packs DEFLATE bits LSB first.
type bitWriter struct {
	out []byte
	acc uint64
	n   uint
}

func (w *bitWriter) bits(v uint64, n uint) {
	w.acc |= v << w.n
	w.n += n
	for w.n >= 8 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.n -= 8
	}
}

// huff writes a Huffman code (MSB first).
func (w *bitWriter) huff(code uint64, n uint) {
	var rev uint64
	for i := uint(0); i < n; i++ {
		rev = rev<<1 | code>>i&1
	}
	w.bits(rev, n)
}

func (w *bitWriter) bytes() []byte {
	if w.n > 0 {
		w.out = append(w.out, byte(w.acc))
	}
	return w.out
}

// fixedLitLen writes symbol s of the fixed literal/length code.
func (w *bitWriter) fixedLitLen(s int) {
	switch {
	case s < 144:
		w.huff(uint64(0x30+s), 8)
	case s < 256:
		w.huff(uint64(0x190+s-144), 9)
	case s < 280:
		w.huff(uint64(s-256), 7)
	default:
		w.huff(uint64(0xc0+s-280), 8)
	}
}

// fixedStream builds a final fixed-Huffman block: the literals, then the
// (length, distance) matches; a distance of 31 writes distance symbol 31.
func fixedStream(lits []int, matches [][2]int) []byte {
	var w bitWriter
	w.bits(1, 1)
	w.bits(1, 2)
	for _, l := range lits {
		w.fixedLitLen(l)
	}
	for _, m := range matches {
		l, d := m[0], m[1]
		i := 28
		for int(lengthBase[i]) > l {
			i--
		}
		if l == 258 {
			i = 28
		}
		w.fixedLitLen(257 + i)
		w.bits(uint64(l-int(lengthBase[i])), uint(lengthExtra[i]))
		if d == 31 {
			w.huff(31, 5)
			continue
		}
		j := 29
		for int(distBase[j]) > d {
			j--
		}
		w.huff(uint64(j), 5)
		w.bits(uint64(d-int(distBase[j])), uint(distExtra[j]))
	}
	w.fixedLitLen(256)
	return w.bytes()
}

// fixedSymbols builds a final fixed-Huffman block of the given symbols
// followed by zero padding.
func fixedSymbols(syms ...int) []byte {
	var w bitWriter
	w.bits(1, 1)
	w.bits(1, 2)
	for _, s := range syms {
		w.fixedLitLen(s)
	}
	return append(w.bytes(), 0, 0, 0, 0)
}
