package core

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/geodisaster/engine/crs/internal/proj"
)

// Identify is Identify with registry r.
func (r *Registry) Identify(c CRS) int {
	var code, conf int
	switch v := c.(type) {
	case *ProjectedCRS:
		if v.Code != 0 {
			return v.Code
		}
		code, conf = r.identifyProjected(v)
	case *GeographicCRS:
		if v.Code != 0 {
			return v.Code
		}
		code, conf = r.identifyGeographic(v)
	case nil:
		return 0
	default:
		return c.EPSG()
	}
	if conf >= 70 { // rasterio's to_epsg() threshold
		return code
	}
	return 0
}

// IdentifyOrKeep returns the EPSG CRS fully equivalent to a user-defined
// c (same datum, conversion, axes and unit), or c.
func (r *Registry) IdentifyOrKeep(c CRS) CRS {
	p, ok := c.(*ProjectedCRS)
	if !ok || p.Code != 0 {
		return c
	}
	code, conf := r.identifyProjected(p)
	if conf < 70 || code == 0 {
		return c
	}
	e, err := r.FromEPSG(code)
	if err != nil {
		return c
	}
	q, ok := e.(*ProjectedCRS)
	if !ok || q.Base.Datum.Key != p.Base.Datum.Key || !sameAxes(p, q) || !r.sameConversion(p, q) {
		return c
	}
	return e
}

// identifyGeographic finds the EPSG geographic 2D CRS of a user-defined
// one: same EPSG datum, prime meridian and angular unit.
func (r *Registry) identifyGeographic(g *GeographicCRS) (int, int) {
	d := g.Datum
	if d.Code == 0 {
		return 0, 0
	}
	type cand struct {
		code int
		name string
		conf int
	}
	var cs []cand
	for _, code := range r.GeogCodes() {
		def := r.Geog(code)
		if def == nil || def.Datum != d.Code || def.Deprecated || def.Kind != "geographic 2D" {
			continue
		}
		e, err := r.GeographicCRSCached(code)
		if err != nil || e.Datum.PM.Deg != d.PM.Deg || e.Angular.Radians != g.Angular.Radians {
			continue
		}
		conf := 70
		if def.Name == g.Name {
			conf = 100
		}
		cs = append(cs, cand{code, def.Name, conf})
	}
	if len(cs) == 0 {
		return 0, 0
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].conf != cs[j].conf {
			return cs[i].conf > cs[j].conf
		}
		return cs[i].name < cs[j].name
	})
	return cs[0].code, cs[0].conf
}

// methodFamily groups the EPSG methods that can describe the same map.
func methodFamily(m int) int {
	switch m {
	case proj.MethodTM, proj.MethodTMSouth, proj.MethodTM3D:
		return proj.MethodTM
	case proj.MethodLCC1SP, proj.MethodLCC2SP, proj.MethodLCC2SPBelgium, proj.MethodLCC2SPMichigan:
		return proj.MethodLCC2SP
	case proj.MethodPolarStereoA, proj.MethodPolarStereoB:
		return proj.MethodPolarStereoB
	case proj.MethodMercatorA, proj.MethodMercatorB:
		return proj.MethodMercatorA
	case proj.MethodHotineA, proj.MethodHotineB:
		return proj.MethodHotineB
	case proj.MethodLAEA, proj.MethodLAEASpherical:
		return proj.MethodLAEA
	case proj.MethodKrovak, proj.MethodKrovakNorth:
		return proj.MethodKrovak
	case proj.MethodCassini, proj.MethodHyperbolicCassini:
		return proj.MethodCassini
	}
	return m
}

// identifyProjected returns the best EPSG candidate for a user-defined
// projected CRS and PROJ's confidence in it (0 when none).
func (r *Registry) identifyProjected(p *ProjectedCRS) (int, int) {
	baseCode := p.Base.Code
	if code, ok := r.utmShortcut(p); ok && r.Proj(code) != nil {
		return code, nameConfidence(p.Name, r.Proj(code).Name)
	}
	family := methodFamily(p.Conv.Method)
	ourDatum := p.Base.Datum
	significant := significantDatumName(ourDatum.Name)
	type cand struct {
		code    int
		name    string
		conf    int
		towgs84 bool // the candidate's datum publishes our +towgs84
	}
	var cs []cand
	for _, code := range r.ProjCodes() {
		d := r.Proj(code)
		if d == nil || d.Deprecated || (baseCode != 0 && d.geog != baseCode) {
			continue
		}
		cd := r.Conv(d.Conv)
		if cd == nil || methodFamily(cd.Method) != family || !proj.Supported(cd.Method) {
			continue
		}
		q, err := r.projectedCached(code)
		if err != nil {
			continue
		}
		if !SameEllipsoid(ourDatum.Ellipsoid, q.Base.Datum.Ellipsoid) || !r.sameConversion(p, q) {
			continue
		}
		conf := 0
		sameCS := sameAxes(p, q)
		unknownMismatch := (ourDatum.Name == "unknown") != (q.Base.Datum.Name == "unknown")
		if sameCS && sameDatum(ourDatum, q.Base.Datum) && ourDatum.PM.Deg == q.Base.Datum.PM.Deg && !unknownMismatch {
			conf = nameConfidence(p.Name, q.Name)
		} else if sameCS {
			if !significant || sameDatum(ourDatum, q.Base.Datum) {
				conf = 70
			} else {
				conf = 50
			}
		} else {
			conf = 25
		}
		cs = append(cs, cand{code, q.Name, conf, publishesShift(q.Base.Datum, ourDatum)})
	}
	if len(cs) == 0 {
		return 0, 0
	}
	sort.Slice(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.conf != b.conf {
			return a.conf > b.conf
		}
		if a.towgs84 != b.towgs84 {
			return a.towgs84 // as PROJ identifies a bound CRS
		}
		if (a.name == p.Name) != (b.name == p.Name) {
			return a.name == p.Name
		}
		return a.name < b.name
	})
	return cs[0].code, cs[0].conf
}

// publishesShift reports whether datum d has an EPSG Helmert
// transformation equal to the +towgs84 of the user-defined datum u.
func publishesShift(d, u *GeodeticDatum) bool {
	if !u.TOWGS84 || len(u.Shifts) == 0 {
		return false
	}
	h := u.Shifts[0].H
	for _, s := range d.Shifts {
		g := s.H
		if math.Abs(g.Tx-h.Tx) < 1e-3 && math.Abs(g.Ty-h.Ty) < 1e-3 && math.Abs(g.Tz-h.Tz) < 1e-3 &&
			math.Abs(g.K-h.K) < 1e-9 && math.Abs(g.M[7]-h.M[7]) < 1e-11 && math.Abs(g.M[2]-h.M[2]) < 1e-11 && math.Abs(g.M[3]-h.M[3]) < 1e-11 {
			return true
		}
	}
	return false
}

// nameConfidence is PROJ's confidence for an otherwise equivalent CRS: 100
// for the same name, 90 for an equivalent one, else 70.
func nameConfidence(ours, theirs string) int {
	switch {
	case ours == theirs:
		return 100
	case equivalentName(ours, theirs):
		return 90
	}
	return 70
}

// equivalentName compares names ignoring case and everything but letters
// and digits, as PROJ's Identifier::isEquivalentName does in essence.
func equivalentName(a, b string) bool {
	norm := func(s string) string {
		var sb strings.Builder
		for _, r := range strings.ToLower(s) {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				sb.WriteRune(r)
			}
		}
		return sb.String()
	}
	return norm(a) == norm(b)
}

// significantDatumName reports whether a datum name identifies the datum
// (not "unknown", "unnamed" or "Unknown based on ... ellipsoid").
func significantDatumName(name string) bool {
	l := strings.ToLower(name)
	return name != "" && !strings.HasPrefix(l, "unknown") && l != "unnamed"
}

// sameDatum reports whether two datums are the same: the same EPSG code,
// or equivalent names on the same ellipsoid.
func sameDatum(a, b *GeodeticDatum) bool {
	if a.Code != 0 && b.Code != 0 {
		return a.Code == b.Code
	}
	return significantDatumName(a.Name) && equivalentName(a.Name, b.Name) && SameEllipsoid(a.Ellipsoid, b.Ellipsoid)
}

// SameEllipsoid compares semi-axes to a relative 1e-10 (PROJ's tolerance).
func SameEllipsoid(a, b proj.Ellipsoid) bool {
	return math.Abs(a.A-b.A) <= 1e-10*a.A && math.Abs(a.B-b.B) <= 1e-10*a.B
}

// sameAxes reports whether two projected CRSs have the same axis
// directions (with their meridians, for polar axes), order and unit.
func sameAxes(p, q *ProjectedCRS) bool {
	if p.Comp != q.Comp || p.Sign != q.Sign || math.Abs(p.Linear.Metres-q.Linear.Metres) > 1e-12*p.Linear.Metres {
		return false
	}
	for i := 0; i < 2 && i < len(p.CS.Axes) && i < len(q.CS.Axes); i++ {
		d1, m1, ok1 := AxisDirection(p.CS.Axes[i].Dir)
		d2, m2, ok2 := AxisDirection(q.CS.Axes[i].Dir)
		if d1 != d2 || ok1 != ok2 || (ok1 && math.Abs(proj.Wrap180(m1-m2)) > 1e-9) {
			return false
		}
	}
	return true
}

// sameConversion reports whether two projections give the same
// easting/northing (within 1 mm, the effect of PROJ's relative 1e-10 on
// parameters) at points around p's origin.
func (r *Registry) sameConversion(p, q *ProjectedCRS) bool {
	lon0, lat0 := r.conversionOrigin(p)
	for _, d := range [][2]float64{{0, 0}, {0.7, 0.4}, {-0.6, -0.5}, {0.3, -0.8}} {
		lon := lon0 + d[0]
		lat := math.Max(-89.5, math.Min(89.5, lat0+d[1]))
		x1, y1, err1 := p.proj.Forward(lon, lat)
		x2, y2, err2 := q.proj.Forward(lon, lat)
		if (err1 == nil) != (err2 == nil) {
			return false
		}
		if err1 != nil {
			continue
		}
		if !(math.Abs(x1-x2) <= 1e-3 && math.Abs(y1-y2) <= 1e-3) {
			return false
		}
	}
	return true
}

// conversionOrigin returns a point near the conversion's origin (degrees).
func (r *Registry) conversionOrigin(p *ProjectedCRS) (lon, lat float64) {
	pv, _ := r.ParamValues(p.Conv.Params)
	lon = pv.Get(0, proj.ParLonOrigin, proj.ParLonFalseOrigin, proj.ParLonCentre, proj.ParLonOfOrigin)
	lat = pv.Get(0, proj.ParLatOrigin, proj.ParLatFalseOrigin, proj.ParLatCentre, proj.ParLatStdParallel)
	if math.Abs(lat) > 85 {
		lat = math.Copysign(80, lat)
	}
	return lon, lat
}

// utmShortcut recognises the UTM zones of WGS 84, NAD27 and NAD83 as PROJ
// does before any database search.
func (r *Registry) utmShortcut(p *ProjectedCRS) (int, bool) {
	if p.Conv.Method != proj.MethodTM || p.Linear.Metres != 1 || p.Comp != [2]int{0, 1} || p.Sign != [2]float64{1, 1} {
		return 0, false
	}
	pv, _ := r.ParamValues(p.Conv.Params)
	if pv[proj.ParLatOrigin] != 0 || pv[proj.ParScaleOrigin] != 0.9996 || pv[proj.ParFalseEasting] != 500000 {
		return 0, false
	}
	zf := (pv[proj.ParLonOrigin] + 183) / 6
	zone := int(zf)
	if float64(zone) != zf || zone < 1 || zone > 60 {
		return 0, false
	}
	fn := pv[proj.ParFalseNorthing]
	if fn != 0 && fn != 10000000 {
		return 0, false
	}
	north := fn == 0
	base := p.Base.Code
	if base == 0 {
		if c, conf := r.identifyGeographic(p.Base); conf >= 70 {
			base = c
		}
	}
	switch {
	case base == 4326 && north:
		return 32600 + zone, true
	case base == 4326:
		return 32700 + zone, true
	case base == 4267 && north && (zone <= 22 || zone >= 59):
		return 26700 + zone, true
	case base == 4269 && north && (zone <= 23 || zone >= 59):
		return 26900 + zone, true
	}
	return 0, false
}
