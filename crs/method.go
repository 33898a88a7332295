package crs

import (
	"errors"
	"fmt"
	"math"
)

// EPSG coordinate operation method codes of the projections in this
// package. Methods PROJ 9.1 cannot convert either (Lambert Conic Conformal
// west orientated, Polar Stereographic variant C, Bonne south orientated,
// Krovak modified, Lambert Conic Near-Conformal, Tunisia Mining Grid,
// Transverse Mercator Zoned Grid System) are not implemented.
const (
	methodPseudoMercator    = 1024
	methodLAEASpherical     = 1027
	methodEquidistantCyl    = 1028
	methodKrovakNorth       = 1041
	methodLCC2SPMichigan    = 1051
	methodColombiaUrban     = 1052
	methodEqualEarth        = 1078
	methodTM3D              = 1111
	methodLCC1SP            = 9801
	methodLCC2SP            = 9802
	methodLCC2SPBelgium     = 9803
	methodMercatorA         = 9804
	methodMercatorB         = 9805
	methodCassini           = 9806
	methodTM                = 9807
	methodTMSouth           = 9808
	methodObliqueStereo     = 9809
	methodPolarStereoA      = 9810
	methodNZMG              = 9811
	methodHotineA           = 9812
	methodLaborde           = 9813
	methodHotineB           = 9815
	methodPolyconic         = 9818
	methodKrovak            = 9819
	methodLAEA              = 9820
	methodAlbers            = 9822
	methodPolarStereoB      = 9829
	methodGuam              = 9831
	methodModifiedAeqd      = 9832
	methodHyperbolicCassini = 9833
	methodLCEA              = 9835
)

// EPSG parameter codes.
const (
	parLatOrigin       = 8801
	parLonOrigin       = 8802
	parScaleOrigin     = 8805
	parFalseEasting    = 8806
	parFalseNorthing   = 8807
	parLatCentre       = 8811
	parLonCentre       = 8812
	parAzimuth         = 8813
	parRectifiedAngle  = 8814
	parScaleCentre     = 8815
	parEastingCentre   = 8816
	parNorthingCentre  = 8817
	parLatPseudoSP     = 8818
	parScalePseudoSP   = 8819
	parLatFalseOrigin  = 8821
	parLonFalseOrigin  = 8822
	parLat1stSP        = 8823
	parLat2ndSP        = 8824
	parEastingFalseOr  = 8826
	parNorthingFalseOr = 8827
	parLatStdParallel  = 8832
	parLonOfOrigin     = 8833
	parColatConeAxis   = 1036
	parEllipsoidScale  = 1038
	parOriginHeight    = 1039
)

// params holds a conversion's parameter values by EPSG code: angles in
// degrees, lengths in metres, scales as ratios.
type params map[int]float64

// get returns the value of the first of codes present, or def.
func (p params) get(def float64, codes ...int) float64 {
	for _, c := range codes {
		if v, ok := p[c]; ok {
			return v
		}
	}
	return def
}

// errMethod reports a method this package does not implement.
var errMethod = errors.New("unsupported coordinate operation method")

// methodNames are the EPSG names of the implemented methods.
func methodSupported(code int) bool {
	switch code {
	case methodPseudoMercator, methodLAEASpherical, methodEquidistantCyl, methodKrovakNorth,
		methodLCC2SPMichigan, methodColombiaUrban, methodEqualEarth, methodTM3D, methodLCC1SP,
		methodLCC2SP, methodLCC2SPBelgium, methodMercatorA, methodMercatorB, methodCassini,
		methodTM, methodTMSouth, methodObliqueStereo, methodPolarStereoA, methodNZMG,
		methodHotineA, methodLaborde, methodHotineB, methodPolyconic, methodKrovak, methodLAEA,
		methodAlbers, methodPolarStereoB, methodGuam, methodModifiedAeqd,
		methodHyperbolicCassini, methodLCEA:
		return true
	}
	return false
}

// buildProjection prepares the projection of EPSG method code on
// ellipsoid el with parameters p, mapping the EPSG parameters the way
// PROJ 9.1 maps them onto its own projections (noted per method).
func buildProjection(method int, el ellipsoid, p params) (projection, error) {
	fe := p.get(0, parFalseEasting, parEastingFalseOr, parEastingCentre)
	fn := p.get(0, parFalseNorthing, parNorthingFalseOr, parNorthingCentre)
	for c, v := range p {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("parameter %d is %v", c, v)
		}
	}
	switch method {
	case methodTM, methodTM3D, methodTMSouth:
		// TM south-orientated is +proj=tmerc +axis=wsu: the axes of its
		// coordinate system (westing, southing) negate the result.
		k := p.get(1, parScaleOrigin)
		if k <= 0 {
			return nil, fmt.Errorf("scale factor %v", k)
		}
		return newTransverseMercator(el.a, el.f, p.get(0, parLatOrigin), p.get(0, parLonOrigin), k, fe, fn), nil
	case methodLCC1SP:
		lat0 := p.get(0, parLatOrigin)
		return newLCC(el, lat0, p.get(0, parLonOrigin), lat0, lat0, p.get(1, parScaleOrigin), fe, fn)
	case methodLCC2SP, methodLCC2SPBelgium, methodLCC2SPMichigan:
		// Belgium: PROJ applies the plain two-parallel formulas to the
		// EPSG parameters; Michigan: +k_0 is the ellipsoid scaling factor.
		return newLCC(el, p.get(0, parLatFalseOrigin), p.get(0, parLonFalseOrigin),
			p.get(0, parLat1stSP), p.get(0, parLat2ndSP), p.get(1, parEllipsoidScale), fe, fn)
	case methodAlbers:
		return newAlbers(el, p.get(0, parLatFalseOrigin), p.get(0, parLonFalseOrigin),
			p.get(0, parLat1stSP), p.get(0, parLat2ndSP), fe, fn)
	case methodCassini, methodHyperbolicCassini:
		return newCassini(el, p.get(0, parLatOrigin), p.get(0, parLonOrigin), fe, fn, method == methodHyperbolicCassini), nil
	case methodPolarStereoA:
		lat0 := p.get(0, parLatOrigin)
		if math.Abs(math.Abs(lat0)-90) > 1e-10 {
			return nil, fmt.Errorf("polar stereographic (variant A) with latitude of origin %v", lat0)
		}
		return newPolarStereo(el, lat0 > 0, p.get(0, parLonOrigin), 90, p.get(1, parScaleOrigin), fe, fn)
	case methodPolarStereoB:
		lat := p.get(0, parLatStdParallel)
		return newPolarStereo(el, lat > 0, p.get(0, parLonOfOrigin), lat, 1, fe, fn)
	case methodObliqueStereo:
		return newObliqueStereo(el, p.get(0, parLatOrigin), p.get(0, parLonOrigin), p.get(1, parScaleOrigin), fe, fn)
	case methodHotineA, methodHotineB:
		alpha, gamma := p.get(0, parAzimuth), p.get(0, parRectifiedAngle)
		if method == methodHotineB && math.Abs(alpha-90) < 1e-4 && math.Abs(gamma-90) < 1e-4 {
			// PROJ maps this case to +proj=somerc (Swiss oblique Mercator).
			return newSwissOblique(el, p.get(0, parLatCentre), p.get(0, parLonCentre), p.get(1, parScaleCentre), fe, fn)
		}
		return newHotine(el, p.get(0, parLatCentre), p.get(0, parLonCentre), alpha, gamma,
			p.get(1, parScaleCentre), fe, fn, method == methodHotineA)
	case methodLAEA:
		return newLAEA(el, p.get(0, parLatOrigin), p.get(0, parLonOrigin), fe, fn)
	case methodLAEASpherical:
		// PROJ 9.1 applies the ellipsoidal formulas to this method too.
		return newLAEA(el, p.get(0, parLatOrigin), p.get(0, parLonOrigin), fe, fn)
	case methodMercatorA:
		if lat0 := p.get(0, parLatOrigin); lat0 != 0 {
			return nil, fmt.Errorf("Mercator (variant A) with latitude of origin %v", lat0)
		}
		return newMercator(el, p.get(0, parLonOrigin), 0, p.get(1, parScaleOrigin), fe, fn)
	case methodMercatorB:
		return newMercator(el, p.get(0, parLonOrigin), p.get(0, parLat1stSP), 1, fe, fn)
	case methodPseudoMercator:
		return newPseudoMercator(el.a, p.get(0, parLonOrigin), fe, fn), nil
	case methodColombiaUrban:
		return newColombiaUrban(el, p.get(0, parLatOrigin), p.get(0, parLonOrigin), p.get(0, parOriginHeight), fe, fn), nil
	case methodPolyconic:
		return newPolyconic(el, p.get(0, parLatOrigin), p.get(0, parLonOrigin), fe, fn), nil
	case methodKrovak, methodKrovakNorth:
		return newKrovak(el, p.get(49.5, parLatCentre), p.get(24.833333333333333, parLonOfOrigin),
			p.get(30.288139752777778, parColatConeAxis), p.get(78.5, parLatPseudoSP), p.get(0.9999, parScalePseudoSP), fe, fn)
	case methodEqualEarth:
		return newEqualEarth(el, p.get(0, parLonOrigin), fe, fn), nil
	case methodLCEA:
		return newCylindricalEqualArea(el, p.get(0, parLonOrigin), p.get(0, parLat1stSP), fe, fn)
	case methodEquidistantCyl:
		return newEquidistantCylindrical(el, p.get(0, parLonOrigin), p.get(0, parLat1stSP), p.get(0, parLatOrigin), fe, fn), nil
	case methodNZMG:
		return newNZMG(fe, fn), nil
	case methodGuam:
		return newGuam(el, p.get(0, parLatOrigin), p.get(0, parLonOrigin), fe, fn), nil
	case methodModifiedAeqd:
		return newEllipsoidalAeqd(el, p.get(0, parLatOrigin), p.get(0, parLonOrigin), fe, fn)
	case methodLaborde:
		return newLaborde(el, p.get(0, parLatCentre), p.get(0, parLonCentre), p.get(0, parAzimuth), p.get(1, parScaleCentre), fe, fn)
	}
	return nil, fmt.Errorf("%w %d", errMethod, method)
}

// lamOf returns lon - lon0 reduced to [-180, 180], in radians, as PROJ's
// pj_fwd reduces λ - λ0 (adjlon).
func lamOf(lon, lon0 float64) float64 { return float64(wrap180(lon-lon0) * deg2rad) }

// lonOf returns lon0 + λ (radians) in degrees reduced to [-180, 180].
func lonOf(lam, lon0 float64) float64 { return wrap180(lon0 + float64(lam*rad2deg)) }

// rad converts degrees to radians, rounding the product (no fused
// multiply-add with what follows, so results are the same on arm64).
func rad(d float64) float64 { return float64(d * deg2rad) }

// twoAtan returns 2·atan(x), rounded (so that a following addition is not
// fused with the doubling).
func twoAtan(x float64) float64 { return float64(2 * math.Atan(x)) }

// deg converts radians to degrees, rounding the product.
func deg(r float64) float64 { return float64(r * rad2deg) }

// finiteXY reports non-finite projected coordinates as outside the domain.
func finiteXY(x, y float64, what string) (float64, float64, error) {
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return 0, 0, fmt.Errorf("%w: %s", ErrOutsideDomain, what)
	}
	return x, y, nil
}

// checkLatLon validates a latitude/longitude pair in degrees for a
// projection's forward step.
func checkForward(lon, lat float64) error { return checkLonLat(lon, lat) }

// outside builds an ErrOutsideDomain error.
func outside(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrOutsideDomain, fmt.Sprintf(format, args...))
}
