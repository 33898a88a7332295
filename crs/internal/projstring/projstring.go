package projstring

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/crs/internal/core"
	"github.com/geodisaster/engine/crs/internal/proj"
)

// projParams is a parsed PROJ string.
type projParams struct {
	r    *core.Registry
	src  string
	vals map[string]string
	used map[string]bool
}

func (p *projParams) bad(format string, args ...any) error {
	return fmt.Errorf("%w: %q: %s", core.ErrUnknownCRS, p.src, fmt.Sprintf(format, args...))
}

func (p *projParams) has(k string) bool { _, ok := p.vals[k]; return ok }

func (p *projParams) str(k string) (string, bool) {
	v, ok := p.vals[k]
	if ok {
		p.used[k] = true
	}
	return v, ok
}

// num returns the numeric value of +k (angles may use PROJ's DMS form
// 12d30'15"E), or def.
func (p *projParams) num(k string, def float64) (float64, error) {
	v, ok := p.str(k)
	if !ok {
		return def, nil
	}
	f, err := parseProjNumber(v)
	if err != nil {
		return 0, p.bad("+%s=%s is not a number", k, v)
	}
	return f, nil
}

// parseProjNumber reads a decimal number or PROJ's DMS notation.
func parseProjNumber(v string) (float64, error) {
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("not finite")
		}
		return f, nil
	}
	s := strings.TrimSpace(v)
	sign := 1.0
	switch {
	case strings.HasSuffix(s, "W") || strings.HasSuffix(s, "S") || strings.HasSuffix(s, "w") || strings.HasSuffix(s, "s"):
		sign, s = -1, s[:len(s)-1]
	case strings.HasSuffix(s, "E") || strings.HasSuffix(s, "N") || strings.HasSuffix(s, "e") || strings.HasSuffix(s, "n"):
		s = s[:len(s)-1]
	}
	if strings.HasPrefix(s, "-") {
		sign, s = -sign, s[1:]
	}
	deg, rest, ok := strings.Cut(s, "d")
	if !ok {
		return 0, fmt.Errorf("bad number")
	}
	d, err := strconv.ParseFloat(deg, 64)
	if err != nil {
		return 0, err
	}
	val := d
	if rest != "" {
		m, rest2, _ := strings.Cut(rest, "'")
		if m != "" {
			mv, err := strconv.ParseFloat(m, 64)
			if err != nil {
				return 0, err
			}
			val += mv / 60
		}
		rest2 = strings.TrimSuffix(rest2, "\"")
		if rest2 != "" {
			sv, err := strconv.ParseFloat(rest2, 64)
			if err != nil {
				return 0, err
			}
			val += sv / 3600
		}
	}
	return sign * val, nil
}

// Parse interprets a PROJ string describing a CRS
// ("+proj=utm +zone=33 +datum=WGS84", "+proj=lcc +lat_1=49 ... +ellps=GRS80
// +towgs84=0,0,0 +units=m +no_defs"): geographic (+proj=longlat) or one of
// the projections this package implements, on a +datum, +ellps, +a/+b/+rf/
// +f/+R ellipsoid, with +towgs84, +pm, +units or +to_meter and +axis.
// +proj=aeqd on WGS 84 without false origin gives the "aeqd:LAT,LON"
// system; the spherical Web Mercator spelling "+proj=merc +a=6378137
// +b=6378137 +nadgrids=@null" is EPSG:3857's. Unknown parameters are
// errors, never silently ignored.
func Parse(r *core.Registry, s string) (core.CRS, error) {
	p := &projParams{r: r, src: s, vals: map[string]string{}, used: map[string]bool{}}
	for _, tok := range strings.Fields(s) {
		tok = strings.TrimPrefix(tok, "+")
		if tok == "" {
			continue
		}
		k, v, _ := strings.Cut(tok, "=")
		if _, dup := p.vals[k]; dup {
			return nil, p.bad("repeated +%s", k)
		}
		p.vals[k] = v
	}
	name, ok := p.str("proj")
	if !ok {
		return nil, p.bad("no +proj")
	}
	for _, k := range []string{"no_defs", "type", "wktext"} {
		p.str(k)
	}
	if t, ok := p.vals["type"]; ok && t != "crs" {
		return nil, p.bad("+type=%s", t)
	}
	if name == "merc" && p.vals["a"] == "6378137" && p.vals["b"] == "6378137" && p.vals["nadgrids"] == "@null" {
		return parseGoogleMercator(p)
	}
	if g, ok := p.str("nadgrids"); ok {
		return nil, p.bad("+nadgrids=%s (grid shifts are not supported)", g)
	}
	base, err := p.geographic()
	if err != nil {
		return nil, err
	}
	var c core.CRS
	switch name {
	case "longlat", "latlong", "lonlat", "latlon":
		c = base
	case "aeqd":
		if c, err = p.aeqd(base); err != nil {
			return nil, err
		}
	default:
		if c, err = p.projected(name, base); err != nil {
			return nil, err
		}
	}
	var unused []string
	for k := range p.vals {
		if !p.used[k] {
			unused = append(unused, "+"+k)
		}
	}
	if len(unused) > 0 {
		sort.Strings(unused)
		return nil, p.bad("unsupported parameters %s", strings.Join(unused, " "))
	}
	return r.IdentifyOrKeep(c), nil
}

// Conversion builds the conversion of a PROJ projection name and its
// parameters (PROJ string keys without '+'; degrees and metres).
func Conversion(r *core.Registry, name string, vals map[string]string) (*core.Conversion, error) {
	// Keys in sorted order, so that the source an error quotes and the
	// unsupported parameter it names do not follow map order.
	keys := slices.Sorted(maps.Keys(vals))
	var src strings.Builder
	src.WriteString("+proj=" + name)
	p := &projParams{r: r, vals: map[string]string{}, used: map[string]bool{}}
	for _, k := range keys {
		v := vals[k]
		p.vals[k] = v
		src.WriteString(" +" + k + "=" + v)
	}
	p.src = src.String()
	wgs, err := r.GeographicCRSCached(4326)
	if err != nil {
		return nil, err
	}
	var c core.CRS
	if name == "aeqd" {
		c, err = p.aeqdConversion(wgs)
	} else {
		c, err = p.projected(name, wgs)
	}
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		if !p.used[k] {
			return nil, p.bad("unsupported parameter +%s", k)
		}
	}
	pc, ok := c.(*core.ProjectedCRS)
	if !ok {
		return nil, p.bad("not a projection")
	}
	conv := *pc.Conv
	return &conv, nil
}

// parseGoogleMercator accepts the spherical spelling of EPSG:3857.
func parseGoogleMercator(p *projParams) (core.CRS, error) {
	p.str("a")
	p.str("b")
	p.str("nadgrids")
	for _, k := range []string{"lat_ts", "lon_0", "x_0", "y_0"} {
		if v, err := p.num(k, 0); err != nil || v != 0 {
			return nil, p.bad("+%s must be 0 in the spherical Web Mercator form", k)
		}
	}
	if v, err := p.num("k", 1); err != nil || v != 1 {
		return nil, p.bad("+k must be 1 in the spherical Web Mercator form")
	}
	if u, ok := p.str("units"); ok && u != "m" {
		return nil, p.bad("+units=%s", u)
	}
	for k := range p.vals {
		if !p.used[k] {
			return nil, p.bad("unsupported parameter +%s in the spherical Web Mercator form", k)
		}
	}
	return p.r.FromEPSG(3857)
}

// geographic builds the geographic CRS of the string's datum parameters.
func (p *projParams) geographic() (*core.GeographicCRS, error) {
	r := p.r
	datumName, hasDatum := p.str("datum")
	ellpsName, hasEllps := p.str("ellps")
	towgs, hasTowgs := p.str("towgs84")
	var base *core.GeographicCRS
	if hasDatum {
		code, ok := core.PROJDatums[datumName]
		if !ok {
			return nil, p.bad("unknown +datum=%s", datumName)
		}
		g, err := r.GeographicCRSCached(code)
		if err != nil {
			return nil, err
		}
		base = g
	}
	el, ref, custom, err := p.Ellipsoid(ellpsName, hasEllps)
	if err != nil {
		return nil, err
	}
	pm, err := p.PrimeMeridian()
	if err != nil {
		return nil, err
	}
	if base != nil && !custom && !hasTowgs && pm.Deg == 0 {
		return base, nil
	}
	if base != nil && custom {
		return nil, p.bad("+datum with another ellipsoid")
	}
	if base != nil {
		el, ref = base.Datum.Ellipsoid, base.Datum.EllipsoidRef
	} else if !custom {
		el, ref = proj.WGS84, core.EllipsoidRef{Code: 7030, Name: "WGS 84", Unit: 9001}
	}
	d := &core.GeodeticDatum{Ellipsoid: el, EllipsoidRef: ref, PM: pm}
	if base != nil {
		d.Code, d.Name, d.Shifts = base.Datum.Code, base.Datum.Name, base.Datum.Shifts
	} else {
		d.Name = "unknown"
		if e, ok := core.PROJEllipsoids[ellpsName]; ok && hasEllps {
			d.Name = e.ProjDatum
		}
	}
	if hasTowgs {
		v, err := parseFloats(towgs)
		if err != nil || !d.SetTOWGS84(v) {
			return nil, p.bad("+towgs84 wants 3 or 7 numbers")
		}
		if base != nil {
			d.Name = base.Datum.Name
		} else {
			// PROJ names such a datum after its definition.
			d.Name += " using towgs84=" + towgs
		}
		d.Shifts[0].Name = "Transformation from " + d.Name + " to WGS84"
	}
	if d.Key == "" {
		d.Key = "user:" + DatumKey(d)
	}
	name := "unknown"
	if base != nil && !hasTowgs {
		name = base.Name
	}
	// PROJ strings are longitude/latitude, as PROJ's own CRS of one is.
	return &core.GeographicCRS{Name: name, Datum: d, Angular: core.DegreeUnit, CS: &lonLatCS}, nil
}

// lonLatCS is the coordinate system PROJ gives a +proj=longlat CRS.
var lonLatCS = core.CSDef{Kind: "ellipsoidal", Axes: []core.AxisDef{
	{Name: "Longitude", Dir: "east", Unit: 9122}, {Name: "Latitude", Dir: "north", Unit: 9122}}}

// DatumKey identifies a user-defined datum by its figure, prime meridian
// and shift, so that equal definitions convert without a shift.
func DatumKey(d *core.GeodeticDatum) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "a=%v,f=%v,pm=%v,code=%d", d.Ellipsoid.A, d.Ellipsoid.F, d.PM.Deg, d.Code)
	for _, s := range d.Shifts {
		fmt.Fprintf(&sb, ",h=%v", *s.H)
	}
	return sb.String()
}

func parseFloats(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("bad number %q", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// Ellipsoid reads +ellps or +a/+b/+rf/+f/+R; custom reports an explicit
// figure.
func (p *projParams) Ellipsoid(name string, named bool) (proj.Ellipsoid, core.EllipsoidRef, bool, error) {
	if r, err := p.num("R", 0); err != nil {
		return proj.Ellipsoid{}, core.EllipsoidRef{}, false, err
	} else if r != 0 {
		if r <= 0 {
			return proj.Ellipsoid{}, core.EllipsoidRef{}, false, p.bad("+R=%v", r)
		}
		return proj.NewEllipsoid(r, 0), core.EllipsoidRef{Name: "unknown", Unit: 9001}, true, nil
	}
	if named {
		e, ok := core.PROJEllipsoids[name]
		if !ok {
			return proj.Ellipsoid{}, core.EllipsoidRef{}, false, p.bad("unknown +ellps=%s", name)
		}
		return e.Figure(), core.EllipsoidRef{Name: e.ProjName, Unit: 9001}, true, nil
	}
	if !p.has("a") {
		for _, k := range []string{"b", "rf", "f", "es", "e"} {
			if p.has(k) {
				return proj.Ellipsoid{}, core.EllipsoidRef{}, false, p.bad("+%s without +a", k)
			}
		}
		return proj.Ellipsoid{}, core.EllipsoidRef{}, false, nil
	}
	a, err := p.num("a", 0)
	if err != nil || !(a > 0) {
		return proj.Ellipsoid{}, core.EllipsoidRef{}, false, p.bad("+a must be positive")
	}
	ref := core.EllipsoidRef{Name: "unknown", Unit: 9001}
	switch {
	case p.has("b"):
		b, err := p.num("b", 0)
		if err != nil || !(b > 0) || b > a {
			return proj.Ellipsoid{}, core.EllipsoidRef{}, false, p.bad("bad +b")
		}
		return proj.NewEllipsoidAB(a, b), ref, true, nil
	case p.has("rf"):
		rf, err := p.num("rf", 0)
		if err != nil || !(rf > 1) {
			return proj.Ellipsoid{}, core.EllipsoidRef{}, false, p.bad("bad +rf")
		}
		return proj.NewEllipsoid(a, rf), ref, true, nil
	case p.has("f"):
		f, err := p.num("f", 0)
		if err != nil || f < 0 || f >= 1 {
			return proj.Ellipsoid{}, core.EllipsoidRef{}, false, p.bad("bad +f")
		}
		if f == 0 {
			return proj.NewEllipsoid(a, 0), ref, true, nil
		}
		return proj.NewEllipsoid(a, 1/f), ref, true, nil
	}
	return proj.NewEllipsoid(a, 0), ref, true, nil
}

func (p *projParams) PrimeMeridian() (core.PrimeMeridian, error) {
	v, ok := p.str("pm")
	if !ok {
		return core.Greenwich, nil
	}
	if d, ok := core.PROJPrimeMeridians[strings.ToLower(v)]; ok {
		if d == 0 {
			return core.Greenwich, nil
		}
		return core.PrimeMeridian{Name: strings.ToUpper(v[:1]) + strings.ToLower(v[1:]), Deg: d, Value: d, Unit: 9122}, nil
	}
	d, err := parseProjNumber(v)
	if err != nil {
		return core.PrimeMeridian{}, p.bad("bad +pm=%s", v)
	}
	if d == 0 {
		return core.Greenwich, nil
	}
	return core.PrimeMeridian{Name: "unknown", Deg: d, Value: d, Unit: 9122}, nil
}

// linearUnit reads +units or +to_meter.
func (p *projParams) linearUnit() (core.Unit, int, error) {
	if v, ok := p.str("to_meter"); ok {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !(f > 0) {
			return core.Unit{}, 0, p.bad("bad +to_meter=%s", v)
		}
		if f == 1 {
			return core.Metre, 9001, nil
		}
		for _, u := range p.r.Units {
			if u.Kind == "length" && u.Factor == f {
				return core.Unit{Name: u.Name, Metres: f}, 0, nil
			}
		}
		return core.Unit{Name: "unknown", Metres: f}, 0, nil
	}
	v, ok := p.str("units")
	if !ok || v == "m" {
		return core.Metre, 9001, nil
	}
	u, ok := core.PROJUnits[v]
	if !ok {
		return core.Unit{}, 0, p.bad("unknown +units=%s", v)
	}
	if ud, ok := p.r.Units[u.Code]; ok {
		return core.Unit{Name: ud.Name, Metres: ud.Factor}, u.Code, nil
	}
	return core.Unit{Name: v, Metres: u.Metres}, u.Code, nil
}

// aeqd maps +proj=aeqd onto the WGS 84 aeqd system or the ellipsoidal
// method.
func (p *projParams) aeqd(base *core.GeographicCRS) (core.CRS, error) {
	lat0, lon0, x0, y0, guam, err := p.aeqdParams()
	if err != nil {
		return nil, err
	}
	u, _, err := p.linearUnit()
	if err != nil {
		return nil, err
	}
	d := base.Datum
	wgsFigure := d.IsWGS84() || (d.Ellipsoid == proj.WGS84 && len(d.Shifts) == 0)
	if !guam && wgsFigure && d.PM.Deg == 0 && x0 == 0 && y0 == 0 && u == core.Metre && !p.has("axis") {
		return core.NewAzimuthalEquidistant(lat0, lon0)
	}
	return p.aeqdBuild(base, guam, lat0, lon0, x0, y0)
}

// aeqdConversion is aeqd always as a projected CRS.
func (p *projParams) aeqdConversion(base *core.GeographicCRS) (core.CRS, error) {
	lat0, lon0, x0, y0, guam, err := p.aeqdParams()
	if err != nil {
		return nil, err
	}
	return p.aeqdBuild(base, guam, lat0, lon0, x0, y0)
}

// aeqdParams reads +lat_0, +lon_0, +x_0, +y_0 and +guam.
func (p *projParams) aeqdParams() (lat0, lon0, x0, y0 float64, guam bool, err error) {
	var v [4]float64
	for i, k := range []string{"lat_0", "lon_0", "x_0", "y_0"} {
		if v[i], err = p.num(k, 0); err != nil {
			return 0, 0, 0, 0, false, err
		}
	}
	_, guam = p.str("guam")
	return v[0], v[1], v[2], v[3], guam, nil
}

func (p *projParams) aeqdBuild(base *core.GeographicCRS, guam bool, lat0, lon0, x0, y0 float64) (core.CRS, error) {
	method := proj.MethodModifiedAeqd
	if guam {
		method = proj.MethodGuam
	}
	return p.build(base, method, []core.ParamDef{
		{Code: proj.ParLatOrigin, Value: lat0, Unit: 9122}, {Code: proj.ParLonOrigin, Value: lon0, Unit: 9122},
		{Code: proj.ParFalseEasting, Value: x0, Unit: 9001}, {Code: proj.ParFalseNorthing, Value: y0, Unit: 9001}})
}

// projected maps +proj=NAME onto an EPSG method and its parameters.
func (p *projParams) projected(name string, base *core.GeographicCRS) (core.CRS, error) {
	var err error
	num := func(k string, def float64) float64 {
		if err != nil {
			return 0
		}
		var v float64
		v, err = p.num(k, def)
		return v
	}
	scale := func() float64 {
		if p.has("k_0") {
			return num("k_0", 1)
		}
		return num("k", 1)
	}
	deg := func(code int, v float64) core.ParamDef { return core.ParamDef{Code: code, Value: v, Unit: 9122} }
	met := func(code int, v float64) core.ParamDef { return core.ParamDef{Code: code, Value: v, Unit: 9001} }
	uni := func(code int, v float64) core.ParamDef { return core.ParamDef{Code: code, Value: v, Unit: 9201} }
	lat0, lon0 := num("lat_0", 0), num("lon_0", 0)
	x0, y0 := num("x_0", 0), num("y_0", 0)
	var method int
	var ps []core.ParamDef
	switch name {
	case "utm":
		z, ok := p.str("zone")
		zone, perr := strconv.Atoi(z)
		if !ok || perr != nil || zone < 1 || zone > 60 {
			return nil, p.bad("+proj=utm needs +zone 1-60")
		}
		_, south := p.str("south")
		if p.has("lat_0") || p.has("lon_0") || p.has("x_0") || p.has("y_0") || p.has("k") || p.has("k_0") {
			return nil, p.bad("+proj=utm takes only +zone and +south")
		}
		fn := 0.0
		if south {
			fn = 10000000
		}
		method = proj.MethodTM
		ps = []core.ParamDef{deg(proj.ParLatOrigin, 0), deg(proj.ParLonOrigin, float64(zone*6-183)), uni(proj.ParScaleOrigin, 0.9996),
			met(proj.ParFalseEasting, 500000), met(proj.ParFalseNorthing, fn)}
	case "tmerc", "etmerc":
		if a, ok := p.str("approx"); ok || a != "" {
			return nil, p.bad("+approx (the Evenden-Snyder series) is not supported")
		}
		if algo, ok := p.str("algo"); ok && algo != "poder_engsager" && algo != "auto" {
			return nil, p.bad("+algo=%s", algo)
		}
		method = proj.MethodTM
		ps = []core.ParamDef{deg(proj.ParLatOrigin, lat0), deg(proj.ParLonOrigin, lon0), uni(proj.ParScaleOrigin, scale()),
			met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
	case "lcc":
		lat1 := num("lat_1", lat0)
		lat2 := num("lat_2", lat1)
		k := scale()
		if lat2 == lat1 && (!p.has("lat_0") || lat0 == lat1) {
			method = proj.MethodLCC1SP
			ps = []core.ParamDef{deg(proj.ParLatOrigin, lat1), deg(proj.ParLonOrigin, lon0), uni(proj.ParScaleOrigin, k),
				met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
		} else {
			method = proj.MethodLCC2SP
			ps = []core.ParamDef{deg(proj.ParLatFalseOrigin, lat0), deg(proj.ParLonFalseOrigin, lon0), deg(proj.ParLat1stSP, lat1),
				deg(proj.ParLat2ndSP, lat2), met(proj.ParEastingFalseOr, x0), met(proj.ParNorthingFalseOr, y0)}
			if k != 1 {
				method = proj.MethodLCC2SPMichigan
				ps = append(ps, uni(proj.ParEllipsoidScale, k))
			}
		}
	case "aea":
		method = proj.MethodAlbers
		ps = []core.ParamDef{deg(proj.ParLatFalseOrigin, lat0), deg(proj.ParLonFalseOrigin, lon0), deg(proj.ParLat1stSP, num("lat_1", 0)),
			deg(proj.ParLat2ndSP, num("lat_2", 0)), met(proj.ParEastingFalseOr, x0), met(proj.ParNorthingFalseOr, y0)}
	case "cass":
		method = proj.MethodCassini
		if _, ok := p.str("hyperbolic"); ok {
			method = proj.MethodHyperbolicCassini
		}
		ps = []core.ParamDef{deg(proj.ParLatOrigin, lat0), deg(proj.ParLonOrigin, lon0), met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
	case "stere", "ups":
		if name == "ups" {
			_, south := p.str("south")
			lat0, x0, y0 = 90, 2000000, 2000000
			if south {
				lat0 = -90
			}
			p.vals["k"], p.used["k"] = "0.994", true
		}
		if math.Abs(math.Abs(lat0)-90) > 1e-10 {
			return nil, p.bad("only the polar stereographic (+lat_0=±90) is supported; use +proj=sterea for the oblique stereographic")
		}
		if p.has("lat_ts") && math.Abs(math.Abs(num("lat_ts", 90))-90) > 1e-10 {
			if p.has("k") || p.has("k_0") {
				if k := scale(); k != 1 {
					return nil, p.bad("+lat_ts with a scale factor")
				}
			}
			method = proj.MethodPolarStereoB
			ps = []core.ParamDef{deg(proj.ParLatStdParallel, num("lat_ts", 0)), deg(proj.ParLonOfOrigin, lon0),
				met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
		} else {
			p.str("lat_ts")
			method = proj.MethodPolarStereoA
			ps = []core.ParamDef{deg(proj.ParLatOrigin, lat0), deg(proj.ParLonOrigin, lon0), uni(proj.ParScaleOrigin, scale()),
				met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
		}
	case "sterea":
		method = proj.MethodObliqueStereo
		ps = []core.ParamDef{deg(proj.ParLatOrigin, lat0), deg(proj.ParLonOrigin, lon0), uni(proj.ParScaleOrigin, scale()),
			met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
	case "omerc":
		for _, k := range []string{"lat_1", "lat_2", "lon_1", "lon_2", "no_rot"} {
			if p.has(k) {
				return nil, p.bad("+proj=omerc +%s (two-point or unrotated form) is not supported", k)
			}
		}
		alpha := num("alpha", 0)
		gamma := alpha
		if p.has("gamma") {
			gamma = num("gamma", 0)
		}
		lonc := num("lonc", lon0)
		_, noU := p.str("no_uoff")
		_, noOff := p.str("no_off")
		if noU || noOff {
			method = proj.MethodHotineA
			ps = []core.ParamDef{deg(proj.ParLatCentre, lat0), deg(proj.ParLonCentre, lonc), deg(proj.ParAzimuth, alpha),
				deg(proj.ParRectifiedAngle, gamma), uni(proj.ParScaleCentre, scale()), met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
		} else {
			method = proj.MethodHotineB
			ps = []core.ParamDef{deg(proj.ParLatCentre, lat0), deg(proj.ParLonCentre, lonc), deg(proj.ParAzimuth, alpha),
				deg(proj.ParRectifiedAngle, gamma), uni(proj.ParScaleCentre, scale()), met(proj.ParEastingCentre, x0), met(proj.ParNorthingCentre, y0)}
		}
	case "somerc":
		method = proj.MethodHotineB
		ps = []core.ParamDef{deg(proj.ParLatCentre, lat0), deg(proj.ParLonCentre, lon0), deg(proj.ParAzimuth, 90),
			deg(proj.ParRectifiedAngle, 90), uni(proj.ParScaleCentre, scale()), met(proj.ParEastingCentre, x0), met(proj.ParNorthingCentre, y0)}
	case "laea":
		method = proj.MethodLAEA
		ps = []core.ParamDef{deg(proj.ParLatOrigin, lat0), deg(proj.ParLonOrigin, lon0), met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
	case "merc":
		if p.has("lat_ts") {
			if (p.has("k") || p.has("k_0")) && scale() != 1 {
				return nil, p.bad("+lat_ts with a scale factor")
			}
			method = proj.MethodMercatorB
			ps = []core.ParamDef{deg(proj.ParLat1stSP, num("lat_ts", 0)), deg(proj.ParLonOrigin, lon0), met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
		} else {
			if lat0 != 0 {
				return nil, p.bad("+proj=merc with +lat_0")
			}
			method = proj.MethodMercatorA
			ps = []core.ParamDef{deg(proj.ParLatOrigin, 0), deg(proj.ParLonOrigin, lon0), uni(proj.ParScaleOrigin, scale()),
				met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
		}
	case "webmerc":
		method = proj.MethodPseudoMercator
		ps = []core.ParamDef{deg(proj.ParLatOrigin, lat0), deg(proj.ParLonOrigin, lon0), met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
	case "col_urban":
		method = proj.MethodColombiaUrban
		ps = []core.ParamDef{deg(proj.ParLatOrigin, lat0), deg(proj.ParLonOrigin, lon0), met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0),
			met(proj.ParOriginHeight, num("h_0", 0))}
	case "poly":
		method = proj.MethodPolyconic
		ps = []core.ParamDef{deg(proj.ParLatOrigin, lat0), deg(proj.ParLonOrigin, lon0), met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
	case "krovak":
		method = proj.MethodKrovakNorth
		if !p.has("lat_0") {
			lat0 = 49.5
		}
		if !p.has("lon_0") {
			lon0 = 24.833333333333333
		}
		k := 0.9999
		if p.has("k") || p.has("k_0") {
			k = scale()
		}
		if _, ok := p.str("czech"); ok {
			return nil, p.bad("+czech is not supported")
		}
		ps = []core.ParamDef{deg(proj.ParLatCentre, lat0), deg(proj.ParLonOfOrigin, lon0), deg(proj.ParColatConeAxis, num("alpha", 30.288139752777778)),
			deg(proj.ParLatPseudoSP, num("lat_ts", 78.5)), uni(proj.ParScalePseudoSP, k), met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
	case "eqearth":
		method = proj.MethodEqualEarth
		ps = []core.ParamDef{deg(proj.ParLonOrigin, lon0), met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
	case "cea":
		method = proj.MethodLCEA
		ps = []core.ParamDef{deg(proj.ParLat1stSP, num("lat_ts", 0)), deg(proj.ParLonOrigin, lon0), met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
	case "eqc":
		method = proj.MethodEquidistantCyl
		ps = []core.ParamDef{deg(proj.ParLat1stSP, num("lat_ts", 0)), deg(proj.ParLonOrigin, lon0), met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
		if lat0 != 0 {
			ps = append(ps, deg(proj.ParLatOrigin, lat0))
		}
	case "nzmg":
		method = proj.MethodNZMG
		ps = []core.ParamDef{deg(proj.ParLatOrigin, -41), deg(proj.ParLonOrigin, 173), met(proj.ParFalseEasting, 2510000), met(proj.ParFalseNorthing, 6023150)}
	case "labrd":
		method = proj.MethodLaborde
		ps = []core.ParamDef{deg(proj.ParLatCentre, lat0), deg(proj.ParLonCentre, lon0), deg(proj.ParAzimuth, num("azi", 0)),
			uni(proj.ParScaleCentre, scale()), met(proj.ParFalseEasting, x0), met(proj.ParFalseNorthing, y0)}
	default:
		return nil, p.bad("unsupported +proj=%s", name)
	}
	if err != nil {
		return nil, err
	}
	return p.build(base, method, ps)
}

// AxisCS returns the coordinate system of a +axis value (default enu).
func AxisCS(axis string, ucode int) (core.CSDef, error) {
	names := map[byte]core.AxisDef{
		'e': {Name: "Easting", Abbrev: "E", Dir: "east"}, 'w': {Name: "Westing", Abbrev: "W", Dir: "west"},
		'n': {Name: "Northing", Abbrev: "N", Dir: "north"}, 's': {Name: "Southing", Abbrev: "S", Dir: "south"},
	}
	if len(axis) == 2 {
		axis += "u"
	}
	if len(axis) != 3 || axis[2] != 'u' {
		return core.CSDef{}, fmt.Errorf("+axis=%s", axis)
	}
	a0, ok0 := names[axis[0]]
	a1, ok1 := names[axis[1]]
	if !ok0 || !ok1 {
		return core.CSDef{}, fmt.Errorf("+axis=%s", axis)
	}
	a0.Unit, a1.Unit = ucode, ucode
	return core.CSDef{Kind: "Cartesian", Axes: []core.AxisDef{a0, a1}}, nil
}

// build assembles a user-defined projected CRS.
func (p *projParams) build(base *core.GeographicCRS, method int, ps []core.ParamDef) (core.CRS, error) {
	u, ucode, err := p.linearUnit()
	if err != nil {
		return nil, err
	}
	axis, _ := p.str("axis")
	if axis == "" {
		axis = "enu"
	}
	cs, err := AxisCS(axis, ucode)
	if err != nil {
		return nil, p.bad("%v", err)
	}
	if lat, ok := PolarAspect(method, ps); ok && axis == "enu" {
		cs = PolarCS(lat > 0, ucode)
	}
	conv := &core.Conversion{Name: "unknown", Method: method, Params: ps}
	pc, err := core.NewProjected(0, "unknown", base, conv, cs, u, ucode, p.r)
	if err != nil {
		return nil, p.bad("%v", err)
	}
	return pc, nil
}

// PolarAspect reports whether a conversion is centred on a pole (polar
// stereographic, polar Lambert azimuthal), and the pole's latitude sign.
func PolarAspect(method int, ps []core.ParamDef) (float64, bool) {
	lat := 0.0
	for _, q := range ps {
		if q.Code == proj.ParLatOrigin || q.Code == proj.ParLatStdParallel {
			lat = q.Value
		}
	}
	switch method {
	case proj.MethodPolarStereoA, proj.MethodPolarStereoB:
		return lat, true
	case proj.MethodLAEA:
		return lat, math.Abs(math.Abs(lat)-90) < 1e-10
	}
	return 0, false
}

// PolarCS is the coordinate system EPSG gives polar stereographic CRSs
// (easting and northing along the 90°E and 180°E or 0°E meridians).
func PolarCS(north bool, ucode int) core.CSDef {
	if north {
		return core.CSDef{Kind: "Cartesian", Axes: []core.AxisDef{
			{Name: "Easting", Abbrev: "E", Dir: "South along 90°E", Unit: ucode},
			{Name: "Northing", Abbrev: "N", Dir: "South along 180°E", Unit: ucode}}}
	}
	return core.CSDef{Kind: "Cartesian", Axes: []core.AxisDef{
		{Name: "Easting", Abbrev: "E", Dir: "North along 90°E", Unit: ucode},
		{Name: "Northing", Abbrev: "N", Dir: "North along 0°E", Unit: ucode}}}
}
