package proj

import (
	"fmt"
	"math"
)

// polarStereo is the polar stereographic projection on the ellipsoid
// (EPSG methods 9810 variant A, scale at the pole, and 9829 variant B,
// true scale at a standard parallel), PROJ's +proj=stere with lat_0 = ±90:
// Snyder's formulas 21-33 to 21-40. In the north aspect y grows away from
// the central meridian's half (y = -ρ cos λ), in the south towards it.
type polarStereo struct {
	a, e, e2     float64
	north        bool
	lon0, fe, fn float64
	akm1         float64
}

// newPolarStereo prepares the projection centred on the north or south
// pole; latTS is the standard parallel in degrees (±90 for variant A, which
// takes the scale k0 at the pole).
func newPolarStereo(el Ellipsoid, north bool, lon0, latTS, k0, fe, fn float64) (*polarStereo, error) {
	phits := math.Abs(Radians(latTS))
	p := &polarStereo{a: el.A, e: el.e, e2: el.e2, north: north, lon0: lon0, fe: fe, fn: fn}
	if !(k0 > 0) {
		return nil, fmt.Errorf("polar stereographic scale factor %v", k0)
	}
	if math.Abs(phits-math.Pi/2) < 1e-10 {
		if el.e2 == 0 {
			p.akm1 = 2 * k0
		} else {
			p.akm1 = float64(2*k0) / math.Sqrt(float64(math.Pow(1+el.e, 1+el.e)*math.Pow(1-el.e, 1-el.e)))
		}
	} else {
		s, c := math.Sincos(phits)
		if el.e2 == 0 {
			p.akm1 = c / math.Tan(math.Pi/4-float64(0.5*phits))
		} else {
			p.akm1 = c / tsfn(phits, s, el.e)
			t := float64(s * el.e)
			p.akm1 /= math.Sqrt(1 - float64(t*t))
		}
	}
	return p, nil
}

// forward: ρ = akm1·t(φ') with φ' the latitude measured towards the
// centre pole; x = ρ sin λ, y = ∓ρ cos λ (north, south).
func (p *polarStereo) Forward(lon, lat float64) (float64, float64, error) {
	if err := CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	phi := Radians(lat)
	sinlam, coslam := math.Sincos(lamOf(lon, p.lon0))
	if !p.north {
		phi, coslam = -phi, -coslam
	}
	if phi <= -math.Pi/2+1e-15 {
		return 0, 0, outside("latitude %v is the pole opposite the projection's centre", lat)
	}
	var rho float64
	if p.e2 == 0 {
		rho = float64(p.akm1 * math.Tan(math.Pi/4-float64(0.5*phi)))
	} else {
		rho = float64(p.akm1 * tsfn(phi, math.Sin(phi), p.e))
	}
	x := float64(rho * sinlam)
	y := -float64(rho * coslam)
	return finiteXY(p.fe+float64(p.a*x), p.fn+float64(p.a*y), "polar stereographic")
}

func (p *polarStereo) Inverse(x, y float64) (float64, float64, error) {
	x = (x - p.fe) / p.a
	y = (y - p.fn) / p.a
	if p.north {
		y = -y
	}
	rho := math.Hypot(x, y)
	var phi float64
	if p.e2 == 0 {
		phi = math.Pi/2 - twoAtan(rho/p.akm1)
	} else {
		phi = phi2(rho/p.akm1, p.e, p.e2)
	}
	lam := 0.0
	if rho != 0 {
		lam = math.Atan2(x, y)
	}
	if !p.north {
		phi = -phi
	}
	return lonOf(lam, p.lon0), deg(phi), nil
}
