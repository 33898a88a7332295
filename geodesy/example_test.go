package geodesy_test

import (
	"fmt"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/geodesy"
)

func ExampleEllipsoid_QuadrangleArea() {
	a, err := geodesy.WGS84().QuadrangleArea(0, 1, 0, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.3f km²\n", a/1e6)
	// Output: 12308.464 km²
}

func ExampleCellAreas() {
	// Three rows of 0.25° cells from the equator northwards (north-up).
	areas, err := geodesy.CellAreas(crs.Affine{0.25, 0, 10, 0, -0.25, 0.75}, 3)
	if err != nil {
		panic(err)
	}
	for _, a := range areas {
		fmt.Printf("%.1f m²\n", a)
	}
	// Output:
	// 769271866.0 m²
	// 769300374.8 m²
	// 769314629.2 m²
}

func ExampleEllipsoid_Inverse() {
	s12, azi1, azi2, err := geodesy.WGS84().Inverse(40.64, -73.78, 1.36, 103.99)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.3f m %.9f %.9f\n", s12, azi1, azi2)
	// Output: 15347512.941 m 3.305773478 177.487840208
}
