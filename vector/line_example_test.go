package vector_test

import (
	"fmt"

	"github.com/paulmach/orb"

	"github.com/geodisaster/engine/vector"
)

func ExampleLineIntersectsPolygon() {
	flood := orb.Polygon{{{0, 0}, {4, 0}, {4, 4}, {0, 4}, {0, 0}}}
	road := orb.LineString{{-1, 2}, {5, 2}} // crosses the polygon, no vertex inside
	bypass := orb.LineString{{-1, 5}, {5, 5}}
	fmt.Println(vector.LineIntersectsPolygon(road, flood), vector.LineIntersectsPolygon(bypass, flood))
	// Output: true false
}
