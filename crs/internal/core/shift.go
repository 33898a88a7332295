package core

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/geodisaster/engine/crs/internal/proj"
)

// GeodeticDatum is the geodetic part of a CRS: datum, ellipsoid, prime
// meridian and the transformations to WGS 84 PROJ would choose from.
type GeodeticDatum struct {
	Key          string // datums with the same key convert without a datum shift
	Code         int    // EPSG datum code; 0 for a user-defined datum
	Name         string
	Ellipsoid    proj.Ellipsoid
	EllipsoidRef EllipsoidRef
	PM           PrimeMeridian
	// Shifts are the Helmert transformations to WGS 84 in PROJ's order
	// of preference; none means a ballpark (null) shift, as PROJ applies
	// when EPSG publishes no transformation.
	Shifts []*datumShift
	// Towgs84 marks a user-defined datum whose shift is its own
	// +towgs84 (a bound CRS in PROJ's terms).
	TOWGS84 bool
	// projName is PROJ's +datum name of an EPSG datum (projDatums), "" for
	// the others.
	projName string
}

// SetTOWGS84 makes d a bound datum whose only shift to WGS 84 is the
// Helmert of a TOWGS84 clause (3 or 7 values, position vector, as PROJ's
// +towgs84); false for another number of values.
func (d *GeodeticDatum) SetTOWGS84(v []float64) bool {
	if len(v) != 3 && len(v) != 7 {
		return false
	}
	p := make([]float64, 7)
	copy(p, v)
	d.Shifts = []*datumShift{{Name: "Transformation from " + d.Name + " to WGS84", accuracy: -1,
		w: -180, s: -90, e: 180, n: 90, H: proj.NewHelmert(p[0], p[1], p[2], p[3], p[4], p[5], p[6], 0, 0, 0)}}
	d.TOWGS84 = true
	d.Code = 0
	return true
}

// EllipsoidRef names an ellipsoid for WKT output.
type EllipsoidRef struct {
	Code int    // 0 for user-defined
	Name string // as EPSG spells it
	Unit int    // EPSG unit code of the axes in the registry (9001 metre)
}

// PrimeMeridian is a prime meridian: its Greenwich longitude in degrees
// and how EPSG writes it.
type PrimeMeridian struct {
	Code  int
	Name  string
	Deg   float64 // Greenwich longitude, degrees
	Value float64 // in unit
	Unit  int
}

var Greenwich = PrimeMeridian{Code: 8901, Name: "Greenwich", Unit: 9102}

// datumShift is one candidate transformation to WGS 84.
type datumShift struct {
	code       int
	Name       string
	H          *proj.Helmert
	accuracy   float64 // metres; -1 unknown
	w, s, e, n float64 // area of use, degrees (w > e crosses the antimeridian)
	offshore   bool
	ballpark   bool // PROJ's ballpark offset: longitude and latitude unchanged
}

// contains reports whether lon/lat (Greenwich degrees) lies in the area.
func (d *datumShift) contains(lon, lat float64) bool {
	if lat < d.s || lat > d.n {
		return false
	}
	lon = proj.Wrap180(lon)
	if d.w <= d.e {
		return lon >= d.w && lon <= d.e
	}
	return lon >= d.w || lon <= d.e
}

// within reports whether d's area lies strictly inside o's.
func (d *datumShift) within(o *datumShift) bool {
	return d.w > o.w && d.s > o.s && d.e < o.e && d.n < o.n && d.w <= d.e && o.w <= o.e
}

// pick returns the transformation PROJ's proj_trans applies at lon/lat:
// among the candidates whose area of use holds the point the first one,
// replaced by any later one of better known accuracy (or equal accuracy
// and an area strictly inside it) whose area is not offshore; when none
// holds the point, the first candidate. nil means no shift.
func (g *GeodeticDatum) pick(lon, lat float64) *datumShift {
	if len(g.Shifts) == 0 {
		return nil
	}
	best := -1
	bestAcc := 0.0
	for i, d := range g.Shifts {
		if !d.contains(lon, lat) {
			continue
		}
		if best < 0 || (d.accuracy >= 0 && (d.accuracy < bestAcc ||
			(d.accuracy == bestAcc && d.within(g.Shifts[best]))) && !d.offshore) {
			best, bestAcc = i, d.accuracy
		}
	}
	if best < 0 {
		best = 0
	}
	return g.Shifts[best]
}

// nearWGS84Figure reports whether the datum's ellipsoid is WGS 84's to a
// millimetre (GRS 1980 is): PROJ applies a null transformation between
// such datums as no operation at all, and otherwise converts through
// geocentric coordinates, changing the ellipsoid (a ballpark offset is
// always a no-op).
func (g *GeodeticDatum) nearWGS84Figure() bool {
	return math.Abs(g.Ellipsoid.A-proj.WGS84.A) < 1e-3 && math.Abs(g.Ellipsoid.B-proj.WGS84.B) < 1e-3
}

// IsWGS84 reports whether the datum is WGS 84 itself (no shift at all).
func (g *GeodeticDatum) IsWGS84() bool { return g.Key == WGS84Datum.Key }

// shiftAt returns the transformation to WGS 84 applied at lon/lat
// (Greenwich degrees on the datum, or on WGS 84 for the reverse), nil when
// the conversion leaves the coordinates unchanged: the datum is WGS 84,
// EPSG publishes no shift, a ballpark offset, or a null Helmert between
// ellipsoids of WGS 84's figure.
func (g *GeodeticDatum) shiftAt(lon, lat float64) *datumShift {
	if g.IsWGS84() {
		return nil
	}
	d := g.pick(lon, lat)
	if d == nil || d.ballpark || (d.H.IsNull() && g.nearWGS84Figure()) {
		return nil
	}
	return d
}

// toWGS84 converts datum longitude/latitude (degrees, Greenwich) to WGS 84.
func (g *GeodeticDatum) toWGS84(lon, lat float64) (float64, float64) {
	d := g.shiftAt(lon, lat)
	if d == nil {
		return lon, lat
	}
	x, y, z := proj.Geocentric(g.Ellipsoid, lon, lat)
	x, y, z = d.H.Forward(x, y, z)
	return proj.Geodetic(proj.WGS84, x, y, z)
}

// fromWGS84 converts WGS 84 longitude/latitude to the datum.
func (g *GeodeticDatum) fromWGS84(lon, lat float64) (float64, float64) {
	d := g.shiftAt(lon, lat)
	if d == nil {
		return lon, lat
	}
	x, y, z := proj.Geocentric(proj.WGS84, lon, lat)
	x, y, z = d.H.Reverse(x, y, z)
	return proj.Geodetic(g.Ellipsoid, x, y, z)
}

// WGS84Datum is EPSG:6326, World Geodetic System 1984 ensemble.
var WGS84Datum = &GeodeticDatum{Key: "EPSG:6326", Code: 6326, Name: "World Geodetic System 1984 ensemble",
	Ellipsoid: proj.WGS84, EllipsoidRef: EllipsoidRef{Code: 7030, Name: "WGS 84", Unit: 9001}, PM: Greenwich, projName: "WGS84"}

// datumFor builds the geodetic datum of the registry's geographic CRS g.
func (r *Registry) datumFor(g *geogDef) (*GeodeticDatum, error) {
	if g.Datum == 6326 {
		return WGS84Datum, nil
	}
	dd := r.Datum(g.Datum)
	if dd == nil {
		return nil, fmt.Errorf("%w: EPSG:%d: datum %d missing from the table", ErrUnknownCRS, g.Code, g.Datum)
	}
	ed, ok := r.Ellipsoids[dd.Ell]
	if !ok {
		return nil, fmt.Errorf("%w: EPSG:%d: ellipsoid %d missing", ErrUnknownCRS, g.Code, dd.Ell)
	}
	el, err := r.Ellipsoid(ed)
	if err != nil {
		return nil, fmt.Errorf("%w: EPSG:%d: %v", ErrUnknownCRS, g.Code, err)
	}
	pm, err := r.PrimeMeridian(dd.PM)
	if err != nil {
		return nil, fmt.Errorf("%w: EPSG:%d: %v", ErrUnknownCRS, g.Code, err)
	}
	gd := &GeodeticDatum{Key: fmt.Sprintf("EPSG:%d", dd.Code), Code: dd.Code, Name: dd.Name, Ellipsoid: el,
		EllipsoidRef: EllipsoidRef{Code: dd.Ell, Name: ed.Name, Unit: ed.Unit}, PM: pm, projName: r.projDatumName(dd.Code)}
	src := g.Code
	hs := r.Helmerts(src)
	if rot, ok := r.rotations[src]; ok {
		// A CRS on another prime meridian shares its datum shifts (and, for
		// conversions, its datum) with its Greenwich twin.
		if twin := r.Geog(rot.dst); twin != nil {
			gd.Key = fmt.Sprintf("EPSG:%d", twin.Datum)
			if len(hs) == 0 {
				hs = r.Helmerts(rot.dst)
				src = rot.dst
			}
		}
	}
	gd.Shifts = r.orderShifts(hs, r.Geog(src))
	if len(gd.Shifts) > 0 && !coversExtent(gd.Shifts, r, r.Geog(src)) {
		// PROJ adds its ballpark (null) transformation, valid everywhere,
		// when no transformation's area holds the CRS's whole area of use;
		// it applies to the points outside every area.
		gd.Shifts = append(gd.Shifts, &datumShift{Name: "Ballpark geographic offset", H: proj.NewHelmert(0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
			accuracy: -1, w: -180, s: -90, e: 180, n: 90, ballpark: true})
	}
	return gd, nil
}

// coversExtent reports whether one of the shifts' areas holds the whole
// area of use of geographic CRS g.
func coversExtent(shifts []*datumShift, r *Registry, g *geogDef) bool {
	if g == nil || len(g.Usages) == 0 {
		return true
	}
	e, ok := r.Extent(g.Usages[0].Extent)
	if !ok {
		return true
	}
	for _, d := range shifts {
		if d.w <= d.e && e.W <= e.E && d.w <= e.W && d.e >= e.E && d.s <= e.S && d.n >= e.N {
			return true
		}
		if d.w == -180 && d.e == 180 && d.s <= e.S && d.n >= e.N {
			return true
		}
	}
	return false
}

// orderShifts converts Helmert rows to candidates sorted as PROJ sorts the
// operations between two CRSs without an area of interest: larger overlap
// with the source CRS's area of use first, then better accuracy (unknown
// last), then null transformations, then names in decreasing order; a
// transformation superseded by another candidate is dropped.
func (r *Registry) orderShifts(hs []*helmertDef, src *geogDef) []*datumShift {
	var srcExt *extentDef
	if src != nil && len(src.Usages) > 0 {
		if e, ok := r.Extent(src.Usages[0].Extent); ok {
			srcExt = &e
		}
	}
	type cand struct {
		d    *datumShift
		area float64
		null bool
	}
	present := map[int]bool{}
	for _, h := range hs {
		present[h.code] = true
	}
	var cs []cand
next:
	for _, h := range hs {
		// PROJ drops a transformation superseded by another candidate.
		for _, r := range h.supersedes {
			if present[r] {
				continue next
			}
		}
		d := &datumShift{code: h.code, Name: h.name, accuracy: h.accuracy, w: -180, s: -90, e: 180, n: 90}
		rx, ry, rz := h.p[3], h.p[4], h.p[5]
		switch h.method {
		case 9607, 9636: // coordinate frame rotation: reverse the rotations
			rx, ry, rz = -rx, -ry, -rz
		}
		d.H = proj.NewHelmert(h.p[0], h.p[1], h.p[2], rx, ry, rz, h.p[6], h.p[7], h.p[8], h.p[9])
		if len(h.usages) > 0 {
			if e, ok := r.Extent(h.usages[0].Extent); ok {
				d.w, d.s, d.e, d.n = e.W, e.S, e.E, e.N
				l := strings.ToLower(e.Name)
				d.offshore = strings.Contains(l, "offshore") && !strings.Contains(l, "onshore")
			}
		}
		area := pseudoArea(d.w, d.s, d.e, d.n)
		if srcExt != nil {
			area = intersectionArea(d.w, d.s, d.e, d.n, srcExt.W, srcExt.S, srcExt.E, srcExt.N)
		}
		cs = append(cs, cand{d, area, d.H.IsNull()})
	}
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.area != b.area {
			return a.area > b.area
		}
		aa, ba := a.d.accuracy, b.d.accuracy
		if (aa >= 0) != (ba >= 0) {
			return aa >= 0
		}
		if aa != ba {
			return aa < ba
		}
		if a.null != b.null {
			return a.null
		}
		return a.d.Name > b.d.Name // PROJ's final criterion
	})
	out := make([]*datumShift, len(cs))
	for i, c := range cs {
		out[i] = c.d
	}
	return out
}

// pseudoArea is the area of a longitude/latitude box on the unit sphere
// (steradians), the measure PROJ compares areas of use with.
func pseudoArea(w, s, e, n float64) float64 {
	if e < w {
		e += 360
	}
	return float64((e-w)*proj.DegToRad) * (math.Sin(proj.Radians(n)) - math.Sin(proj.Radians(s)))
}

// intersectionArea is the pseudo area of the intersection of two boxes.
func intersectionArea(w1, s1, e1, n1, w2, s2, e2, n2 float64) float64 {
	s, n := math.Max(s1, s2), math.Min(n1, n2)
	if s >= n {
		return 0
	}
	// Unwrap boxes crossing the antimeridian onto [w, w+360).
	if e1 < w1 {
		e1 += 360
	}
	if e2 < w2 {
		e2 += 360
	}
	best := 0.0
	for _, shift := range []float64{-360, 0, 360} {
		w, e := math.Max(w1, w2+shift), math.Min(e1, e2+shift)
		if e > w {
			best += float64((e - w) * proj.DegToRad)
		}
	}
	return best * (math.Sin(proj.Radians(n)) - math.Sin(proj.Radians(s)))
}

// Ellipsoid converts a registry ellipsoid to metres.
func (r *Registry) Ellipsoid(ed ellipsoidDef) (proj.Ellipsoid, error) {
	u, ok := r.Units[ed.Unit]
	if !ok || u.Kind != "length" {
		return proj.Ellipsoid{}, fmt.Errorf("ellipsoid %q: unit %d", ed.Name, ed.Unit)
	}
	a := float64(ed.A * u.Factor)
	var el proj.Ellipsoid
	switch {
	case ed.Invf != 0:
		el = proj.NewEllipsoid(a, ed.Invf)
	case ed.B != 0:
		el = proj.NewEllipsoidAB(a, float64(ed.B*u.Factor))
	default:
		el = proj.NewEllipsoid(a, 0)
	}
	rf := ed.Invf
	if rf == 0 && el.B != el.A {
		rf = el.A / (el.A - el.B)
	}
	if w, ok := PROJWellKnownEllipsoid(el.A, el.B, rf); ok {
		return w, nil
	}
	return el, nil
}

// PrimeMeridian converts a registry prime meridian.
func (r *Registry) PrimeMeridian(code int) (PrimeMeridian, error) {
	if code == 8901 {
		return Greenwich, nil
	}
	p, ok := r.pms[code]
	if !ok {
		return PrimeMeridian{}, fmt.Errorf("prime meridian %d missing", code)
	}
	deg, err := r.toDegrees(p.lon, p.unit)
	if err != nil {
		return PrimeMeridian{}, err
	}
	// PROJ computes with its own value of a prime meridian it knows by
	// name when EPSG's agrees to 1e-10 radians (Paris: 2.33722917° in EPSG,
	// 2°20'14.025" in PROJ).
	if v, ok := PROJPrimeMeridians[strings.ToLower(p.name)]; ok && math.Abs(v-deg) < 1e-10/proj.DegToRad {
		deg = v
	}
	return PrimeMeridian{Code: code, Name: p.name, Deg: deg, Value: p.lon, Unit: p.unit}, nil
}

// toDegrees converts an angle in the registry unit to degrees, as PROJ's
// Measure::convertToUnit does (through radians).
func (r *Registry) toDegrees(v float64, unit int) (float64, error) {
	switch unit {
	case 9102, 9122:
		return v, nil
	}
	u, ok := r.Units[unit]
	if !ok || u.Kind != "angle" {
		return 0, fmt.Errorf("unit %d is not angular", unit)
	}
	return float64(v*u.Factor) / proj.DegToRad, nil
}

// projDatumName returns PROJ's +datum name of EPSG datum code (the datum
// of a geographic CRS of projDatums), or "".
func (r *Registry) projDatumName(code int) string {
	for name, g := range PROJDatums {
		if gd := r.Geog(g); gd != nil && gd.Datum == code {
			return name
		}
	}
	return ""
}
