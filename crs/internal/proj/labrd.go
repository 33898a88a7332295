package proj

import (
	"fmt"
	"math"
)

// laborde is the Laborde oblique Mercator projection of Madagascar (EPSG
// method 9813), PROJ's +proj=labrd: a conformal sphere, an oblique
// Mercator and a third-order complex correction, with PROJ's series
// inverse.
type laborde struct {
	a, e, oneEs        float64
	lon0, fe, fn       float64
	phi0, k0, kRg, p0s float64
	A, C               float64
	Ca, Cb, Cc, Cd     float64
}

func newLaborde(el Ellipsoid, latc, lonc, azimuth, k0, fe, fn float64) (*laborde, error) {
	if !(k0 > 0) {
		return nil, fmt.Errorf("Laborde scale factor %v", k0)
	}
	phi0 := Radians(latc)
	az := Radians(azimuth)
	p := &laborde{a: el.A, e: el.e, oneEs: 1 - el.e2, lon0: lonc, fe: fe, fn: fn, phi0: phi0, k0: k0}
	sinp := math.Sin(phi0)
	t := 1 - float64(float64(el.e2*sinp)*sinp)
	n := 1 / math.Sqrt(t)
	r := float64(p.oneEs*n) / t
	p.kRg = float64(k0 * math.Sqrt(float64(n*r)))
	p.p0s = math.Atan(float64(math.Sqrt(r/n) * math.Tan(phi0)))
	p.A = sinp / math.Sin(p.p0s)
	t = float64(el.e * sinp)
	p.C = float64(float64(float64(0.5*el.e)*p.A)*math.Log((1+t)/(1-t))) + (-float64(p.A*math.Log(math.Tan(math.Pi/4+float64(0.5*phi0)))) + math.Log(math.Tan(math.Pi/4+float64(0.5*p.p0s))))
	t = az + az
	p.Cb = 1 / float64(12*float64(p.kRg*p.kRg))
	p.Ca = float64((1 - math.Cos(t)) * p.Cb)
	p.Cb = float64(p.Cb * math.Sin(t))
	p.Cc = float64(3 * (float64(p.Ca*p.Ca) - float64(p.Cb*p.Cb)))
	p.Cd = float64(6 * float64(p.Ca*p.Cb))
	return p, nil
}

func (p *laborde) Forward(lon, lat float64) (float64, float64, error) {
	lam, phi, err := forwardRadians(lon, lat, p.lon0)
	if err != nil {
		return 0, 0, err
	}
	v1 := float64(p.A * math.Log(math.Tan(math.Pi/4+float64(0.5*phi))))
	t := float64(p.e * math.Sin(phi))
	v2 := float64(float64(float64(0.5*p.e)*p.A) * math.Log((1+t)/(1-t)))
	ps := 2 * (math.Atan(math.Exp(v1-v2+p.C)) - math.Pi/4)
	i1 := ps - p.p0s
	cosps := math.Cos(ps)
	cosps2 := float64(cosps * cosps)
	sinps := math.Sin(ps)
	sinps2 := float64(sinps * sinps)
	i4 := float64(p.A * cosps)
	i2 := float64(float64(float64(0.5*p.A)*i4) * sinps)
	i3 := float64(float64(float64(float64(i2*p.A)*p.A)*(float64(5*cosps2)-sinps2)) / 12)
	i6 := float64(float64(i4*p.A) * p.A)
	i5 := float64(i6*(cosps2-sinps2)) / 6
	i6 = float64(float64(float64(i6*p.A)*p.A)*(float64(5*float64(cosps2*cosps2))+float64(sinps2*(sinps2-float64(18*cosps2))))) / 120
	t = float64(lam * lam)
	x := float64(float64(p.kRg*lam) * (i4 + float64(t*(i5+float64(t*i6)))))
	y := float64(p.kRg * (i1 + float64(t*(i2+float64(t*i3)))))
	x2 := float64(x * x)
	y2 := float64(y * y)
	v1 = float64(float64(3*x)*y2) - float64(x*x2)
	v2 = float64(y*y2) - float64(float64(3*x2)*y)
	x += float64(p.Ca*v1) + float64(p.Cb*v2)
	y += float64(p.Ca*v2) - float64(p.Cb*v1)
	return finiteXY(p.fe+float64(p.a*x), p.fn+float64(p.a*y), "Laborde")
}

func (p *laborde) Inverse(x, y float64) (float64, float64, error) {
	x = (x - p.fe) / p.a
	y = (y - p.fn) / p.a
	x2 := float64(x * x)
	y2 := float64(y * y)
	v1 := float64(float64(3*x)*y2) - float64(x*x2)
	v2 := float64(y*y2) - float64(float64(3*x2)*y)
	v3 := float64(x * (float64(5*float64(y2*y2)) + float64(x2*(float64(-10*y2)+x2))))
	v4 := float64(y * (float64(5*float64(x2*x2)) + float64(y2*(float64(-10*x2)+y2))))
	x += -float64(p.Ca*v1) - float64(p.Cb*v2) + float64(p.Cc*v3) + float64(p.Cd*v4)
	y += float64(p.Cb*v1) - float64(p.Ca*v2) - float64(p.Cd*v3) + float64(p.Cc*v4)
	ps := p.p0s + y/p.kRg
	pe := ps + p.phi0 - p.p0s
	for range 20 {
		v1 = float64(p.A * math.Log(math.Tan(math.Pi/4+float64(0.5*pe))))
		tpe := float64(p.e * math.Sin(pe))
		v2 = float64(float64(float64(0.5*p.e)*p.A) * math.Log((1+tpe)/(1-tpe)))
		t := ps - 2*(math.Atan(math.Exp(v1-v2+p.C))-math.Pi/4)
		pe += t
		if math.Abs(t) < 1e-10 {
			break
		}
	}
	t := float64(p.e * math.Sin(pe))
	t = 1 - float64(t*t)
	re := p.oneEs / float64(t*math.Sqrt(t))
	t = math.Tan(ps)
	t2 := float64(t * t)
	s := float64(p.kRg * p.kRg)
	d := float64(float64(re*p.k0) * p.kRg)
	i7 := t / float64(2*d)
	i8 := float64(t*(5+float64(3*t2))) / float64(float64(24*d)*s)
	d = float64(float64(math.Cos(ps)*p.kRg) * p.A)
	i9 := 1 / d
	d = float64(d * s)
	i10 := (1 + float64(2*t2)) / float64(6*d)
	i11 := (5 + float64(t2*(28+float64(24*t2)))) / float64(float64(120*d)*s)
	x2 = float64(x * x)
	phi := pe + float64(x2*(-i7+float64(i8*x2)))
	lam := float64(x * (i9 + float64(x2*(-i10+float64(x2*i11)))))
	return lonOf(lam, p.lon0), deg(phi), nil
}
