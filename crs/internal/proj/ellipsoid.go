package proj

import "math"

// Ellipsoid is a reference ellipsoid in metres. Spheres have f = 0.
type Ellipsoid struct {
	A, F float64 // semi-major axis (m), flattening
	B    float64 // semi-minor axis (m)
	e2   float64 // first eccentricity squared
	e    float64 // first eccentricity
}

// NewEllipsoid returns the ellipsoid with semi-major axis a (metres) and
// inverse flattening invf (0 for a sphere).
func NewEllipsoid(a, invf float64) Ellipsoid {
	if invf == 0 {
		return Ellipsoid{A: a, B: a}
	}
	f := 1 / invf
	if a == 6378137 && invf == 298.257223563 {
		// WGS 84's flattening as the exact constant 1/298.257223563 (the
		// division at run time rounds differently in the last bit), as
		// the engine has always computed UTM: results stay bit-identical.
		f = wgs84Flattening
	}
	e2 := float64(f * (2 - f))
	return Ellipsoid{A: a, F: f, B: float64(a * (1 - f)), e2: e2, e: math.Sqrt(e2)}
}

// NewEllipsoidAB returns the ellipsoid with semi-axes a and b (metres), as
// PROJ derives it from +a and +b: e² = 1 - b²/a².
func NewEllipsoidAB(a, b float64) Ellipsoid {
	if a == b {
		return Ellipsoid{A: a, B: b}
	}
	e2 := 1 - float64(b*b)/float64(a*a)
	return Ellipsoid{A: a, B: b, F: (a - b) / a, e2: e2, e: math.Sqrt(e2)}
}

// Valid reports whether el is a usable ellipsoid: finite positive
// semi-axes with b ≤ a (an inverse flattening of 0 or above 1).
func (el Ellipsoid) Valid() bool {
	return el.A > 0 && el.B > 0 && el.B <= el.A && !math.IsInf(el.A, 0) && el.e2 >= 0 && el.e2 < 1
}

// Invf returns the inverse flattening (0 for a sphere).
func (el Ellipsoid) Invf() float64 {
	if el.F == 0 {
		return 0
	}
	return 1 / el.F
}

const wgs84Flattening = 1 / 298.257223563

// WGS84 is EPSG:7030.
var WGS84 = NewEllipsoid(6378137, 298.257223563)

// Ellipsoidal helper functions of the projections, in the forms PROJ uses
// (Snyder 1987 notation; angles in radians, lengths in units of a).

// msfn returns cosφ/√(1 - e² sin²φ) (Snyder eq. 14-15).
func msfn(sinphi, cosphi, e2 float64) float64 {
	return cosphi / math.Sqrt(1-float64(float64(e2*sinphi)*sinphi))
}

// tsfn returns t(φ) = tan(π/4 - φ/2) / ((1 - e sinφ)/(1 + e sinφ))^(e/2)
// (Snyder eq. 15-9), computed as exp(e·atanh(e sinφ))·cosφ/(1 + sinφ).
func tsfn(phi, sinphi, e float64) float64 {
	cosphi := math.Cos(phi)
	var t float64
	if sinphi > 0 {
		t = cosphi / (1 + sinphi)
	} else {
		t = (1 - sinphi) / cosphi
	}
	if e == 0 {
		return t
	}
	return float64(math.Exp(float64(e*math.Atanh(float64(e*sinphi)))) * t)
}

// phi2 inverts tsfn: the latitude φ with t(φ) = ts (Snyder eq. 7-9),
// by Newton's method on the conformal latitude to full precision.
func phi2(ts, e, e2 float64) float64 {
	// χ = π/2 - 2 atan(ts); solve τ' (tan χ) for τ = tan φ.
	chi := math.Pi/2 - twoAtan(ts)
	if e == 0 {
		return chi
	}
	taup := math.Tan(chi)
	if math.Abs(chi) >= math.Pi/2-1e-15 {
		return chi
	}
	return math.Atan(tauFromTaup(taup, e, e2))
}

// taupOf returns tan χ (χ the conformal latitude) of tan φ = tau (Karney
// 2011, eq. 7-9).
func taupOf(tau, e float64) float64 {
	tau1 := hypot1(tau)
	sig := math.Sinh(float64(e * math.Atanh(float64(e*tau)/tau1)))
	return float64(hypot1(sig)*tau) - float64(sig*tau1)
}

// tauFromTaup inverts taupOf by Newton's method (Karney 2011, eq. 19-21).
func tauFromTaup(taup, e, e2 float64) float64 {
	e2m := 1 - e2
	tau := taup / e2m
	stol := math.Sqrt(0x1p-52) / 10 * math.Max(1, math.Abs(taup))
	for range 10 {
		taupa := taupOf(tau, e)
		dtau := float64((taup-taupa)*(1+float64(e2m*float64(tau*tau)))) /
			float64(float64(e2m*hypot1(tau))*hypot1(taupa))
		tau += dtau
		if !(math.Abs(dtau) >= stol) {
			break
		}
	}
	return tau
}

// qsfn returns q(φ) of Snyder eq. 3-12 for sinφ: (1 - e²)(sinφ/(1 - e²
// sin²φ) - (1/2e) ln((1 - e sinφ)/(1 + e sinφ))); 2 sinφ on a sphere.
func qsfn(sinphi, e, oneEs float64) float64 {
	if e < 1e-7 {
		return sinphi + sinphi
	}
	con := float64(e * sinphi)
	div1 := 1 - float64(con*con)
	div2 := 1 + con
	return float64(oneEs * (sinphi/div1 - float64((0.5/e)*math.Log((1-con)/div2))))
}

// authalicCoeffs are the coefficients of PROJ 9.1's series for the
// geodetic latitude from the authalic latitude (pj_authset), truncated at
// e⁶ as PROJ truncates it, so that inverses agree with PROJ's.
type authalicCoeffs [3]float64

func newAuthalicCoeffs(es float64) authalicCoeffs {
	const (
		p00 = 1.0 / 3
		p01 = 31.0 / 180
		p02 = 517.0 / 5040
		p10 = 23.0 / 360
		p11 = 251.0 / 3780
		p20 = 761.0 / 45360
	)
	t := es
	var a authalicCoeffs
	a[0] = float64(t * p00)
	t = float64(t * es)
	a[0] += float64(t * p01)
	a[1] = float64(t * p10)
	t = float64(t * es)
	a[0] += float64(t * p02)
	a[1] += float64(t * p11)
	a[2] = float64(t * p20)
	return a
}

// latitude returns the geodetic latitude of authalic latitude beta.
func (a authalicCoeffs) latitude(beta float64) float64 {
	t := beta + beta
	return beta + float64(a[0]*math.Sin(t)) + float64(a[1]*math.Sin(t+t)) + float64(a[2]*math.Sin(t+t+t))
}

// authalicSphere returns the sphere with the ellipsoid's authalic radius.
func authalicSphere(el Ellipsoid) Ellipsoid {
	if el.e2 == 0 {
		return el
	}
	qp := qsfn(1, el.e, 1-el.e2)
	return NewEllipsoid(float64(el.A*math.Sqrt(0.5*qp)), 0)
}

// meridianArc is the distance along the meridian from the equator: the
// rectifying latitude μ from the conformal latitude by Krüger's series to
// n⁶ (the transverse Mercator's central meridian), accurate to a few
// nanometres, and its inverse the same way.
type meridianArc struct {
	e, e2       float64
	a1          float64    // rectifying radius over a
	alpha, beta [7]float64 // Krüger coefficients 1..6
}

func newMeridianArc(el Ellipsoid) meridianArc {
	k := newKruger(el.F)
	return meridianArc{e: el.e, e2: el.e2, a1: k.poly / (1 + k.n), alpha: k.alpha, beta: k.beta}
}

// distance returns the meridian distance to latitude phi in units of a.
func (m meridianArc) distance(phi float64) float64 {
	chi := math.Atan(taupOf(math.Tan(phi), m.e))
	if math.Abs(phi) == math.Pi/2 {
		chi = phi
	}
	mu := chi
	for j := 6; j >= 1; j-- {
		mu += float64(m.alpha[j] * math.Sin(float64(2*j)*chi))
	}
	return float64(m.a1 * mu)
}

// latitude inverts distance (units of a).
func (m meridianArc) latitude(d float64) float64 {
	mu := d / m.a1
	chi := mu
	for j := 6; j >= 1; j-- {
		chi -= float64(m.beta[j] * math.Sin(float64(2*j)*mu))
	}
	if math.Abs(chi) >= math.Pi/2 {
		return math.Copysign(math.Pi/2, chi)
	}
	return math.Atan(tauFromTaup(math.Tan(chi), m.e, m.e2))
}
