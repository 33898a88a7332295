package regions_test

import (
	"fmt"

	"github.com/geodisaster/engine/raster/regions"
)

// ExamplePolygonize labels the 8-connected components of a mask (as
// scipy.ndimage.label does) and traces their outlines the way GDAL's
// polygonizer does (rasterio.features.shapes, connectivity 8), in pixel
// corner coordinates (rings are implicitly closed; the second component's
// exterior passes twice through the corner where its pixels touch
// diagonally).
func ExamplePolygonize() {
	const w, h = 6, 4
	rows := []string{
		"##....",
		"##..#.",
		"...#..",
		"......",
	}
	mask := make([]bool, 0, w*h)
	for _, r := range rows {
		for _, c := range r {
			mask = append(mask, c == '#')
		}
	}
	labels, n, err := regions.Label(mask, w, h, regions.Connect8)
	if err != nil {
		fmt.Println(err)
		return
	}
	polys, err := regions.Polygonize(labels, w, h, n)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(n, "components")
	for _, p := range polys {
		fmt.Println(p.Label, p.Exterior, len(p.Holes), "holes")
	}
	// Output:
	// 2 components
	// 1 [{0 0} {2 0} {2 2} {0 2}] 0 holes
	// 2 [{4 1} {5 1} {5 2} {4 2} {4 3} {3 3} {3 2} {4 2}] 0 holes
}
