package crs

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// projEllipsoid is an entry of PROJ's ellipsoid list (+ellps=).
type projEllipsoid struct {
	a         float64
	rf, b     float64 // one of them is set
	epsg      int     // EPSG ellipsoid code when the same figure, else 0
	epsgNam   string
	projDatum string // PROJ's datum name for +ellps alone
	projName  string // PROJ's ellipsoid name
}

// projEllipsoids are PROJ's +ellps values (pj_ellps), with the EPSG
// ellipsoid of the same figure where there is one.
var projEllipsoids = map[string]projEllipsoid{
	"MERIT":     {a: 6378137, rf: 298.257, projDatum: "Unknown based on MERIT 1983 ellipsoid", projName: "MERIT 1983"},
	"SGS85":     {a: 6378136, rf: 298.257, projDatum: "Unknown based on Soviet Geodetic System 85 ellipsoid", projName: "Soviet Geodetic System 85"},
	"GRS80":     {a: 6378137, rf: 298.257222101, epsg: 7019, epsgNam: "GRS 1980", projDatum: "Unknown based on GRS80 ellipsoid", projName: "GRS 1980"},
	"IAU76":     {a: 6378140, rf: 298.257, projDatum: "Unknown based on IAU 1976 ellipsoid", projName: "IAU 1976"},
	"airy":      {a: 6377563.396, b: 6356256.910, epsg: 7001, epsgNam: "Airy 1830", projDatum: "Unknown based on Airy 1830 ellipsoid", projName: "Airy 1830"},
	"APL4.9":    {a: 6378137, rf: 298.25, projDatum: "Unknown based on Appl. Physics. 1965 ellipsoid", projName: "Appl. Physics. 1965"},
	"NWL9D":     {a: 6378145, rf: 298.25, epsg: 7025, epsgNam: "NWL 9D", projDatum: "Unknown based on Naval Weapons Lab., 1965 ellipsoid", projName: "Naval Weapons Lab., 1965"},
	"mod_airy":  {a: 6377340.189, b: 6356034.446, epsg: 7002, epsgNam: "Airy Modified 1849", projDatum: "Unknown based on Modified Airy ellipsoid", projName: "Modified Airy"},
	"andrae":    {a: 6377104.43, rf: 300, projDatum: "Unknown based on Andrae 1876 (Den., Iclnd.) ellipsoid", projName: "Andrae 1876 (Den., Iclnd.)"},
	"danish":    {a: 6377019.2563, rf: 300, projDatum: "Unknown based on Andrae 1876 (Denmark, Iceland) ellipsoid", projName: "Andrae 1876 (Denmark, Iceland)"},
	"aust_SA":   {a: 6378160, rf: 298.25, epsg: 7003, epsgNam: "Australian National Spheroid", projDatum: "Unknown based on Australian Natl & S. Amer. 1969 ellipsoid", projName: "Australian Natl & S. Amer. 1969"},
	"GRS67":     {a: 6378160, rf: 298.2471674270, epsg: 7036, epsgNam: "GRS 1967", projDatum: "Unknown based on GRS 67(IUGG 1967) ellipsoid", projName: "GRS 67(IUGG 1967)"},
	"GSK2011":   {a: 6378136.5, rf: 298.2564151, projDatum: "Unknown based on GSK-2011 ellipsoid", projName: "GSK-2011"},
	"bessel":    {a: 6377397.155, rf: 299.1528128, epsg: 7004, epsgNam: "Bessel 1841", projDatum: "Unknown based on Bessel 1841 ellipsoid", projName: "Bessel 1841"},
	"bess_nam":  {a: 6377483.865, rf: 299.1528128, epsg: 7006, epsgNam: "Bessel Namibia", projDatum: "Unknown based on Bessel 1841 (Namibia) ellipsoid", projName: "Bessel 1841 (Namibia)"},
	"clrk66":    {a: 6378206.4, b: 6356583.8, epsg: 7008, epsgNam: "Clarke 1866", projDatum: "Unknown based on Clarke 1866 ellipsoid", projName: "Clarke 1866"},
	"clrk80":    {a: 6378249.145, rf: 293.4663, projDatum: "Unknown based on Clarke 1880 mod. ellipsoid", projName: "Clarke 1880 mod."},
	"clrk80ign": {a: 6378249.2, rf: 293.4660212936269, epsg: 7011, epsgNam: "Clarke 1880 (IGN)", projDatum: "Unknown based on Clarke 1880 (IGN). ellipsoid", projName: "Clarke 1880 (IGN)."},
	"CPM":       {a: 6375738.7, rf: 334.29, projDatum: "Unknown based on Comm. des Poids et Mesures 1799 ellipsoid", projName: "Comm. des Poids et Mesures 1799"},
	"delmbr":    {a: 6376428, rf: 311.5, projDatum: "Unknown based on Delambre 1810 (Belgium) ellipsoid", projName: "Delambre 1810 (Belgium)"},
	"engelis":   {a: 6378136.05, rf: 298.2566, projDatum: "Unknown based on Engelis 1985 ellipsoid", projName: "Engelis 1985"},
	"evrst30":   {a: 6377276.345, rf: 300.8017, epsg: 7015, epsgNam: "Everest 1830 (1937 Adjustment)", projDatum: "Unknown based on Everest 1830 ellipsoid", projName: "Everest 1830"},
	"evrst48":   {a: 6377304.063, rf: 300.8017, epsg: 7018, epsgNam: "Everest 1830 Modified", projDatum: "Unknown based on Everest 1948 ellipsoid", projName: "Everest 1948"},
	"evrst56":   {a: 6377301.243, rf: 300.8017, projDatum: "Unknown based on Everest 1956 ellipsoid", projName: "Everest 1956"},
	"evrst69":   {a: 6377295.664, rf: 300.8017, projDatum: "Unknown based on Everest 1969 ellipsoid", projName: "Everest 1969"},
	"evrstSS":   {a: 6377298.556, rf: 300.8017, epsg: 7016, epsgNam: "Everest 1830 (1967 Definition)", projDatum: "Unknown based on Everest (Sabah & Sarawak) ellipsoid", projName: "Everest (Sabah & Sarawak)"},
	"fschr60":   {a: 6378166, rf: 298.3, projDatum: "Unknown based on Fischer (Mercury Datum) 1960 ellipsoid", projName: "Fischer (Mercury Datum) 1960"},
	"fschr60m":  {a: 6378155, rf: 298.3, projDatum: "Unknown based on Modified Fischer 1960 ellipsoid", projName: "Modified Fischer 1960"},
	"fschr68":   {a: 6378150, rf: 298.3, projDatum: "Unknown based on Fischer 1968 ellipsoid", projName: "Fischer 1968"},
	"helmert":   {a: 6378200, rf: 298.3, epsg: 7020, epsgNam: "Helmert 1906", projDatum: "Unknown based on Helmert 1906 ellipsoid", projName: "Helmert 1906"},
	"hough":     {a: 6378270, rf: 297, epsg: 7053, epsgNam: "Hough 1960", projDatum: "Unknown based on Hough ellipsoid", projName: "Hough"},
	"intl":      {a: 6378388, rf: 297, epsg: 7022, epsgNam: "International 1924", projDatum: "Unknown based on International 1924 (Hayford 1909, 1910) ellipsoid", projName: "International 1924 (Hayford 1909, 1910)"},
	"krass":     {a: 6378245, rf: 298.3, epsg: 7024, epsgNam: "Krassowsky 1940", projDatum: "Unknown based on Krassovsky, 1942 ellipsoid", projName: "Krassovsky, 1942"},
	"kaula":     {a: 6378163, rf: 298.24, projDatum: "Unknown based on Kaula 1961 ellipsoid", projName: "Kaula 1961"},
	"lerch":     {a: 6378139, rf: 298.257, projDatum: "Unknown based on Lerch 1979 ellipsoid", projName: "Lerch 1979"},
	"mprts":     {a: 6397300, rf: 191, projDatum: "Unknown based on Maupertius 1738 ellipsoid", projName: "Maupertius 1738"},
	"new_intl":  {a: 6378157.5, b: 6356772.2, projDatum: "Unknown based on New International 1967 ellipsoid", projName: "New International 1967"},
	"plessis":   {a: 6376523, b: 6355863, projDatum: "Unknown based on Plessis 1817 (France) ellipsoid", projName: "Plessis 1817 (France)"},
	"PZ90":      {a: 6378136, rf: 298.25784, projDatum: "Unknown based on PZ-90 ellipsoid", projName: "PZ-90"},
	"SEasia":    {a: 6378155, b: 6356773.3205, projDatum: "Unknown based on Southeast Asia ellipsoid", projName: "Southeast Asia"},
	"walbeck":   {a: 6376896, b: 6355834.8467, projDatum: "Unknown based on Walbeck ellipsoid", projName: "Walbeck"},
	"WGS60":     {a: 6378165, rf: 298.3, projDatum: "Unknown based on WGS 60 ellipsoid", projName: "WGS 60"},
	"WGS66":     {a: 6378145, rf: 298.25, projDatum: "Unknown based on WGS 66 ellipsoid", projName: "WGS 66"},
	"WGS72":     {a: 6378135, rf: 298.26, epsg: 7043, epsgNam: "WGS 72", projDatum: "Unknown based on WGS 72 ellipsoid", projName: "WGS 72"},
	"WGS84":     {a: 6378137, rf: 298.257223563, epsg: 7030, epsgNam: "WGS 84", projDatum: "Unknown based on WGS84 ellipsoid", projName: "WGS 84"},
	"sphere":    {a: 6370997, b: 6370997, projDatum: "Unknown based on Normal Sphere (r=6370997) ellipsoid", projName: "Normal Sphere (r=6370997)"},
}

// figure returns the ellipsoid of a PROJ +ellps entry.
func (e projEllipsoid) figure() ellipsoid {
	if e.b != 0 {
		return newEllipsoidAB(e.a, e.b)
	}
	return newEllipsoid(e.a, e.rf)
}

// projEllipsoidName returns the +ellps name of a figure PROJ knows.
func projEllipsoidName(el ellipsoid) (string, bool) {
	names := make([]string, 0, len(projEllipsoids))
	for n := range projEllipsoids {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f := projEllipsoids[n].figure()
		if f.a == el.a && math.Abs(f.b-el.b) <= 1e-12*el.b {
			return n, true
		}
	}
	return "", false
}

// projWellKnownEllipsoid returns PROJ's +ellps figure that a registry
// ellipsoid (a and b or inverse flattening, metres) matches to a relative
// 1e-10, as PROJ substitutes it when it builds a conversion (so Bessel
// Namibia in German legal metres becomes +ellps=bess_nam).
func projWellKnownEllipsoid(a, b, rf float64) (ellipsoid, bool) {
	names := make([]string, 0, len(projEllipsoids))
	for n := range projEllipsoids {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		e := projEllipsoids[n]
		if math.Abs(a-e.a) >= 1e-10*e.a {
			continue
		}
		if e.b != 0 {
			if math.Abs(b-e.b) < 1e-10*e.b {
				return e.figure(), true
			}
		} else if rf != 0 && math.Abs(rf-e.rf) < 1e-10*e.rf {
			return e.figure(), true
		}
	}
	return ellipsoid{}, false
}

// projDatums are PROJ's +datum values this package maps onto the EPSG
// geographic CRS of that datum.
var projDatums = map[string]int{
	"WGS84": 4326, "NAD83": 4269, "NAD27": 4267, "potsdam": 4314, "OSGB36": 4277,
	"GGRS87": 4121, "ire65": 4299, "nzgd49": 4272, "carthage": 4223, "hermannskogel": 4312,
}

// projPrimeMeridians are PROJ's +pm names (degrees east of Greenwich, from
// PROJ's DMS definitions).
var projPrimeMeridians = map[string]float64{
	"greenwich":  0.0,                 // 0dE
	"lisbon":     -9.131906111111112,  // 9d07'54.862"W
	"paris":      2.337229166666667,   // 2d20'14.025"E
	"bogota":     -74.08091666666667,  // 74d04'51.3"W
	"madrid":     -3.6873750000000003, // 3d41'14.55"W
	"rome":       12.452333333333332,  // 12d27'8.4"E
	"bern":       7.439583333333333,   // 7d26'22.5"E
	"jakarta":    106.80771944444444,  // 106d48'27.79"E
	"ferro":      -17.666666666666668, // 17d40'W
	"brussels":   4.3679749999999995,  // 4d22'4.71"E
	"stockholm":  18.05827777777778,   // 18d3'29.8"E
	"athens":     23.716337499999998,  // 23d42'58.815"E
	"oslo":       10.722916666666666,  // 10d43'22.5"E
	"copenhagen": 12.577875,           // 12d34'40.35"E
}

// projUnits are PROJ's +units values (metres per unit) with their EPSG
// unit codes.
var projUnits = map[string]struct {
	metres float64
	code   int
}{
	"m": {1, 9001}, "km": {1000, 9036}, "ft": {0.3048, 9002}, "us-ft": {1200.0 / 3937, 9003},
	"link": {0.201168, 9098}, "us-ch": {20.11684023368047, 9033}, "ind-ft": {0.30479841, 9081},
	"ind-yd": {0.91439523, 9085}, "yd": {0.9144, 9096}, "ch": {20.1168, 9097}, "fath": {1.8288, 9014},
	"mi": {1609.344, 9093}, "us-mi": {1609.347218694437, 9035},
}

// projParams is a parsed PROJ string.
type projParams struct {
	src  string
	vals map[string]string
	used map[string]bool
}

func (p *projParams) bad(format string, args ...any) error {
	return fmt.Errorf("%w: %q: %s", ErrUnknownCRS, p.src, fmt.Sprintf(format, args...))
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

// parseProjString interprets a PROJ string describing a CRS
// ("+proj=utm +zone=33 +datum=WGS84", "+proj=lcc +lat_1=49 ... +ellps=GRS80
// +towgs84=0,0,0 +units=m +no_defs"): geographic (+proj=longlat) or one of
// the projections this package implements, on a +datum, +ellps, +a/+b/+rf/
// +f/+R ellipsoid, with +towgs84, +pm, +units or +to_meter and +axis.
// +proj=aeqd on WGS 84 without false origin gives the "aeqd:LAT,LON"
// system; the spherical Web Mercator spelling "+proj=merc +a=6378137
// +b=6378137 +nadgrids=@null" is EPSG:3857's. Unknown parameters are
// errors, never silently ignored.
func parseProjString(s string) (CRS, error) {
	p := &projParams{src: s, vals: map[string]string{}, used: map[string]bool{}}
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
	proj, ok := p.str("proj")
	if !ok {
		return nil, p.bad("no +proj")
	}
	for _, k := range []string{"no_defs", "type", "wktext"} {
		p.str(k)
	}
	if t, ok := p.vals["type"]; ok && t != "crs" {
		return nil, p.bad("+type=%s", t)
	}
	if proj == "merc" && p.vals["a"] == "6378137" && p.vals["b"] == "6378137" && p.vals["nadgrids"] == "@null" {
		return parseGoogleMercator(p)
	}
	if g, ok := p.str("nadgrids"); ok {
		return nil, p.bad("+nadgrids=%s (grid shifts are not supported)", g)
	}
	base, err := p.geographic()
	if err != nil {
		return nil, err
	}
	var c CRS
	switch proj {
	case "longlat", "latlong", "lonlat", "latlon":
		c = base
	case "aeqd":
		if c, err = p.aeqd(base); err != nil {
			return nil, err
		}
	default:
		if c, err = p.projected(proj, base); err != nil {
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
	return identifyOrKeep(c), nil
}

// projConversion builds the conversion of a PROJ projection name and its
// parameters (PROJ string keys without '+'; degrees and metres).
func projConversion(proj string, vals map[string]string) (*conversion, error) {
	var src strings.Builder
	src.WriteString("+proj=" + proj)
	p := &projParams{vals: map[string]string{}, used: map[string]bool{}}
	for k, v := range vals {
		p.vals[k] = v
		src.WriteString(" +" + k + "=" + v)
	}
	p.src = src.String()
	wgs, err := mustEPSG().geographicCRSCached(4326)
	if err != nil {
		return nil, err
	}
	var c CRS
	if proj == "aeqd" {
		c, err = p.aeqdConversion(wgs)
	} else {
		c, err = p.projected(proj, wgs)
	}
	if err != nil {
		return nil, err
	}
	for k := range p.vals {
		if !p.used[k] {
			return nil, p.bad("unsupported parameter +%s", k)
		}
	}
	pc, ok := c.(*projectedCRS)
	if !ok {
		return nil, p.bad("not a projection")
	}
	conv := *pc.conv
	return &conv, nil
}

// parseGoogleMercator accepts the spherical spelling of EPSG:3857.
func parseGoogleMercator(p *projParams) (CRS, error) {
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
	return FromEPSG(3857)
}

// geographic builds the geographic CRS of the string's datum parameters.
func (p *projParams) geographic() (*geographicCRS, error) {
	r := mustEPSG()
	datumName, hasDatum := p.str("datum")
	ellpsName, hasEllps := p.str("ellps")
	towgs, hasTowgs := p.str("towgs84")
	var base *geographicCRS
	if hasDatum {
		code, ok := projDatums[datumName]
		if !ok {
			return nil, p.bad("unknown +datum=%s", datumName)
		}
		g, err := r.geographicCRSCached(code)
		if err != nil {
			return nil, err
		}
		base = g
	}
	el, ref, custom, err := p.ellipsoid(ellpsName, hasEllps)
	if err != nil {
		return nil, err
	}
	pm, err := p.primeMeridian()
	if err != nil {
		return nil, err
	}
	if base != nil && !custom && !hasTowgs && pm.deg == 0 {
		return base, nil
	}
	if base != nil && custom {
		return nil, p.bad("+datum with another ellipsoid")
	}
	if base != nil {
		el, ref = base.datum.el, base.datum.ellRef
	} else if !custom {
		el, ref = wgs84Ellipsoid, ellipsoidRef{code: 7030, name: "WGS 84", unit: 9001}
	}
	d := &geodeticDatum{el: el, ellRef: ref, pm: pm}
	if base != nil {
		d.code, d.name, d.shifts = base.datum.code, base.datum.name, base.datum.shifts
	} else {
		d.name = "unknown"
		if e, ok := projEllipsoids[ellpsName]; ok && hasEllps {
			d.name = e.projDatum
		}
	}
	if hasTowgs {
		v, err := parseFloats(towgs)
		if err != nil || !d.setTOWGS84(v) {
			return nil, p.bad("+towgs84 wants 3 or 7 numbers")
		}
		if base != nil {
			d.name = base.datum.name
		} else {
			// PROJ names such a datum after its definition.
			d.name += " using towgs84=" + towgs
		}
		d.shifts[0].name = "Transformation from " + d.name + " to WGS84"
	}
	if d.key == "" {
		d.key = "user:" + datumKey(d)
	}
	name := "unknown"
	if base != nil && !hasTowgs {
		name = base.name
	}
	// PROJ strings are longitude/latitude, as PROJ's own CRS of one is.
	return &geographicCRS{name: name, datum: d, unit: degreeUnit, cs: &lonLatCS}, nil
}

// lonLatCS is the coordinate system PROJ gives a +proj=longlat CRS.
var lonLatCS = csDef{typ: "ellipsoidal", axes: []axisDef{
	{name: "Longitude", dir: "east", unit: 9122}, {name: "Latitude", dir: "north", unit: 9122}}}

// datumKey identifies a user-defined datum by its figure, prime meridian
// and shift, so that equal definitions convert without a shift.
func datumKey(d *geodeticDatum) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "a=%v,f=%v,pm=%v,code=%d", d.el.a, d.el.f, d.pm.deg, d.code)
	for _, s := range d.shifts {
		fmt.Fprintf(&sb, ",h=%v", *s.h)
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

// ellipsoid reads +ellps or +a/+b/+rf/+f/+R; custom reports an explicit
// figure.
func (p *projParams) ellipsoid(name string, named bool) (ellipsoid, ellipsoidRef, bool, error) {
	if r, err := p.num("R", 0); err != nil {
		return ellipsoid{}, ellipsoidRef{}, false, err
	} else if r != 0 {
		if r <= 0 {
			return ellipsoid{}, ellipsoidRef{}, false, p.bad("+R=%v", r)
		}
		return newEllipsoid(r, 0), ellipsoidRef{name: "unknown", unit: 9001}, true, nil
	}
	if named {
		e, ok := projEllipsoids[name]
		if !ok {
			return ellipsoid{}, ellipsoidRef{}, false, p.bad("unknown +ellps=%s", name)
		}
		return e.figure(), ellipsoidRef{name: e.projName, unit: 9001}, true, nil
	}
	if !p.has("a") {
		for _, k := range []string{"b", "rf", "f", "es", "e"} {
			if p.has(k) {
				return ellipsoid{}, ellipsoidRef{}, false, p.bad("+%s without +a", k)
			}
		}
		return ellipsoid{}, ellipsoidRef{}, false, nil
	}
	a, err := p.num("a", 0)
	if err != nil || !(a > 0) {
		return ellipsoid{}, ellipsoidRef{}, false, p.bad("+a must be positive")
	}
	ref := ellipsoidRef{name: "unknown", unit: 9001}
	switch {
	case p.has("b"):
		b, err := p.num("b", 0)
		if err != nil || !(b > 0) || b > a {
			return ellipsoid{}, ellipsoidRef{}, false, p.bad("bad +b")
		}
		return newEllipsoidAB(a, b), ref, true, nil
	case p.has("rf"):
		rf, err := p.num("rf", 0)
		if err != nil || !(rf > 1) {
			return ellipsoid{}, ellipsoidRef{}, false, p.bad("bad +rf")
		}
		return newEllipsoid(a, rf), ref, true, nil
	case p.has("f"):
		f, err := p.num("f", 0)
		if err != nil || f < 0 || f >= 1 {
			return ellipsoid{}, ellipsoidRef{}, false, p.bad("bad +f")
		}
		if f == 0 {
			return newEllipsoid(a, 0), ref, true, nil
		}
		return newEllipsoid(a, 1/f), ref, true, nil
	}
	return newEllipsoid(a, 0), ref, true, nil
}

func (p *projParams) primeMeridian() (primeMeridian, error) {
	v, ok := p.str("pm")
	if !ok {
		return greenwich, nil
	}
	if d, ok := projPrimeMeridians[strings.ToLower(v)]; ok {
		if d == 0 {
			return greenwich, nil
		}
		return primeMeridian{name: strings.ToUpper(v[:1]) + strings.ToLower(v[1:]), deg: d, value: d, unit: 9122}, nil
	}
	d, err := parseProjNumber(v)
	if err != nil {
		return primeMeridian{}, p.bad("bad +pm=%s", v)
	}
	if d == 0 {
		return greenwich, nil
	}
	return primeMeridian{name: "unknown", deg: d, value: d, unit: 9122}, nil
}

// linearUnit reads +units or +to_meter.
func (p *projParams) linearUnit() (Unit, int, error) {
	if v, ok := p.str("to_meter"); ok {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !(f > 0) {
			return Unit{}, 0, p.bad("bad +to_meter=%s", v)
		}
		if f == 1 {
			return Metre, 9001, nil
		}
		for _, u := range mustEPSG().units {
			if u.typ == "length" && u.factor == f {
				return Unit{Name: u.name, Metres: f}, 0, nil
			}
		}
		return Unit{Name: "unknown", Metres: f}, 0, nil
	}
	v, ok := p.str("units")
	if !ok || v == "m" {
		return Metre, 9001, nil
	}
	u, ok := projUnits[v]
	if !ok {
		return Unit{}, 0, p.bad("unknown +units=%s", v)
	}
	if ud, ok := mustEPSG().units[u.code]; ok {
		return Unit{Name: ud.name, Metres: ud.factor}, u.code, nil
	}
	return Unit{Name: v, Metres: u.metres}, u.code, nil
}

// aeqd maps +proj=aeqd onto the WGS 84 aeqd system or the ellipsoidal
// method.
func (p *projParams) aeqd(base *geographicCRS) (CRS, error) {
	lat0, lon0, x0, y0, guam, err := p.aeqdParams()
	if err != nil {
		return nil, err
	}
	u, _, err := p.linearUnit()
	if err != nil {
		return nil, err
	}
	d := base.datum
	wgsFigure := d.isWGS84() || (d.el == wgs84Ellipsoid && len(d.shifts) == 0)
	if !guam && wgsFigure && d.pm.deg == 0 && x0 == 0 && y0 == 0 && u == Metre && !p.has("axis") {
		return NewAzimuthalEquidistant(lat0, lon0)
	}
	return p.aeqdBuild(base, guam, lat0, lon0, x0, y0)
}

// aeqdConversion is aeqd always as a projected CRS.
func (p *projParams) aeqdConversion(base *geographicCRS) (CRS, error) {
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

func (p *projParams) aeqdBuild(base *geographicCRS, guam bool, lat0, lon0, x0, y0 float64) (CRS, error) {
	method := methodModifiedAeqd
	if guam {
		method = methodGuam
	}
	return p.build(base, method, []paramDef{
		{code: parLatOrigin, value: lat0, unit: 9122}, {code: parLonOrigin, value: lon0, unit: 9122},
		{code: parFalseEasting, value: x0, unit: 9001}, {code: parFalseNorthing, value: y0, unit: 9001}})
}

// projected maps +proj=NAME onto an EPSG method and its parameters.
func (p *projParams) projected(proj string, base *geographicCRS) (CRS, error) {
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
	deg := func(code int, v float64) paramDef { return paramDef{code: code, value: v, unit: 9122} }
	met := func(code int, v float64) paramDef { return paramDef{code: code, value: v, unit: 9001} }
	uni := func(code int, v float64) paramDef { return paramDef{code: code, value: v, unit: 9201} }
	lat0, lon0 := num("lat_0", 0), num("lon_0", 0)
	x0, y0 := num("x_0", 0), num("y_0", 0)
	var method int
	var ps []paramDef
	switch proj {
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
		method = methodTM
		ps = []paramDef{deg(parLatOrigin, 0), deg(parLonOrigin, float64(zone*6-183)), uni(parScaleOrigin, 0.9996),
			met(parFalseEasting, 500000), met(parFalseNorthing, fn)}
	case "tmerc", "etmerc":
		if a, ok := p.str("approx"); ok || a != "" {
			return nil, p.bad("+approx (the Evenden-Snyder series) is not supported")
		}
		if algo, ok := p.str("algo"); ok && algo != "poder_engsager" && algo != "auto" {
			return nil, p.bad("+algo=%s", algo)
		}
		method = methodTM
		ps = []paramDef{deg(parLatOrigin, lat0), deg(parLonOrigin, lon0), uni(parScaleOrigin, scale()),
			met(parFalseEasting, x0), met(parFalseNorthing, y0)}
	case "lcc":
		lat1 := num("lat_1", lat0)
		lat2 := num("lat_2", lat1)
		k := scale()
		if lat2 == lat1 && (!p.has("lat_0") || lat0 == lat1) {
			method = methodLCC1SP
			ps = []paramDef{deg(parLatOrigin, lat1), deg(parLonOrigin, lon0), uni(parScaleOrigin, k),
				met(parFalseEasting, x0), met(parFalseNorthing, y0)}
		} else {
			method = methodLCC2SP
			ps = []paramDef{deg(parLatFalseOrigin, lat0), deg(parLonFalseOrigin, lon0), deg(parLat1stSP, lat1),
				deg(parLat2ndSP, lat2), met(parEastingFalseOr, x0), met(parNorthingFalseOr, y0)}
			if k != 1 {
				method = methodLCC2SPMichigan
				ps = append(ps, uni(parEllipsoidScale, k))
			}
		}
	case "aea":
		method = methodAlbers
		ps = []paramDef{deg(parLatFalseOrigin, lat0), deg(parLonFalseOrigin, lon0), deg(parLat1stSP, num("lat_1", 0)),
			deg(parLat2ndSP, num("lat_2", 0)), met(parEastingFalseOr, x0), met(parNorthingFalseOr, y0)}
	case "cass":
		method = methodCassini
		if _, ok := p.str("hyperbolic"); ok {
			method = methodHyperbolicCassini
		}
		ps = []paramDef{deg(parLatOrigin, lat0), deg(parLonOrigin, lon0), met(parFalseEasting, x0), met(parFalseNorthing, y0)}
	case "stere", "ups":
		if proj == "ups" {
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
			method = methodPolarStereoB
			ps = []paramDef{deg(parLatStdParallel, num("lat_ts", 0)), deg(parLonOfOrigin, lon0),
				met(parFalseEasting, x0), met(parFalseNorthing, y0)}
		} else {
			p.str("lat_ts")
			method = methodPolarStereoA
			ps = []paramDef{deg(parLatOrigin, lat0), deg(parLonOrigin, lon0), uni(parScaleOrigin, scale()),
				met(parFalseEasting, x0), met(parFalseNorthing, y0)}
		}
	case "sterea":
		method = methodObliqueStereo
		ps = []paramDef{deg(parLatOrigin, lat0), deg(parLonOrigin, lon0), uni(parScaleOrigin, scale()),
			met(parFalseEasting, x0), met(parFalseNorthing, y0)}
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
			method = methodHotineA
			ps = []paramDef{deg(parLatCentre, lat0), deg(parLonCentre, lonc), deg(parAzimuth, alpha),
				deg(parRectifiedAngle, gamma), uni(parScaleCentre, scale()), met(parFalseEasting, x0), met(parFalseNorthing, y0)}
		} else {
			method = methodHotineB
			ps = []paramDef{deg(parLatCentre, lat0), deg(parLonCentre, lonc), deg(parAzimuth, alpha),
				deg(parRectifiedAngle, gamma), uni(parScaleCentre, scale()), met(parEastingCentre, x0), met(parNorthingCentre, y0)}
		}
	case "somerc":
		method = methodHotineB
		ps = []paramDef{deg(parLatCentre, lat0), deg(parLonCentre, lon0), deg(parAzimuth, 90),
			deg(parRectifiedAngle, 90), uni(parScaleCentre, scale()), met(parEastingCentre, x0), met(parNorthingCentre, y0)}
	case "laea":
		method = methodLAEA
		ps = []paramDef{deg(parLatOrigin, lat0), deg(parLonOrigin, lon0), met(parFalseEasting, x0), met(parFalseNorthing, y0)}
	case "merc":
		if p.has("lat_ts") {
			if (p.has("k") || p.has("k_0")) && scale() != 1 {
				return nil, p.bad("+lat_ts with a scale factor")
			}
			method = methodMercatorB
			ps = []paramDef{deg(parLat1stSP, num("lat_ts", 0)), deg(parLonOrigin, lon0), met(parFalseEasting, x0), met(parFalseNorthing, y0)}
		} else {
			if lat0 != 0 {
				return nil, p.bad("+proj=merc with +lat_0")
			}
			method = methodMercatorA
			ps = []paramDef{deg(parLatOrigin, 0), deg(parLonOrigin, lon0), uni(parScaleOrigin, scale()),
				met(parFalseEasting, x0), met(parFalseNorthing, y0)}
		}
	case "webmerc":
		method = methodPseudoMercator
		ps = []paramDef{deg(parLatOrigin, lat0), deg(parLonOrigin, lon0), met(parFalseEasting, x0), met(parFalseNorthing, y0)}
	case "col_urban":
		method = methodColombiaUrban
		ps = []paramDef{deg(parLatOrigin, lat0), deg(parLonOrigin, lon0), met(parFalseEasting, x0), met(parFalseNorthing, y0),
			met(parOriginHeight, num("h_0", 0))}
	case "poly":
		method = methodPolyconic
		ps = []paramDef{deg(parLatOrigin, lat0), deg(parLonOrigin, lon0), met(parFalseEasting, x0), met(parFalseNorthing, y0)}
	case "krovak":
		method = methodKrovakNorth
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
		ps = []paramDef{deg(parLatCentre, lat0), deg(parLonOfOrigin, lon0), deg(parColatConeAxis, num("alpha", 30.288139752777778)),
			deg(parLatPseudoSP, num("lat_ts", 78.5)), uni(parScalePseudoSP, k), met(parFalseEasting, x0), met(parFalseNorthing, y0)}
	case "eqearth":
		method = methodEqualEarth
		ps = []paramDef{deg(parLonOrigin, lon0), met(parFalseEasting, x0), met(parFalseNorthing, y0)}
	case "cea":
		method = methodLCEA
		ps = []paramDef{deg(parLat1stSP, num("lat_ts", 0)), deg(parLonOrigin, lon0), met(parFalseEasting, x0), met(parFalseNorthing, y0)}
	case "eqc":
		method = methodEquidistantCyl
		ps = []paramDef{deg(parLat1stSP, num("lat_ts", 0)), deg(parLonOrigin, lon0), met(parFalseEasting, x0), met(parFalseNorthing, y0)}
		if lat0 != 0 {
			ps = append(ps, deg(parLatOrigin, lat0))
		}
	case "nzmg":
		method = methodNZMG
		ps = []paramDef{deg(parLatOrigin, -41), deg(parLonOrigin, 173), met(parFalseEasting, 2510000), met(parFalseNorthing, 6023150)}
	case "labrd":
		method = methodLaborde
		ps = []paramDef{deg(parLatCentre, lat0), deg(parLonCentre, lon0), deg(parAzimuth, num("azi", 0)),
			uni(parScaleCentre, scale()), met(parFalseEasting, x0), met(parFalseNorthing, y0)}
	default:
		return nil, p.bad("unsupported +proj=%s", proj)
	}
	if err != nil {
		return nil, err
	}
	return p.build(base, method, ps)
}

// axisCS returns the coordinate system of a +axis value (default enu).
func axisCS(axis string, ucode int) (csDef, error) {
	names := map[byte]axisDef{
		'e': {name: "Easting", abbrev: "E", dir: "east"}, 'w': {name: "Westing", abbrev: "W", dir: "west"},
		'n': {name: "Northing", abbrev: "N", dir: "north"}, 's': {name: "Southing", abbrev: "S", dir: "south"},
	}
	if len(axis) == 2 {
		axis += "u"
	}
	if len(axis) != 3 || axis[2] != 'u' {
		return csDef{}, fmt.Errorf("+axis=%s", axis)
	}
	a0, ok0 := names[axis[0]]
	a1, ok1 := names[axis[1]]
	if !ok0 || !ok1 {
		return csDef{}, fmt.Errorf("+axis=%s", axis)
	}
	a0.unit, a1.unit = ucode, ucode
	return csDef{typ: "Cartesian", axes: []axisDef{a0, a1}}, nil
}

// build assembles a user-defined projected CRS.
func (p *projParams) build(base *geographicCRS, method int, ps []paramDef) (CRS, error) {
	u, ucode, err := p.linearUnit()
	if err != nil {
		return nil, err
	}
	axis, _ := p.str("axis")
	if axis == "" {
		axis = "enu"
	}
	cs, err := axisCS(axis, ucode)
	if err != nil {
		return nil, p.bad("%v", err)
	}
	if lat, ok := polarAspect(method, ps); ok && axis == "enu" {
		cs = polarCS(lat > 0, ucode)
	}
	conv := &conversion{name: "unknown", method: method, params: ps}
	pc, err := newProjected(0, "unknown", base, conv, cs, u, ucode, mustEPSG())
	if err != nil {
		return nil, p.bad("%v", err)
	}
	return pc, nil
}

// polarAspect reports whether a conversion is centred on a pole (polar
// stereographic, polar Lambert azimuthal), and the pole's latitude sign.
func polarAspect(method int, ps []paramDef) (float64, bool) {
	lat := 0.0
	for _, q := range ps {
		if q.code == parLatOrigin || q.code == parLatStdParallel {
			lat = q.value
		}
	}
	switch method {
	case methodPolarStereoA, methodPolarStereoB:
		return lat, true
	case methodLAEA:
		return lat, math.Abs(math.Abs(lat)-90) < 1e-10
	}
	return 0, false
}

// polarCS is the coordinate system EPSG gives polar stereographic CRSs
// (easting and northing along the 90°E and 180°E or 0°E meridians).
func polarCS(north bool, ucode int) csDef {
	if north {
		return csDef{typ: "Cartesian", axes: []axisDef{
			{name: "Easting", abbrev: "E", dir: "South along 90°E", unit: ucode},
			{name: "Northing", abbrev: "N", dir: "South along 180°E", unit: ucode}}}
	}
	return csDef{typ: "Cartesian", axes: []axisDef{
		{name: "Easting", abbrev: "E", dir: "North along 90°E", unit: ucode},
		{name: "Northing", abbrev: "N", dir: "North along 0°E", unit: ucode}}}
}

// projString formats a CRS as a PROJ string that Parse (and PROJ) read
// back as the same system.
func projString(c CRS) string {
	var sb strings.Builder
	switch v := c.(type) {
	case *geographicCRS:
		sb.WriteString("+proj=longlat")
		writeDatum(&sb, v.datum)
	case *projectedCRS:
		writeProjection(&sb, v)
		writeDatum(&sb, v.base.datum)
		writeUnitsAxis(&sb, v)
	default:
		return c.String()
	}
	sb.WriteString(" +no_defs +type=crs")
	return sb.String()
}

// fmtNum formats a PROJ string value: the shortest decimal that reads back
// exactly, without an exponent.
func fmtNum(v float64) string {
	if v != 0 && math.Abs(v) < 1e-6 {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func writeDatum(sb *strings.Builder, d *geodeticDatum) {
	datumName := ""
	if !d.towgs84 && d.code != 0 {
		r := mustEPSG()
		for name, g := range projDatums {
			if gd := r.geog[g]; gd != nil && gd.datum == d.code {
				datumName = name
			}
		}
	}
	if datumName != "" {
		fmt.Fprintf(sb, " +datum=%s", datumName)
	} else {
		named := false
		if name, ok := projEllipsoidName(d.el); ok {
			fmt.Fprintf(sb, " +ellps=%s", name)
			named = true
		}
		if !named {
			if d.el.f == 0 {
				fmt.Fprintf(sb, " +R=%s", fmtNum(d.el.a))
			} else {
				fmt.Fprintf(sb, " +a=%s +rf=%s", fmtNum(d.el.a), fmtNum(d.el.invf()))
			}
		}
		if len(d.shifts) > 0 {
			h := d.shifts[0].h
			if d.towgs84 || len(d.shifts) == 1 {
				fmt.Fprintf(sb, " +towgs84=%s", towgs84Text(h))
			}
		}
	}
	if d.pm.deg != 0 {
		fmt.Fprintf(sb, " +pm=%s", fmtNum(d.pm.deg))
	}
}

// towgs84Text formats a Helmert as PROJ's 7 +towgs84 values.
func towgs84Text(h *helmert) string {
	const asec = math.Pi / 648000
	rx, ry, rz := h.m[7]/asec, h.m[2]/asec, h.m[3]/asec
	ds := (h.k - 1) * 1e6
	return strings.Join([]string{fmtNum(h.tx), fmtNum(h.ty), fmtNum(h.tz), fmtNum(rx), fmtNum(ry), fmtNum(rz), fmtNum(ds)}, ",")
}

func writeUnitsAxis(sb *strings.Builder, p *projectedCRS) {
	switch {
	case p.unit.Metres == 1:
		sb.WriteString(" +units=m")
	default:
		name := ""
		for n, u := range projUnits {
			if u.metres == p.unit.Metres || (u.code == p.ucode && p.ucode > 0) {
				name = n
				break
			}
		}
		if name != "" {
			fmt.Fprintf(sb, " +units=%s", name)
		} else {
			fmt.Fprintf(sb, " +to_meter=%s", fmtNum(p.unit.Metres))
		}
	}
	axis := ""
	for i := 0; i < 2; i++ {
		c := "ewns"[p.comp[i]*2 : p.comp[i]*2+2]
		if p.sign[i] > 0 {
			axis += c[:1]
		} else {
			axis += c[1:]
		}
	}
	if axis != "en" {
		fmt.Fprintf(sb, " +axis=%su", axis)
	}
}

// writeProjection writes +proj and its parameters as PROJ 9.1 spells the
// conversion.
func writeProjection(sb *strings.Builder, p *projectedCRS) {
	pv, err := mustEPSG().paramValues(p.conv.params)
	if err != nil {
		pv = params{}
	}
	w := func(k string, codes ...int) {
		if len(codes) == 0 {
			return
		}
		if v, ok := pv[codes[0]]; ok {
			fmt.Fprintf(sb, " +%s=%s", k, fmtNum(v))
		}
	}
	fe := func() { w("x_0", parFalseEasting, parEastingFalseOr, parEastingCentre) }
	en := func() {
		for _, c := range []int{parFalseEasting, parEastingFalseOr, parEastingCentre} {
			if v, ok := pv[c]; ok {
				fmt.Fprintf(sb, " +x_0=%s", fmtNum(v))
				break
			}
		}
		for _, c := range []int{parFalseNorthing, parNorthingFalseOr, parNorthingCentre} {
			if v, ok := pv[c]; ok {
				fmt.Fprintf(sb, " +y_0=%s", fmtNum(v))
				break
			}
		}
	}
	_ = fe
	switch p.conv.method {
	case methodTM, methodTM3D, methodTMSouth:
		sb.WriteString("+proj=tmerc")
		w("lat_0", parLatOrigin)
		w("lon_0", parLonOrigin)
		w("k", parScaleOrigin)
	case methodLCC1SP:
		sb.WriteString("+proj=lcc")
		w("lat_1", parLatOrigin)
		w("lat_0", parLatOrigin)
		w("lon_0", parLonOrigin)
		w("k_0", parScaleOrigin)
	case methodLCC2SP, methodLCC2SPBelgium, methodLCC2SPMichigan:
		sb.WriteString("+proj=lcc")
		w("lat_0", parLatFalseOrigin)
		w("lon_0", parLonFalseOrigin)
		w("lat_1", parLat1stSP)
		w("lat_2", parLat2ndSP)
		w("k_0", parEllipsoidScale)
	case methodAlbers:
		sb.WriteString("+proj=aea")
		w("lat_0", parLatFalseOrigin)
		w("lon_0", parLonFalseOrigin)
		w("lat_1", parLat1stSP)
		w("lat_2", parLat2ndSP)
	case methodCassini, methodHyperbolicCassini:
		sb.WriteString("+proj=cass")
		if p.conv.method == methodHyperbolicCassini {
			sb.WriteString(" +hyperbolic")
		}
		w("lat_0", parLatOrigin)
		w("lon_0", parLonOrigin)
	case methodPolarStereoA:
		sb.WriteString("+proj=stere")
		w("lat_0", parLatOrigin)
		w("lon_0", parLonOrigin)
		w("k", parScaleOrigin)
	case methodPolarStereoB:
		sb.WriteString("+proj=stere")
		if pv[parLatStdParallel] < 0 {
			sb.WriteString(" +lat_0=-90")
		} else {
			sb.WriteString(" +lat_0=90")
		}
		w("lat_ts", parLatStdParallel)
		w("lon_0", parLonOfOrigin)
	case methodObliqueStereo:
		sb.WriteString("+proj=sterea")
		w("lat_0", parLatOrigin)
		w("lon_0", parLonOrigin)
		w("k", parScaleOrigin)
	case methodHotineA, methodHotineB:
		if _, ok := p.proj.(*swissOblique); ok {
			sb.WriteString("+proj=somerc")
			w("lat_0", parLatCentre)
			w("lon_0", parLonCentre)
			w("k_0", parScaleCentre)
			break
		}
		sb.WriteString("+proj=omerc")
		if p.conv.method == methodHotineA {
			sb.WriteString(" +no_uoff")
		}
		w("lat_0", parLatCentre)
		w("lonc", parLonCentre)
		w("alpha", parAzimuth)
		w("gamma", parRectifiedAngle)
		w("k", parScaleCentre)
	case methodLAEA, methodLAEASpherical:
		sb.WriteString("+proj=laea")
		w("lat_0", parLatOrigin)
		w("lon_0", parLonOrigin)
	case methodMercatorA:
		sb.WriteString("+proj=merc")
		w("lon_0", parLonOrigin)
		w("k", parScaleOrigin)
	case methodMercatorB:
		sb.WriteString("+proj=merc")
		w("lat_ts", parLat1stSP)
		w("lon_0", parLonOrigin)
	case methodPseudoMercator:
		sb.WriteString("+proj=webmerc")
		w("lat_0", parLatOrigin)
		w("lon_0", parLonOrigin)
	case methodColombiaUrban:
		sb.WriteString("+proj=col_urban")
		w("lat_0", parLatOrigin)
		w("lon_0", parLonOrigin)
		w("h_0", parOriginHeight)
	case methodPolyconic:
		sb.WriteString("+proj=poly")
		w("lat_0", parLatOrigin)
		w("lon_0", parLonOrigin)
	case methodKrovak, methodKrovakNorth:
		sb.WriteString("+proj=krovak")
		w("lat_0", parLatCentre)
		w("lon_0", parLonOfOrigin)
		w("alpha", parColatConeAxis)
		w("lat_ts", parLatPseudoSP)
		w("k", parScalePseudoSP)
	case methodEqualEarth:
		sb.WriteString("+proj=eqearth")
		w("lon_0", parLonOrigin)
	case methodLCEA:
		sb.WriteString("+proj=cea")
		w("lat_ts", parLat1stSP)
		w("lon_0", parLonOrigin)
	case methodEquidistantCyl:
		sb.WriteString("+proj=eqc")
		w("lat_ts", parLat1stSP)
		w("lat_0", parLatOrigin)
		w("lon_0", parLonOrigin)
	case methodNZMG:
		sb.WriteString("+proj=nzmg")
		w("lat_0", parLatOrigin)
		w("lon_0", parLonOrigin)
	case methodGuam:
		sb.WriteString("+proj=aeqd +guam")
		w("lat_0", parLatOrigin)
		w("lon_0", parLonOrigin)
	case methodModifiedAeqd:
		sb.WriteString("+proj=aeqd")
		w("lat_0", parLatOrigin)
		w("lon_0", parLonOrigin)
	case methodLaborde:
		sb.WriteString("+proj=labrd")
		w("lat_0", parLatCentre)
		w("lon_0", parLonCentre)
		w("azi", parAzimuth)
		w("k", parScaleCentre)
	}
	en()
}
