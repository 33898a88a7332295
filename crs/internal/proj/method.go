package proj

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
	MethodPseudoMercator    = 1024
	MethodLAEASpherical     = 1027
	MethodEquidistantCyl    = 1028
	MethodKrovakNorth       = 1041
	MethodLCC2SPMichigan    = 1051
	MethodColombiaUrban     = 1052
	MethodEqualEarth        = 1078
	MethodTM3D              = 1111
	MethodLCC1SP            = 9801
	MethodLCC2SP            = 9802
	MethodLCC2SPBelgium     = 9803
	MethodMercatorA         = 9804
	MethodMercatorB         = 9805
	MethodCassini           = 9806
	MethodTM                = 9807
	MethodTMSouth           = 9808
	MethodObliqueStereo     = 9809
	MethodPolarStereoA      = 9810
	MethodNZMG              = 9811
	MethodHotineA           = 9812
	MethodLaborde           = 9813
	MethodHotineB           = 9815
	MethodPolyconic         = 9818
	MethodKrovak            = 9819
	MethodLAEA              = 9820
	MethodAlbers            = 9822
	MethodPolarStereoB      = 9829
	MethodGuam              = 9831
	MethodModifiedAeqd      = 9832
	MethodHyperbolicCassini = 9833
	MethodLCEA              = 9835
)

// EPSG parameter codes.
const (
	ParLatOrigin       = 8801
	ParLonOrigin       = 8802
	ParScaleOrigin     = 8805
	ParFalseEasting    = 8806
	ParFalseNorthing   = 8807
	ParLatCentre       = 8811
	ParLonCentre       = 8812
	ParAzimuth         = 8813
	ParRectifiedAngle  = 8814
	ParScaleCentre     = 8815
	ParEastingCentre   = 8816
	ParNorthingCentre  = 8817
	ParLatPseudoSP     = 8818
	ParScalePseudoSP   = 8819
	ParLatFalseOrigin  = 8821
	ParLonFalseOrigin  = 8822
	ParLat1stSP        = 8823
	ParLat2ndSP        = 8824
	ParEastingFalseOr  = 8826
	ParNorthingFalseOr = 8827
	ParLatStdParallel  = 8832
	ParLonOfOrigin     = 8833
	ParColatConeAxis   = 1036
	ParEllipsoidScale  = 1038
	ParOriginHeight    = 1039
)

// Params holds a conversion's parameter values by EPSG code: angles in
// degrees, lengths in metres, scales as ratios.
type Params map[int]float64

// Get returns the value of the first of codes present, or def.
func (p Params) Get(def float64, codes ...int) float64 {
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
func Supported(code int) bool {
	switch code {
	case MethodPseudoMercator, MethodLAEASpherical, MethodEquidistantCyl, MethodKrovakNorth,
		MethodLCC2SPMichigan, MethodColombiaUrban, MethodEqualEarth, MethodTM3D, MethodLCC1SP,
		MethodLCC2SP, MethodLCC2SPBelgium, MethodMercatorA, MethodMercatorB, MethodCassini,
		MethodTM, MethodTMSouth, MethodObliqueStereo, MethodPolarStereoA, MethodNZMG,
		MethodHotineA, MethodLaborde, MethodHotineB, MethodPolyconic, MethodKrovak, MethodLAEA,
		MethodAlbers, MethodPolarStereoB, MethodGuam, MethodModifiedAeqd,
		MethodHyperbolicCassini, MethodLCEA:
		return true
	}
	return false
}

// New prepares the projection of EPSG method code on
// ellipsoid el with parameters p, mapping the EPSG parameters the way
// PROJ 9.1 maps them onto its own projections (noted per method).
func New(method int, el Ellipsoid, p Params) (Projection, error) {
	fe := p.Get(0, ParFalseEasting, ParEastingFalseOr, ParEastingCentre)
	fn := p.Get(0, ParFalseNorthing, ParNorthingFalseOr, ParNorthingCentre)
	for c, v := range p {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("parameter %d is %v", c, v)
		}
	}
	switch method {
	case MethodTM, MethodTM3D, MethodTMSouth:
		// TM south-orientated is +proj=tmerc +axis=wsu: the axes of its
		// coordinate system (westing, southing) negate the result.
		k := p.Get(1, ParScaleOrigin)
		if k <= 0 {
			return nil, fmt.Errorf("scale factor %v", k)
		}
		return newTransverseMercator(el.A, el.F, p.Get(0, ParLatOrigin), p.Get(0, ParLonOrigin), k, fe, fn), nil
	case MethodLCC1SP:
		lat0 := p.Get(0, ParLatOrigin)
		return newLCC(el, lat0, p.Get(0, ParLonOrigin), lat0, lat0, p.Get(1, ParScaleOrigin), fe, fn)
	case MethodLCC2SP, MethodLCC2SPBelgium, MethodLCC2SPMichigan:
		// Belgium: PROJ applies the plain two-parallel formulas to the
		// EPSG parameters; Michigan: +k_0 is the ellipsoid scaling factor.
		return newLCC(el, p.Get(0, ParLatFalseOrigin), p.Get(0, ParLonFalseOrigin),
			p.Get(0, ParLat1stSP), p.Get(0, ParLat2ndSP), p.Get(1, ParEllipsoidScale), fe, fn)
	case MethodAlbers:
		return newAlbers(el, p.Get(0, ParLatFalseOrigin), p.Get(0, ParLonFalseOrigin),
			p.Get(0, ParLat1stSP), p.Get(0, ParLat2ndSP), fe, fn)
	case MethodCassini, MethodHyperbolicCassini:
		return newCassini(el, p.Get(0, ParLatOrigin), p.Get(0, ParLonOrigin), fe, fn, method == MethodHyperbolicCassini), nil
	case MethodPolarStereoA:
		lat0 := p.Get(0, ParLatOrigin)
		if math.Abs(math.Abs(lat0)-90) > 1e-10 {
			return nil, fmt.Errorf("polar stereographic (variant A) with latitude of origin %v", lat0)
		}
		return newPolarStereo(el, lat0 > 0, p.Get(0, ParLonOrigin), 90, p.Get(1, ParScaleOrigin), fe, fn)
	case MethodPolarStereoB:
		lat := p.Get(0, ParLatStdParallel)
		return newPolarStereo(el, lat > 0, p.Get(0, ParLonOfOrigin), lat, 1, fe, fn)
	case MethodObliqueStereo:
		return newObliqueStereo(el, p.Get(0, ParLatOrigin), p.Get(0, ParLonOrigin), p.Get(1, ParScaleOrigin), fe, fn)
	case MethodHotineA, MethodHotineB:
		alpha, gamma := p.Get(0, ParAzimuth), p.Get(0, ParRectifiedAngle)
		if method == MethodHotineB && math.Abs(alpha-90) < 1e-4 && math.Abs(gamma-90) < 1e-4 {
			// PROJ maps this case to +proj=somerc (Swiss oblique Mercator).
			return newSwissOblique(el, p.Get(0, ParLatCentre), p.Get(0, ParLonCentre), p.Get(1, ParScaleCentre), fe, fn)
		}
		return newHotine(el, p.Get(0, ParLatCentre), p.Get(0, ParLonCentre), alpha, gamma,
			p.Get(1, ParScaleCentre), fe, fn, method == MethodHotineA)
	case MethodLAEA:
		return newLAEA(el, p.Get(0, ParLatOrigin), p.Get(0, ParLonOrigin), fe, fn)
	case MethodLAEASpherical:
		// PROJ 9.1 applies the ellipsoidal formulas to this method too.
		return newLAEA(el, p.Get(0, ParLatOrigin), p.Get(0, ParLonOrigin), fe, fn)
	case MethodMercatorA:
		if lat0 := p.Get(0, ParLatOrigin); lat0 != 0 {
			return nil, fmt.Errorf("Mercator (variant A) with latitude of origin %v", lat0)
		}
		return newMercator(el, p.Get(0, ParLonOrigin), 0, p.Get(1, ParScaleOrigin), fe, fn)
	case MethodMercatorB:
		return newMercator(el, p.Get(0, ParLonOrigin), p.Get(0, ParLat1stSP), 1, fe, fn)
	case MethodPseudoMercator:
		return newPseudoMercator(el.A, p.Get(0, ParLonOrigin), fe, fn), nil
	case MethodColombiaUrban:
		return newColombiaUrban(el, p.Get(0, ParLatOrigin), p.Get(0, ParLonOrigin), p.Get(0, ParOriginHeight), fe, fn), nil
	case MethodPolyconic:
		return newPolyconic(el, p.Get(0, ParLatOrigin), p.Get(0, ParLonOrigin), fe, fn), nil
	case MethodKrovak, MethodKrovakNorth:
		return newKrovak(el, p.Get(49.5, ParLatCentre), p.Get(24.833333333333333, ParLonOfOrigin),
			p.Get(30.288139752777778, ParColatConeAxis), p.Get(78.5, ParLatPseudoSP), p.Get(0.9999, ParScalePseudoSP), fe, fn)
	case MethodEqualEarth:
		return newEqualEarth(el, p.Get(0, ParLonOrigin), fe, fn), nil
	case MethodLCEA:
		return newCylindricalEqualArea(el, p.Get(0, ParLonOrigin), p.Get(0, ParLat1stSP), fe, fn)
	case MethodEquidistantCyl:
		return newEquidistantCylindrical(el, p.Get(0, ParLonOrigin), p.Get(0, ParLat1stSP), p.Get(0, ParLatOrigin), fe, fn), nil
	case MethodNZMG:
		return newNZMG(fe, fn), nil
	case MethodGuam:
		return newGuam(el, p.Get(0, ParLatOrigin), p.Get(0, ParLonOrigin), fe, fn), nil
	case MethodModifiedAeqd:
		return newEllipsoidalAeqd(el, p.Get(0, ParLatOrigin), p.Get(0, ParLonOrigin), fe, fn)
	case MethodLaborde:
		return newLaborde(el, p.Get(0, ParLatCentre), p.Get(0, ParLonCentre), p.Get(0, ParAzimuth), p.Get(1, ParScaleCentre), fe, fn)
	}
	return nil, fmt.Errorf("%w %d", errMethod, method)
}

// lamOf returns lon - lon0 reduced to [-180, 180], in radians, as PROJ's
// pj_fwd reduces λ - λ0 (adjlon).
func lamOf(lon, lon0 float64) float64 { return float64(Wrap180(lon-lon0) * DegToRad) }

// lonOf returns lon0 + λ (radians) in degrees reduced to [-180, 180].
func lonOf(lam, lon0 float64) float64 { return Wrap180(lon0 + float64(lam*RadToDeg)) }

// Radians converts degrees to radians, rounding the product (no fused
// multiply-add with what follows, so results are the same on arm64).
func Radians(d float64) float64 { return float64(d * DegToRad) }

// twoAtan returns 2·atan(x), rounded (so that a following addition is not
// fused with the doubling).
func twoAtan(x float64) float64 { return float64(2 * math.Atan(x)) }

// deg converts radians to degrees, rounding the product.
func deg(r float64) float64 { return float64(r * RadToDeg) }

// finiteXY reports non-finite projected coordinates as outside the domain.
func finiteXY(x, y float64, what string) (float64, float64, error) {
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return 0, 0, fmt.Errorf("%w: %s", ErrOutsideDomain, what)
	}
	return x, y, nil
}

// forwardRadians checks the longitude/latitude (degrees) given to a
// projection's forward step and returns λ = lon - lon0 reduced to
// [-180, 180] (lamOf) and φ, in radians.
func forwardRadians(lon, lat, lon0 float64) (lam, phi float64, err error) {
	if err := CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	return lamOf(lon, lon0), Radians(lat), nil
}

// outside builds an ErrOutsideDomain error.
func outside(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrOutsideDomain, fmt.Sprintf(format, args...))
}
