package proj

import "math"

// laeaMode is the aspect of a Lambert azimuthal equal-area projection.
type laeaMode int

const (
	laeaNorth laeaMode = iota
	laeaSouth
	laeaEquatorial
	laeaOblique
)

// lambertAzimuthal is the Lambert azimuthal equal-area projection (EPSG
// method 9820; 1027 on the authalic sphere), PROJ's +proj=laea: Snyder's
// formulas 24-1 to 24-31 through the authalic latitude; the inverse
// latitude by PROJ 9.1's series in e² (pj_authlat), so that inverses
// agree with PROJ's.
type lambertAzimuthal struct {
	a, e, e2, oneEs      float64
	lon0, lat0, fe, fn   float64
	mode                 laeaMode
	qp, rq, dd, xmf, ymf float64
	sinb1, cosb1         float64
	sinph0, cosph0       float64 // spherical case
	apa                  authalicCoeffs
}

func newLAEA(el Ellipsoid, lat0, lon0, fe, fn float64) (*lambertAzimuthal, error) {
	p := &lambertAzimuthal{a: el.A, e: el.e, e2: el.e2, oneEs: 1 - el.e2, lon0: lon0, lat0: lat0, fe: fe, fn: fn}
	phi0 := Radians(lat0)
	t := math.Abs(phi0)
	switch {
	case math.Abs(t-math.Pi/2) < 1e-10:
		p.mode = laeaNorth
		if phi0 < 0 {
			p.mode = laeaSouth
		}
	case t < 1e-10:
		p.mode = laeaEquatorial
	default:
		p.mode = laeaOblique
	}
	if el.e2 == 0 {
		p.sinph0, p.cosph0 = math.Sincos(phi0)
		return p, nil
	}
	p.qp = qsfn(1, el.e, p.oneEs)
	p.apa = newAuthalicCoeffs(el.e2)
	switch p.mode {
	case laeaNorth, laeaSouth:
		p.dd = 1
	case laeaEquatorial:
		p.rq = math.Sqrt(0.5 * p.qp)
		p.dd = 1 / p.rq
		p.xmf = 1
		p.ymf = 0.5 * p.qp
	case laeaOblique:
		p.rq = math.Sqrt(0.5 * p.qp)
		sinphi := math.Sin(phi0)
		p.sinb1 = qsfn(sinphi, el.e, p.oneEs) / p.qp
		p.cosb1 = math.Sqrt(1 - float64(p.sinb1*p.sinb1))
		p.dd = math.Cos(phi0) / float64(float64(math.Sqrt(1-float64(float64(el.e2*sinphi)*sinphi))*p.rq)*p.cosb1)
		p.xmf = p.rq
		p.ymf = p.xmf / p.dd
		p.xmf *= p.dd
	}
	return p, nil
}

func (p *lambertAzimuthal) Forward(lon, lat float64) (float64, float64, error) {
	lam, phi, err := forwardRadians(lon, lat, p.lon0)
	if err != nil {
		return 0, 0, err
	}
	var x, y float64
	if p.e2 == 0 {
		var ok bool
		if x, y, ok = p.sphericalForward(lam, phi); !ok {
			return 0, 0, outside("(%v, %v) is the antipode of the projection's centre", lon, lat)
		}
		return p.fe + float64(p.a*x), p.fn + float64(p.a*y), nil
	}
	sinlam, coslam := math.Sincos(lam)
	q := qsfn(math.Sin(phi), p.e, p.oneEs)
	var sinb, cosb, b float64
	if p.mode == laeaOblique || p.mode == laeaEquatorial {
		sinb = q / p.qp
		cosb2 := 1 - float64(sinb*sinb)
		if cosb2 > 0 {
			cosb = math.Sqrt(cosb2)
		}
	}
	switch p.mode {
	case laeaOblique:
		b = 1 + float64(p.sinb1*sinb) + float64(float64(p.cosb1*cosb)*coslam)
	case laeaEquatorial:
		b = 1 + float64(cosb*coslam)
	case laeaNorth:
		b = math.Pi/2 + phi
		q = p.qp - q
	case laeaSouth:
		b = phi - math.Pi/2
		q = p.qp + q
	}
	if math.Abs(b) < 1e-10 {
		return 0, 0, outside("(%v, %v) is the antipode of the projection's centre", lon, lat)
	}
	switch p.mode {
	case laeaOblique, laeaEquatorial:
		b = math.Sqrt(2 / b)
		if p.mode == laeaOblique {
			y = float64(float64(p.ymf*b) * (float64(p.cosb1*sinb) - float64(float64(p.sinb1*cosb)*coslam)))
		} else {
			y = float64(float64(b*sinb) * p.ymf)
		}
		x = float64(float64(float64(p.xmf*b)*cosb) * sinlam)
	default:
		if q >= 0 {
			b = math.Sqrt(q)
			x = float64(b * sinlam)
			y = float64(coslam * b)
			if p.mode == laeaNorth {
				y = -y
			}
		}
	}
	return p.fe + float64(p.a*x), p.fn + float64(p.a*y), nil
}

// sphericalForward is Snyder's eq. 24-2 to 24-4 on the unit sphere.
func (p *lambertAzimuthal) sphericalForward(lam, phi float64) (x, y float64, ok bool) {
	sinphi, cosphi := math.Sincos(phi)
	sinlam, coslam := math.Sincos(lam)
	switch p.mode {
	case laeaEquatorial, laeaOblique:
		if p.mode == laeaEquatorial {
			y = 1 + float64(cosphi*coslam)
		} else {
			y = 1 + float64(p.sinph0*sinphi) + float64(float64(p.cosph0*cosphi)*coslam)
		}
		if y <= 1e-10 {
			return 0, 0, false
		}
		y = math.Sqrt(2 / y)
		x = float64(float64(y*cosphi) * sinlam)
		if p.mode == laeaEquatorial {
			y = float64(y * sinphi)
		} else {
			y = float64(y * (float64(p.cosph0*sinphi) - float64(float64(p.sinph0*cosphi)*coslam)))
		}
	default:
		if p.mode == laeaNorth {
			coslam = -coslam
		}
		if math.Abs(phi+Radians(p.lat0)) < 1e-10 {
			return 0, 0, false
		}
		y = math.Pi/4 - float64(phi*0.5)
		if p.mode == laeaSouth {
			y = math.Pi/4 + float64(phi*0.5)
		}
		y = 2 * math.Sin(y)
		x = float64(y * sinlam)
		y = float64(y * coslam)
	}
	return x, y, true
}

func (p *lambertAzimuthal) Inverse(x, y float64) (float64, float64, error) {
	x = (x - p.fe) / p.a
	y = (y - p.fn) / p.a
	if p.e2 == 0 {
		return p.sphericalInverse(x, y)
	}
	var ab float64
	switch p.mode {
	case laeaEquatorial, laeaOblique:
		x /= p.dd
		y *= p.dd
		rho := math.Hypot(x, y)
		if rho < 1e-10 {
			return p.lon0, p.lat0, nil
		}
		asinArg := 0.5 * rho / p.rq
		if asinArg > 1 {
			return 0, 0, outside("(%v, %v) beyond the projection's boundary", x, y)
		}
		sCe := 2 * math.Asin(asinArg)
		cCe := math.Cos(sCe)
		sCe = math.Sin(sCe)
		x *= sCe
		if p.mode == laeaOblique {
			ab = float64(cCe*p.sinb1) + float64(float64(y*sCe)*p.cosb1)/rho
			y = float64(float64(rho*p.cosb1)*cCe) - float64(float64(y*p.sinb1)*sCe)
		} else {
			ab = float64(y*sCe) / rho
			y = float64(rho * cCe)
		}
	default:
		if p.mode == laeaNorth {
			y = -y
		}
		q := float64(x*x) + float64(y*y)
		if q == 0 {
			return p.lon0, p.lat0, nil
		}
		ab = 1 - q/p.qp
		if p.mode == laeaSouth {
			ab = -ab
		}
	}
	if math.Abs(ab) > 1 {
		return 0, 0, outside("(%v, %v) beyond the projection's boundary", x, y)
	}
	lam := math.Atan2(x, y)
	phi := p.apa.latitude(math.Asin(ab))
	return lonOf(lam, p.lon0), deg(phi), nil
}

// sphericalInverse is Snyder's eq. 24-16 to 24-18 on the unit sphere.
func (p *lambertAzimuthal) sphericalInverse(x, y float64) (float64, float64, error) {
	rh := math.Hypot(x, y)
	phi := rh * 0.5
	if phi > 1 {
		return 0, 0, outside("(%v, %v) beyond the projection's boundary", x, y)
	}
	phi = 2 * math.Asin(phi)
	var lam float64
	switch p.mode {
	case laeaEquatorial, laeaOblique:
		sinz, cosz := math.Sincos(phi)
		if p.mode == laeaEquatorial {
			if math.Abs(rh) <= 1e-10 {
				phi = 0
			} else {
				phi = math.Asin(float64(y*sinz) / rh)
			}
			x *= sinz
			y = float64(cosz * rh)
		} else {
			if math.Abs(rh) <= 1e-10 {
				phi = Radians(p.lat0)
			} else {
				phi = math.Asin(float64(cosz*p.sinph0) + float64(float64(y*sinz)*p.cosph0)/rh)
			}
			x *= float64(sinz * p.cosph0)
			y = float64((cosz - float64(math.Sin(phi)*p.sinph0)) * rh)
		}
		if y == 0 && x == 0 {
			lam = 0
		} else {
			lam = math.Atan2(x, y)
		}
	case laeaNorth:
		phi = math.Pi/2 - phi
		lam = math.Atan2(x, -y)
	case laeaSouth:
		phi -= math.Pi / 2
		lam = math.Atan2(x, y)
	}
	return lonOf(lam, p.lon0), deg(phi), nil
}
