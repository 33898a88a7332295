package geodesy

import (
	"errors"
	"fmt"
	"math"
)

// Ellipsoid is an oblate ellipsoid of revolution given by its semi-major
// axis A in metres and its flattening F. The zero value is not usable;
// start from WGS84 or set both fields.
type Ellipsoid struct {
	A float64 // semi-major (equatorial) axis, metres
	F float64 // flattening (a-b)/a; 0 gives a sphere
}

// WGS84 returns the WGS84 ellipsoid (a = 6378137 m, f = 1/298.257223563),
// the one EPSG:4326 and GeographicLib's default use.
func WGS84() Ellipsoid { return Ellipsoid{A: 6378137, F: 1 / 298.257223563} }

// ErrInvalidInput is wrapped by every error this package returns for
// arguments out of range or not finite; test for it with errors.Is.
var ErrInvalidInput = errors.New("geodesy: invalid input")

// validate reports whether the ellipsoid parameters are usable.
func (e Ellipsoid) validate() error {
	if !(e.A > 0) || math.IsInf(e.A, 0) {
		return fmt.Errorf("%w: semi-major axis %v must be positive and finite", ErrInvalidInput, e.A)
	}
	if !(e.F >= 0 && e.F < 1) {
		return fmt.Errorf("%w: flattening %v must be in [0, 1)", ErrInvalidInput, e.F)
	}
	return nil
}

// B returns the semi-minor (polar) axis a(1-f) in metres.
func (e Ellipsoid) B() float64 { return float64(e.A * (1 - e.F)) }

// E2 returns the squared first eccentricity f(2-f).
func (e Ellipsoid) E2() float64 { return float64(e.F * (2 - e.F)) }

// checkLat returns an error when lat is not a finite latitude in [-90, 90].
func checkLat(name string, lat float64) error {
	if math.IsNaN(lat) || lat < -90 || lat > 90 {
		return fmt.Errorf("%w: %s %v outside [-90, 90]", ErrInvalidInput, name, lat)
	}
	return nil
}

// checkFinite returns an error when v is NaN or infinite.
func checkFinite(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%w: %s %v is not finite", ErrInvalidInput, name, v)
	}
	return nil
}
