package proj

import (
	"fmt"
	"math"
)

// cylindricalEqualArea is the Lambert cylindrical equal-area projection
// (EPSG method 9835, e.g. the EASE-Grid 2.0), PROJ's +proj=cea.
type cylindricalEqualArea struct {
	a, e, e2, oneEs, qp, k0 float64
	lon0, fe, fn            float64
	apa                     authalicCoeffs
}

func newCylindricalEqualArea(el Ellipsoid, lon0, latTS, fe, fn float64) (*cylindricalEqualArea, error) {
	t := Radians(latTS)
	if math.Abs(t) >= math.Pi/2 {
		return nil, fmt.Errorf("cylindrical equal-area standard parallel %v", latTS)
	}
	p := &cylindricalEqualArea{a: el.A, e: el.e, e2: el.e2, oneEs: 1 - el.e2, lon0: lon0, fe: fe, fn: fn}
	p.k0 = math.Cos(t)
	if el.e2 != 0 {
		s := math.Sin(t)
		p.k0 /= math.Sqrt(1 - float64(float64(el.e2*s)*s))
		p.apa = newAuthalicCoeffs(el.e2)
		p.qp = qsfn(1, el.e, p.oneEs)
	}
	return p, nil
}

func (p *cylindricalEqualArea) Forward(lon, lat float64) (float64, float64, error) {
	if err := CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	x := float64(p.k0 * lamOf(lon, p.lon0))
	var y float64
	if p.e2 != 0 {
		y = float64(0.5*qsfn(math.Sin(Radians(lat)), p.e, p.oneEs)) / p.k0
	} else {
		y = math.Sin(Radians(lat)) / p.k0
	}
	return p.fe + float64(p.a*x), p.fn + float64(p.a*y), nil
}

func (p *cylindricalEqualArea) Inverse(x, y float64) (float64, float64, error) {
	x = (x - p.fe) / p.a
	y = (y - p.fn) / p.a
	var phi float64
	if p.e2 != 0 {
		s := float64(float64(2*y)*p.k0) / p.qp
		if math.Abs(s) > 1+1e-11 {
			return 0, 0, outside("(%v, %v) beyond the poles", x, y)
		}
		phi = p.apa.latitude(asinClamp(s))
	} else {
		s := float64(y * p.k0)
		if math.Abs(s) > 1+1e-11 {
			return 0, 0, outside("(%v, %v) beyond the poles", x, y)
		}
		phi = asinClamp(s)
	}
	return lonOf(x/p.k0, p.lon0), deg(phi), nil
}

// equidistantCylindrical is the equidistant cylindrical projection (EPSG
// method 1028), PROJ's +proj=eqc: the spherical formulas with radius a
// (PROJ applies them to ellipsoidal CRSs too).
type equidistantCylindrical struct {
	a, rc, phi0  float64
	lon0, fe, fn float64
}

func newEquidistantCylindrical(el Ellipsoid, lon0, latTS, lat0, fe, fn float64) *equidistantCylindrical {
	return &equidistantCylindrical{a: el.A, rc: math.Cos(Radians(latTS)), phi0: Radians(lat0), lon0: lon0, fe: fe, fn: fn}
}

func (p *equidistantCylindrical) Forward(lon, lat float64) (float64, float64, error) {
	if err := CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	x := float64(p.rc * lamOf(lon, p.lon0))
	y := (Radians(lat)) - p.phi0
	return p.fe + float64(p.a*x), p.fn + float64(p.a*y), nil
}

func (p *equidistantCylindrical) Inverse(x, y float64) (float64, float64, error) {
	x = (x - p.fe) / p.a
	y = (y - p.fn) / p.a
	phi := y + p.phi0
	if math.Abs(phi) > math.Pi/2 {
		return 0, 0, outside("(%v, %v) beyond the poles", x, y)
	}
	return lonOf(x/p.rc, p.lon0), deg(phi), nil
}
