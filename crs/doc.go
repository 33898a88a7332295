// Package crs identifies coordinate reference systems, maps pixels to world
// coordinates through affine geotransforms and converts coordinates between
// the systems the engine supports (geographic WGS84, Web Mercator, UTM and a
// local azimuthal equidistant system), computing what PROJ computes.
package crs
