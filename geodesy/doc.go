// Package geodesy computes on the WGS84 ellipsoid: exact areas of
// latitude/longitude cells, geodesic-edged polygon areas and Karney's
// geodesic inverse and direct problems, agreeing with GeographicLib.
package geodesy
