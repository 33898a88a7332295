// Package vector holds the planar vector operations the engine needs on
// github.com/paulmach/orb geometries: reading and writing polygonal
// Well-Known Text (ParsePolygonalWKT, PolygonWKT), signed ring, polygon and
// multipolygon area, area-weighted centroids, bounds, point-in-polygon
// tests, clipping rings to a rectangle (ClipRing, ClippedArea), segment and
// line/polygon intersection tests, and reading GeoJSON feature collections
// of representative points (RepresentativePoints). Coordinates are taken
// as planar; for areas on the WGS84 ellipsoid use the geodesy package.
package vector
