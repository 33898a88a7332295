package crs

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/crs/internal/core"
	"github.com/geodisaster/engine/crs/internal/proj"
	"github.com/geodisaster/engine/crs/internal/projstring"
	"github.com/geodisaster/engine/crs/internal/wkt"
)

// FromEPSG returns the CRS with the given EPSG code: every non-deprecated
// EPSG geographic 2D CRS and every non-deprecated EPSG projected CRS whose
// method this package implements (see List), from the tables generated
// from PROJ's database, deprecated codes included (such as 900913, Google
// Maps Global Mercator).
// Unknown or unsupported codes give an error wrapping ErrUnknownCRS.
func FromEPSG(code int) (CRS, error) {
	r, err := epsg()
	if err != nil {
		return nil, err
	}
	return r.FromEPSG(code)
}

// CRS is a coordinate reference system the engine can convert to and from
// WGS84 longitude/latitude. Implementations are immutable and safe for
// concurrent use.
//
// Geographic systems take x = longitude and y = latitude in degrees (the
// "always_xy" order of pyproj, cs2cs's order with EPSG:4326 overridden);
// projected systems take easting/northing in their linear unit. Its
// methods:
//   - String returns the identifier Parse accepts: "EPSG:n" or
//     "aeqd:LAT,LON".
//   - EPSG returns the EPSG code, or 0 for a system without one (aeqd).
//   - Geographic reports whether coordinates are longitude/latitude
//     degrees.
//   - Unit returns the linear unit of projected coordinates; geographic
//     systems return Degree.
//   - ToLonLat(x, y) converts (x, y) of this system to WGS84 longitude
//     and latitude in degrees; errors for non-finite input or points
//     outside the projection's domain.
//   - FromLonLat(lon, lat) converts WGS84 longitude/latitude (degrees) to
//     (x, y) of this system; errors for latitudes outside [-90, 90],
//     non-finite input or points outside the projection's domain.
type CRS = core.CRS

// Unit is a unit of coordinates: its name (Name: "metre", "foot", "US
// survey foot", "degree") and, for linear units, its length in metres
// (Metres; 0 for angular units).
type Unit = core.Unit

// The units the engine knows.
var (
	Metre        = core.Metre
	Foot         = core.Foot
	USSurveyFoot = core.USSurveyFoot
	Degree       = core.Degree
)

// Errors wrapped by this package's failures; test with errors.Is.
var (
	// ErrUnknownCRS reports an EPSG code or CRS string the engine does not
	// support.
	ErrUnknownCRS = core.ErrUnknownCRS
	// ErrInvalidCoordinate reports a NaN or infinite coordinate or a
	// latitude outside [-90, 90].
	ErrInvalidCoordinate = proj.ErrInvalidCoordinate
	// ErrOutsideDomain reports a point the projection cannot represent
	// (a pole in Web Mercator, a longitude too far from a transverse
	// Mercator central meridian, a distance beyond the antipode in aeqd).
	ErrOutsideDomain = proj.ErrOutsideDomain
)

// Parse returns the CRS named by s: "EPSG:n" (case-insensitive prefix, or
// a bare integer code; see FromEPSG), "aeqd:LAT,LON" for the WGS84
// azimuthal equidistant projection centred at LAT, LON degrees, a PROJ
// string of any implemented method ("+proj=utm +zone=33 +south
// +datum=WGS84", "+proj=lcc +lat_1=49 +lat_2=44 ... +ellps=GRS80
// +towgs84=0,0,0"; parameters PROJ would not accept, or that this package
// cannot honour such as grids, are errors), or WKT: WKT1 as GDAL and ESRI
// write it and WKT2 (2015 and 2019, BOUNDCRS included). PROJ's
// spherical Web Mercator string (+proj=merc +a=6378137 +b=6378137 ...
// +nadgrids=@null) is EPSG:3857; other definitions stay user-defined even
// when they match an EPSG CRS (Identify finds its code).
func Parse(s string) (CRS, error) {
	t := strings.TrimSpace(s)
	low := strings.ToLower(t)
	switch {
	case strings.HasPrefix(low, "epsg:"):
		code, err := strconv.Atoi(strings.TrimSpace(t[5:]))
		if err != nil {
			return nil, fmt.Errorf("%w: %q: bad EPSG code", ErrUnknownCRS, s)
		}
		return FromEPSG(code)
	case strings.HasPrefix(low, "aeqd:"):
		parts := strings.Split(t[5:], ",")
		if len(parts) != 2 {
			return nil, fmt.Errorf("%w: %q: want aeqd:LAT,LON", ErrUnknownCRS, s)
		}
		lat, err1 := strconv.ParseFloat(strings.TrimSpace(parts[0]), 64)
		lon, err2 := strconv.ParseFloat(strings.TrimSpace(parts[1]), 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%w: %q: want aeqd:LAT,LON with numeric degrees", ErrUnknownCRS, s)
		}
		return core.NewAzimuthalEquidistant(lat, lon)
	}
	if code, err := strconv.Atoi(t); err == nil {
		return FromEPSG(code)
	}
	if strings.HasPrefix(t, "+proj=") || strings.HasPrefix(t, "proj=") {
		r := mustEPSG()
		c, err := projstring.Parse(r, t)
		return checked(r, c, err)
	}
	if kw, _, ok := strings.Cut(t, "["); ok && wkt.IsKeyword(strings.TrimSpace(kw)) {
		r := mustEPSG()
		c, err := wkt.Parse(r, t)
		return checked(r, c, err)
	}
	return nil, fmt.Errorf("%w: %q: want EPSG:n, aeqd:LAT,LON, a PROJ string or WKT", ErrUnknownCRS, s)
}

// Transform converts (x, y) from one CRS to another. For geographic
// systems x is longitude and y latitude; for projected systems x and y
// are in pyproj's always_xy order (easting first). Two CRSs on the same
// geodetic datum (a projected CRS and its base geographic CRS, two zones
// of one datum) convert directly, without a datum shift; otherwise the
// conversion passes through WGS 84 with the Helmert transformation EPSG
// publishes for each datum, chosen per point as PROJ chooses (see
// docs/crs.md). The same CRS on both sides returns the input unchanged
// (after checking it is finite).
func Transform(from, to CRS, x, y float64) (float64, float64, error) {
	if from == nil || to == nil {
		return 0, 0, fmt.Errorf("%w: nil CRS", ErrUnknownCRS)
	}
	if err := proj.CheckFinite(x, y); err != nil {
		return 0, 0, err
	}
	if sameSystem(from, to) {
		return x, y, nil
	}
	fd, td := directPath(from, to)
	return convertPoint(from, to, fd, td, x, y)
}

// directPath returns the two CRSs as onDatum when they share a datum (the
// conversion then needs no datum shift), else nils.
func directPath(from, to CRS) (core.OnDatum, core.OnDatum) {
	if fd, ok := from.(core.OnDatum); ok {
		if td, ok := to.(core.OnDatum); ok && fd.Geodetic().Key == td.Geodetic().Key {
			return fd, td
		}
	}
	return nil, nil
}

// convertPoint converts a finite point: directly through the datum when fd
// and td are set, else through WGS 84.
func convertPoint(from, to CRS, fd, td core.OnDatum, x, y float64) (float64, float64, error) {
	if fd != nil {
		lon, lat, err := fd.ToDatum(x, y)
		if err != nil {
			return 0, 0, fmt.Errorf("crs: %s to %s: %w", from, to, err)
		}
		ox, oy, err := td.FromDatum(lon, lat)
		if err != nil {
			return 0, 0, fmt.Errorf("crs: %s to %s: %w", from, to, err)
		}
		return ox, oy, nil
	}
	lon, lat, err := from.ToLonLat(x, y)
	if err != nil {
		return 0, 0, fmt.Errorf("crs: %s to WGS84: %w", from, err)
	}
	ox, oy, err := to.FromLonLat(lon, lat)
	if err != nil {
		return 0, 0, fmt.Errorf("crs: WGS84 to %s: %w", to, err)
	}
	return ox, oy, nil
}

// PixelAreaM2 returns the ground area in m² of one pixel of a grid with
// geotransform t in the projected CRS c: |det t| times the square of c's
// linear unit in metres. It is an error for a geographic CRS (use
// geodesy.CellAreas), a singular or non-finite transform.
func PixelAreaM2(t Affine, c CRS) (float64, error) {
	if c == nil {
		return 0, fmt.Errorf("%w: nil CRS", ErrUnknownCRS)
	}
	if c.Geographic() {
		return 0, fmt.Errorf("crs: pixel area in %s: geographic CRS has no constant pixel area (use geodesy.CellAreas)", c)
	}
	if err := t.Validate(); err != nil {
		return 0, fmt.Errorf("crs: pixel area: %w", err)
	}
	u := c.Unit().Metres
	if !(u > 0) {
		return 0, fmt.Errorf("crs: pixel area in %s: unit %q is not linear", c, c.Unit().Name)
	}
	return math.Abs(t.Determinant()) * float64(u*u), nil
}

// sameSystem reports whether two CRSs are the same system (then Transform
// returns its input), without formatting their names for the CRSs of this
// package.
func sameSystem(a, b CRS) bool {
	switch x := a.(type) {
	case *core.ProjectedCRS:
		y, ok := b.(*core.ProjectedCRS)
		return ok && (x == y || (x.Code != 0 && x.Code == y.Code))
	case *core.GeographicCRS:
		y, ok := b.(*core.GeographicCRS)
		return ok && (x == y || (x.Code != 0 && x.Code == y.Code))
	case core.AzimuthalEquidistant:
		y, ok := b.(core.AzimuthalEquidistant)
		return ok && x == y
	}
	return a.String() == b.String()
}

// BaseGeographic returns the geographic CRS c is based on: c itself when
// it is geographic, the base geographic CRS of a projected CRS (its datum,
// prime meridian and angular unit: Transform(c, BaseGeographic(c), x, y)
// converts without a datum shift), WGS 84 for the aeqd:LAT,LON systems;
// nil for nil.
func BaseGeographic(c CRS) CRS {
	switch v := c.(type) {
	case *core.GeographicCRS:
		return v
	case *core.ProjectedCRS:
		return v.Base
	case core.AzimuthalEquidistant:
		return WGS84LonLat()
	}
	return nil
}

// AuthorityOrderSwapped reports whether c's authority axis order (the
// order EPSG defines and cs2cs uses by default) is Transform's (y, x):
// latitude first for EPSG:4326 and most geographic CRSs, northing first
// for EPSG:31467 or 3035.
func AuthorityOrderSwapped(c CRS) bool {
	switch v := c.(type) {
	case *core.GeographicCRS:
		return v.LatLon
	case *core.ProjectedCRS:
		return v.SwapXY
	}
	return false
}
