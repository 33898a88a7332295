package proj

import "math"

// equalEarth is the Equal Earth projection (EPSG method 1078, Šavrič,
// Patterson and Jenny 2018) on the ellipsoid through the authalic
// latitude, PROJ's +proj=eqearth.
type equalEarth struct {
	a, e, e2, qp, rqda float64
	lon0, fe, fn       float64
	apa                authalicCoeffs
}

const (
	eqeA1 = 1.340264
	eqeA2 = -0.081106
	eqeA3 = 0.000893
	eqeA4 = 0.003796
	eqeM  = 0.8660254037844386 // √3/2
)

func newEqualEarth(el Ellipsoid, lon0, fe, fn float64) *equalEarth {
	p := &equalEarth{a: el.A, e: el.e, e2: el.e2, lon0: lon0, fe: fe, fn: fn, rqda: 1}
	if el.e2 != 0 {
		p.apa = newAuthalicCoeffs(el.e2)
		p.qp = qsfn(1, el.e, 1-el.e2)
		p.rqda = math.Sqrt(0.5 * p.qp)
	}
	return p
}

func (p *equalEarth) Forward(lon, lat float64) (float64, float64, error) {
	if err := CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	sbeta := math.Sin(Radians(lat))
	if p.e2 != 0 {
		sbeta = qsfn(sbeta, p.e, 1-p.e2) / p.qp
		if math.Abs(sbeta) > 1 {
			sbeta = math.Copysign(1, sbeta)
		}
	}
	psi := math.Asin(float64(eqeM * sbeta))
	psi2 := float64(psi * psi)
	psi6 := float64(float64(psi2*psi2) * psi2)
	x := float64(lamOf(lon, p.lon0)*math.Cos(psi)) / float64(eqeM*(eqeA1+float64(3*eqeA2*psi2)+float64(psi6*(7*eqeA3+float64(9*eqeA4*psi2)))))
	y := float64(psi * (eqeA1 + float64(eqeA2*psi2) + float64(psi6*(eqeA3+float64(eqeA4*psi2)))))
	return p.fe + float64(p.a*float64(x*p.rqda)), p.fn + float64(p.a*float64(y*p.rqda)), nil
}

func (p *equalEarth) Inverse(x, y float64) (float64, float64, error) {
	x = (x - p.fe) / p.a / p.rqda
	y = (y - p.fn) / p.a / p.rqda
	const maxY = 1.3173627591574 // y at the pole
	if y > maxY {
		y = maxY
	} else if y < -maxY {
		y = -maxY
	}
	psi := y
	for range 12 {
		psi2 := float64(psi * psi)
		psi6 := float64(float64(psi2*psi2) * psi2)
		fy := float64(psi*(eqeA1+float64(eqeA2*psi2)+float64(psi6*(eqeA3+float64(eqeA4*psi2))))) - y
		fpsi := eqeA1 + float64(3*eqeA2*psi2) + float64(psi6*(7*eqeA3+float64(9*eqeA4*psi2)))
		d := fy / fpsi
		psi -= d
		if math.Abs(d) < 1e-11 {
			break
		}
	}
	psi2 := float64(psi * psi)
	psi6 := float64(float64(psi2*psi2) * psi2)
	lam := float64(float64(eqeM*x)*(eqeA1+float64(3*eqeA2*psi2)+float64(psi6*(7*eqeA3+float64(9*eqeA4*psi2))))) / math.Cos(psi)
	beta := math.Asin(math.Sin(psi) / eqeM)
	phi := beta
	if p.e2 != 0 {
		phi = p.apa.latitude(beta)
	}
	if math.Abs(lam) > math.Pi {
		return 0, 0, outside("(%v, %v) beyond the projection's boundary", x, y)
	}
	return lonOf(lam, p.lon0), deg(phi), nil
}
