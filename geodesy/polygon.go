package geodesy

import (
	"fmt"
	"math"

	"github.com/geodisaster/engine/crs"
)

// PolygonArea returns the area in m² of the polygon whose vertices are
// (lats[i], lons[i]) in degrees and whose edges are geodesics (Karney's
// algorithm, as GeographicLib's PolygonArea and pyproj's
// Geod.polygon_area_perimeter compute it). The ring need not be closed
// (a repeated first vertex adds a zero-length edge) and may have either
// orientation: the result is the absolute value of the signed area, i.e.
// the area of the region the ring encloses on its left or right, whichever
// orientation was given. Fewer than three vertices give 0. Errors for
// slices of different lengths, latitudes outside [-90, 90] and non-finite
// longitudes.
func (e Ellipsoid) PolygonArea(lats, lons []float64) (float64, error) {
	a, err := e.PolygonAreaSigned(lats, lons)
	return math.Abs(a), err
}

// PolygonAreaSigned is PolygonArea keeping the sign: positive for
// counter-clockwise rings, negative for clockwise ones (pyproj's
// convention).
func (e Ellipsoid) PolygonAreaSigned(lats, lons []float64) (float64, error) {
	g, err := e.geodesicFor()
	if err != nil {
		return 0, err
	}
	if len(lats) != len(lons) {
		return 0, fmt.Errorf("%w: %d latitudes but %d longitudes", ErrInvalidInput, len(lats), len(lons))
	}
	for i := range lats {
		if err := checkLat(fmt.Sprintf("vertex %d latitude", i), lats[i]); err != nil {
			return 0, err
		}
		if err := checkFinite(fmt.Sprintf("vertex %d longitude", i), lons[i]); err != nil {
			return 0, err
		}
	}
	if len(lats) < 3 {
		return 0, nil
	}
	p := g.g.PolygonInit(false)
	for i := range lats {
		p.AddPoint(lats[i], lons[i])
	}
	var area float64
	p.Compute(false, true, &area, nil)
	return area, nil
}

// CellAreasGeodesic is CellAreas with geodesic cell edges: each cell is the
// polygon through its four corners with geodesic sides, the named
// alternative to the exact parallel/meridian quadrangle. Cells of one row
// still have equal areas. The same transform checks as CellAreas apply, and
// the cell width must be under 180 degrees.
func (e Ellipsoid) CellAreasGeodesic(t crs.Affine, height int) ([]float64, error) {
	g, err := e.geodesicFor()
	if err != nil {
		return nil, err
	}
	lats, width, err := rowEdges(t, height)
	if err != nil {
		return nil, err
	}
	if width >= 180 {
		return nil, fmt.Errorf("%w: cell width %v degrees is too wide for geodesic edges (must be < 180)", ErrInvalidInput, width)
	}
	areas := make([]float64, height)
	for r := range areas {
		s, n := lats[r], lats[r+1]
		if s > n {
			s, n = n, s
		}
		if s == n {
			continue
		}
		p := g.g.PolygonInit(false)
		p.AddPoint(s, 0)
		p.AddPoint(s, width)
		p.AddPoint(n, width)
		p.AddPoint(n, 0)
		var a float64
		p.Compute(false, true, &a, nil)
		areas[r] = math.Abs(a)
	}
	return areas, nil
}

// CellAreasGeodesic is Ellipsoid.CellAreasGeodesic on WGS84.
func CellAreasGeodesic(t crs.Affine, height int) ([]float64, error) {
	return WGS84().CellAreasGeodesic(t, height)
}
