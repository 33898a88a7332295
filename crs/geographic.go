package crs

import (
	"fmt"
	"math"

	"github.com/geodisaster/engine/crs/internal/proj"
)

// geographicCRS is a geographic 2D CRS: longitude and latitude on a
// geodetic datum, in an angular unit, relative to the datum's prime
// meridian. As CRS, x is the longitude and y the latitude (pyproj's
// always_xy order) whatever the authority's axis order.
type geographicCRS struct {
	code   int
	name   string
	datum  *geodeticDatum
	unit   angularUnit
	latLon bool // the authority order is latitude first
	def    *geogDef
	cs     *csDef // axes of a user-defined CRS (nil: latitude, longitude)
}

// angularUnit is the unit of geographic coordinates.
type angularUnit struct {
	code    int
	name    string
	radians float64 // radians per unit
}

var degreeUnit = angularUnit{code: 9122, name: "degree", radians: math.Pi / 180}

func (g *geographicCRS) String() string {
	if g.code != 0 {
		return fmt.Sprintf("EPSG:%d", g.code)
	}
	return projString(g)
}
func (g *geographicCRS) EPSG() int        { return g.code }
func (g *geographicCRS) Geographic() bool { return true }

// Unit is Degree for degree-based systems; other angular units (grads)
// carry no metres either.
func (g *geographicCRS) Unit() Unit {
	if g.unit.code == 9122 || g.unit.code == 9102 {
		return Degree
	}
	return Unit{Name: g.unit.name}
}

// toDeg converts coordinates of the CRS to degrees from Greenwich.
func (g *geographicCRS) toDeg(x, y float64) (lon, lat float64, err error) {
	if err := proj.CheckFinite(x, y); err != nil {
		return 0, 0, err
	}
	lon, lat = x, y
	if g.unit.code != 9122 && g.unit.code != 9102 {
		lon = float64(x*g.unit.radians) / proj.DegToRad
		lat = float64(y*g.unit.radians) / proj.DegToRad
		if math.Abs(lat) > 90 && math.Abs(lat) < 90+1e-12 {
			lat = math.Copysign(90, lat) // 100 grad in floating point
		}
	}
	if lat < -90 || lat > 90 {
		return 0, 0, fmt.Errorf("%w: latitude %v outside [-90, 90]", ErrInvalidCoordinate, lat)
	}
	return lon + g.datum.pm.deg, lat, nil
}

// fromDeg converts degrees from Greenwich to coordinates of the CRS.
func (g *geographicCRS) fromDeg(lon, lat float64) (float64, float64) {
	lon -= g.datum.pm.deg
	if g.unit.code != 9122 && g.unit.code != 9102 {
		return (proj.Radians(lon)) / g.unit.radians, (proj.Radians(lat)) / g.unit.radians
	}
	return lon, lat
}

// ToLonLat converts to WGS 84 longitude/latitude (degrees); the identity
// for EPSG:4326 (longitudes are not wrapped).
func (g *geographicCRS) ToLonLat(x, y float64) (float64, float64, error) {
	lon, lat, err := g.toDeg(x, y)
	if err != nil {
		return 0, 0, err
	}
	lon, lat = g.datum.toWGS84(lon, lat)
	return lon, lat, nil
}

// FromLonLat converts WGS 84 longitude/latitude (degrees).
func (g *geographicCRS) FromLonLat(lon, lat float64) (float64, float64, error) {
	if err := proj.CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	lon, lat = g.datum.fromWGS84(lon, lat)
	x, y := g.fromDeg(lon, lat)
	return x, y, nil
}

func (g *geographicCRS) geodetic() *geodeticDatum { return g.datum }

// toDatum converts to longitude/latitude in degrees from Greenwich on the
// CRS's own datum.
func (g *geographicCRS) toDatum(x, y float64) (float64, float64, error) { return g.toDeg(x, y) }

// fromDatum converts longitude/latitude in degrees from Greenwich on the
// CRS's own datum.
func (g *geographicCRS) fromDatum(lon, lat float64) (float64, float64, error) {
	if err := proj.CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	x, y := g.fromDeg(lon, lat)
	return x, y, nil
}

// geographicFromRegistry builds EPSG geographic CRS code.
func (r *registry) geographicFromRegistry(code int) (*geographicCRS, error) {
	d, ok := r.geog[code]
	if !ok {
		return nil, fmt.Errorf("%w: EPSG:%d", ErrUnknownCRS, code)
	}
	datum, err := r.datumFor(d)
	if err != nil {
		return nil, err
	}
	cs, ok := r.css[d.cs]
	if !ok || len(cs.axes) < 2 {
		return nil, fmt.Errorf("%w: EPSG:%d: coordinate system %d missing", ErrUnknownCRS, code, d.cs)
	}
	uc := cs.axes[0].unit
	u, ok := r.units[uc]
	if !ok || u.typ != "angle" {
		return nil, fmt.Errorf("%w: EPSG:%d: angular unit %d", ErrUnknownCRS, code, uc)
	}
	unit := angularUnit{code: uc, name: u.name, radians: u.factor}
	if uc == 9122 || uc == 9102 {
		unit = degreeUnit
	}
	return &geographicCRS{code: code, name: d.name, datum: datum, unit: unit,
		latLon: cs.axes[0].dir == "north", def: d}, nil
}
