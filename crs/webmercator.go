package crs

import (
	"fmt"
	"math"
)

// webMercatorA is the sphere radius of EPSG:3857, WGS84's semi-major axis.
const webMercatorA = 6378137.0

// webMercator is EPSG:3857 (also served as 900913): the spherical Mercator
// formulas applied to WGS84 longitude/latitude, as PROJ's
// +proj=webmerc.
type webMercator struct{ code int }

// WebMercator returns EPSG:3857, WGS 84 / Pseudo-Mercator.
func WebMercator() CRS { return webMercator{code: 3857} }

func (w webMercator) String() string { return fmt.Sprintf("EPSG:%d", w.code) }
func (w webMercator) EPSG() int      { return w.code }
func (webMercator) Geographic() bool { return false }
func (webMercator) Unit() Unit       { return Metre }

// FromLonLat projects; the longitude is wrapped to [-180, 180] as PROJ
// does, and the poles (|lat| = 90, infinitely far) are outside the domain.
// The result agrees with PROJ to well under a millimetre up to ±85°.
func (webMercator) FromLonLat(lon, lat float64) (float64, float64, error) {
	if err := checkLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	if math.Abs(lat) == 90 {
		return 0, 0, fmt.Errorf("%w: Web Mercator cannot represent the pole (latitude %v)", ErrOutsideDomain, lat)
	}
	x := webMercatorA * (wrap180(lon) * deg2rad)
	y := webMercatorA * math.Asinh(math.Tan(lat*deg2rad))
	return x, y, nil
}

// ToLonLat inverts the projection; the longitude is wrapped to
// [-180, 180].
func (webMercator) ToLonLat(x, y float64) (float64, float64, error) {
	if err := finite2(x, y); err != nil {
		return 0, 0, err
	}
	lon := wrap180(x / webMercatorA * rad2deg)
	lat := math.Atan(math.Sinh(y/webMercatorA)) * rad2deg
	return lon, lat, nil
}
