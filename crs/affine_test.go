package crs

import (
	"math"
	"testing"
)

func TestAffineRoundTrip(t *testing.T) {
	a := Affine{10, 0, 500000, 0, -10, 4000000}
	x, y := a.Apply(1.5, 2.5)
	if x != 500015 || y != 3999975 {
		t.Fatalf("Apply = %v %v", x, y)
	}
	inv, err := a.Invert()
	if err != nil {
		t.Fatal(err)
	}
	c, r := inv.Apply(x, y)
	if math.Abs(c-1.5) > 1e-12 || math.Abs(r-2.5) > 1e-12 {
		t.Fatalf("inverse = %v %v", c, r)
	}
	if got := FromGDAL(a.GDAL()); got != a {
		t.Fatalf("GDAL round trip %v", got)
	}
	if _, err := (Affine{}).Invert(); err == nil {
		t.Fatal("singular transform inverted")
	}
}
