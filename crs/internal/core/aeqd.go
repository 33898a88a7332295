package core

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

// AzimuthalEquidistant is the ellipsoidal azimuthal equidistant projection
// on WGS84 centred at (lat0, lon0): a point's coordinates are
// s·(sin α, cos α) with s the geodesic distance and α the azimuth of the
// geodesic from the centre, as PROJ's +proj=aeqd +datum=WGS84 computes.
type AzimuthalEquidistant struct {
	Lat0, Lon0 float64
}

// NewAzimuthalEquidistant is crs.NewAzimuthalEquidistant.
func NewAzimuthalEquidistant(lat0, lon0 float64) (CRS, error) {
	if err := proj.CheckLonLat(lon0, lat0); err != nil {
		return nil, fmt.Errorf("crs: aeqd centre: %w", err)
	}
	return AzimuthalEquidistant{Lat0: lat0, Lon0: lon0}, nil
}

// String returns "aeqd:LAT,LON" with the shortest exact decimal form.
func (p AzimuthalEquidistant) String() string {
	return "aeqd:" + strconv.FormatFloat(p.Lat0, 'g', -1, 64) + "," + strconv.FormatFloat(p.Lon0, 'g', -1, 64)
}
func (AzimuthalEquidistant) EPSG() int        { return 0 }
func (AzimuthalEquidistant) Geographic() bool { return false }
func (AzimuthalEquidistant) Unit() Unit       { return Metre }

// Centre returns the projection centre (latitude, longitude) in degrees.
func (p AzimuthalEquidistant) Centre() (lat0, lon0 float64) { return p.Lat0, p.Lon0 }

// FromLonLat returns the geodesic distance s and azimuth α from the
// centre as x = s sin α, y = s cos α (metres). The centre maps to (0, 0).
func (p AzimuthalEquidistant) FromLonLat(lon, lat float64) (float64, float64, error) {
	if err := proj.CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	var s12, azi1 float64
	geodesic.WGS84.Inverse(p.Lat0, p.Lon0, lat, lon, &s12, &azi1, nil)
	if math.IsNaN(s12) || math.IsNaN(azi1) {
		return 0, 0, fmt.Errorf("%w: geodesic from the centre to (%v, %v) failed", proj.ErrOutsideDomain, lon, lat)
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
func (p AzimuthalEquidistant) ToLonLat(x, y float64) (float64, float64, error) {
	if err := proj.CheckFinite(x, y); err != nil {
		return 0, 0, err
	}
	rho := math.Sqrt(float64(x*x) + float64(y*y))
	if rho > aeqdMaxRho {
		return 0, 0, fmt.Errorf("%w: (%v, %v) is %v m from the centre, beyond the antipode", proj.ErrOutsideDomain, x, y, rho)
	}
	if rho == 0 {
		return p.Lon0, p.Lat0, nil
	}
	azi := math.Atan2(x, y) * proj.RadToDeg
	var lat, lon float64
	geodesic.WGS84.Direct(p.Lat0, p.Lon0, azi, rho, &lat, &lon, nil)
	if math.IsNaN(lat) || math.IsNaN(lon) {
		return 0, 0, fmt.Errorf("%w: direct geodesic to (%v, %v) failed", proj.ErrOutsideDomain, x, y)
	}
	return lon, lat, nil
}

func (AzimuthalEquidistant) Geodetic() *GeodeticDatum { return WGS84Datum }

func (p AzimuthalEquidistant) ToDatum(x, y float64) (float64, float64, error) {
	return p.ToLonLat(x, y)
}

func (p AzimuthalEquidistant) FromDatum(lon, lat float64) (float64, float64, error) {
	return p.FromLonLat(lon, lat)
}
