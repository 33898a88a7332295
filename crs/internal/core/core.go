package core

import (
	"errors"
	"fmt"
)

// CRS is what every system of this package is (crs.CRS): a name, an
// EPSG code, the kind and unit of its coordinates, and the conversions
// to and from WGS 84 longitude/latitude.
type CRS interface {
	String() string
	EPSG() int
	Geographic() bool
	Unit() Unit
	ToLonLat(x, y float64) (lon, lat float64, err error)
	FromLonLat(lon, lat float64) (x, y float64, err error)
}

// Unit is a unit of coordinates (crs.Unit): its name and, for linear
// units, its length in metres.
type Unit struct {
	Name   string  // "metre", "foot", "US survey foot", "degree"
	Metres float64 // metres per unit; 0 for angular units
}

// The units the engine knows (crs.Metre...).
var (
	Metre        = Unit{Name: "metre", Metres: 1}
	Foot         = Unit{Name: "foot", Metres: 0.3048}
	USSurveyFoot = Unit{Name: "US survey foot", Metres: 1200.0 / 3937.0}
	Degree       = Unit{Name: "degree", Metres: 0}
)

// ErrUnknownCRS is crs.ErrUnknownCRS.
var ErrUnknownCRS = errors.New("crs: unknown or unsupported CRS")

// OnDatum is a CRS whose coordinates convert to longitude and latitude on
// its own geodetic datum; Transform converts between two such CRSs on the
// same datum without a datum shift.
type OnDatum interface {
	Geodetic() *GeodeticDatum
	// ToDatum converts (x, y) to longitude/latitude in degrees from
	// Greenwich on the CRS's datum.
	ToDatum(x, y float64) (lon, lat float64, err error)
	// FromDatum is the inverse of toDatum.
	FromDatum(lon, lat float64) (x, y float64, err error)
}

// FromEPSG returns the registry's CRS code, built once (FromEPSG).
func (r *Registry) FromEPSG(code int) (CRS, error) {
	if c, ok := r.cache.Load(code); ok {
		return c.(CRS), nil
	}
	var c CRS
	switch {
	case r.Geog(code) != nil:
		g, err := r.GeographicCRSCached(code)
		if err != nil {
			return nil, err
		}
		c = g
	case r.Proj(code) != nil:
		p, err := r.projectedCached(code)
		if err != nil {
			return nil, err
		}
		c = p
	default:
		if err := r.Err(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%w: EPSG:%d", ErrUnknownCRS, code)
	}
	r.cache.Store(code, c)
	return c, nil
}

// GeographicCRSCached returns the registry's geographic CRS code, built
// once.
func (r *Registry) GeographicCRSCached(code int) (*GeographicCRS, error) {
	return registryCached(r, code, r.geographicFromRegistry)
}

// projectedCached returns the registry's projected CRS code, built once.
func (r *Registry) projectedCached(code int) (*ProjectedCRS, error) {
	return registryCached(r, code, r.projectedFromRegistry)
}

// registryCached returns the CRS of code from the registry's cache, or
// builds it with build and caches it. A CRS built while a lookup met a
// corrupt record is not: the corrupt record's error is returned.
func registryCached[T CRS](r *Registry, code int, build func(int) (T, error)) (T, error) {
	if c, ok := r.cache.Load(code); ok {
		if v, ok := c.(T); ok {
			return v, nil
		}
	}
	v, err := build(code)
	if e := r.Err(); e != nil {
		var zero T
		return zero, e
	}
	if err != nil {
		return v, err
	}
	c, _ := r.cache.LoadOrStore(code, v)
	return c.(T), nil
}

// DescribeEPSG returns EPSG CRS code for description: as FromEPSG, or a
// projected CRS without a usable projection when only the method is
// unsupported.
func (r *Registry) DescribeEPSG(code int) (CRS, error) {
	c, err := r.FromEPSG(code)
	if err == nil {
		return c, nil
	}
	if r.Proj(code) == nil {
		return nil, err
	}
	c, err = r.projectedFromRegistryOpt(code, false)
	if e := r.Err(); e != nil {
		return nil, e
	}
	return c, err
}
