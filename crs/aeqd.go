package crs

import (
	"fmt"
	"math"
	"strconv"

	"github.com/geodisaster/engine/crs/internal/proj"
	"github.com/tidwall/geodesic"
)

// aeqdMaxRho is the largest distance (metres) an azimuthal equidistant
// coordinate may have from the centre: half the WGS84 meridian, the
// longest geodesic.
const aeqdMaxRho = 20003931.458625457

// azimuthalEquidistant is the ellipsoidal azimuthal equidistant projection
// on WGS84 centred at (lat0, lon0): a point's coordinates are
// s·(sin α, cos α) with s the geodesic distance and α the azimuth of the
// geodesic from the centre, as PROJ's +proj=aeqd +datum=WGS84 computes.
type azimuthalEquidistant struct {
	lat0, lon0 float64
}

// NewAzimuthalEquidistant returns the azimuthal equidistant CRS on the
// WGS84 ellipsoid centred at lat0, lon0 (degrees), equivalent to PROJ's
// "+proj=aeqd +lat_0=lat0 +lon_0=lon0 +datum=WGS84" (no false origin,
// metres). Distances and azimuths from the centre are exact (Karney
// geodesics), so x, y agree with PROJ to nanometres at any distance; the
// whole globe except the antipode maps one to one. Errors for a centre
// latitude outside [-90, 90] or non-finite input.
func NewAzimuthalEquidistant(lat0, lon0 float64) (CRS, error) {
	if err := proj.CheckLonLat(lon0, lat0); err != nil {
		return nil, fmt.Errorf("crs: aeqd centre: %w", err)
	}
	return azimuthalEquidistant{lat0: lat0, lon0: lon0}, nil
}

// String returns "aeqd:LAT,LON" with the shortest exact decimal form.
func (p azimuthalEquidistant) String() string {
	return "aeqd:" + strconv.FormatFloat(p.lat0, 'g', -1, 64) + "," + strconv.FormatFloat(p.lon0, 'g', -1, 64)
}
func (azimuthalEquidistant) EPSG() int        { return 0 }
func (azimuthalEquidistant) Geographic() bool { return false }
func (azimuthalEquidistant) Unit() Unit       { return Metre }

// Centre returns the projection centre (latitude, longitude) in degrees.
func (p azimuthalEquidistant) Centre() (lat0, lon0 float64) { return p.lat0, p.lon0 }

// FromLonLat returns the geodesic distance s and azimuth α from the
// centre as x = s sin α, y = s cos α (metres). The centre maps to (0, 0).
func (p azimuthalEquidistant) FromLonLat(lon, lat float64) (float64, float64, error) {
	if err := proj.CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	var s12, azi1 float64
	geodesic.WGS84.Inverse(p.lat0, p.lon0, lat, lon, &s12, &azi1, nil)
	if math.IsNaN(s12) || math.IsNaN(azi1) {
		return 0, 0, fmt.Errorf("%w: geodesic from the centre to (%v, %v) failed", ErrOutsideDomain, lon, lat)
	}
	if s12 == 0 {
		return 0, 0, nil
	}
	sa, ca := math.Sincos(azi1 * proj.DegToRad)
	return float64(s12 * sa), float64(s12 * ca), nil
}

// ToLonLat solves the direct geodesic problem from the centre with
// azimuth atan2(x, y) and distance hypot(x, y). Points farther than half
// the meridian (20,003,931 m) are outside the domain.
func (p azimuthalEquidistant) ToLonLat(x, y float64) (float64, float64, error) {
	if err := proj.CheckFinite(x, y); err != nil {
		return 0, 0, err
	}
	rho := math.Sqrt(float64(x*x) + float64(y*y))
	if rho > aeqdMaxRho {
		return 0, 0, fmt.Errorf("%w: (%v, %v) is %v m from the centre, beyond the antipode", ErrOutsideDomain, x, y, rho)
	}
	if rho == 0 {
		return p.lon0, p.lat0, nil
	}
	azi := math.Atan2(x, y) * proj.RadToDeg
	var lat, lon float64
	geodesic.WGS84.Direct(p.lat0, p.lon0, azi, rho, &lat, &lon, nil)
	if math.IsNaN(lat) || math.IsNaN(lon) {
		return 0, 0, fmt.Errorf("%w: direct geodesic to (%v, %v) failed", ErrOutsideDomain, x, y)
	}
	return lon, lat, nil
}

func (azimuthalEquidistant) geodetic() *geodeticDatum { return wgs84Datum }

func (p azimuthalEquidistant) toDatum(x, y float64) (float64, float64, error) {
	return p.ToLonLat(x, y)
}

func (p azimuthalEquidistant) fromDatum(lon, lat float64) (float64, float64, error) {
	return p.FromLonLat(lon, lat)
}
