package tiff

import (
	"bytes"
	"encoding/binary"
	"math/rand"
	"testing"
)

// TestPredictorsMatchReference checks the word-at-a-time predictor undo
// against byte-by-byte reference loops for every length up to a few words
// past the step and every stride and sample size the readers use.
func TestPredictorsMatchReference(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for n := 0; n <= 80; n++ {
		for trial := 0; trial < 20; trial++ {
			b := make([]byte, n)
			r.Read(b)
			if trial == 1 {
				for i := range b {
					b[i] = 0xff
				}
			}
			acc := byte(r.Intn(256))
			want := append([]byte(nil), b...)
			a := acc
			for i := range want {
				a += want[i]
				want[i] = a
			}
			got := append([]byte(nil), b...)
			if last := prefixSum8(got, acc); !bytes.Equal(got, want) || (n > 0 && last != want[n-1]) {
				t.Fatalf("prefixSum8 n=%d: got % x want % x", n, got, want)
			}
			if n%2 == 0 {
				want := append([]byte(nil), b...)
				var a uint16
				for i := 0; i < n; i += 2 {
					a += binary.LittleEndian.Uint16(want[i:])
					binary.LittleEndian.PutUint16(want[i:], a)
				}
				got := append([]byte(nil), b...)
				if prefixSum16LE(got); !bytes.Equal(got, want) {
					t.Fatalf("prefixSum16LE n=%d: got % x want % x", n, got, want)
				}
			}
		}
	}
	// Whole blocks: predictor 2 and 3 for every size and a few strides.
	for _, size := range []int{1, 2, 4, 8} {
		for _, stride := range []int{1, 2, 3} {
			for _, w := range []int{1, 5, 16, 33} {
				rowLen, rows := w*stride*size, 3
				b := make([]byte, rowLen*rows)
				r.Read(b)
				got := append([]byte(nil), b...)
				UndoHorizontal(got, rowLen, rows, stride, size)
				want := refHorizontal(b, rowLen, rows, stride, size)
				if !bytes.Equal(got, want) {
					t.Fatalf("UndoHorizontal size %d stride %d width %d differs", size, stride, w)
				}
				if stride == 1 {
					for from := 0; from < w; from += 1 + w/4 {
						for m := 1; from+m <= w; m += 1 + w/3 {
							row := append([]byte(nil), b[:rowLen]...)
							dst := make([]byte, m*size)
							UndoHorizontalRow(row, dst, from, size)
							if !bytes.Equal(dst, want[from*size:(from+m)*size]) || !bytes.Equal(row, b[:rowLen]) {
								t.Fatalf("UndoHorizontalRow size %d width %d from %d count %d differs", size, w, from, m)
							}
						}
					}
				}
				if size == 1 {
					continue
				}
				got = append([]byte(nil), b...)
				UndoFloat(got, rowLen, rows, stride, size, make([]byte, rowLen))
				want = refFloat(b, rowLen, rows, stride, size)
				if !bytes.Equal(got, want) {
					t.Fatalf("UndoFloat size %d stride %d width %d differs", size, stride, w)
				}
				if stride == 1 && size >= 4 {
					for from := 0; from < w; from += 1 + w/3 {
						m := w - from
						row := append([]byte(nil), b[:rowLen]...)
						dst := make([]byte, m*size)
						UndoFloatRow(row, dst, from, size)
						if !bytes.Equal(dst, want[from*size:(from+m)*size]) {
							t.Fatalf("UndoFloatRow size %d width %d from %d differs", size, w, from)
						}
					}
				}
			}
		}
	}
}

// refHorizontal is predictor 2's undo, one native-order sample at a time.
func refHorizontal(b []byte, rowLen, rows, stride, size int) []byte {
	out := append([]byte(nil), b...)
	for r := 0; r < rows; r++ {
		row := out[r*rowLen : (r+1)*rowLen]
		for i := stride * size; i < len(row); i += size {
			var v, p uint64
			for k := 0; k < size; k++ {
				v |= uint64(row[i+k]) << (8 * k)
				p |= uint64(row[i-stride*size+k]) << (8 * k)
			}
			v += p
			for k := 0; k < size; k++ {
				row[i+k] = byte(v >> (8 * k))
			}
		}
	}
	if !NativeLE {
		panic("reference assumes a little-endian host")
	}
	return out
}

// refFloat is predictor 3's undo: byte-wise running sums with the stride,
// then the byte planes (most significant first) into native-order words.
func refFloat(b []byte, rowLen, rows, stride, size int) []byte {
	out := append([]byte(nil), b...)
	n := rowLen / size
	for r := 0; r < rows; r++ {
		row := out[r*rowLen : (r+1)*rowLen]
		for i := stride; i < len(row); i++ {
			row[i] += row[i-stride]
		}
		tmp := append([]byte(nil), row...)
		for i := 0; i < n; i++ {
			for k := 0; k < size; k++ {
				row[i*size+size-1-k] = tmp[k*n+i]
			}
		}
	}
	return out
}
