package proj

import "math"

// Helmert is a 3-, 7- or 10-parameter Helmert transformation from a datum's
// geocentric frame to WGS 84's, in PROJ's conventions (+proj=helmert
// without +exact): X' = T + (1+s)·R·(X - P) + P with the small-angle
// rotation matrix R of the position-vector convention (coordinate-frame
// rotations are stored with their signs reversed), P the pivot of a
// Molodensky-Badekas transformation. The reverse applies Rᵀ as PROJ does,
// so round trips differ from the identity by second-order terms in the
// rotations (below 1 mm for published rotations).
type Helmert struct {
	Tx, Ty, Tz float64    // translation, metres
	M          [9]float64 // (1+s)·R, row-major
	K          float64    // 1+s
	px, py, pz float64    // pivot point, metres
	rotates    bool
}

// NewHelmert prepares a transformation with translations in metres,
// position-vector rotations in arc-seconds, scale difference in parts per
// million and a pivot point in metres.
func NewHelmert(tx, ty, tz, rx, ry, rz, ds, px, py, pz float64) *Helmert {
	const asec = math.Pi / 648000
	h := &Helmert{Tx: tx, Ty: ty, Tz: tz, px: px, py: py, pz: pz, K: 1 + float64(ds*1e-6)}
	h.rotates = rx != 0 || ry != 0 || rz != 0
	rx, ry, rz = rx*asec, ry*asec, rz*asec
	h.M = [9]float64{
		1, -rz, ry,
		rz, 1, -rx,
		-ry, rx, 1,
	}
	return h
}

// IsNull reports whether the transformation changes nothing.
func (h *Helmert) IsNull() bool {
	return h.Tx == 0 && h.Ty == 0 && h.Tz == 0 && !h.rotates && h.K == 1
}

// Forward maps datum geocentric coordinates to WGS 84's.
func (h *Helmert) Forward(x, y, z float64) (float64, float64, float64) {
	x, y, z = x-h.px, y-h.py, z-h.pz
	m := &h.M
	X := float64(h.K * (float64(m[0]*x) + float64(m[1]*y) + float64(m[2]*z)))
	Y := float64(h.K * (float64(m[3]*x) + float64(m[4]*y) + float64(m[5]*z)))
	Z := float64(h.K * (float64(m[6]*x) + float64(m[7]*y) + float64(m[8]*z)))
	return X + h.Tx + h.px, Y + h.Ty + h.py, Z + h.Tz + h.pz
}

// Reverse maps WGS 84 geocentric coordinates to the datum's, as PROJ's
// reverse step does (scale removed, then the transposed rotation).
func (h *Helmert) Reverse(X, Y, Z float64) (float64, float64, float64) {
	x := (X - h.Tx - h.px) / h.K
	y := (Y - h.Ty - h.py) / h.K
	z := (Z - h.Tz - h.pz) / h.K
	m := &h.M
	return float64(m[0]*x) + float64(m[3]*y) + float64(m[6]*z) + h.px,
		float64(m[1]*x) + float64(m[4]*y) + float64(m[7]*z) + h.py,
		float64(m[2]*x) + float64(m[5]*y) + float64(m[8]*z) + h.pz
}

// Geocentric converts lon/lat degrees at height 0 on ellipsoid el to
// Earth-centred Cartesian metres.
func Geocentric(el Ellipsoid, lon, lat float64) (x, y, z float64) {
	sp, cp := math.Sincos(lat * DegToRad)
	sl, cl := math.Sincos(lon * DegToRad)
	n := el.A / math.Sqrt(1-float64(el.e2*float64(sp*sp)))
	return float64(float64(n*cp) * cl), float64(float64(n*cp) * sl), float64(float64(n*(1-el.e2)) * sp)
}

// Geodetic converts Earth-centred Cartesian metres to lon/lat degrees on
// ellipsoid el, discarding the height: Bowring's start then fixed-point
// iterations to full precision (heights are small here).
func Geodetic(el Ellipsoid, x, y, z float64) (lon, lat float64) {
	e2, a, b := el.e2, el.A, el.B
	ep2 := e2 / (1 - e2)
	p := math.Sqrt(float64(x*x) + float64(y*y))
	lon = math.Atan2(y, x) * RadToDeg
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
	return lon, phi * RadToDeg
}
