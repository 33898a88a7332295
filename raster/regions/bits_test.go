package regions

import (
	"math/rand/v2"
	"testing"
)

// TestEqualBits compares the eight-pixels-at-a-time bit rows with a pixel
// loop, for rows of every length up to three words and every value.
func TestEqualBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n <= 192; n++ {
		row := make([]uint8, n)
		for i := range row {
			row[i] = [4]uint8{0, 1, 255, 1}[rng.IntN(4)]
		}
		for _, v := range []uint8{0, 1, 255} {
			dst := make([]uint64, (n+63)/64+1)
			for i := range dst {
				dst[i] = ^uint64(0) // stale bits must be cleared
			}
			equalBits(dst, row, v)
			for x := 0; x < 64*len(dst); x++ {
				got := dst[x>>6]>>(x&63)&1 == 1
				if want := x < n && row[x] == v; got != want {
					t.Fatalf("n=%d value %d: bit %d is %v", n, v, x, got)
				}
			}
		}
	}
}

func TestHasZeroByte(t *testing.T) {
	for _, c := range []struct {
		x    uint64
		want bool
	}{{0x0101010101010101, false}, {0x0101010100010101, true}, {0xffffffffffffff00, true}, {0x80ffffffffffffff, false}, {0, true}} {
		if got := hasZeroByte(c.x); got != c.want {
			t.Errorf("hasZeroByte(%#x) = %v", c.x, got)
		}
	}
}
