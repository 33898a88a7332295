package proj

import (
	"fmt"
	"math"
)

// SwissOblique is the Swiss oblique Mercator (the EPSG Hotine variant B
// with azimuth and rectified grid angle 90°, as CH1903/LV03 and LV95
// use), PROJ's +proj=somerc: the ellipsoid onto Gauss's sphere, then a
// transverse-oblique Mercator on the sphere.
type SwissOblique struct {
	a, e, hlfE, roneEs float64
	lon0, fe, fn       float64
	c, K, kR           float64
	sinp0, cosp0       float64
}

func newSwissOblique(el Ellipsoid, lat0, lon0, k0, fe, fn float64) (*SwissOblique, error) {
	if !(k0 > 0) {
		return nil, fmt.Errorf("Swiss oblique Mercator scale factor %v", k0)
	}
	phi0 := Radians(lat0)
	oneEs := 1 - el.e2
	p := &SwissOblique{a: el.A, e: el.e, hlfE: 0.5 * el.e, roneEs: 1 / oneEs, lon0: lon0, fe: fe, fn: fn}
	cp := math.Cos(phi0)
	cp = float64(cp * cp)
	p.c = math.Sqrt(1 + float64(float64(float64(el.e2*cp)*cp)*p.roneEs))
	sp := math.Sin(phi0)
	p.sinp0 = sp / p.c
	phip0 := math.Asin(p.sinp0)
	p.cosp0 = math.Cos(phip0)
	sp = float64(sp * el.e)
	p.K = math.Log(math.Tan(math.Pi/4+float64(0.5*phip0))) - float64(p.c*(math.Log(math.Tan(math.Pi/4+float64(0.5*phi0)))-float64(p.hlfE*math.Log((1+sp)/(1-sp)))))
	p.kR = float64(k0*math.Sqrt(oneEs)) / (1 - float64(sp*sp))
	return p, nil
}

func (p *SwissOblique) Forward(lon, lat float64) (float64, float64, error) {
	if err := CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	phi := Radians(lat)
	sp := float64(p.e * math.Sin(phi))
	phip := twoAtan(math.Exp(float64(p.c*(math.Log(math.Tan(math.Pi/4+float64(0.5*phi)))-float64(p.hlfE*math.Log((1+sp)/(1-sp)))))+p.K)) - math.Pi/2
	lamp := float64(p.c * lamOf(lon, p.lon0))
	cp := math.Cos(phip)
	phipp := asinClamp(float64(p.cosp0*math.Sin(phip)) - float64(float64(p.sinp0*cp)*math.Cos(lamp)))
	lampp := asinClamp(float64(cp*math.Sin(lamp)) / math.Cos(phipp))
	x := float64(p.kR * lampp)
	y := float64(p.kR * math.Log(math.Tan(math.Pi/4+float64(0.5*phipp))))
	return finiteXY(p.fe+float64(p.a*x), p.fn+float64(p.a*y), "Swiss oblique Mercator")
}

func (p *SwissOblique) Inverse(x, y float64) (float64, float64, error) {
	x = (x - p.fe) / p.a
	y = (y - p.fn) / p.a
	phipp := 2 * (math.Atan(math.Exp(y/p.kR)) - math.Pi/4)
	lampp := x / p.kR
	cp := math.Cos(phipp)
	phip := asinClamp(float64(p.cosp0*math.Sin(phipp)) + float64(float64(p.sinp0*cp)*math.Cos(lampp)))
	lamp := asinClamp(float64(cp*math.Sin(lampp)) / math.Cos(phip))
	con := (p.K - math.Log(math.Tan(math.Pi/4+float64(0.5*phip)))) / p.c
	phi := phip
	ok := false
	for range 6 {
		esp := float64(p.e * math.Sin(phi))
		delp := float64(float64(float64((con+math.Log(math.Tan(math.Pi/4+float64(0.5*phi)))-float64(p.hlfE*math.Log((1+esp)/(1-esp))))*(1-float64(esp*esp)))*math.Cos(phi)) * p.roneEs)
		phi -= delp
		if math.Abs(delp) < 1e-10 {
			ok = true
			break
		}
	}
	if !ok || math.IsNaN(phi) {
		return 0, 0, outside("(%v, %v) has no inverse", x, y)
	}
	return lonOf(lamp/p.c, p.lon0), deg(phi), nil
}

// asinClamp is asin with its argument clamped to [-1, 1] (PROJ's aasin).
func asinClamp(v float64) float64 {
	if v > 1 {
		v = 1
	} else if v < -1 {
		v = -1
	}
	return math.Asin(v)
}
