package geodesy

import (
	"fmt"
	"math"
)

// QuadrangleArea returns the exact area in m² of the ellipsoidal quadrangle
// bounded by the parallels latSouth and latNorth and the meridians lonWest
// and lonEast (all degrees).
//
// The area is a²/2 · Δλ · (q(φN) − q(φS)), where q is the authalic
// function (Snyder's q, so that a²q/2 is the area per radian of longitude
// between the equator and φ); the difference is evaluated in a form that
// keeps full relative precision for narrow cells, so summing the cells of
// a block reproduces the block's area to about 1e-15 relative.
//
// Latitudes must be in [-90, 90] with latSouth <= latNorth (a zero-height
// cell has zero area). Longitudes must be finite; the width is
// lonEast − lonWest, plus 360 when that is negative (a cell crossing the
// antimeridian, e.g. 170 to −170), and it must not exceed 360.
func (e Ellipsoid) QuadrangleArea(latSouth, latNorth, lonWest, lonEast float64) (float64, error) {
	if err := e.validate(); err != nil {
		return 0, err
	}
	if err := checkLat("latSouth", latSouth); err != nil {
		return 0, err
	}
	if err := checkLat("latNorth", latNorth); err != nil {
		return 0, err
	}
	if latSouth > latNorth {
		return 0, fmt.Errorf("%w: latSouth %v is north of latNorth %v", ErrInvalidInput, latSouth, latNorth)
	}
	if err := checkFinite("lonWest", lonWest); err != nil {
		return 0, err
	}
	if err := checkFinite("lonEast", lonEast); err != nil {
		return 0, err
	}
	width := lonEast - lonWest
	if width < 0 {
		width += 360
	}
	if width > 360 {
		return 0, fmt.Errorf("%w: longitude width %v exceeds 360 degrees", ErrInvalidInput, width)
	}
	return e.zoneArea(latSouth, latNorth) * (width * (math.Pi / 180)), nil
}

// TotalArea returns the surface area of the whole ellipsoid in m².
func (e Ellipsoid) TotalArea() float64 {
	return e.zoneArea(-90, 90) * (2 * math.Pi)
}

// zoneArea returns the area in m² per radian of longitude between the
// parallels lat1 <= lat2 (degrees, already validated).
func (e Ellipsoid) zoneArea(lat1, lat2 float64) float64 {
	if lat1 == lat2 {
		return 0
	}
	e2 := e.E2()
	s1, s2 := sind(lat1), sind(lat2)
	// ds = sin φ2 − sin φ1 = 2 cos((φ1+φ2)/2) sin((φ2−φ1)/2), exact for
	// narrow cells where the plain difference would cancel.
	ds := 2 * cosd((lat1+lat2)/2) * sind((lat2-lat1)/2)
	if lat1 == -90 && lat2 == 90 {
		ds = 2
	}
	if e2 == 0 {
		return float64(e.A*e.A) * ds
	}
	ec := math.Sqrt(e2)
	// q(φ) = (1−e²)[ s/(1−e²s²) + atanh(e s)/e ]; its difference is
	// (1−e²)·ds·[ (1+e²s1s2)/((1−e²s1²)(1−e²s2²)) + atanh(x)/(e·ds) ]
	// with x = e·ds/(1−e²s1s2), using atanh a − atanh b = atanh((a−b)/(1−ab)).
	p := float64(s1 * s2)
	den1 := 1 - float64(e2*float64(s1*s1))
	den2 := 1 - float64(e2*float64(s2*s2))
	t1 := (1 + float64(e2*p)) / float64(den1*den2)
	x := float64(ec*ds) / (1 - float64(e2*p))
	t2 := atanhRatio(x) / (1 - float64(e2*p)) // atanh(x)/(e·ds)
	dq := float64((1-e2)*ds) * (t1 + t2)
	return float64(e.A*e.A) * dq / 2
}

// atanhRatio returns atanh(x)/x, 1 at x = 0.
func atanhRatio(x float64) float64 {
	if math.Abs(x) < 1e-8 {
		return 1 + float64(x*x)/3
	}
	return math.Atanh(x) / x
}

// sind returns sin(x) for x in degrees, exact at multiples of 90.
func sind(x float64) float64 {
	switch x {
	case 0:
		return x
	case 90:
		return 1
	case -90:
		return -1
	case 180, -180:
		return 0
	}
	return math.Sin(x * (math.Pi / 180))
}

// cosd returns cos(x) for x in degrees, exact at multiples of 90.
func cosd(x float64) float64 {
	switch x {
	case 0:
		return 1
	case 90, -90:
		return 0
	case 180, -180:
		return -1
	}
	return math.Cos(x * (math.Pi / 180))
}
