package geodesy

import (
	"fmt"
	"math"

	"github.com/geodisaster/engine/crs"
)

// latTolerance is how far (degrees) a grid edge may overshoot ±90 through
// rounding in the geotransform before it is rejected; such edges are
// clamped to the pole.
const latTolerance = 1e-9

// CellAreas returns the WGS84 area in m² of one cell in each row of a
// rectilinear EPSG:4326 grid with geotransform t (x = longitude, y =
// latitude, degrees) and the given number of rows. Every cell of a row has
// the same area, so areas[row] applies to all its columns; multiply by the
// number of selected cells per row to get a region's area.
//
// Row edges are computed as t.f + t.e·row, the same arithmetic as
// Affine.Apply, so adjacent rows share an edge exactly and the areas of a
// block sum to the block's QuadrangleArea. North-up (e < 0) and south-up
// (e > 0) grids are both accepted. Errors: a rotated or sheared transform
// (b or d non-zero), non-finite coefficients, a zero pixel size, a cell
// width over 360 degrees, a negative height, or any row edge beyond ±90
// (more than 1e-9 degrees; smaller overshoots are clamped).
func CellAreas(t crs.Affine, height int) ([]float64, error) {
	return WGS84().CellAreas(t, height)
}

// CellAreas is the package-level CellAreas on ellipsoid e.
func (e Ellipsoid) CellAreas(t crs.Affine, height int) ([]float64, error) {
	if err := e.validate(); err != nil {
		return nil, err
	}
	lats, width, err := rowEdges(t, height)
	if err != nil {
		return nil, err
	}
	dlon := width * (math.Pi / 180)
	areas := make([]float64, height)
	for r := range areas {
		s, n := lats[r], lats[r+1]
		if s > n {
			s, n = n, s
		}
		areas[r] = e.zoneArea(s, n) * dlon
	}
	return areas, nil
}

// rowEdges validates a geographic grid transform and returns the height+1
// row-edge latitudes (clamped to ±90 within latTolerance) and the cell
// width in degrees.
func rowEdges(t crs.Affine, height int) ([]float64, float64, error) {
	for i, v := range t {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, 0, fmt.Errorf("%w: geotransform coefficient %d is not finite (%v)", ErrInvalidInput, i, v)
		}
	}
	if !t.IsRectilinear() {
		return nil, 0, fmt.Errorf("%w: geotransform %v is rotated or sheared; cell areas need a rectilinear grid", ErrInvalidInput, [6]float64(t))
	}
	if height < 0 {
		return nil, 0, fmt.Errorf("%w: negative grid height %d", ErrInvalidInput, height)
	}
	width := math.Abs(t[0])
	if width == 0 || t[4] == 0 {
		return nil, 0, fmt.Errorf("%w: geotransform %v has a zero pixel size", ErrInvalidInput, [6]float64(t))
	}
	if width > 360 {
		return nil, 0, fmt.Errorf("%w: cell width %v exceeds 360 degrees", ErrInvalidInput, width)
	}
	lats := make([]float64, height+1)
	for r := range lats {
		lat := float64(t[4]*float64(r)) + t[5]
		if lat > 90 {
			if lat > 90+latTolerance {
				return nil, 0, fmt.Errorf("%w: row %d edge latitude %v is beyond 90", ErrInvalidInput, r, lat)
			}
			lat = 90
		} else if lat < -90 {
			if lat < -90-latTolerance {
				return nil, 0, fmt.Errorf("%w: row %d edge latitude %v is beyond -90", ErrInvalidInput, r, lat)
			}
			lat = -90
		}
		lats[r] = lat
	}
	return lats, width, nil
}
