package proj

import (
	"fmt"
	"math"
)

// hotine is the Hotine oblique Mercator projection (EPSG methods 9812
// variant A, origin of u at the natural origin, and 9815 variant B, at the
// projection centre), PROJ's +proj=omerc [+no_uoff]: Snyder's formulas
// 9-1 to 9-35 in the azimuth form.
type hotine struct {
	a, e, e2       float64
	lam0           float64 // degrees: longitude of the aposphere's origin
	fe, fn         float64
	A, B, E        float64
	arb, bra, rb   float64
	singam, cosgam float64
	sinrot, cosrot float64
	u0             float64
	vPoleN, vPoleS float64
	lonc, noOffset float64
}

func newHotine(el Ellipsoid, latc, lonc, alpha, gamma, k0, fe, fn float64, variantA bool) (*hotine, error) {
	phi0 := Radians(latc)
	alphaC := Radians(alpha)
	gam := Radians(gamma)
	if !(k0 > 0) {
		return nil, fmt.Errorf("Hotine scale factor %v", k0)
	}
	if math.Abs(phi0) <= 1e-10 || math.Abs(math.Abs(phi0)-math.Pi/2) <= 1e-10 {
		return nil, fmt.Errorf("Hotine oblique Mercator with centre latitude %v", latc)
	}
	p := &hotine{a: el.A, e: el.e, e2: el.e2, fe: fe, fn: fn}
	oneEs := 1 - el.e2
	com := math.Sqrt(oneEs)
	sinph0, cosph0 := math.Sincos(phi0)
	con := 1 - float64(float64(el.e2*sinph0)*sinph0)
	b := float64(cosph0 * cosph0)
	p.B = math.Sqrt(1 + float64(float64(el.e2*b)*b)/oneEs)
	p.A = float64(float64(p.B*k0)*com) / con
	d := float64(p.B*com) / float64(cosph0*math.Sqrt(con))
	f := float64(d*d) - 1
	if f <= 0 {
		if f < -1e-7 {
			return nil, fmt.Errorf("Hotine oblique Mercator: bad centre latitude")
		}
		f = 0
	} else {
		f = math.Sqrt(f)
		if phi0 < 0 {
			f = -f
		}
	}
	f += d
	p.E = float64(f * math.Pow(tsfn(phi0, sinph0, el.e), p.B))
	g0 := math.Sin(alphaC) / d
	if math.Abs(g0) > 1 {
		if math.Abs(g0) > 1+1e-14 {
			return nil, fmt.Errorf("Hotine oblique Mercator: azimuth %v impossible at latitude %v", alpha, latc)
		}
		g0 = math.Copysign(1, g0)
	}
	gamma0 := math.Asin(g0)
	s := float64(0.5*(f-1/f)) * math.Tan(gamma0)
	if math.Abs(s) > 1 {
		s = math.Copysign(1, s)
	}
	p.lam0 = lonc - deg(math.Asin(s)/p.B)
	p.singam, p.cosgam = math.Sincos(gamma0)
	p.sinrot, p.cosrot = math.Sincos(gam)
	p.rb = 1 / p.B
	p.arb = float64(p.A * p.rb)
	p.bra = 1 / p.arb
	if !variantA {
		p.u0 = math.Abs(float64(p.arb * math.Atan(math.Sqrt(math.Max(0, float64(d*d)-1))/math.Cos(alphaC))))
		if phi0 < 0 {
			p.u0 = -p.u0
		}
	}
	h := float64(0.5 * gamma0)
	p.vPoleN = float64(p.arb * math.Log(math.Tan(math.Pi/4-h)))
	p.vPoleS = float64(p.arb * math.Log(math.Tan(math.Pi/4+h)))
	return p, nil
}

func (p *hotine) Forward(lon, lat float64) (float64, float64, error) {
	lam, phi, err := forwardRadians(lon, lat, p.lam0)
	if err != nil {
		return 0, 0, err
	}
	var u, v float64
	if math.Abs(math.Abs(phi)-math.Pi/2) > 1e-10 {
		w := p.E / math.Pow(tsfn(phi, math.Sin(phi), p.e), p.B)
		temp := 1 / w
		s := 0.5 * (w - temp)
		t := 0.5 * (w + temp)
		vv := math.Sin(float64(p.B * lam))
		uu := (float64(s*p.singam) - float64(vv*p.cosgam)) / t
		if math.Abs(math.Abs(uu)-1) < 1e-10 {
			return 0, 0, outside("(%v, %v) projects to infinity", lon, lat)
		}
		v = float64(float64(0.5*p.arb) * math.Log((1-uu)/(1+uu)))
		temp = math.Cos(float64(p.B * lam))
		if math.Abs(temp) < 1e-7 {
			u = float64(p.A * lam)
		} else {
			u = float64(p.arb * math.Atan2(float64(s*p.cosgam)+float64(vv*p.singam), temp))
		}
	} else {
		v = p.vPoleS
		if phi > 0 {
			v = p.vPoleN
		}
		u = float64(p.arb * phi)
	}
	u -= p.u0
	x := float64(v*p.cosrot) + float64(u*p.sinrot)
	y := float64(u*p.cosrot) - float64(v*p.sinrot)
	return finiteXY(p.fe+float64(p.a*x), p.fn+float64(p.a*y), "Hotine oblique Mercator")
}

func (p *hotine) Inverse(x, y float64) (float64, float64, error) {
	x = (x - p.fe) / p.a
	y = (y - p.fn) / p.a
	v := float64(x*p.cosrot) - float64(y*p.sinrot)
	u := float64(y*p.cosrot) + float64(x*p.sinrot) + p.u0
	qp := math.Exp(-float64(p.bra * v))
	if qp == 0 || math.IsInf(qp, 0) {
		return 0, 0, outside("(%v, %v) has no inverse", x, y)
	}
	temp := 1 / qp
	sp := 0.5 * (qp - temp)
	tp := 0.5 * (qp + temp)
	vp := math.Sin(float64(p.bra * u))
	up := (float64(vp*p.cosgam) + float64(sp*p.singam)) / tp
	var lam, phi float64
	if math.Abs(math.Abs(up)-1) < 1e-10 {
		phi = math.Copysign(math.Pi/2, up)
	} else {
		phi = p.E / math.Sqrt((1+up)/(1-up))
		phi = phi2(math.Pow(phi, 1/p.B), p.e, p.e2)
		lam = -float64(p.rb * math.Atan2(float64(sp*p.cosgam)-float64(vp*p.singam), math.Cos(float64(p.bra*u))))
	}
	if math.IsNaN(phi) || math.IsNaN(lam) {
		return 0, 0, outside("(%v, %v) has no inverse", x, y)
	}
	return lonOf(lam, p.lam0), deg(phi), nil
}
