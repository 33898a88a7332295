package geodesy

import (
	"errors"
	"fmt"
	"math"

	"github.com/tidwall/geodesic"
)

// Solution is the complete solution of a geodesic problem between point 1
// and point 2, the quantities GeographicLib's GenInverse and GenDirect
// return (and GeodSolve -f prints). Angles are in degrees, lengths in
// metres, the area in square metres.
type Solution struct {
	Lat1, Lon1, Azi1 float64 // point 1 and the forward azimuth there
	Lat2, Lon2, Azi2 float64 // point 2 and the forward azimuth there
	S12              float64 // distance from point 1 to point 2
	A12              float64 // arc length on the auxiliary sphere (degrees)
	ReducedLength    float64 // m12
	ScaleM12         float64 // geodesic scale of point 2 relative to point 1
	ScaleM21         float64 // geodesic scale of point 1 relative to point 2
	Area             float64 // S12, the area between the geodesic and the equator
}

// SolveInverse solves the inverse problem from (lat1, lon1) to (lat2,
// lon2) with every output quantity. Unlike Inverse it does not check its
// arguments (latitudes must lie in [-90, 90]; NaN input gives NaN output,
// as in GeographicLib); only the ellipsoid is validated. Lon1 and Lon2 of
// the solution are the inputs; Azi1 and Azi2 lie in [-180, 180].
func (e Ellipsoid) SolveInverse(lat1, lon1, lat2, lon2 float64) (Solution, error) {
	g, err := e.geodesicFor()
	if err != nil {
		return Solution{}, err
	}
	s := Solution{Lat1: lat1, Lon1: lon1, Lat2: lat2, Lon2: lon2}
	s.A12 = g.g.GenInverse(lat1, lon1, lat2, lon2, &s.S12, &s.Azi1, &s.Azi2, &s.ReducedLength, &s.ScaleM12, &s.ScaleM21, &s.Area)
	return s, nil
}

// SolveDirect solves the direct problem from (lat1, lon1) with azimuth
// azi1 over dist, a distance in metres or, when arc is true, an arc length
// in degrees on the auxiliary sphere. With unroll the longitude of point 2
// is unrolled (Lon2 - Lon1 tells how often and in which sense the geodesic
// encircled the ellipsoid); otherwise it lies in [-180, 180]. Arguments
// are not checked (see SolveInverse); Lon1 and Azi1 of the solution are
// the inputs.
//
// The position, Azi2 and A12 (S12 in arc mode too) come from the direct
// solution. The reduced length, the geodesic scales and the area come
// from the inverse solution between the two points, which describes the
// same geodesic as long as it is the shortest path between them; for a
// longer geodesic (beyond the first conjugate point, such as a path of
// more than half the globe) they are not available and SolveDirect
// returns the position with ErrNotShortest.
func (e Ellipsoid) SolveDirect(lat1, lon1, azi1 float64, arc bool, dist float64, unroll bool) (Solution, error) {
	g, err := e.geodesicFor()
	if err != nil {
		return Solution{}, err
	}
	var flags geodesic.Flags
	if arc {
		flags |= geodesic.ArcMode
	}
	if unroll {
		flags |= geodesic.LongUnroll
	}
	s := Solution{Lat1: lat1, Lon1: lon1, Azi1: azi1, S12: dist}
	s.A12 = g.g.GenDirect(lat1, lon1, azi1, flags, dist, &s.Lat2, &s.Lon2, &s.Azi2, nil, nil, nil, nil, nil)
	if math.IsNaN(s.Lat2) || math.IsNaN(s.Lon2) || math.IsNaN(s.Azi2) || math.IsNaN(s.A12) {
		s.ReducedLength, s.ScaleM12, s.ScaleM21, s.Area = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		if arc {
			s.S12 = math.NaN()
		}
		return s, nil
	}
	// tidwall/geodesic's geodesic lines compute only the position, so the
	// other quantities come from the inverse problem between the end
	// points, which is the same geodesic when it is as long as the direct
	// one (a longer geodesic is never the shortest path).
	var s12, a1, a2, m12, M12, M21, S12 float64
	a12 := g.g.GenInverse(s.Lat1, s.Lon1, s.Lat2, s.Lon2, &s12, &a1, &a2, &m12, &M12, &M21, &S12)
	same := math.Abs(a12-math.Abs(s.A12)) <= 1e-12*math.Max(1, math.Abs(s.A12))
	if !arc {
		same = math.Abs(s12-math.Abs(dist)) <= 1e-7+float64(1e-12*math.Abs(dist)) // float64(): no fused multiply-add (arm64)
	}
	if !same {
		return s, fmt.Errorf("%w: arc length %v degrees", ErrNotShortest, s.A12)
	}
	if dist < 0 {
		// A negative distance runs the geodesic backwards: the reduced
		// length takes the sign of the distance (the area and the scales
		// do not depend on the direction of the azimuth).
		m12, s12 = -m12, -s12
	}
	if arc {
		s.S12 = s12
	}
	s.ReducedLength, s.ScaleM12, s.ScaleM21, s.Area = m12, M12, M21, S12
	return s, nil
}

// ErrNotShortest reports a direct geodesic longer than the shortest path
// between its end points, whose reduced length, geodesic scales and area
// SolveDirect cannot give.
var ErrNotShortest = errors.New("geodesy: reduced length, scales and area of a geodesic longer than the shortest path are not available")
