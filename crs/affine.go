package crs

import (
	"errors"
	"fmt"
	"math"
)

// Affine is a 2-D affine geotransform in rasterio's coefficient order
// [a, b, c, d, e, f]:
//
//	x = a*col + b*row + c
//	y = d*col + e*row + f
//
// where (col, row) are pixel coordinates with (0, 0) at the outer corner of
// the upper-left pixel. GDAL's GeoTransform is [c, a, b, f, d, e].
type Affine [6]float64

// ErrSingular is returned when an affine transform cannot be inverted.
var ErrSingular = errors.New("crs: singular affine transform")

// FromGDAL converts a GDAL GeoTransform [c, a, b, f, d, e] to an Affine.
func FromGDAL(gt [6]float64) Affine {
	return Affine{gt[1], gt[2], gt[0], gt[4], gt[5], gt[3]}
}

// GDAL returns the transform in GDAL's GeoTransform order.
func (t Affine) GDAL() [6]float64 {
	return [6]float64{t[2], t[0], t[1], t[5], t[3], t[4]}
}

// Apply maps pixel coordinates (col, row) to world coordinates (x, y).
// Use col+0.5, row+0.5 for the centre of pixel (col, row).
func (t Affine) Apply(col, row float64) (x, y float64) {
	// Products are rounded separately (no fused multiply-add) so results are
	// identical on every architecture and equal to NumPy/affine's.
	x = float64(t[0]*col) + float64(t[1]*row) + t[2]
	y = float64(t[3]*col) + float64(t[4]*row) + t[5]
	return x, y
}

// Determinant returns a*e - b*d, the signed area of one pixel in squared
// CRS units (negative for north-up rasters).
func (t Affine) Determinant() float64 {
	return float64(t[0]*t[4]) - float64(t[1]*t[3])
}

// IsRectilinear reports whether the transform has no rotation or shear.
func (t Affine) IsRectilinear() bool { return t[1] == 0 && t[3] == 0 }

// Invert returns the inverse transform, mapping world to pixel coordinates.
func (t Affine) Invert() (Affine, error) {
	det := t.Determinant()
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return Affine{}, ErrSingular
	}
	ia := t[4] / det
	ib := -t[1] / det
	id := -t[3] / det
	ie := t[0] / det
	ic := -(float64(ia*t[2]) + float64(ib*t[5]))
	iff := -(float64(id*t[2]) + float64(ie*t[5]))
	return Affine{ia, ib, ic, id, ie, iff}, nil
}

// Validate reports an error when a coefficient is not finite or the
// transform is singular.
func (t Affine) Validate() error {
	for i, v := range t {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("crs: affine coefficient %d is not finite (%v)", i, v)
		}
	}
	if t.Determinant() == 0 {
		return ErrSingular
	}
	return nil
}
