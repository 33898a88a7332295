package proj

import (
	"fmt"
	"math"
)

// mercator is the normal-aspect Mercator projection on the ellipsoid
// (EPSG methods 9804 variant A with a scale factor, 9805 variant B with a
// standard parallel), PROJ's +proj=merc: x = k0 λ, y = k0 ψ with ψ the
// isometric latitude.
type mercator struct {
	a, e, e2         float64
	lon0, k0, fe, fn float64
}

// newMercator prepares the projection; latTS is the standard parallel of
// variant B (k0 then follows from it), 0 for variant A with scale k0.
func newMercator(el Ellipsoid, lon0, latTS, k0, fe, fn float64) (*mercator, error) {
	if latTS != 0 {
		phits := math.Abs(Radians(latTS))
		if phits >= math.Pi/2 {
			return nil, fmt.Errorf("Mercator standard parallel %v", latTS)
		}
		s, c := math.Sincos(phits)
		k0 = msfn(s, c, el.e2)
	}
	if !(k0 > 0) {
		return nil, fmt.Errorf("Mercator scale factor %v", k0)
	}
	return &mercator{a: el.A, e: el.e, e2: el.e2, lon0: lon0, k0: k0, fe: fe, fn: fn}, nil
}

func (p *mercator) Forward(lon, lat float64) (float64, float64, error) {
	if err := CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	if math.Abs(math.Abs(lat)-90) <= 1e-10*RadToDeg {
		return 0, 0, outside("Mercator cannot represent the pole (latitude %v)", lat)
	}
	phi := Radians(lat)
	psi := math.Asinh(math.Tan(phi)) - float64(p.e*math.Atanh(float64(p.e*math.Sin(phi))))
	x := float64(p.k0 * lamOf(lon, p.lon0))
	y := float64(p.k0 * psi)
	return p.fe + float64(p.a*x), p.fn + float64(p.a*y), nil
}

func (p *mercator) Inverse(x, y float64) (float64, float64, error) {
	x = (x - p.fe) / p.a / p.k0
	y = (y - p.fn) / p.a / p.k0
	taup := math.Sinh(y)
	phi := math.Atan(taup)
	if p.e2 != 0 {
		phi = math.Atan(tauFromTaup(taup, p.e, p.e2))
	}
	return lonOf(x, p.lon0), deg(phi), nil
}

// pseudoMercator is EPSG method 1024, Popular Visualisation Pseudo
// Mercator (EPSG:3857), PROJ's +proj=webmerc: the spherical Mercator
// formulas with radius a applied to ellipsoidal longitude/latitude.
type pseudoMercator struct {
	a, lon0, fe, fn float64
}

func newPseudoMercator(a, lon0, fe, fn float64) *pseudoMercator {
	return &pseudoMercator{a: a, lon0: lon0, fe: fe, fn: fn}
}

// Forward wraps the longitude to [-180, 180] as PROJ does; the poles are
// outside the domain. Within ±85° it agrees with PROJ to well under a
// millimetre.
func (p *pseudoMercator) Forward(lon, lat float64) (float64, float64, error) {
	if err := CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	if math.Abs(lat) == 90 {
		return 0, 0, outside("Web Mercator cannot represent the pole (latitude %v)", lat)
	}
	x := float64(p.a * lamOf(lon, p.lon0))
	y := float64(p.a * math.Asinh(math.Tan(Radians(lat))))
	return p.fe + x, p.fn + y, nil
}

func (p *pseudoMercator) Inverse(x, y float64) (float64, float64, error) {
	lon := lonOf((x-p.fe)/p.a, p.lon0)
	lat := math.Atan(math.Sinh((y-p.fn)/p.a)) * RadToDeg
	return lon, lat, nil
}
