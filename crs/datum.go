package crs

import "math"

// helmertDatum is a geodetic datum on its own ellipsoid with a 7-parameter
// Helmert transformation to WGS84 in the position-vector convention, as
// PROJ's +proj=helmert +convention=position_vector applies it: geocentric
// X_wgs = T + (1+s)·R·X with the small-angle rotation matrix R.
type helmertDatum struct {
	a, f       float64 // ellipsoid of the datum
	tx, ty, tz float64 // translation, metres
	rx, ry, rz float64 // rotations, arc-seconds
	ds         float64 // scale difference, parts per million
}

// The Helmert parameter sets wroge/wgs84 v1.1.7 uses (EPSG's "OSGB36 to
// WGS 84 (6)", "MGI to WGS 84 (3)" and "DHDN to WGS 84 (2)").
var (
	osgb36Helmert = helmertDatum{a: 6377563.396, f: 1 / 299.3249646, tx: 446.448, ty: -125.157, tz: 542.06, rx: 0.15, ry: 0.247, rz: 0.842, ds: -20.489}
	mgiHelmert    = helmertDatum{a: 6377397.155, f: 1 / 299.1528128, tx: 577.326, ty: 90.129, tz: 463.919, rx: 5.137, ry: 1.474, rz: 5.297, ds: 2.4232}
	dhdnHelmert   = helmertDatum{a: 6377397.155, f: 1 / 299.1528128, tx: 598.1, ty: 73.7, tz: 418.2, rx: 0.202, ry: 0.045, rz: -2.455, ds: 6.7}
)

// matrix returns (1+s)·R as a row-major 3×3 matrix.
func (h *helmertDatum) matrix() [9]float64 {
	const asec = math.Pi / 648000
	rx, ry, rz := h.rx*asec, h.ry*asec, h.rz*asec
	k := 1 + float64(h.ds*1e-6)
	return [9]float64{
		k, float64(-k * rz), float64(k * ry),
		float64(k * rz), k, float64(-k * rx),
		float64(-k * ry), float64(k * rx), k,
	}
}

// toWGS84 converts datum lon/lat (degrees, height 0) to WGS84 lon/lat.
func (h *helmertDatum) toWGS84(lon, lat float64) (float64, float64) {
	x, y, z := geocentric(h.a, h.f, lon, lat)
	m := h.matrix()
	X := h.tx + (float64(m[0]*x) + float64(m[1]*y) + float64(m[2]*z))
	Y := h.ty + (float64(m[3]*x) + float64(m[4]*y) + float64(m[5]*z))
	Z := h.tz + (float64(m[6]*x) + float64(m[7]*y) + float64(m[8]*z))
	return geodetic(6378137, 1/298.257223563, X, Y, Z)
}

// fromWGS84 is the exact inverse of toWGS84 (solving the linear system
// rather than negating the parameters, so round trips are exact).
func (h *helmertDatum) fromWGS84(lon, lat float64) (float64, float64) {
	X, Y, Z := geocentric(6378137, 1/298.257223563, lon, lat)
	X, Y, Z = X-h.tx, Y-h.ty, Z-h.tz
	m := h.matrix()
	// Cramer's rule on the 3×3 system.
	c0 := float64(m[4]*m[8]) - float64(m[5]*m[7])
	c1 := float64(m[5]*m[6]) - float64(m[3]*m[8])
	c2 := float64(m[3]*m[7]) - float64(m[4]*m[6])
	det := float64(m[0]*c0) + float64(m[1]*c1) + float64(m[2]*c2)
	x := (float64(X*c0) + float64(Y*(float64(m[2]*m[7])-float64(m[1]*m[8]))) + float64(Z*(float64(m[1]*m[5])-float64(m[2]*m[4])))) / det
	y := (float64(X*c1) + float64(Y*(float64(m[0]*m[8])-float64(m[2]*m[6]))) + float64(Z*(float64(m[2]*m[3])-float64(m[0]*m[5])))) / det
	z := (float64(X*c2) + float64(Y*(float64(m[1]*m[6])-float64(m[0]*m[7]))) + float64(Z*(float64(m[0]*m[4])-float64(m[1]*m[3])))) / det
	return geodetic(h.a, h.f, x, y, z)
}

// geocentric converts lon/lat degrees at height 0 on ellipsoid (a, f) to
// Earth-centred Cartesian metres.
func geocentric(a, f, lon, lat float64) (x, y, z float64) {
	e2 := float64(f * (2 - f))
	sp, cp := math.Sincos(lat * deg2rad)
	sl, cl := math.Sincos(lon * deg2rad)
	n := a / math.Sqrt(1-float64(e2*float64(sp*sp)))
	return float64(float64(n*cp) * cl), float64(float64(n*cp) * sl), float64(float64(n*(1-e2)) * sp)
}

// geodetic converts Earth-centred Cartesian metres to lon/lat degrees on
// ellipsoid (a, f), discarding the height: Bowring's start then
// fixed-point iterations to full precision (heights are small here).
func geodetic(a, f, x, y, z float64) (lon, lat float64) {
	e2 := float64(f * (2 - f))
	b := float64(a * (1 - f))
	ep2 := e2 / (1 - e2)
	p := math.Sqrt(float64(x*x) + float64(y*y))
	lon = math.Atan2(y, x) * rad2deg
	if p == 0 {
		return lon, math.Copysign(90, z)
	}
	u := math.Atan2(float64(z*a), float64(p*b))
	su, cu := math.Sincos(u)
	phi := math.Atan2(z+float64(float64(ep2*b)*float64(su*su*su)), p-float64(float64(e2*a)*float64(cu*cu*cu)))
	for range 4 {
		s := math.Sin(phi)
		n := a / math.Sqrt(1-float64(e2*float64(s*s)))
		phi = math.Atan2(z+float64(float64(e2*n)*s), p)
	}
	return lon, phi * rad2deg
}
