package geodesy

import (
	"errors"
	"math"
	"testing"
)

func TestSolveDirectMatchesInverse(t *testing.T) {
	e := WGS84()
	inv, err := e.SolveInverse(40.64, -73.78, 1.36, 103.99)
	if err != nil {
		t.Fatal(err)
	}
	// GeodSolve -i -f: a12 138.05119073, m12 4302543.400, M12 -0.7373860917.
	if math.Abs(inv.A12-138.05119073) > 1e-8 || math.Abs(inv.ReducedLength-4302543.400) > 1e-3 || math.Abs(inv.ScaleM12+0.7373860917) > 1e-10 {
		t.Errorf("inverse %+v", inv)
	}
	dir, err := e.SolveDirect(40.64, -73.78, inv.Azi1, false, inv.S12, false)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(dir.Lat2-1.36) > 1e-9 || math.Abs(dir.Lon2-103.99) > 1e-9 || math.Abs(dir.ReducedLength-inv.ReducedLength) > 1e-6 || math.Abs(dir.Area-inv.Area) > 1 {
		t.Errorf("direct %+v\ninverse %+v", dir, inv)
	}
	// Backwards: the reduced length takes the distance's sign.
	back, err := e.SolveDirect(40.64, -73.78, 45, false, -1e6, false)
	if err != nil || back.ReducedLength >= 0 || back.S12 != -1e6 {
		t.Errorf("backwards %+v %v", back, err)
	}
	arc, err := e.SolveDirect(40.64, -73.78, 45, true, 10, false)
	if err != nil || arc.A12 != 10 || !(arc.S12 > 1.1e6 && arc.S12 < 1.12e6) {
		t.Errorf("arc mode %+v %v", arc, err)
	}
}

func TestSolveDirectBeyondShortestPath(t *testing.T) {
	// Along the equator past the antipode the direct geodesic is not the
	// shortest path: the position is given, the other quantities are not.
	s, err := WGS84().SolveDirect(0, 0, 90, false, 20003931.4586, false)
	if !errors.Is(err, ErrNotShortest) || math.Abs(s.Lon2-179.69837372) > 1e-8 {
		t.Errorf("%+v %v", s, err)
	}
	if _, err := (Ellipsoid{A: -1}).SolveInverse(0, 0, 1, 1); err == nil {
		t.Error("invalid ellipsoid accepted")
	}
}
