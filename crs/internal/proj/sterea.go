package proj

import (
	"fmt"
	"math"
)

// obliqueStereo is the oblique stereographic projection (EPSG method 9809,
// "double stereographic"), PROJ's +proj=sterea: the ellipsoid is mapped
// conformally onto Gauss's sphere, then projected stereographically from
// the origin's antipode (EPSG Guidance Note 7-2, §3.2.2.2).
type obliqueStereo struct {
	a, e               float64
	lon0, k0, fe, fn   float64
	gC, gK, ratexp     float64 // Gauss sphere: λ' = C·λ, tan(π/4 + χ/2) = K·...
	phic0, sinc0, cosc float64
	r2                 float64 // 2R, R the sphere radius in units of a
}

func newObliqueStereo(el Ellipsoid, lat0, lon0, k0, fe, fn float64) (*obliqueStereo, error) {
	if !(k0 > 0) {
		return nil, fmt.Errorf("oblique stereographic scale factor %v", k0)
	}
	phi0 := Radians(lat0)
	p := &obliqueStereo{a: el.A, e: el.e, lon0: lon0, k0: k0, fe: fe, fn: fn}
	sphi := math.Sin(phi0)
	cphi := math.Cos(phi0)
	cphi = float64(cphi * cphi)
	r := math.Sqrt(1-el.e2) / (1 - float64(float64(el.e2*sphi)*sphi))
	p.gC = math.Sqrt(1 + float64(float64(el.e2*cphi)*cphi)/(1-el.e2))
	chi := math.Asin(sphi / p.gC)
	p.ratexp = float64(0.5 * float64(p.gC*el.e))
	p.gK = math.Tan(float64(0.5*chi)+math.Pi/4) / float64(math.Pow(math.Tan(float64(0.5*phi0)+math.Pi/4), p.gC)*srat(float64(el.e*sphi), p.ratexp))
	p.phic0 = chi
	p.sinc0, p.cosc = math.Sincos(chi)
	p.r2 = 2 * r
	return p, nil
}

// srat is ((1 - x)/(1 + x))^ratexp.
func srat(x, ratexp float64) float64 { return math.Pow((1-x)/(1+x), ratexp) }

// gauss maps ellipsoidal (λ, φ) to the conformal sphere.
func (p *obliqueStereo) gauss(lam, phi float64) (float64, float64) {
	chi := twoAtan(float64(float64(p.gK*math.Pow(math.Tan(float64(0.5*phi)+math.Pi/4), p.gC))*srat(float64(p.e*math.Sin(phi)), p.ratexp))) - math.Pi/2
	return float64(p.gC * lam), chi
}

// invGauss maps the sphere back to the ellipsoid (fixed-point iteration
// to 1e-14 radians, as PROJ's pj_inv_gauss).
func (p *obliqueStereo) invGauss(lam, chi float64) (float64, float64) {
	lam /= p.gC
	num := math.Pow(math.Tan(float64(0.5*chi)+math.Pi/4)/p.gK, 1/p.gC)
	phi := chi
	for range 20 {
		next := twoAtan(float64(num*srat(float64(p.e*math.Sin(phi)), -0.5*p.e))) - math.Pi/2
		if math.Abs(next-phi) < 1e-14 {
			phi = next
			break
		}
		phi = next
	}
	return lam, phi
}

func (p *obliqueStereo) Forward(lon, lat float64) (float64, float64, error) {
	if err := CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	lam, chi := p.gauss(lamOf(lon, p.lon0), Radians(lat))
	sinc, cosc := math.Sincos(chi)
	sinl, cosl := math.Sincos(lam)
	denom := 1 + float64(p.sinc0*sinc) + float64(float64(p.cosc*cosc)*cosl)
	if denom <= 0 {
		return 0, 0, outside("(%v, %v) is the antipode of the projection's origin", lon, lat)
	}
	k := float64(p.k0*p.r2) / denom
	x := float64(float64(k*cosc) * sinl)
	y := float64(k * (float64(p.cosc*sinc) - float64(float64(p.sinc0*cosc)*cosl)))
	return finiteXY(p.fe+float64(p.a*x), p.fn+float64(p.a*y), "oblique stereographic")
}

func (p *obliqueStereo) Inverse(x, y float64) (float64, float64, error) {
	x = (x - p.fe) / p.a / p.k0
	y = (y - p.fn) / p.a / p.k0
	rho := math.Hypot(x, y)
	chi, lam := p.phic0, 0.0
	if rho != 0 {
		c := 2 * math.Atan2(rho, p.r2)
		sinc, cosc := math.Sincos(c)
		chi = math.Asin(float64(cosc*p.sinc0) + float64(float64(y*sinc)*p.cosc)/rho)
		lam = math.Atan2(float64(x*sinc), float64(float64(rho*p.cosc)*cosc)-float64(float64(y*p.sinc0)*sinc))
	}
	lam, phi := p.invGauss(lam, chi)
	return lonOf(lam, p.lon0), deg(phi), nil
}
