package proj

import "math"

// nzmg is the New Zealand Map Grid (EPSG method 9811), PROJ's +proj=nzmg:
// a complex polynomial in the isometric latitude difference on the
// International 1924 ellipsoid, with the fixed origin 41°S 173°E and false
// origin 2510000 E, 6023150 N of the definition (PROJ uses these
// constants whatever the parameters say; so do we).
type nzmg struct{}

const (
	nzmgA    = 6378388.0
	nzmgLat0 = -41.0
	nzmgLon0 = 173.0
	nzmgFE   = 2510000.0
	nzmgFN   = 6023150.0
	// Latitudes enter the series in units of 10⁵ arc-seconds.
	sec5ToRad = 0.4848136811095359935899141023
	radToSec5 = 2.062648062470963551564733573
)

var (
	nzmgBf = [6]complex128{
		complex(.7557853228, 0), complex(.249204646, .003371507), complex(-.001541739, .041058560),
		complex(-.10162907, .01727609), complex(-.26623489, -.36249218), complex(-.6870983, -1.1651967),
	}
	nzmgTphi = [9]float64{1.5627014243, .5185406398, -.03333098, -.1052906, -.0368594, .007317, .01220, .00394, -.0013}
	nzmgTpsi = [10]float64{.6399175073, -.1358797613, .063294409, -.02526853, .0117879, -.0055161, .0026906, -.001333, .00067, -.00034}
)

func newNZMG(fe, fn float64) *nzmg { return &nzmg{} }

// cmul multiplies complex numbers with each product rounded separately.
func cmul(a, b complex128) complex128 {
	return complex(float64(real(a)*real(b))-float64(imag(a)*imag(b)), float64(real(a)*imag(b))+float64(imag(a)*real(b)))
}

// zpoly1 evaluates z·(C0 + C1 z + ... + Cn zⁿ).
func zpoly1(z complex128, c []complex128) complex128 {
	n := len(c) - 1
	a := c[n]
	for i := n - 1; i >= 0; i-- {
		a = cmul(a, z) + c[i]
	}
	return cmul(a, z)
}

// zpolyd1 is zpoly1 and its derivative.
func zpolyd1(z complex128, c []complex128) (complex128, complex128) {
	n := len(c) - 1
	a := c[n]
	b := a
	first := true
	for i := n - 1; i >= 0; i-- {
		if first {
			first = false
		} else {
			b = cmul(b, z) + a
		}
		a = cmul(a, z) + c[i]
	}
	b = cmul(b, z) + a
	return cmul(a, z), b
}

func (nzmg) Forward(lon, lat float64) (float64, float64, error) {
	if err := CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	phi := float64((lat-nzmgLat0)*DegToRad) * radToSec5
	r := nzmgTpsi[9]
	for i := 8; i >= 0; i-- {
		r = nzmgTpsi[i] + float64(phi*r)
	}
	r = float64(r * phi)
	p := zpoly1(complex(r, lamOf(lon, nzmgLon0)), nzmgBf[:])
	return finiteXY(nzmgFE+float64(nzmgA*imag(p)), nzmgFN+float64(nzmgA*real(p)), "NZMG")
}

func (nzmg) Inverse(x, y float64) (float64, float64, error) {
	target := complex((y-nzmgFN)/nzmgA, (x-nzmgFE)/nzmgA)
	p := target
	ok := false
	for range 20 {
		f, fp := zpolyd1(p, nzmgBf[:])
		f -= target
		den := float64(real(fp)*real(fp)) + float64(imag(fp)*imag(fp))
		dr := -(float64(real(f)*real(fp)) + float64(imag(f)*imag(fp))) / den
		di := -(float64(imag(f)*real(fp)) - float64(real(f)*imag(fp))) / den
		p += complex(dr, di)
		if math.Abs(dr)+math.Abs(di) <= 1e-10 {
			ok = true
			break
		}
	}
	if !ok {
		return 0, 0, outside("(%v, %v) has no inverse", x, y)
	}
	phi := nzmgTphi[8]
	for i := 7; i >= 0; i-- {
		phi = nzmgTphi[i] + float64(real(p)*phi)
	}
	phi = Radians(nzmgLat0) + float64(float64(real(p)*phi)*sec5ToRad)
	return lonOf(imag(p), nzmgLon0), deg(phi), nil
}
