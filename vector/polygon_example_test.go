package vector_test

import (
	"fmt"

	"github.com/paulmach/orb"

	"github.com/geodisaster/engine/vector"
)

// A building footprint in pixel coordinates straddling x = 512: its area
// and centroid as Shapely reports them, and the part of its area inside
// each half of the frame.
func ExampleClippedArea() {
	mp, err := vector.ParsePolygonalWKT("POLYGON ((480 100, 560 100, 560 140, 480 140, 480 100))")
	if err != nil {
		panic(err)
	}
	c, _ := vector.Centroid(mp)
	left := orb.Bound{Min: orb.Point{0, 0}, Max: orb.Point{512, 1024}}
	right := orb.Bound{Min: orb.Point{512, 0}, Max: orb.Point{1024, 1024}}
	fmt.Println(vector.MultiPolygonArea(mp), c)
	fmt.Println(vector.ClippedArea(mp, left), vector.ClippedArea(mp, right))
	// Output:
	// 3200 [520 120]
	// 1280 1920
}
