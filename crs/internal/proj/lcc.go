package proj

import (
	"fmt"
	"math"
)

// lambertConic is the Lambert conic conformal projection with one or two
// standard parallels (EPSG methods 9801, 9802, 9803, 1051), PROJ's
// +proj=lcc: Snyder's formulas 15-1 to 15-11 on the ellipsoid.
type lambertConic struct {
	a, e, e2   float64
	lon0       float64 // degrees
	k0, fe, fn float64
	n, c, rho0 float64
}

// newLCC prepares the projection with false origin (lat0, lon0), standard
// parallels lat1 and lat2 (equal for one parallel), scale k0 (the 1SP
// scale factor, or Michigan's ellipsoid scaling factor; 1 otherwise).
func newLCC(el Ellipsoid, lat0, lon0, lat1, lat2, k0, fe, fn float64) (*lambertConic, error) {
	phi0, phi1, phi2v := (Radians(lat0)), (Radians(lat1)), (Radians(lat2))
	if math.Abs(phi1+phi2v) < 1e-10 {
		return nil, fmt.Errorf("Lambert conic with standard parallels %v and %v symmetric about the equator", lat1, lat2)
	}
	if math.Abs(phi1) > math.Pi/2 || math.Abs(phi2v) > math.Pi/2 || math.Abs(phi0) > math.Pi/2 || !(k0 > 0) {
		return nil, fmt.Errorf("Lambert conic parameters out of range")
	}
	p := &lambertConic{a: el.A, e: el.e, e2: el.e2, lon0: lon0, k0: k0, fe: fe, fn: fn}
	sinphi, cosphi := math.Sincos(phi1)
	n := sinphi
	m1 := msfn(sinphi, cosphi, el.e2)
	ml1 := tsfn(phi1, sinphi, el.e)
	if math.Abs(phi1-phi2v) >= 1e-10 {
		s2, c2 := math.Sincos(phi2v)
		n = math.Log(m1 / msfn(s2, c2, el.e2))
		n /= math.Log(ml1 / tsfn(phi2v, s2, el.e))
		if n == 0 || math.IsNaN(n) {
			return nil, fmt.Errorf("Lambert conic: degenerate cone")
		}
	}
	p.n = n
	p.c = float64(m1*math.Pow(ml1, -n)) / n
	if math.Abs(math.Abs(phi0)-math.Pi/2) < 1e-10 {
		p.rho0 = 0
	} else {
		p.rho0 = float64(p.c * math.Pow(tsfn(phi0, math.Sin(phi0), el.e), n))
	}
	return p, nil
}

func (p *lambertConic) Forward(lon, lat float64) (float64, float64, error) {
	lam, phi, err := forwardRadians(lon, lat, p.lon0)
	if err != nil {
		return 0, 0, err
	}
	var rho float64
	if math.Abs(math.Abs(phi)-math.Pi/2) < 1e-10 {
		if phi*p.n <= 0 {
			return 0, 0, outside("latitude %v is the pole opposite the cone's apex", lat)
		}
	} else {
		rho = float64(p.c * math.Pow(tsfn(phi, math.Sin(phi), p.e), p.n))
	}
	s, c := math.Sincos(float64(lam * p.n))
	x := float64(p.k0 * float64(rho*s))
	y := float64(p.k0 * (p.rho0 - float64(rho*c)))
	return finiteXY(p.fe+float64(p.a*x), p.fn+float64(p.a*y), "Lambert conic")
}

func (p *lambertConic) Inverse(x, y float64) (float64, float64, error) {
	x = (x - p.fe) / p.a / p.k0
	y = p.rho0 - (y-p.fn)/p.a/p.k0
	rho := math.Hypot(x, y)
	if rho == 0 {
		return p.lon0, math.Copysign(90, p.n), nil
	}
	if p.n < 0 {
		rho, x, y = -rho, -x, -y
	}
	phi := phi2(math.Pow(rho/p.c, 1/p.n), p.e, p.e2)
	lam := math.Atan2(x, y) / p.n
	return lonOf(lam, p.lon0), deg(phi), nil
}
