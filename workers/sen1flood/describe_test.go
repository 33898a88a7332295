package sen1flood

import (
	"fmt"
	"testing"
)

func TestFloodGridPartition(t *testing.T) {
	// 6x5: rows split [0,1) [1,2) [2,3) [3,5); columns [0,1) [1,3) [3,4) [4,6).
	for _, n := range []int{4, 5, 6, 7, 512} {
		for i := 0; i < n; i++ {
			k := sen1CellIndex(i, n)
			if i < k*n/4 || i >= (k+1)*n/4 {
				t.Fatalf("n=%d i=%d -> cell %d", n, i, k)
			}
		}
	}
	mask := make([]uint8, 30)
	mask[0] = MaskFlood
	mask[29] = MaskFlood
	mask[28] = MaskNoData
	cells := FloodGrid(mask, 6, 5, 2)
	if cells[0].Valid != 1 || cells[0].Flood != 1 || cells[0].Percentage != 100 || cells[0].Share != 0.5 {
		t.Errorf("cell 0: %+v", cells[0])
	}
	if c := cells[15]; c.Valid != 3 || c.Flood != 1 || c.Row != 3 || c.Col != 3 {
		t.Errorf("cell 15: %+v", c)
	}
	total := 0
	for _, c := range cells {
		total += c.Valid
	}
	if total != 29 {
		t.Errorf("cells cover %d valid pixels, want 29", total)
	}
}

func TestRankFloodCellsTies(t *testing.T) {
	cells := []FloodCell{
		{ID: 0, Valid: 0},
		{ID: 1, Valid: 10, Flood: 5, Percentage: 50},
		{ID: 2, Valid: 20, Flood: 10, Percentage: 50},
		{ID: 3, Valid: 10, Flood: 5, Percentage: 50},
		{ID: 4, Valid: 10, Flood: 9, Percentage: 90},
		{ID: 5, Valid: 10, Flood: 0, Percentage: 0},
	}
	var got []int
	for _, c := range RankFloodCells(cells) {
		got = append(got, c.ID)
	}
	want := []int{4, 2, 3, 1, 5, 0}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("order %v, want %v", got, want)
	}
}
