// Package geodesy computes on the WGS84 ellipsoid: exact areas of
// latitude/longitude cells, geodesic-edged polygon areas and Karney's
// geodesic inverse and direct problems, agreeing with GeographicLib.
//
// Two cell-area definitions are offered, because a benchmark answer may
// rely on either: QuadrangleArea and CellAreas give the exact area between
// two parallels and two meridians (the authalic-latitude formula, matching
// a 50-digit mpmath evaluation to 1e-13 relative), while PolygonArea and
// CellAreasGeodesic use geodesic edges through the cell corners (Karney's
// algorithm, as pyproj.Geod.polygon_area_perimeter). For a 0.0001° cell
// the two differ by about 1e-9 relative.
//
// Inverse, Direct and the polygon areas use github.com/tidwall/geodesic, a
// Go port of GeographicLib's C geodesic routines; against PROJ 9.1's copy
// distances agree within 1e-8 m. Invalid input (latitudes outside
// [-90, 90], NaN, rotated geotransforms) gives errors wrapping
// ErrInvalidInput.
//
// Determinism: this package rounds its own products explicitly so arm64
// cannot fuse them, but the geodesic routines of tidwall/geodesic and Go's
// math library are compiled with fused multiply-adds on arm64, so results
// can differ in the last bits between amd64 and arm64.
package geodesy
