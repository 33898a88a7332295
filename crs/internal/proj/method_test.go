package proj

import (
	"errors"
	"math"
	"testing"
)

// TestMethodsRoundTrip prepares every implemented method with parameters
// of a typical CRS of it and requires inverse(forward(p)) = p within
// 1e-9 degrees at points around the origin (crs's sweep test holds every
// EPSG CRS to PROJ's numbers; this one needs no native tools). PROJ's
// inverses are less exact for two kinds of method, and so are these:
// the equal-area ones take the latitude from the authalic latitude by a
// series truncated at e⁶ (about 7e-9 degrees), and Colombia Urban's
// inverse is EPSG's non-iterative formula.
func TestMethodsRoundTrip(t *testing.T) {
	grs80 := NewEllipsoid(6378137, 298.257222101)
	generic := Params{
		ParLatOrigin: 40, ParLonOrigin: 10, ParScaleOrigin: 0.9996,
		ParFalseEasting: 500000, ParFalseNorthing: 200000,
		ParLatFalseOrigin: 40, ParLonFalseOrigin: 10, ParLat1stSP: 35, ParLat2ndSP: 45,
		ParLatCentre: 46, ParLonCentre: 10, ParAzimuth: 30, ParRectifiedAngle: 30, ParScaleCentre: 1,
		ParLatStdParallel: 71, ParLonOfOrigin: 10, ParEllipsoidScale: 1, ParOriginHeight: 100,
	}
	type centre struct{ lon, lat float64 }
	special := map[int]struct {
		p Params
		c centre
	}{
		MethodPolarStereoA: {Params{ParLatOrigin: 90, ParLonOrigin: 0, ParScaleOrigin: 0.994}, centre{10, 80}},
		MethodPolarStereoB: {Params{ParLatStdParallel: -71, ParLonOfOrigin: 0}, centre{10, -80}},
		MethodMercatorA:    {Params{ParLatOrigin: 0, ParLonOrigin: 10, ParScaleOrigin: 1}, centre{11, 40}},
		MethodKrovak: {Params{ParLatCentre: 49.5, ParLonOfOrigin: 24.833333333333333, ParColatConeAxis: 30.288139752777778,
			ParLatPseudoSP: 78.5, ParScalePseudoSP: 0.9999}, centre{15, 50}},
		MethodKrovakNorth: {Params{ParLatCentre: 49.5, ParLonOfOrigin: 24.833333333333333, ParColatConeAxis: 30.288139752777778,
			ParLatPseudoSP: 78.5, ParScalePseudoSP: 0.9999}, centre{15, 50}},
		MethodNZMG:          {Params{}, centre{173, -41}},
		MethodGuam:          {Params{ParLatOrigin: 13.4724663527778, ParLonOrigin: 144.748750705556}, centre{144.8, 13.5}},
		MethodColombiaUrban: {Params{ParLatOrigin: 4.68, ParLonOrigin: -74.15, ParOriginHeight: 2550}, centre{-74.1, 4.7}},
		MethodLaborde:       {Params{ParLatCentre: -18.9, ParLonCentre: 46.44, ParAzimuth: 18.9, ParScaleCentre: 0.9995}, centre{46.5, -19}},
	}
	methods := []int{MethodPseudoMercator, MethodLAEASpherical, MethodEquidistantCyl, MethodKrovakNorth,
		MethodLCC2SPMichigan, MethodColombiaUrban, MethodEqualEarth, MethodTM3D, MethodLCC1SP,
		MethodLCC2SP, MethodLCC2SPBelgium, MethodMercatorA, MethodMercatorB, MethodCassini,
		MethodTM, MethodTMSouth, MethodObliqueStereo, MethodPolarStereoA, MethodNZMG,
		MethodHotineA, MethodLaborde, MethodHotineB, MethodPolyconic, MethodKrovak, MethodLAEA,
		MethodAlbers, MethodPolarStereoB, MethodGuam, MethodModifiedAeqd,
		MethodHyperbolicCassini, MethodLCEA}
	for _, m := range methods {
		if !Supported(m) {
			t.Errorf("method %d: not Supported", m)
		}
		p, c := generic, centre{11, 41}
		if s, ok := special[m]; ok {
			p, c = s.p, s.c
		}
		pr, err := New(m, grs80, p)
		if err != nil {
			t.Errorf("method %d: %v", m, err)
			continue
		}
		for _, d := range [][2]float64{{0, 0}, {0.5, 0.3}, {-0.7, -0.4}, {1, -1}} {
			lon, lat := c.lon+d[0], c.lat+d[1]
			x, y, err := pr.Forward(lon, lat)
			if err != nil {
				t.Errorf("method %d: forward (%v, %v): %v", m, lon, lat, err)
				continue
			}
			lon2, lat2, err := pr.Inverse(x, y)
			if err != nil {
				t.Errorf("method %d: inverse (%v, %v): %v", m, x, y, err)
				continue
			}
			tol := 1e-9
			switch m {
			case MethodLAEA, MethodLAEASpherical, MethodLCEA, MethodEqualEarth:
				tol = 1e-8
			case MethodColombiaUrban:
				tol = 5e-8
			}
			if math.Abs(lon2-lon) > tol || math.Abs(lat2-lat) > tol {
				t.Errorf("method %d: (%v, %v) -> (%v, %v) -> (%v, %v)", m, lon, lat, x, y, lon2, lat2)
			}
		}
	}
}

// TestNewRefuses checks the errors of New: an unknown method, a
// non-finite parameter, parameters a method cannot take, and a
// coordinate outside the domain.
func TestNewRefuses(t *testing.T) {
	if _, err := New(9999, WGS84, Params{}); !errors.Is(err, errMethod) || Supported(9999) {
		t.Errorf("method 9999: %v", err)
	}
	if _, err := New(MethodTM, WGS84, Params{ParLonOrigin: math.NaN()}); err == nil {
		t.Error("NaN parameter accepted")
	}
	if _, err := New(MethodTM, WGS84, Params{ParScaleOrigin: 0}); err == nil {
		t.Error("scale factor 0 accepted")
	}
	if _, err := New(MethodPolarStereoA, WGS84, Params{ParLatOrigin: 60}); err == nil {
		t.Error("polar stereographic A off the pole accepted")
	}
	tm, err := New(MethodTM, WGS84, Params{ParScaleOrigin: 0.9996})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := tm.Forward(100, 10); !errors.Is(err, ErrOutsideDomain) {
		t.Errorf("TM 100° from the meridian: %v", err)
	}
	if _, _, err := tm.Forward(1, 91); !errors.Is(err, ErrInvalidCoordinate) {
		t.Errorf("latitude 91: %v", err)
	}
}
