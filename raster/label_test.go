package raster

import "testing"

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
