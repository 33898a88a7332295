package core

import (
	"fmt"
	"math"

	"github.com/geodisaster/engine/crs/internal/proj"
)

// GeographicCRS is a geographic 2D CRS: longitude and latitude on a
// geodetic datum, in an angular unit, relative to the datum's prime
// meridian. As CRS, x is the longitude and y the latitude (pyproj's
// always_xy order) whatever the authority's axis order.
type GeographicCRS struct {
	Code    int
	Name    string
	Datum   *GeodeticDatum
	Angular AngularUnit
	LatLon  bool // the authority order is latitude first
	Def     *geogDef
	CS      *CSDef // axes of a user-defined CRS (nil: latitude, longitude)
}

// AngularUnit is the unit of geographic coordinates.
type AngularUnit struct {
	Code    int
	Name    string
	Radians float64 // radians per unit
}

var DegreeUnit = AngularUnit{Code: 9122, Name: "degree", Radians: math.Pi / 180}

func (g *GeographicCRS) String() string   { return crsString(g) }
func (g *GeographicCRS) EPSG() int        { return g.Code }
func (g *GeographicCRS) Geographic() bool { return true }

// Unit is Degree for degree-based systems; other angular units (grads)
// carry no metres either.
func (g *GeographicCRS) Unit() Unit {
	if g.Angular.Code == 9122 || g.Angular.Code == 9102 {
		return Degree
	}
	return Unit{Name: g.Angular.Name}
}

// toDeg converts coordinates of the CRS to degrees from Greenwich.
func (g *GeographicCRS) toDeg(x, y float64) (lon, lat float64, err error) {
	if err := proj.CheckFinite(x, y); err != nil {
		return 0, 0, err
	}
	lon, lat = x, y
	if g.Angular.Code != 9122 && g.Angular.Code != 9102 {
		lon = float64(x*g.Angular.Radians) / proj.DegToRad
		lat = float64(y*g.Angular.Radians) / proj.DegToRad
		if math.Abs(lat) > 90 && math.Abs(lat) < 90+1e-12 {
			lat = math.Copysign(90, lat) // 100 grad in floating point
		}
	}
	if lat < -90 || lat > 90 {
		return 0, 0, fmt.Errorf("%w: latitude %v outside [-90, 90]", proj.ErrInvalidCoordinate, lat)
	}
	return lon + g.Datum.PM.Deg, lat, nil
}

// fromDeg converts degrees from Greenwich to coordinates of the CRS.
func (g *GeographicCRS) fromDeg(lon, lat float64) (float64, float64) {
	lon -= g.Datum.PM.Deg
	if g.Angular.Code != 9122 && g.Angular.Code != 9102 {
		return (proj.Radians(lon)) / g.Angular.Radians, (proj.Radians(lat)) / g.Angular.Radians
	}
	return lon, lat
}

// ToLonLat converts to WGS 84 longitude/latitude (degrees); the identity
// for EPSG:4326 (longitudes are not wrapped).
func (g *GeographicCRS) ToLonLat(x, y float64) (float64, float64, error) {
	lon, lat, err := g.toDeg(x, y)
	if err != nil {
		return 0, 0, err
	}
	lon, lat = g.Datum.toWGS84(lon, lat)
	return lon, lat, nil
}

// FromLonLat converts WGS 84 longitude/latitude (degrees).
func (g *GeographicCRS) FromLonLat(lon, lat float64) (float64, float64, error) {
	if err := proj.CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	lon, lat = g.Datum.fromWGS84(lon, lat)
	x, y := g.fromDeg(lon, lat)
	return x, y, nil
}

func (g *GeographicCRS) Geodetic() *GeodeticDatum { return g.Datum }

// ToDatum converts to longitude/latitude in degrees from Greenwich on the
// CRS's own datum.
func (g *GeographicCRS) ToDatum(x, y float64) (float64, float64, error) { return g.toDeg(x, y) }

// FromDatum converts longitude/latitude in degrees from Greenwich on the
// CRS's own datum.
func (g *GeographicCRS) FromDatum(lon, lat float64) (float64, float64, error) {
	if err := proj.CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	x, y := g.fromDeg(lon, lat)
	return x, y, nil
}

// geographicFromRegistry builds EPSG geographic CRS code.
func (r *Registry) geographicFromRegistry(code int) (*GeographicCRS, error) {
	d := r.Geog(code)
	if d == nil {
		return nil, fmt.Errorf("%w: EPSG:%d", ErrUnknownCRS, code)
	}
	datum, err := r.datumFor(d)
	if err != nil {
		return nil, err
	}
	cs, ok := r.CSs[d.Cs]
	if !ok || len(cs.Axes) < 2 {
		return nil, fmt.Errorf("%w: EPSG:%d: coordinate system %d missing", ErrUnknownCRS, code, d.Cs)
	}
	uc := cs.Axes[0].Unit
	u, ok := r.Units[uc]
	if !ok || u.Kind != "angle" {
		return nil, fmt.Errorf("%w: EPSG:%d: angular unit %d", ErrUnknownCRS, code, uc)
	}
	unit := AngularUnit{Code: uc, Name: u.Name, Radians: u.Factor}
	if uc == 9122 || uc == 9102 {
		unit = DegreeUnit
	}
	return &GeographicCRS{Code: code, Name: d.Name, Datum: datum, Angular: unit,
		LatLon: cs.Axes[0].Dir == "north", Def: d}, nil
}
