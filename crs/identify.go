package crs

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/geodisaster/engine/crs/internal/proj"
)

// identify is Identify with registry r.
func (r *registry) identify(c CRS) int {
	var code, conf int
	switch v := c.(type) {
	case *projectedCRS:
		if v.code != 0 {
			return v.code
		}
		code, conf = r.identifyProjected(v)
	case *geographicCRS:
		if v.code != 0 {
			return v.code
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

// identifyOrKeep returns the EPSG CRS fully equivalent to a user-defined
// c (same datum, conversion, axes and unit), or c.
func (r *registry) identifyOrKeep(c CRS) CRS {
	p, ok := c.(*projectedCRS)
	if !ok || p.code != 0 {
		return c
	}
	code, conf := r.identifyProjected(p)
	if conf < 70 || code == 0 {
		return c
	}
	e, err := r.fromEPSG(code)
	if err != nil {
		return c
	}
	q, ok := e.(*projectedCRS)
	if !ok || q.base.datum.key != p.base.datum.key || !sameAxes(p, q) || !r.sameConversion(p, q) {
		return c
	}
	return e
}

// identifyGeographic finds the EPSG geographic 2D CRS of a user-defined
// one: same EPSG datum, prime meridian and angular unit.
func (r *registry) identifyGeographic(g *geographicCRS) (int, int) {
	d := g.datum
	if d.code == 0 {
		return 0, 0
	}
	type cand struct {
		code int
		name string
		conf int
	}
	var cs []cand
	for _, code := range r.geogCodes {
		def := r.geog[code]
		if def.datum != d.code || def.deprecated || def.typ != "geographic 2D" {
			continue
		}
		e, err := r.geographicCRSCached(code)
		if err != nil || e.datum.pm.deg != d.pm.deg || e.unit.radians != g.unit.radians {
			continue
		}
		conf := 70
		if def.name == g.name {
			conf = 100
		}
		cs = append(cs, cand{code, def.name, conf})
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
func (r *registry) identifyProjected(p *projectedCRS) (int, int) {
	baseCode := p.base.code
	if code, ok := r.utmShortcut(p); ok && r.proj[code] != nil {
		return code, nameConfidence(p.name, r.proj[code].name)
	}
	family := methodFamily(p.conv.method)
	ourDatum := p.base.datum
	significant := significantDatumName(ourDatum.name)
	type cand struct {
		code    int
		name    string
		conf    int
		towgs84 bool // the candidate's datum publishes our +towgs84
	}
	var cs []cand
	for _, code := range r.projCodes {
		d := r.proj[code]
		if d.deprecated || (baseCode != 0 && d.geog != baseCode) {
			continue
		}
		cd := r.convs[d.conv]
		if cd == nil || methodFamily(cd.method) != family || !proj.Supported(cd.method) {
			continue
		}
		q, err := r.projectedCached(code)
		if err != nil {
			continue
		}
		if !sameEllipsoid(ourDatum.el, q.base.datum.el) || !r.sameConversion(p, q) {
			continue
		}
		conf := 0
		sameCS := sameAxes(p, q)
		unknownMismatch := (ourDatum.name == "unknown") != (q.base.datum.name == "unknown")
		if sameCS && sameDatum(ourDatum, q.base.datum) && ourDatum.pm.deg == q.base.datum.pm.deg && !unknownMismatch {
			conf = nameConfidence(p.name, q.name)
		} else if sameCS {
			if !significant || sameDatum(ourDatum, q.base.datum) {
				conf = 70
			} else {
				conf = 50
			}
		} else {
			conf = 25
		}
		cs = append(cs, cand{code, q.name, conf, publishesShift(q.base.datum, ourDatum)})
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
		if (a.name == p.name) != (b.name == p.name) {
			return a.name == p.name
		}
		return a.name < b.name
	})
	return cs[0].code, cs[0].conf
}

// publishesShift reports whether datum d has an EPSG Helmert
// transformation equal to the +towgs84 of the user-defined datum u.
func publishesShift(d, u *geodeticDatum) bool {
	if !u.towgs84 || len(u.shifts) == 0 {
		return false
	}
	h := u.shifts[0].h
	for _, s := range d.shifts {
		g := s.h
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
func sameDatum(a, b *geodeticDatum) bool {
	if a.code != 0 && b.code != 0 {
		return a.code == b.code
	}
	return significantDatumName(a.name) && equivalentName(a.name, b.name) && sameEllipsoid(a.el, b.el)
}

// sameEllipsoid compares semi-axes to a relative 1e-10 (PROJ's tolerance).
func sameEllipsoid(a, b proj.Ellipsoid) bool {
	return math.Abs(a.A-b.A) <= 1e-10*a.A && math.Abs(a.B-b.B) <= 1e-10*a.B
}

// sameAxes reports whether two projected CRSs have the same axis
// directions (with their meridians, for polar axes), order and unit.
func sameAxes(p, q *projectedCRS) bool {
	if p.comp != q.comp || p.sign != q.sign || math.Abs(p.unit.Metres-q.unit.Metres) > 1e-12*p.unit.Metres {
		return false
	}
	for i := 0; i < 2 && i < len(p.cs.axes) && i < len(q.cs.axes); i++ {
		d1, m1, ok1 := axisDirection(p.cs.axes[i].dir)
		d2, m2, ok2 := axisDirection(q.cs.axes[i].dir)
		if d1 != d2 || ok1 != ok2 || (ok1 && math.Abs(proj.Wrap180(m1-m2)) > 1e-9) {
			return false
		}
	}
	return true
}

// sameConversion reports whether two projections give the same
// easting/northing (within 1 mm, the effect of PROJ's relative 1e-10 on
// parameters) at points around p's origin.
func (r *registry) sameConversion(p, q *projectedCRS) bool {
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
func (r *registry) conversionOrigin(p *projectedCRS) (lon, lat float64) {
	pv, _ := r.paramValues(p.conv.params)
	lon = pv.Get(0, proj.ParLonOrigin, proj.ParLonFalseOrigin, proj.ParLonCentre, proj.ParLonOfOrigin)
	lat = pv.Get(0, proj.ParLatOrigin, proj.ParLatFalseOrigin, proj.ParLatCentre, proj.ParLatStdParallel)
	if math.Abs(lat) > 85 {
		lat = math.Copysign(80, lat)
	}
	return lon, lat
}

// utmShortcut recognises the UTM zones of WGS 84, NAD27 and NAD83 as PROJ
// does before any database search.
func (r *registry) utmShortcut(p *projectedCRS) (int, bool) {
	if p.conv.method != proj.MethodTM || p.unit.Metres != 1 || p.comp != [2]int{0, 1} || p.sign != [2]float64{1, 1} {
		return 0, false
	}
	pv, _ := r.paramValues(p.conv.params)
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
	base := p.base.code
	if base == 0 {
		if c, conf := r.identifyGeographic(p.base); conf >= 70 {
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
