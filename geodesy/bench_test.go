package geodesy

import (
	"testing"

	"github.com/geodisaster/engine/crs"
)

// The arrays match conformance/geodesy/bench.py so ratios compare like
// with like.

func BenchmarkCellAreas512(b *testing.B) {
	tr := crs.Affine{0.0001, 0, 12.5, 0, -0.0001, 45.3}
	for b.Loop() {
		if _, err := CellAreas(tr, 512); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCellAreasGeodesic512(b *testing.B) {
	tr := crs.Affine{0.0001, 0, 12.5, 0, -0.0001, 45.3}
	for b.Loop() {
		if _, err := CellAreasGeodesic(tr, 512); err != nil {
			b.Fatal(err)
		}
	}
}

// benchPairs returns n deterministic point pairs within about 50 km of
// (45, 12), like bench.py.
func benchPairs(n int) (lat1, lon1, lat2, lon2 []float64) {
	lat1, lon1 = make([]float64, n), make([]float64, n)
	lat2, lon2 = make([]float64, n), make([]float64, n)
	for i := range n {
		lat1[i], lon1[i] = 45, 12
		lat2[i] = 44.6 + 0.8*(float64(i)/float64(n))
		lon2[i] = 11.6 + 0.8*(float64((i*7919)%n)/float64(n))
	}
	return
}

func BenchmarkInverse1e6(b *testing.B) {
	const n = 1000000
	lat1, lon1, lat2, lon2 := benchPairs(n)
	e := WGS84()
	for b.Loop() {
		for i := range n {
			if _, _, _, err := e.Inverse(lat1[i], lon1[i], lat2[i], lon2[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkCellAreasGrid512 fills the areas of all 512×512 cells, the
// shape a per-pixel area raster takes.
func BenchmarkCellAreasGrid512(b *testing.B) {
	tr := crs.Affine{0.0001, 0, 12.5, 0, -0.0001, 45.3}
	grid := make([]float64, 512*512)
	for b.Loop() {
		rows, err := CellAreas(tr, 512)
		if err != nil {
			b.Fatal(err)
		}
		for r, a := range rows {
			row := grid[r*512 : (r+1)*512]
			for c := range row {
				row[c] = a
			}
		}
	}
}
