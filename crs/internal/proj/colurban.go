package proj

import "math"

// colombiaUrban is the Colombia Urban projection (EPSG method 1052, EPSG
// Guidance Note 7-2 §3.3.4), PROJ's +proj=col_urban: a local projection
// on a plane at height h0 above the ellipsoid.
type colombiaUrban struct {
	a, e2              float64
	lon0, phi0, fe, fn float64
	h0                 float64 // units of a
	A, B, C, D, rho0   float64
}

func newColombiaUrban(el Ellipsoid, lat0, lon0, h0, fe, fn float64) *colombiaUrban {
	p := &colombiaUrban{a: el.A, e2: el.e2, lon0: lon0, phi0: (Radians(lat0)), fe: fe, fn: fn, h0: h0 / el.A}
	s := math.Sin(p.phi0)
	w := 1 - float64(float64(el.e2*s)*s)
	nu0 := 1 / math.Sqrt(w)
	p.A = 1 + p.h0/nu0
	p.rho0 = (1 - el.e2) / math.Pow(w, 1.5)
	p.B = math.Tan(p.phi0) / float64(2*float64(p.rho0*nu0))
	p.C = 1 + p.h0
	p.D = float64(p.rho0 * (1 + p.h0/(1-el.e2)))
	return p
}

func (p *colombiaUrban) Forward(lon, lat float64) (float64, float64, error) {
	if err := CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	phi := (Radians(lat))
	sinphi, cosphi := math.Sincos(phi)
	nu := 1 / math.Sqrt(1-float64(float64(p.e2*sinphi)*sinphi))
	l := float64(float64(lamOf(lon, p.lon0)*nu) * cosphi)
	x := float64(p.A * l)
	sm := math.Sin(0.5 * (phi + p.phi0))
	rhoM := (1 - p.e2) / math.Pow(1-float64(float64(p.e2*sm)*sm), 1.5)
	g := 1 + p.h0/rhoM
	y := float64(float64(g*p.rho0) * ((phi - p.phi0) + float64(float64(p.B*l)*l)))
	return p.fe + float64(p.a*x), p.fn + float64(p.a*y), nil
}

func (p *colombiaUrban) Inverse(x, y float64) (float64, float64, error) {
	x = (x - p.fe) / p.a
	y = (y - p.fn) / p.a
	xc := x / p.C
	phi := p.phi0 + y/p.D - float64(float64(p.B*xc)*xc)
	s := math.Sin(phi)
	nu := 1 / math.Sqrt(1-float64(float64(p.e2*s)*s))
	lam := x / float64(float64(p.C*nu)*math.Cos(phi))
	if math.IsNaN(phi) || math.Abs(phi) > math.Pi/2 {
		return 0, 0, outside("(%v, %v) has no inverse", x, y)
	}
	return lonOf(lam, p.lon0), deg(phi), nil
}
