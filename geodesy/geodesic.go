package geodesy

import (
	"fmt"
	"math"

	"github.com/tidwall/geodesic"
)

// Geodesic solves geodesic problems on one ellipsoid, keeping the series
// coefficients so repeated calls do not recompute them. It is safe for
// concurrent use. Ellipsoid.Inverse and Ellipsoid.Direct use a shared
// instance for WGS84 and build one per call otherwise.
type Geodesic struct {
	e Ellipsoid
	g *geodesic.Ellipsoid
}

// wgs84Geodesic is immutable after initialisation.
var wgs84Geodesic = NewGeodesic(WGS84())

// NewGeodesic returns a solver for ellipsoid e. It panics if e is invalid
// (non-positive or non-finite axis, flattening outside [0, 1)).
func NewGeodesic(e Ellipsoid) *Geodesic {
	if err := e.validate(); err != nil {
		panic(err)
	}
	return &Geodesic{e: e, g: geodesic.NewEllipsoid(e.A, e.F)}
}

// geodesicFor returns the solver for e.
func (e Ellipsoid) geodesicFor() (*Geodesic, error) {
	if e == wgs84Geodesic.e {
		return wgs84Geodesic, nil
	}
	if err := e.validate(); err != nil {
		return nil, err
	}
	return NewGeodesic(e), nil
}

// Inverse solves the inverse geodesic problem with Karney's algorithm
// (GeographicLib, accurate to about 15 nm): the shortest distance s12 in
// metres from (lat1, lon1) to (lat2, lon2) and the forward azimuths azi1
// at the first point and azi2 at the second, in degrees clockwise from
// north in [-180, 180]. This is GeodSolve -i; pyproj's Geod.inv reports the
// back azimuth azi2±180 instead of azi2. Coincident points give s12 = 0;
// for antipodal and meridional cases the azimuths are GeographicLib's.
// Latitudes must be in [-90, 90] and longitudes finite.
func (e Ellipsoid) Inverse(lat1, lon1, lat2, lon2 float64) (s12, azi1, azi2 float64, err error) {
	g, err := e.geodesicFor()
	if err != nil {
		return 0, 0, 0, err
	}
	return g.Inverse(lat1, lon1, lat2, lon2)
}

// Direct solves the direct geodesic problem: the point (lat2, lon2) reached
// by travelling s12 metres (negative goes backwards) from (lat1, lon1) with
// initial azimuth azi1 degrees, and the forward azimuth azi2 there. lon2
// and azi2 are in [-180, 180]. lat1 must be in [-90, 90]; lon1, azi1 and
// s12 finite.
func (e Ellipsoid) Direct(lat1, lon1, azi1, s12 float64) (lat2, lon2, azi2 float64, err error) {
	g, err := e.geodesicFor()
	if err != nil {
		return 0, 0, 0, err
	}
	return g.Direct(lat1, lon1, azi1, s12)
}

// Inverse is Ellipsoid.Inverse on g's ellipsoid.
func (g *Geodesic) Inverse(lat1, lon1, lat2, lon2 float64) (s12, azi1, azi2 float64, err error) {
	if err := checkLat("lat1", lat1); err != nil {
		return 0, 0, 0, err
	}
	if err := checkLat("lat2", lat2); err != nil {
		return 0, 0, 0, err
	}
	if err := checkFinite("lon1", lon1); err != nil {
		return 0, 0, 0, err
	}
	if err := checkFinite("lon2", lon2); err != nil {
		return 0, 0, 0, err
	}
	g.g.Inverse(lat1, lon1, lat2, lon2, &s12, &azi1, &azi2)
	if math.IsNaN(s12) || math.IsNaN(azi1) || math.IsNaN(azi2) {
		return 0, 0, 0, fmt.Errorf("geodesy: inverse (%v,%v)-(%v,%v) did not converge", lat1, lon1, lat2, lon2)
	}
	return s12, azi1, azi2, nil
}

// Direct is Ellipsoid.Direct on g's ellipsoid.
func (g *Geodesic) Direct(lat1, lon1, azi1, s12 float64) (lat2, lon2, azi2 float64, err error) {
	if err := checkLat("lat1", lat1); err != nil {
		return 0, 0, 0, err
	}
	for _, v := range [...]struct {
		n string
		v float64
	}{{"lon1", lon1}, {"azi1", azi1}, {"s12", s12}} {
		if err := checkFinite(v.n, v.v); err != nil {
			return 0, 0, 0, err
		}
	}
	g.g.Direct(lat1, lon1, azi1, s12, &lat2, &lon2, &azi2)
	if math.IsNaN(lat2) || math.IsNaN(lon2) || math.IsNaN(azi2) {
		return 0, 0, 0, fmt.Errorf("geodesy: direct from (%v,%v) azimuth %v distance %v failed", lat1, lon1, azi1, s12)
	}
	return lat2, lon2, azi2, nil
}

// Ellipsoid returns the ellipsoid g solves on.
func (g *Geodesic) Ellipsoid() Ellipsoid { return g.e }
