package proj

import (
	"errors"
	"fmt"
	"math"
)

// Errors of the coordinates a projection is given.
var (
	// ErrInvalidCoordinate reports a NaN or infinite coordinate or a
	// latitude outside [-90, 90].
	ErrInvalidCoordinate = errors.New("crs: invalid coordinate")
	// ErrOutsideDomain reports a point the projection cannot represent
	// (a pole in Web Mercator, a longitude too far from a transverse
	// Mercator central meridian, a distance beyond the antipode in aeqd).
	ErrOutsideDomain = errors.New("crs: point outside the projection's domain")
)

// Projection is a map projection prepared for one conversion: forward maps
// longitude/latitude in degrees (longitudes relative to the base CRS's
// prime meridian) to easting/northing in metres (false origin included);
// inverse undoes it. Both are safe for concurrent use.
type Projection interface {
	Forward(lon, lat float64) (x, y float64, err error)
	Inverse(x, y float64) (lon, lat float64, err error)
}

// CheckFinite checks that x and y are finite numbers.
func CheckFinite(x, y float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
		return fmt.Errorf("%w: (%v, %v) is not finite", ErrInvalidCoordinate, x, y)
	}
	return nil
}

// CheckLonLat checks a WGS84 longitude/latitude pair.
func CheckLonLat(lon, lat float64) error {
	if err := CheckFinite(lon, lat); err != nil {
		return err
	}
	if lat < -90 || lat > 90 {
		return fmt.Errorf("%w: latitude %v outside [-90, 90]", ErrInvalidCoordinate, lat)
	}
	return nil
}

// Wrap180 reduces a longitude difference to [-180, 180].
func Wrap180(x float64) float64 {
	if x >= -180 && x <= 180 {
		return x
	}
	y := math.Remainder(x, 360)
	if y == -180 && x > 0 {
		y = 180
	}
	return y
}

const (
	DegToRad = math.Pi / 180
	RadToDeg = 180 / math.Pi
)
