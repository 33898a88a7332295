package proj

import "math"

// polyconic is the American polyconic projection (EPSG method 9818),
// PROJ's +proj=poly: Snyder's formulas 18-1 to 18-26, the inverse by
// Newton's method (Snyder eq. 18-25).
type polyconic struct {
	a, e2, oneEs float64
	lon0, fe, fn float64
	arc          meridianArc
	ml0          float64
}

func newPolyconic(el Ellipsoid, lat0, lon0, fe, fn float64) *polyconic {
	p := &polyconic{a: el.A, e2: el.e2, oneEs: 1 - el.e2, lon0: lon0, fe: fe, fn: fn, arc: newMeridianArc(el)}
	p.ml0 = p.arc.distance(Radians(lat0))
	return p
}

func (p *polyconic) Forward(lon, lat float64) (float64, float64, error) {
	lam, phi, err := forwardRadians(lon, lat, p.lon0)
	if err != nil {
		return 0, 0, err
	}
	var x, y float64
	if math.Abs(phi) <= 1e-10 {
		x, y = lam, -p.ml0
	} else {
		sp, cp := math.Sincos(phi)
		ms := 0.0
		if math.Abs(cp) > 1e-10 {
			ms = msfn(sp, cp, p.e2) / sp
		}
		lam = float64(lam * sp)
		x = float64(ms * math.Sin(lam))
		y = (p.arc.distance(phi) - p.ml0) + float64(ms*(1-math.Cos(lam)))
	}
	return finiteXY(p.fe+float64(p.a*x), p.fn+float64(p.a*y), "polyconic")
}

func (p *polyconic) Inverse(x, y float64) (float64, float64, error) {
	x = (x - p.fe) / p.a
	y = (y-p.fn)/p.a + p.ml0
	if math.Abs(y) <= 1e-10 {
		return lonOf(x, p.lon0), 0, nil
	}
	r := float64(y*y) + float64(x*x)
	phi := y
	converged := false
	for range 20 {
		sp, cp := math.Sincos(phi)
		if math.Abs(cp) < 1e-12 {
			return 0, 0, outside("(%v, %v) has no inverse", x, y)
		}
		s2ph := float64(sp * cp)
		mlp := math.Sqrt(1 - float64(float64(p.e2*sp)*sp))
		c := float64(sp*mlp) / cp
		ml := p.arc.distance(phi)
		mlb := float64(ml*ml) + r
		mlp = p.oneEs / float64(float64(mlp*mlp)*mlp)
		dphi := (ml + ml + float64(c*mlb) - float64(2*y*(float64(c*ml)+1))) /
			(float64(float64(p.e2*s2ph)*(mlb-float64(2*y*ml)))/c + float64(2*(y-ml)*(float64(c*mlp)-1/s2ph)) - mlp - mlp)
		phi += dphi
		if math.Abs(dphi) <= 1e-12 {
			converged = true
			break
		}
	}
	if !converged || math.IsNaN(phi) {
		return 0, 0, outside("(%v, %v) has no inverse", x, y)
	}
	c := math.Sin(phi)
	lam := math.Asin(float64(float64(x*math.Tan(phi))*math.Sqrt(1-float64(float64(p.e2*c)*c)))) / math.Sin(phi)
	return lonOf(lam, p.lon0), deg(phi), nil
}
