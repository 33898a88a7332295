package proj

import (
	"fmt"
	"math"
)

// albers is the Albers equal-area conic projection (EPSG method 9822),
// PROJ's +proj=aea: Snyder's formulas 14-1 to 14-21 on the ellipsoid, the
// inverse latitude by Newton's method on q (Snyder eq. 3-16).
type albers struct {
	a, e, e2, oneEs float64
	lon0, fe, fn    float64
	n, c, dd, rho0  float64
	ec              float64 // q at the pole
}

func newAlbers(el Ellipsoid, lat0, lon0, lat1, lat2, fe, fn float64) (*albers, error) {
	phi0, phi1, phi2v := (Radians(lat0)), (Radians(lat1)), (Radians(lat2))
	if math.Abs(phi1+phi2v) < 1e-10 {
		return nil, fmt.Errorf("Albers with standard parallels %v and %v symmetric about the equator", lat1, lat2)
	}
	p := &albers{a: el.A, e: el.e, e2: el.e2, oneEs: 1 - el.e2, lon0: lon0, fe: fe, fn: fn}
	sinphi, cosphi := math.Sincos(phi1)
	n := sinphi
	secant := math.Abs(phi1-phi2v) >= 1e-10
	if el.e2 == 0 {
		if secant {
			n = 0.5 * (n + math.Sin(phi2v))
		}
		p.n = n
		p.c = float64(cosphi*cosphi) + float64(2*n*sinphi)
		p.dd = 1 / n
		p.rho0 = float64(p.dd * math.Sqrt(p.c-float64(2*n*math.Sin(phi0))))
		return p, nil
	}
	m1 := msfn(sinphi, cosphi, el.e2)
	ml1 := qsfn(sinphi, el.e, p.oneEs)
	if secant {
		s2, c2 := math.Sincos(phi2v)
		m2 := msfn(s2, c2, el.e2)
		ml2 := qsfn(s2, el.e, p.oneEs)
		if ml2 == ml1 {
			return nil, fmt.Errorf("Albers: degenerate cone")
		}
		n = (float64(m1*m1) - float64(m2*m2)) / (ml2 - ml1)
	}
	p.n = n
	p.ec = 1 - float64(0.5*p.oneEs)*math.Log((1-el.e)/(1+el.e))/el.e
	p.c = float64(m1*m1) + float64(n*ml1)
	p.dd = 1 / n
	p.rho0 = float64(p.dd * math.Sqrt(p.c-float64(n*qsfn(math.Sin(phi0), el.e, p.oneEs))))
	if math.IsNaN(p.rho0) {
		return nil, fmt.Errorf("Albers: latitude of origin %v outside the cone", lat0)
	}
	return p, nil
}

func (p *albers) Forward(lon, lat float64) (float64, float64, error) {
	if err := CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	phi := Radians(lat)
	var rho float64
	if p.e2 == 0 {
		rho = p.c - float64(2*p.n*math.Sin(phi))
	} else {
		rho = p.c - float64(p.n*qsfn(math.Sin(phi), p.e, p.oneEs))
	}
	if rho < 0 {
		return 0, 0, outside("latitude %v beyond the Albers cone", lat)
	}
	rho = float64(p.dd * math.Sqrt(rho))
	s, c := math.Sincos(float64(lamOf(lon, p.lon0) * p.n))
	return finiteXY(p.fe+float64(p.a*float64(rho*s)), p.fn+float64(p.a*(p.rho0-float64(rho*c))), "Albers")
}

func (p *albers) Inverse(x, y float64) (float64, float64, error) {
	x = (x - p.fe) / p.a
	y = p.rho0 - (y-p.fn)/p.a
	rho := math.Hypot(x, y)
	if rho == 0 {
		return p.lon0, math.Copysign(90, p.n), nil
	}
	if p.n < 0 {
		rho, x, y = -rho, -x, -y
	}
	q := rho / p.dd
	var phi float64
	if p.e2 == 0 {
		s := (p.c - float64(q*q)) / (p.n + p.n)
		if math.Abs(s) > 1 {
			return 0, 0, outside("(%v, %v) outside the Albers cone", x, y)
		}
		phi = math.Asin(s)
	} else {
		q = (p.c - float64(q*q)) / p.n
		if math.Abs(p.ec-math.Abs(q)) > 1e-7 {
			var ok bool
			if phi, ok = albersLatitude(q, p.e, p.oneEs); !ok {
				return 0, 0, outside("no latitude for q = %v", q)
			}
		} else {
			phi = math.Copysign(math.Pi/2, q)
		}
	}
	return lonOf(math.Atan2(x, y)/p.n, p.lon0), deg(phi), nil
}

// albersLatitude solves q(φ) = qs for φ by Newton's method (Snyder eq.
// 3-16), PROJ's phi1_.
func albersLatitude(qs, e, oneEs float64) (float64, bool) {
	if math.Abs(qs) > 2 {
		return 0, false
	}
	phi := math.Asin(0.5 * qs)
	if e < 1e-7 {
		return phi, true
	}
	for range 15 {
		s, c := math.Sincos(phi)
		con := float64(e * s)
		com := 1 - float64(con*con)
		dphi := float64(float64(float64(float64(0.5*com)*com)/c) * (qs/oneEs - s/com + float64(0.5/e*math.Log((1-con)/(1+con)))))
		phi += dphi
		if math.Abs(dphi) <= 1e-10 {
			return phi, !math.IsNaN(phi)
		}
	}
	return 0, false
}
