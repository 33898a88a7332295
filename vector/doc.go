// Package vector reads and writes GeoJSON and WKT and provides the planar
// and geodesic vector operations the engine needs: polygon area and
// centroid, clipping, point-in-cell tests and R-tree queries.
package vector
