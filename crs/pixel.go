package crs

import (
	"fmt"
	"math"

	"github.com/geodisaster/engine/crs/internal/proj"
)

// PixelOffset selects which point of a pixel PixelXY returns, like
// rasterio's xy(offset=...).
type PixelOffset int

// The pixel reference points: the centre and the four corners.
const (
	Center PixelOffset = iota
	UpperLeft
	UpperRight
	LowerLeft
	LowerRight
)

// PixelXY returns the world coordinates of a reference point of pixel
// (row, col), computed as rasterio.transform.xy does (bit for bit): the
// centre is (col+0.5, row+0.5) in pixel space, corners add 0 or 1.
func (t Affine) PixelXY(row, col int, offset PixelOffset) (x, y float64) {
	var co, ro float64
	switch offset {
	case Center:
		co, ro = 0.5, 0.5
	case UpperRight:
		co = 1
	case LowerLeft:
		ro = 1
	case LowerRight:
		co, ro = 1, 1
	}
	return t.Apply(float64(col)+co, float64(row)+ro)
}

// inverseLikeRasterio returns the inverse transform computed as Python's
// affine package does (multiplying by 1/det), so world-to-pixel results
// match rasterio bit for bit.
func (t Affine) inverseLikeRasterio() (Affine, error) {
	if err := t.Validate(); err != nil {
		return Affine{}, err
	}
	idet := 1 / t.Determinant()
	ra := float64(t[4] * idet)
	rb := float64(-t[1] * idet)
	rd := float64(-t[3] * idet)
	re := float64(t[0] * idet)
	return Affine{
		ra, rb, float64(-t[2]*ra) - float64(t[5]*rb),
		rd, re, float64(-t[2]*rd) - float64(t[5]*re),
	}, nil
}

// FractionalRowCol returns the fractional pixel coordinates of world point
// (x, y): row 2.5 is the middle of the third row. It is rasterio's
// AffineTransformer reverse step (~transform * (x, y)). Errors for a
// singular or non-finite transform and non-finite input.
func (t Affine) FractionalRowCol(x, y float64) (row, col float64, err error) {
	if err := proj.CheckFinite(x, y); err != nil {
		return 0, 0, err
	}
	inv, err := t.inverseLikeRasterio()
	if err != nil {
		return 0, 0, err
	}
	col, row = inv.Apply(x, y)
	return row, col, nil
}

// RowCol returns the pixel (row, col) containing world point (x, y), as
// rasterio.transform.rowcol with its default floor: a point on a pixel
// edge belongs to the pixel right of / below the edge. The indices may be
// negative or beyond the raster; callers check bounds. Errors as
// FractionalRowCol, or when an index overflows int.
func (t Affine) RowCol(x, y float64) (row, col int, err error) {
	fr, fc, err := t.FractionalRowCol(x, y)
	if err != nil {
		return 0, 0, err
	}
	fr, fc = math.Floor(fr), math.Floor(fc)
	if math.Abs(fr) > 1<<52 || math.Abs(fc) > 1<<52 {
		return 0, 0, fmt.Errorf("%w: pixel index of (%v, %v) out of range", ErrInvalidCoordinate, x, y)
	}
	return int(fr), int(fc), nil
}
