package crs

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// Identify returns the EPSG code of c: its own code when it has one, else
// the code of the EPSG CRS it matches, as PROJ's identification reports
// it with at least 70% confidence (the threshold of rasterio's
// CRS.to_epsg()); 0 when none does.
//
// A user-defined projected CRS matches an EPSG projected CRS whose
// conversion gives the same coordinates (a method of the same family with
// equivalent parameters: Mercator A and B, LCC 1SP and 2SP, polar
// stereographic A and B compare equal when they define the same map), on
// an equivalent ellipsoid, with the same axes and unit. As in PROJ, a
// base geographic CRS that carries an EPSG code restricts the candidates
// to that base, a datum with a real name must be the candidate's datum,
// and a datum of unknown name ("Unknown based on GRS 1980 ellipsoid")
// only needs the ellipsoid; among equal candidates the lowest name in
// byte order wins. WGS 84, NAD27 and NAD83 UTM zones are recognised
// directly. A user-defined geographic CRS matches the EPSG geographic 2D
// CRS of its datum (by EPSG datum code), prime meridian and unit.
func Identify(c CRS) int {
	var code, conf int
	switch v := c.(type) {
	case *projectedCRS:
		if v.code != 0 {
			return v.code
		}
		code, conf = identifyProjected(v)
	case *geographicCRS:
		if v.code != 0 {
			return v.code
		}
		code, conf = identifyGeographic(v)
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
func identifyOrKeep(c CRS) CRS {
	p, ok := c.(*projectedCRS)
	if !ok || p.code != 0 {
		return c
	}
	code, conf := identifyProjected(p)
	if conf < 70 || code == 0 {
		return c
	}
	e, err := FromEPSG(code)
	if err != nil {
		return c
	}
	q, ok := e.(*projectedCRS)
	if !ok || q.base.datum.key != p.base.datum.key || !sameAxes(p, q) || !sameConversion(p, q) {
		return c
	}
	return e
}

// identifyGeographic finds the EPSG geographic 2D CRS of a user-defined
// one: same EPSG datum, prime meridian and angular unit.
func identifyGeographic(g *geographicCRS) (int, int) {
	d := g.datum
	if d.code == 0 {
		return 0, 0
	}
	r := mustEPSG()
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
	case methodTM, methodTMSouth, methodTM3D:
		return methodTM
	case methodLCC1SP, methodLCC2SP, methodLCC2SPBelgium, methodLCC2SPMichigan:
		return methodLCC2SP
	case methodPolarStereoA, methodPolarStereoB:
		return methodPolarStereoB
	case methodMercatorA, methodMercatorB:
		return methodMercatorA
	case methodHotineA, methodHotineB:
		return methodHotineB
	case methodLAEA, methodLAEASpherical:
		return methodLAEA
	case methodKrovak, methodKrovakNorth:
		return methodKrovak
	case methodCassini, methodHyperbolicCassini:
		return methodCassini
	}
	return m
}

// identifyProjected returns the best EPSG candidate for a user-defined
// projected CRS and PROJ's confidence in it (0 when none).
func identifyProjected(p *projectedCRS) (int, int) {
	r := mustEPSG()
	baseCode := p.base.code
	if code, ok := utmShortcut(p); ok && r.proj[code] != nil {
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
		if cd == nil || methodFamily(cd.method) != family || !methodSupported(cd.method) {
			continue
		}
		q, err := r.projectedCached(code)
		if err != nil {
			continue
		}
		if !sameEllipsoid(ourDatum.el, q.base.datum.el) || !sameConversion(p, q) {
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
		if math.Abs(g.tx-h.tx) < 1e-3 && math.Abs(g.ty-h.ty) < 1e-3 && math.Abs(g.tz-h.tz) < 1e-3 &&
			math.Abs(g.k-h.k) < 1e-9 && math.Abs(g.m[7]-h.m[7]) < 1e-11 && math.Abs(g.m[2]-h.m[2]) < 1e-11 && math.Abs(g.m[3]-h.m[3]) < 1e-11 {
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
func sameEllipsoid(a, b ellipsoid) bool {
	return math.Abs(a.a-b.a) <= 1e-10*a.a && math.Abs(a.b-b.b) <= 1e-10*a.b
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
		if d1 != d2 || ok1 != ok2 || (ok1 && math.Abs(wrap180(m1-m2)) > 1e-9) {
			return false
		}
	}
	return true
}

// sameConversion reports whether two projections give the same
// easting/northing (within 1 mm, the effect of PROJ's relative 1e-10 on
// parameters) at points around p's origin.
func sameConversion(p, q *projectedCRS) bool {
	lon0, lat0 := conversionOrigin(p)
	for _, d := range [][2]float64{{0, 0}, {0.7, 0.4}, {-0.6, -0.5}, {0.3, -0.8}} {
		lon := lon0 + d[0]
		lat := math.Max(-89.5, math.Min(89.5, lat0+d[1]))
		x1, y1, err1 := p.proj.forward(lon, lat)
		x2, y2, err2 := q.proj.forward(lon, lat)
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
func conversionOrigin(p *projectedCRS) (lon, lat float64) {
	pv, _ := mustEPSG().paramValues(p.conv.params)
	lon = pv.get(0, parLonOrigin, parLonFalseOrigin, parLonCentre, parLonOfOrigin)
	lat = pv.get(0, parLatOrigin, parLatFalseOrigin, parLatCentre, parLatStdParallel)
	if math.Abs(lat) > 85 {
		lat = math.Copysign(80, lat)
	}
	return lon, lat
}

// utmShortcut recognises the UTM zones of WGS 84, NAD27 and NAD83 as PROJ
// does before any database search.
func utmShortcut(p *projectedCRS) (int, bool) {
	if p.conv.method != methodTM || p.unit.Metres != 1 || p.comp != [2]int{0, 1} || p.sign != [2]float64{1, 1} {
		return 0, false
	}
	pv, _ := mustEPSG().paramValues(p.conv.params)
	if pv[parLatOrigin] != 0 || pv[parScaleOrigin] != 0.9996 || pv[parFalseEasting] != 500000 {
		return 0, false
	}
	zf := (pv[parLonOrigin] + 183) / 6
	zone := int(zf)
	if float64(zone) != zf || zone < 1 || zone > 60 {
		return 0, false
	}
	fn := pv[parFalseNorthing]
	if fn != 0 && fn != 10000000 {
		return 0, false
	}
	north := fn == 0
	base := p.base.code
	if base == 0 {
		if c, conf := identifyGeographic(p.base); conf >= 70 {
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
