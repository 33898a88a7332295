package regions

import (
	"testing"
)

func goldenMask(s string) []bool {
	m := make([]bool, len(s))
	for i := range s {
		m[i] = s[i] == '1'
	}
	return m
}

func TestLabelMatchesSciPy(t *testing.T) {
	g := loadAlgorithmGoldens(t)
	for k, c := range g.Masks {
		m := goldenMask(c.Mask)
		for _, tc := range []struct {
			conn Connectivity
			want []int32
			n    int
		}{{Connect8, c.Labels8, c.N8}, {Connect4, c.Labels4, c.N4}} {
			got, n, err := Label(m, c.Width, c.Height, tc.conn)
			if err != nil {
				t.Fatalf("mask %d: %v", k, err)
			}
			if n != tc.n {
				t.Errorf("mask %d (%dx%d) connectivity %d: %d components, scipy %d", k, c.Width, c.Height, tc.conn, n, tc.n)
				continue
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("mask %d connectivity %d: pixel %d label %d, scipy %d", k, tc.conn, i, got[i], tc.want[i])
					break
				}
			}
		}
	}
}

func TestLabelEdgeCases(t *testing.T) {
	if _, _, err := Label([]bool{true}, 2, 1, Connect8); err == nil {
		t.Error("size mismatch accepted")
	}
	if _, _, err := Label([]bool{true}, 1, 1, 6); err == nil {
		t.Error("connectivity 6 accepted")
	}
	l, n, err := Label(nil, 0, 0, Connect8)
	if err != nil || n != 0 || len(l) != 0 {
		t.Errorf("empty: %v %d %v", l, n, err)
	}
	// Diagonal neighbours: one component with 8-connectivity, two with 4.
	m := []bool{true, false, false, true}
	if _, n, _ := Label(m, 2, 2, Connect8); n != 1 {
		t.Errorf("8-connected diagonal: %d components", n)
	}
	if _, n, _ := Label(m, 2, 2, Connect4); n != 2 {
		t.Errorf("4-connected diagonal: %d components", n)
	}
	// A U shape merges late: numbering still follows the first pixel.
	u := goldenMask("101" + "101" + "111" + "000" + "010")
	got, n, _ := Label(u, 3, 5, Connect8)
	want := []int32{1, 0, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0, 2, 0}
	if n != 2 {
		t.Fatalf("U: %d components", n)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("U: labels %v, want %v", got, want)
		}
	}
}

// bfsLabel is a flood-fill reference: components numbered by first pixel.
func bfsLabel(mask []bool, w, h int, conn Connectivity) ([]int32, int) {
	labels := make([]int32, len(mask))
	n := int32(0)
	for s := range mask {
		if !mask[s] || labels[s] != 0 {
			continue
		}
		n++
		labels[s] = n
		queue := []int{s}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			pc, pr := p%w, p/w
			for dr := -1; dr <= 1; dr++ {
				for dc := -1; dc <= 1; dc++ {
					if dr == 0 && dc == 0 || conn == Connect4 && dr != 0 && dc != 0 {
						continue
					}
					c, r := pc+dc, pr+dr
					if c < 0 || r < 0 || c >= w || r >= h {
						continue
					}
					q := r*w + c
					if mask[q] && labels[q] == 0 {
						labels[q] = n
						queue = append(queue, q)
					}
				}
			}
		}
	}
	return labels, int(n)
}

// xorshift32 returns Marsaglia's 32-bit xorshift generator started at seed
// (nonzero): a fixed, platform-independent sequence for the random tests.
func xorshift32(seed uint32) func() uint32 {
	return func() uint32 {
		seed ^= seed << 13
		seed ^= seed >> 17
		seed ^= seed << 5
		return seed
	}
}

// TestLabelRandomMatchesFloodFill compares Label and LabelValue with a
// flood fill on random masks of several densities and shapes.
func TestLabelRandomMatchesFloodFill(t *testing.T) {
	rnd := xorshift32(12345)
	for trial := 0; trial < 300; trial++ {
		w, h := int(rnd()%40)+1, int(rnd()%40)+1
		density := rnd() % 100
		mask := make([]bool, w*h)
		vals := make([]uint8, w*h)
		for i := range mask {
			mask[i] = rnd()%100 < density
			if mask[i] {
				vals[i] = 1
			} else if rnd()%2 == 0 {
				vals[i] = 255
			}
		}
		for _, conn := range []Connectivity{Connect4, Connect8} {
			want, wn := bfsLabel(mask, w, h, conn)
			got, n, err := Label(mask, w, h, conn)
			got2, n2, err2 := LabelValue(vals, 1, w, h, conn)
			if err != nil || err2 != nil || n != wn || n2 != wn {
				t.Fatalf("trial %d %dx%d conn %d: %d/%d components, flood fill %d (%v %v)", trial, w, h, conn, n, n2, wn, err, err2)
			}
			for i := range want {
				if got[i] != want[i] || got2[i] != want[i] {
					t.Fatalf("trial %d %dx%d conn %d: pixel %d label %d/%d, flood fill %d", trial, w, h, conn, i, got[i], got2[i], want[i])
				}
			}
		}
	}
}
