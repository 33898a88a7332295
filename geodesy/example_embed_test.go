package geodesy_test

import (
	"fmt"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/geodesy"
)

// Example_maskArea computes the WGS84 ellipsoidal area of the true pixels
// of a mask on a geographic grid: each row's cells share one exact
// latitude/longitude quadrangle area, so the area is the sum over rows of
// count x cell area (the spec's rule for geographic rasters).
func Example_maskArea() {
	// 0.0001° pixels (about 11 m) near 45°N, 4 rows of 5 columns.
	t := crs.Affine{0.0001, 0, 10, 0, -0.0001, 45.0004}
	mask := [][]bool{
		{true, true, false, false, false},
		{true, true, true, false, false},
		{false, true, true, true, false},
		{false, false, false, true, true},
	}
	cell, err := geodesy.WGS84().CellAreas(t, len(mask))
	if err != nil {
		fmt.Println(err)
		return
	}
	total := 0.0
	for r, row := range mask {
		n := 0
		for _, v := range row {
			if v {
				n++
			}
		}
		total += float64(n) * cell[r]
	}
	fmt.Printf("cell area row 0: %.4f m², mask area: %.3f m²\n", cell[0], total)
	// Output: cell area row 0: 87.6234 m², mask area: 876.236 m²
}

// ExampleEllipsoid_PolygonArea compares the geodesic-edged area of a
// one-degree cell with the exact quadrangle area bounded by its parallels:
// they differ slightly because a geodesic between two points of one
// parallel bulges poleward (the longer southern edge takes away more than
// the northern edge adds).
func ExampleEllipsoid_PolygonArea() {
	e := geodesy.WGS84()
	geodesic, err := e.PolygonArea([]float64{45, 45, 46, 46}, []float64{10, 11, 11, 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	quad, err := e.QuadrangleArea(45, 46, 10, 11)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("geodesic %.1f km², quadrangle %.1f km²\n", geodesic/1e6, quad/1e6)
	// Output: geodesic 8686.4 km², quadrangle 8686.5 km²
}
