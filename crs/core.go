package crs

import (
	"errors"
	"fmt"
)

// CRS is a coordinate reference system the engine can convert to and from
// WGS84 longitude/latitude. Implementations are immutable and safe for
// concurrent use.
//
// Geographic systems take x = longitude and y = latitude in degrees (the
// "always_xy" order of pyproj, cs2cs's order with EPSG:4326 overridden);
// projected systems take easting/northing in their linear unit.
type CRS interface {
	// String returns the identifier Parse accepts: "EPSG:n" or
	// "aeqd:LAT,LON".
	String() string
	// EPSG returns the EPSG code, or 0 for a system without one (aeqd).
	EPSG() int
	// Geographic reports whether coordinates are longitude/latitude degrees.
	Geographic() bool
	// Unit returns the linear unit of projected coordinates; geographic
	// systems return Degree.
	Unit() Unit
	// ToLonLat converts (x, y) of this system to WGS84 longitude and
	// latitude in degrees; errors for non-finite input or points outside
	// the projection's domain.
	ToLonLat(x, y float64) (lon, lat float64, err error)
	// FromLonLat converts WGS84 longitude/latitude (degrees) to (x, y) of
	// this system; errors for latitudes outside [-90, 90], non-finite
	// input or points outside the projection's domain.
	FromLonLat(lon, lat float64) (x, y float64, err error)
}

// Unit is a unit of coordinates: its name and, for linear units, its length
// in metres.
type Unit struct {
	Name   string  // "metre", "foot", "US survey foot", "degree"
	Metres float64 // metres per unit; 0 for angular units
}

// The units the engine knows.
var (
	Metre        = Unit{Name: "metre", Metres: 1}
	Foot         = Unit{Name: "foot", Metres: 0.3048}
	USSurveyFoot = Unit{Name: "US survey foot", Metres: 1200.0 / 3937.0}
	Degree       = Unit{Name: "degree", Metres: 0}
)

// ErrUnknownCRS reports an EPSG code or CRS string the engine does not
// support.
var ErrUnknownCRS = errors.New("crs: unknown or unsupported CRS")

// onDatum is a CRS whose coordinates convert to longitude and latitude on
// its own geodetic datum; Transform converts between two such CRSs on the
// same datum without a datum shift.
type onDatum interface {
	geodetic() *geodeticDatum
	// toDatum converts (x, y) to longitude/latitude in degrees from
	// Greenwich on the CRS's datum.
	toDatum(x, y float64) (lon, lat float64, err error)
	// fromDatum is the inverse of toDatum.
	fromDatum(lon, lat float64) (x, y float64, err error)
}

// fromEPSG returns the registry's CRS code, built once (FromEPSG).
func (r *registry) fromEPSG(code int) (CRS, error) {
	if c, ok := r.cache.Load(code); ok {
		return c.(CRS), nil
	}
	var c CRS
	switch {
	case r.geog[code] != nil:
		g, err := r.geographicCRSCached(code)
		if err != nil {
			return nil, err
		}
		c = g
	case r.proj[code] != nil:
		p, err := r.projectedCached(code)
		if err != nil {
			return nil, err
		}
		c = p
	default:
		return nil, fmt.Errorf("%w: EPSG:%d", ErrUnknownCRS, code)
	}
	r.cache.Store(code, c)
	return c, nil
}

// geographicCRSCached returns the registry's geographic CRS code, built
// once.
func (r *registry) geographicCRSCached(code int) (*geographicCRS, error) {
	return registryCached(r, code, r.geographicFromRegistry)
}

// projectedCached returns the registry's projected CRS code, built once.
func (r *registry) projectedCached(code int) (*projectedCRS, error) {
	return registryCached(r, code, r.projectedFromRegistry)
}

// registryCached returns the CRS of code from the registry's cache, or
// builds it with build and caches it.
func registryCached[T CRS](r *registry, code int, build func(int) (T, error)) (T, error) {
	if c, ok := r.cache.Load(code); ok {
		if v, ok := c.(T); ok {
			return v, nil
		}
	}
	v, err := build(code)
	if err != nil {
		return v, err
	}
	c, _ := r.cache.LoadOrStore(code, v)
	return c.(T), nil
}

// describeEPSG returns EPSG CRS code for description: as FromEPSG, or a
// projected CRS without a usable projection when only the method is
// unsupported.
func (r *registry) describeEPSG(code int) (CRS, error) {
	c, err := r.fromEPSG(code)
	if err == nil {
		return c, nil
	}
	if r.proj[code] == nil {
		return nil, err
	}
	return r.projectedFromRegistryOpt(code, false)
}
