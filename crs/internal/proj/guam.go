package proj

import (
	"fmt"
	"math"

	"github.com/tidwall/geodesic"
)

// guam is the Guam projection (EPSG method 9831), PROJ's +proj=aeqd
// +guam: Snyder's approximate azimuthal equidistant for islands.
type guam struct {
	a, e, e2     float64
	lon0, fe, fn float64
	phi0         float64
	arc          meridianArc
	m1           float64
}

func newGuam(el Ellipsoid, lat0, lon0, fe, fn float64) *guam {
	p := &guam{a: el.A, e: el.e, e2: el.e2, lon0: lon0, fe: fe, fn: fn, phi0: Radians(lat0), arc: newMeridianArc(el)}
	p.m1 = p.arc.distance(p.phi0)
	return p
}

func (p *guam) Forward(lon, lat float64) (float64, float64, error) {
	lam, phi, err := forwardRadians(lon, lat, p.lon0)
	if err != nil {
		return 0, 0, err
	}
	sinphi, cosphi := math.Sincos(phi)
	t := 1 / math.Sqrt(1-float64(float64(p.e2*sinphi)*sinphi))
	x := float64(float64(lam*cosphi) * t)
	y := p.arc.distance(phi) - p.m1 + float64(float64(float64(float64(float64(0.5*lam)*lam)*cosphi)*sinphi)*t)
	return p.fe + float64(p.a*x), p.fn + float64(p.a*y), nil
}

func (p *guam) Inverse(x, y float64) (float64, float64, error) {
	x = (x - p.fe) / p.a
	y = (y - p.fn) / p.a
	x2 := float64(0.5 * float64(x*x))
	phi := p.phi0
	var t float64
	for range 3 {
		t = float64(p.e * math.Sin(phi))
		t = math.Sqrt(1 - float64(t*t))
		phi = p.arc.latitude(p.m1 + y - float64(float64(x2*math.Tan(phi))*t))
	}
	lam := float64(x*t) / math.Cos(phi)
	return lonOf(lam, p.lon0), deg(phi), nil
}

// ellipsoidalAeqd is the oblique azimuthal equidistant projection on any
// ellipsoid (EPSG method 9832, Modified Azimuthal Equidistant, which PROJ
// computes as +proj=aeqd: exact geodesic distance and azimuth from the
// centre, Karney's algorithms).
type ellipsoidalAeqd struct {
	g            *geodesic.Ellipsoid
	lat0, lon0   float64
	fe, fn, maxS float64
}

func newEllipsoidalAeqd(el Ellipsoid, lat0, lon0, fe, fn float64) (*ellipsoidalAeqd, error) {
	if math.Abs(lat0) > 90 {
		return nil, fmt.Errorf("azimuthal equidistant centre latitude %v", lat0)
	}
	g := geodesic.NewEllipsoid(el.A, el.F)
	var s12 float64
	g.Inverse(90, 0, -90, 0, &s12, nil, nil)
	return &ellipsoidalAeqd{g: g, lat0: lat0, lon0: lon0, fe: fe, fn: fn, maxS: s12}, nil
}

func (p *ellipsoidalAeqd) Forward(lon, lat float64) (float64, float64, error) {
	if err := CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	var s12, azi1 float64
	p.g.Inverse(p.lat0, p.lon0, lat, lon, &s12, &azi1, nil)
	if math.IsNaN(s12) || math.IsNaN(azi1) {
		return 0, 0, outside("geodesic from the centre to (%v, %v) failed", lon, lat)
	}
	sa, ca := math.Sincos(Radians(azi1))
	return p.fe + float64(s12*sa), p.fn + float64(s12*ca), nil
}

func (p *ellipsoidalAeqd) Inverse(x, y float64) (float64, float64, error) {
	x, y = x-p.fe, y-p.fn
	rho := math.Hypot(x, y)
	if rho > p.maxS {
		return 0, 0, outside("(%v, %v) is beyond the antipode", x, y)
	}
	if rho == 0 {
		return p.lon0, p.lat0, nil
	}
	var lat, lon float64
	p.g.Direct(p.lat0, p.lon0, deg(math.Atan2(x, y)), rho, &lat, &lon, nil)
	return Wrap180(lon), lat, nil
}
