package proj

import "math"

// cassini is the Cassini-Soldner projection (EPSG method 9806) and its
// hyperbolic form (9833, Vanua Levu), PROJ's +proj=cass [+hyperbolic]:
// the forward series of EPSG Guidance Note 7-2 §3.2.2 in A = λ cos φ on an
// exact meridian distance; the inverse starts from the Guidance Note's
// series and refines it by Newton's method on the forward, as PROJ 9.1
// does, so that it inverts the forward exactly.
type cassini struct {
	a, e2        float64
	lon0, fe, fn float64
	arc          meridianArc
	m0           float64
	hyperbolic   bool
}

func newCassini(el Ellipsoid, lat0, lon0, fe, fn float64, hyperbolic bool) *cassini {
	p := &cassini{a: el.A, e2: el.e2, lon0: lon0, fe: fe, fn: fn, arc: newMeridianArc(el), hyperbolic: hyperbolic}
	p.m0 = p.arc.distance(Radians(lat0))
	return p
}

// xy computes the unscaled projected coordinates of (λ, φ) radians.
func (p *cassini) xy(lam, phi float64) (float64, float64) {
	m := p.arc.distance(phi)
	sinphi, cosphi := math.Sincos(phi)
	nu := 1 / math.Sqrt(1-float64(float64(p.e2*sinphi)*sinphi))
	tn := math.Tan(phi)
	t := float64(tn * tn)
	a1 := float64(lam * cosphi)
	c := float64(float64(p.e2*cosphi)*cosphi) / (1 - p.e2)
	a2 := float64(a1 * a1)
	x := float64(float64(nu*a1) * (1 - float64(float64(a2*t)*(1.0/6+float64(float64(8-t+float64(8*c))*a2)/120))))
	y := m - p.m0 + float64(float64(float64(nu*tn)*a2)*(0.5+float64(float64(5-t+float64(6*c))*a2)/24))
	if p.hyperbolic {
		rho := float64(float64(nu*nu)*nu) * (1 - p.e2)
		y -= float64(float64(y*y)*y) / float64(6*float64(rho*nu))
	}
	return x, y
}

func (p *cassini) Forward(lon, lat float64) (float64, float64, error) {
	if err := CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	x, y := p.xy(lamOf(lon, p.lon0), Radians(lat))
	return finiteXY(p.fe+float64(p.a*x), p.fn+float64(p.a*y), "Cassini")
}

func (p *cassini) Inverse(x, y float64) (float64, float64, error) {
	x = (x - p.fe) / p.a
	y = (y - p.fn) / p.a
	lam, phi := p.series(x, y)
	{
		for range 10 {
			fx, fy := p.xy(lam, phi)
			const h = 1e-8
			x1, y1 := p.xy(lam+h, phi)
			x2, y2 := p.xy(lam, phi+h)
			j00, j01 := (x1-fx)/h, (x2-fx)/h
			j10, j11 := (y1-fy)/h, (y2-fy)/h
			det := float64(j00*j11) - float64(j01*j10)
			dx, dy := x-fx, y-fy
			dl := (float64(j11*dx) - float64(j01*dy)) / det
			dp := (float64(j00*dy) - float64(j10*dx)) / det
			lam += dl
			phi += dp
			if math.Abs(dl)+math.Abs(dp) < 1e-14 {
				break
			}
		}
	}
	if math.IsNaN(lam) || math.IsNaN(phi) || math.Abs(phi) > math.Pi/2 {
		return 0, 0, outside("(%v, %v) has no inverse", x, y)
	}
	return lonOf(lam, p.lon0), deg(phi), nil
}

// series is the inverse series of the ordinary Cassini-Soldner (EPSG GN
// 7-2), from the footpoint latitude.
func (p *cassini) series(x, y float64) (float64, float64) {
	ph1 := p.arc.latitude(p.m0 + y)
	tn := math.Tan(ph1)
	t := float64(tn * tn)
	n := math.Sin(ph1)
	r := 1 / (1 - float64(float64(p.e2*n)*n))
	n = math.Sqrt(r)
	r = float64(float64(r*(1-p.e2)) * n)
	dd := x / n
	d2 := float64(dd * dd)
	phi := ph1 - float64(float64(float64(n*tn)/r*d2)*(0.5-float64(float64(1+float64(3*t))*d2)/24))
	lam := float64(dd*(1+float64(float64(t*d2)*(-1.0/3+float64(float64(1+float64(3*t))*d2)/15)))) / math.Cos(ph1)
	return lam, phi
}
