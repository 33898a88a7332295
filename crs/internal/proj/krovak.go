package proj

import (
	"fmt"
	"math"
)

// krovak is the Krovak oblique conic conformal projection (EPSG methods
// 9819 and 1041, north orientated), PROJ's +proj=krovak: the ellipsoid
// onto Gauss's sphere, rotated to the cone's pole, then a conformal conic
// from the pseudo standard parallel (EPSG Guidance Note 7-2 §3.2.3.1).
// It produces easting/northing of the north-orientated form (both
// negative over Czechia and Slovakia); the south-west orientated form's
// axes (southing, westing) negate them.
type krovak struct {
	a, e              float64
	lon0, fe, fn      float64
	alpha, k, n, rho0 float64
	ad, s0            float64
}

func newKrovak(el Ellipsoid, latc, lon0, colat, latPSP, k0, fe, fn float64) (*krovak, error) {
	if !(k0 > 0) {
		return nil, fmt.Errorf("Krovak scale factor %v", k0)
	}
	phi0 := Radians(latc)
	p := &krovak{a: el.A, e: el.e, lon0: lon0, fe: fe, fn: fn}
	p.alpha = math.Sqrt(1 + float64(el.e2*math.Pow(math.Cos(phi0), 4))/(1-el.e2))
	u0 := math.Asin(math.Sin(phi0) / p.alpha)
	es := float64(el.e * math.Sin(phi0))
	g := math.Pow((1+es)/(1-es), float64(p.alpha*el.e)/2)
	p.k = float64(math.Tan(float64(u0/2)+math.Pi/4)/math.Pow(math.Tan(float64(phi0/2)+math.Pi/4), p.alpha)) * g
	sp := math.Sin(phi0)
	n0 := math.Sqrt(1-el.e2) / (1 - float64(float64(el.e2*sp)*sp))
	p.s0 = Radians(latPSP)
	p.n = math.Sin(p.s0)
	p.rho0 = float64(k0*n0) / math.Tan(p.s0)
	p.ad = Radians(colat)
	return p, nil
}

func (p *krovak) Forward(lon, lat float64) (float64, float64, error) {
	if err := CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	phi := Radians(lat)
	es := float64(p.e * math.Sin(phi))
	gfi := math.Pow((1+es)/(1-es), float64(p.alpha*p.e)/2)
	u := 2 * (math.Atan(float64(p.k*math.Pow(math.Tan(float64(phi/2)+math.Pi/4), p.alpha))/gfi) - math.Pi/4)
	deltav := -float64(lamOf(lon, p.lon0) * p.alpha)
	sinad, cosad := math.Sincos(p.ad)
	s := math.Asin(float64(cosad*math.Sin(u)) + float64(float64(sinad*math.Cos(u))*math.Cos(deltav)))
	cs := math.Cos(s)
	if cs < 1e-12 {
		return p.fe, p.fn, nil
	}
	d := math.Asin(float64(math.Cos(u)*math.Sin(deltav)) / cs)
	eps := float64(p.n * d)
	rho := float64(p.rho0*math.Pow(math.Tan(float64(p.s0/2)+math.Pi/4), p.n)) / math.Pow(math.Tan(float64(s/2)+math.Pi/4), p.n)
	x := -float64(rho * math.Sin(eps))
	y := -float64(rho * math.Cos(eps))
	return finiteXY(p.fe+float64(p.a*x), p.fn+float64(p.a*y), "Krovak")
}

func (p *krovak) Inverse(x, y float64) (float64, float64, error) {
	// Southing-like and westing-like distances from the cone's apex.
	ys := -(x - p.fe) / p.a
	xs := -(y - p.fn) / p.a
	rho := math.Hypot(xs, ys)
	eps := math.Atan2(ys, xs)
	d := eps / math.Sin(p.s0)
	s := math.Pi / 2
	if rho != 0 {
		s = 2 * (math.Atan(float64(math.Pow(p.rho0/rho, 1/p.n)*math.Tan(float64(p.s0/2)+math.Pi/4))) - math.Pi/4)
	}
	sinad, cosad := math.Sincos(p.ad)
	u := math.Asin(float64(cosad*math.Sin(s)) - float64(float64(sinad*math.Cos(s))*math.Cos(d)))
	deltav := math.Asin(float64(math.Cos(s)*math.Sin(d)) / math.Cos(u))
	lam := -deltav / p.alpha
	phi := u
	for range 20 {
		es := float64(p.e * math.Sin(phi))
		next := 2 * (math.Atan(float64(float64(math.Pow(p.k, -1/p.alpha)*math.Pow(math.Tan(float64(u/2)+math.Pi/4), 1/p.alpha))*math.Pow((1+es)/(1-es), p.e/2))) - math.Pi/4)
		if math.Abs(next-phi) < 1e-15 {
			phi = next
			break
		}
		phi = next
	}
	if math.IsNaN(phi) || math.IsNaN(lam) {
		return 0, 0, outside("(%v, %v) has no inverse", x, y)
	}
	return lonOf(lam, p.lon0), deg(phi), nil
}
