package overlay

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// zeroRun is a run of n zero bytes at offset start of the data that
// deflateZeroRuns sends as a zero literal and matches at distance 1.
type zeroRun struct{ start, n int }

// zeroRunHistogram holds the literal/length symbol counts of data sent as
// literals except for its zero runs.
type zeroRunHistogram [numLitLen]uint32

// addRun counts the symbols of a zero run of n >= 6 bytes.
func (h *zeroRunHistogram) addRun(n int) {
	h[0]++
	for m := n - 1; m > 0; {
		l := runMatchLength(m)
		h[lengthSymbol[l]]++
		m -= l
	}
}

// runMatchLength returns the length of the next match that sends m >= 3
// zeros: at most 258, and leaving either nothing or at least 3.
func runMatchLength(m int) int {
	l := min(m, 258)
	if r := m - l; r > 0 && r < 3 {
		l -= 3 - r
	}
	return l
}

// deflateZeroRuns appends to dst data compressed as one DEFLATE block
// with dynamic Huffman codes (RFC 1951 section 3.2.7) whose only
// back-references are the given zero runs (ascending, disjoint, each at
// least 6 bytes): each is a zero literal followed by matches at distance
// 1; every other byte is a literal. hist must count exactly those
// literals and runs. It is made for PNG rows under the Sub filter, where
// a span of one colour (the legend panel, drawn roads, labels) is a run
// of zeros and the rest is small residuals that the Huffman code packs.
// There is no hashing or match search, and the output depends only on
// data and runs (integer arithmetic throughout).
func deflateZeroRuns(dst, data []byte, runs []zeroRun, hist *zeroRunHistogram) []byte {
	freq := *hist
	freq[endOfBlock] = 1
	var litLens [numLitLen]uint8
	var litCodes [numLitLen]uint16
	huffmanLengths(freq[:], 15, litLens[:])
	canonicalCodes(litLens[:], litCodes[:])
	numLit := numLitLen
	for numLit > 257 && litLens[numLit-1] == 0 {
		numLit--
	}
	// Two distance codes of one bit each (a complete code); only distance
	// 1 (code 0) is used.
	distLens := [2]uint8{1, 1}

	// The code lengths, sent with the code-length code (symbols 0..15
	// only, no repeat codes).
	var clFreq [19]uint32
	for _, l := range litLens[:numLit] {
		clFreq[l]++
	}
	clFreq[1] += uint32(len(distLens))
	var clLens [19]uint8
	var clCodes [19]uint16
	huffmanLengths(clFreq[:], 7, clLens[:])
	canonicalCodes(clLens[:], clCodes[:])
	numCL := 19
	for numCL > 4 && clLens[codeLengthOrder[numCL-1]] == 0 {
		numCL--
	}

	w := bitWriter{out: dst}
	w.bits(1, 1) // BFINAL
	w.bits(2, 2) // BTYPE dynamic
	w.bits(uint64(numLit-257), 5)
	w.bits(uint64(len(distLens)-1), 5)
	w.bits(uint64(numCL-4), 4)
	for _, s := range codeLengthOrder[:numCL] {
		w.bits(uint64(clLens[s]), 3)
	}
	for _, l := range litLens[:numLit] {
		w.bits(uint64(clCodes[l]), uint(clLens[l]))
	}
	for _, l := range distLens {
		w.bits(uint64(clCodes[l]), uint(clLens[l]))
	}
	// Literal codes packed as code | length<<16.
	var lit [256]uint32
	for b := range lit {
		lit[b] = uint32(litCodes[b]) | uint32(litLens[b])<<16
	}
	pos := 0
	for _, r := range runs {
		w.literals(data[pos:r.start], &lit)
		w.bits(uint64(litCodes[0]), uint(litLens[0]))
		for m := r.n - 1; m > 0; {
			l := runMatchLength(m)
			m -= l
			s := lengthSymbol[l]
			w.bits(uint64(litCodes[s]), uint(litLens[s]))
			if eb := lengthExtraBits[s-257]; eb > 0 {
				w.bits(uint64(l-int(lengthBase[s-257])), uint(eb))
			}
			w.bits(0, 1) // distance code 0: distance 1
		}
		pos = r.start + r.n
	}
	w.literals(data[pos:], &lit)
	w.bits(uint64(litCodes[endOfBlock]), uint(litLens[endOfBlock]))
	return w.flush()
}

const (
	numLitLen  = 286 // literal/length symbols 0..285
	endOfBlock = 256
)

// codeLengthOrder is the order of the code-length code's lengths in a
// block header (RFC 1951 section 3.2.7).
var codeLengthOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// Length symbols 257..285: base lengths and extra bits (RFC 1951 section
// 3.2.5).
var (
	lengthBase      = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtraBits = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
)

// lengthSymbol maps a match length (3..258) to its length symbol.
var lengthSymbol = func() (t [259]uint16) {
	for k := len(lengthBase) - 1; k >= 0; k-- {
		hi := 258
		if k+1 < len(lengthBase) {
			hi = int(lengthBase[k+1]) - 1
		}
		for l := int(lengthBase[k]); l <= hi; l++ {
			t[l] = uint16(257 + k)
		}
	}
	return t
}()

// huffmanLengths sets lens[s] to the code length of symbol s in a Huffman
// code of the symbols with freq[s] > 0 (0 for the others), no length over
// maxBits. With fewer than two such symbols, symbols 0 and 1 are given a
// frequency so that the code stays complete. Ties are broken by symbol,
// so the lengths depend only on freq. When the tree is too deep the
// frequencies are halved (rounding up) and the code rebuilt.
func huffmanLengths(freq []uint32, maxBits int, lens []uint8) {
	type leaf struct {
		f   uint64
		sym int
	}
	var leaves []leaf
	for s, f := range freq {
		if f > 0 {
			leaves = append(leaves, leaf{uint64(f), s})
		}
	}
	for s := 0; len(leaves) < 2; s++ {
		if freq[s] == 0 {
			leaves = append(leaves, leaf{1, s})
		}
	}
	clear(lens)
	n := len(leaves)
	parent := make([]int, 2*n-1)
	weight := make([]uint64, 2*n-1)
	depth := make([]int, 2*n-1)
	for {
		slices.SortFunc(leaves, func(a, b leaf) int {
			if a.f != b.f {
				if a.f < b.f {
					return -1
				}
				return 1
			}
			return a.sym - b.sym
		})
		for i, l := range leaves {
			weight[i] = l.f
		}
		// Two queues: leaves in order, internal nodes as they are made
		// (in increasing weight); a leaf wins a tie.
		li, ni := 0, n
		pick := func(k int) int {
			if li < n && (ni >= k || weight[li] <= weight[ni]) {
				li++
				return li - 1
			}
			ni++
			return ni - 1
		}
		for k := n; k < 2*n-1; k++ {
			a, b := pick(k), pick(k)
			parent[a], parent[b] = k, k
			weight[k] = weight[a] + weight[b]
		}
		depth[2*n-2] = 0
		deepest := 0
		for k := 2*n - 3; k >= 0; k-- {
			depth[k] = depth[parent[k]] + 1
			deepest = max(deepest, depth[k])
		}
		if deepest <= maxBits {
			for i, l := range leaves {
				lens[l.sym] = uint8(depth[i])
			}
			return
		}
		for i := range leaves {
			leaves[i].f = (leaves[i].f + 1) / 2
		}
	}
}

// canonicalCodes assigns the canonical Huffman codes of RFC 1951 section
// 3.2.2 to the code lengths, bit-reversed for DEFLATE's LSB-first packing.
func canonicalCodes(lens []uint8, codes []uint16) {
	var count [16]int
	for _, l := range lens {
		if l > 0 {
			count[l]++
		}
	}
	var next [16]int
	code := 0
	for n := 1; n < 16; n++ {
		code = (code + count[n-1]) << 1
		next[n] = code
	}
	for s, l := range lens {
		if l == 0 {
			codes[s] = 0
			continue
		}
		codes[s] = bits.Reverse16(uint16(next[l])) >> (16 - l)
		next[l]++
	}
}

// bitWriter packs bits LSB first, as DEFLATE does.
type bitWriter struct {
	out []byte
	acc uint64
	n   uint
}

// bits writes the low n (at most 16) bits of v.
func (w *bitWriter) bits(v uint64, n uint) {
	w.acc |= v << w.n
	w.n += n
	if w.n >= 32 {
		w.out = binary.LittleEndian.AppendUint32(w.out, uint32(w.acc))
		w.acc >>= 32
		w.n -= 32
	}
}

// literals writes each byte of p with its packed code (code | length<<16).
func (w *bitWriter) literals(p []byte, lit *[256]uint32) {
	acc, n := w.acc, w.n
	// At most 15 bits a literal: reserve room for all of them and for the
	// 8-byte stores, then keep fewer than 8 bits pending after each store:
	// three literals (at most 45 bits) fit on top.
	out := slices.Grow(w.out, 2*len(p)+16)
	k := len(out)
	out = out[:cap(out)]
	// Bring the pending bits below 8 first.
	for n >= 8 {
		out[k] = byte(acc)
		k++
		acc >>= 8
		n -= 8
	}
	i := 0
	for ; i+3 <= len(p); i += 3 {
		q := p[i : i+3 : i+3]
		e0, e1, e2 := lit[q[0]], lit[q[1]], lit[q[2]]
		acc |= uint64(e0&0xffff) << n
		n += uint(e0 >> 16)
		acc |= uint64(e1&0xffff) << n
		n += uint(e1 >> 16)
		acc |= uint64(e2&0xffff) << n
		n += uint(e2 >> 16)
		binary.LittleEndian.PutUint64(out[k:], acc)
		k += int(n >> 3)
		acc >>= n &^ 7
		n &= 7
	}
	for ; i < len(p); i++ {
		e := lit[p[i]]
		acc |= uint64(e&0xffff) << n
		n += uint(e >> 16)
	}
	// The stream is out followed by the n pending bits of acc, whatever
	// the length of out; leave fewer than 8 pending.
	for n >= 8 {
		out[k] = byte(acc)
		k++
		acc >>= 8
		n -= 8
	}
	w.acc, w.n, w.out = acc, n, out[:k]
}

// flush pads the last byte with zero bits and returns the output.
func (w *bitWriter) flush() []byte {
	for w.n > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.n = max(w.n, 8) - 8
	}
	return w.out
}
