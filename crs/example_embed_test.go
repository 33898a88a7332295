package crs_test

import (
	"fmt"

	"github.com/geodisaster/engine/crs"
)

// Example_pixelToLonLat maps a pixel centre of a UTM raster to longitude
// and latitude: the affine transform gives the projected coordinates (as
// rasterio's transform * (col + 0.5, row + 0.5)), the CRS converts them.
func Example_pixelToLonLat() {
	utm, err := crs.FromEPSG(32633)
	if err != nil {
		fmt.Println(err)
		return
	}
	t := crs.Affine{10, 0, 499980, 0, -10, 5000020} // 10 m pixels
	x, y := t.Apply(2+0.5, 3+0.5)                   // pixel (col 2, row 3)
	lon, lat, err := utm.ToLonLat(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("x %.1f y %.1f -> lon %.6f lat %.6f\n", x, y, lon, lat)

	// And back: which pixel holds that point?
	row, col, err := t.RowCol(x, y)
	fmt.Println(row, col, err)
	// Output:
	// x 500005.0 y 4999985.0 -> lon 15.000064 lat 45.153342
	// 3 2 <nil>
}
