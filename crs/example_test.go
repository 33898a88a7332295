package crs_test

import (
	"fmt"

	"github.com/geodisaster/engine/crs"
)

func ExampleTransform() {
	wgs, _ := crs.Parse("EPSG:4326")
	utm, _ := crs.Parse("EPSG:32633")
	x, y, err := crs.Transform(wgs, utm, 15, 45) // lon, lat
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.3f %.3f\n", x, y)
	// Output: 500000.000 4982950.400
}

func ExampleNewAzimuthalEquidistant() {
	p, _ := crs.NewAzimuthalEquidistant(10, 20)
	x, y, err := crs.Transform(crs.WGS84LonLat(), p, 21, 11)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.3f %.3f\n", x, y)
	// Output: 109292.886 110782.274
}

func ExamplePixelAreaM2() {
	utm, _ := crs.FromEPSG(32633)
	a, _ := crs.PixelAreaM2(crs.Affine{10, 0, 500000, 0, -10, 5000000}, utm)
	fmt.Println(a)
	// Output: 100
}
