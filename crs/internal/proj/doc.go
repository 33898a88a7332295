// Package proj holds the map projections of package crs in PROJ 9.1's
// arithmetic: the 31 EPSG methods crs implements, a file each (tmerc.go,
// lcc.go, omerc.go, krovak.go, ...), the method and parameter codes and
// New, which prepares the projection of a method on an ellipsoid from
// its EPSG parameters as PROJ maps them onto its own projections; the
// reference ellipsoid and the auxiliary latitudes the methods share; and
// the Helmert transformation with the geocentric conversions that datum
// shifts use.
//
// It imports nothing of crs. Products are rounded explicitly
// (float64(x*y)) so that no fused multiply-add changes results on arm64.
package proj
