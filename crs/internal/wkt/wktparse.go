package wkt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/geodisaster/engine/crs/internal/core"
	"github.com/geodisaster/engine/crs/internal/proj"
	"github.com/geodisaster/engine/crs/internal/projstring"
)

// wktValue is a parsed WKT element: a node, a quoted string, a number or
// an enumeration word.
type wktValue struct {
	node   *wktTree
	str    string
	num    float64
	isStr  bool
	isNum  bool
	isWord bool
}

// wktTree is a parsed WKT keyword with its arguments.
type wktTree struct {
	kw   string // upper case
	args []wktValue
}

// child returns the first child node with one of the keywords.
func (t *wktTree) child(kws ...string) *wktTree {
	for _, a := range t.args {
		if a.node == nil {
			continue
		}
		for _, k := range kws {
			if a.node.kw == k {
				return a.node
			}
		}
	}
	return nil
}

// children returns every child node with the keyword.
func (t *wktTree) children(kw string) []*wktTree {
	var out []*wktTree
	for _, a := range t.args {
		if a.node != nil && a.node.kw == kw {
			out = append(out, a.node)
		}
	}
	return out
}

// name returns the first quoted string argument.
func (t *wktTree) name() string {
	if t != nil && len(t.args) > 0 && t.args[0].isStr {
		return t.args[0].str
	}
	return ""
}

// number returns the i-th numeric argument.
func (t *wktTree) number(i int) (float64, bool) {
	n := 0
	for _, a := range t.args {
		if a.isNum {
			if n == i {
				return a.num, true
			}
			n++
		}
	}
	return 0, false
}

// epsgID returns the EPSG code of the node's ID or AUTHORITY child.
func (t *wktTree) epsgID() int {
	if t == nil {
		return 0
	}
	for _, id := range append(t.children("ID"), t.children("AUTHORITY")...) {
		if len(id.args) < 2 || !strings.EqualFold(id.args[0].str, "EPSG") {
			continue
		}
		switch {
		case id.args[1].isNum:
			return int(id.args[1].num)
		case id.args[1].isStr:
			if v, err := strconv.Atoi(strings.TrimSpace(id.args[1].str)); err == nil {
				return v
			}
		}
	}
	return 0
}

// parseWKTTree tokenises and parses WKT (brackets or parentheses).
func parseWKTTree(s string) (*wktTree, error) {
	p := &wktLexer{s: s}
	t, err := p.tree()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("trailing text at byte %d", p.i)
	}
	return t, nil
}

type wktLexer struct {
	s     string
	i     int
	depth int
}

func (p *wktLexer) skipSpace() {
	for p.i < len(p.s) && unicode.IsSpace(rune(p.s[p.i])) {
		p.i++
	}
}

func (p *wktLexer) tree() (*wktTree, error) {
	p.skipSpace()
	start := p.i
	for p.i < len(p.s) && (isWordByte(p.s[p.i])) {
		p.i++
	}
	if p.i == start {
		return nil, fmt.Errorf("keyword expected at byte %d", p.i)
	}
	t := &wktTree{kw: strings.ToUpper(p.s[start:p.i])}
	p.skipSpace()
	if p.i >= len(p.s) || (p.s[p.i] != '[' && p.s[p.i] != '(') {
		return nil, fmt.Errorf("%s: '[' expected at byte %d", t.kw, p.i)
	}
	closer := byte(']')
	if p.s[p.i] == '(' {
		closer = ')'
	}
	p.i++
	p.depth++
	if p.depth > 64 {
		return nil, fmt.Errorf("nesting too deep")
	}
	defer func() { p.depth-- }()
	for {
		p.skipSpace()
		if p.i >= len(p.s) {
			return nil, fmt.Errorf("%s: unterminated", t.kw)
		}
		if p.s[p.i] == closer && len(t.args) == 0 {
			p.i++
			return t, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		t.args = append(t.args, v)
		p.skipSpace()
		if p.i >= len(p.s) {
			return nil, fmt.Errorf("%s: unterminated", t.kw)
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case closer:
			p.i++
			return t, nil
		default:
			return nil, fmt.Errorf("%s: ',' or '%c' expected at byte %d", t.kw, closer, p.i)
		}
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || c == '+' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (p *wktLexer) value() (wktValue, error) {
	p.skipSpace()
	c := p.s[p.i]
	if c == '"' {
		var sb strings.Builder
		p.i++
		for {
			if p.i >= len(p.s) {
				return wktValue{}, fmt.Errorf("unterminated string")
			}
			if p.s[p.i] == '"' {
				if p.i+1 < len(p.s) && p.s[p.i+1] == '"' {
					sb.WriteByte('"')
					p.i += 2
					continue
				}
				p.i++
				return wktValue{str: sb.String(), isStr: true}, nil
			}
			sb.WriteByte(p.s[p.i])
			p.i++
		}
	}
	start := p.i
	for p.i < len(p.s) && isWordByte(p.s[p.i]) {
		p.i++
	}
	word := p.s[start:p.i]
	if word == "" {
		return wktValue{}, fmt.Errorf("value expected at byte %d", p.i)
	}
	p.skipSpace()
	if p.i < len(p.s) && (p.s[p.i] == '[' || p.s[p.i] == '(') {
		p.i = start
		t, err := p.tree()
		return wktValue{node: t}, err
	}
	if f, err := strconv.ParseFloat(word, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
		return wktValue{num: f, isNum: true}, nil
	}
	return wktValue{str: word, isWord: true}, nil
}

// normName lower-cases a name and keeps only letters and digits.
func normName(s string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// Parse interprets WKT1 (GDAL and ESRI flavours) and WKT2 CRS
// definitions: a CRS whose top-level ID/AUTHORITY is an EPSG code of the
// registry is that EPSG CRS; otherwise the definition is read (datum by
// EPSG code or name, ellipsoid, prime meridian, +TOWGS84 or BOUNDCRS
// shift, projection method and parameters, unit, axes).
func Parse(r *core.Registry, s string) (core.CRS, error) {
	t, err := parseWKTTree(s)
	if err != nil {
		return nil, fmt.Errorf("%w: WKT: %v", core.ErrUnknownCRS, err)
	}
	return wktToCRS(r, t)
}

func wktToCRS(r *core.Registry, t *wktTree) (core.CRS, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: WKT %s: %s", core.ErrUnknownCRS, t.kw, fmt.Sprintf(format, args...))
	}
	switch t.kw {
	case "BOUNDCRS":
		src := t.child("SOURCECRS")
		if src == nil || len(src.args) == 0 || src.args[0].node == nil {
			return nil, bad("no SOURCECRS")
		}
		tr := t.child("ABRIDGEDTRANSFORMATION")
		inner := *src.args[0].node
		if tr != nil {
			if v, ok := boundTOWGS84(tr); ok {
				// Apply the shift to the source's datum as a TOWGS84 would.
				attachTOWGS84(&inner, v)
			}
		}
		return wktToCRS(r, &inner)
	case "COMPOUNDCRS", "COMPD_CS":
		for _, a := range t.args {
			if a.node != nil {
				if c, err := wktToCRS(r, a.node); err == nil {
					return c, nil
				}
			}
		}
		return nil, bad("no horizontal CRS")
	}
	if code := t.epsgID(); code != 0 {
		if c, err := r.DescribeEPSG(code); err == nil {
			return c, nil
		}
	}
	switch t.kw {
	case "GEOGCS", "GEOGCRS", "GEOGRAPHICCRS", "GEODCRS", "GEODETICCRS", "BASEGEOGCRS", "BASEGEODCRS":
		return wktGeographic(r, t)
	case "PROJCS", "PROJCRS", "PROJECTEDCRS":
		return wktProjected(r, t)
	}
	return nil, bad("not a geographic or projected CRS")
}

// boundTOWGS84 reads the 7 parameters of a BOUNDCRS transformation.
func boundTOWGS84(tr *wktTree) ([]float64, bool) {
	m := tr.child("METHOD")
	sign := 1.0
	if m != nil && strings.Contains(strings.ToLower(m.name()), "coordinate frame") {
		sign = -1
	}
	v := make([]float64, 7)
	for _, p := range tr.children("PARAMETER") {
		val, ok := p.number(0)
		if !ok {
			continue
		}
		u := p.child("ANGLEUNIT", "LENGTHUNIT", "SCALEUNIT", "UNIT")
		f, hasUnit := 0.0, false
		if u != nil {
			f, hasUnit = u.number(0)
		}
		switch normName(p.name()) {
		case "xaxisrotation", "yaxisrotation", "zaxisrotation":
			if hasUnit && f > 0 {
				val = float64(val*f) / (math.Pi / 648000)
			}
		case "scaledifference":
			if hasUnit && f > 0 {
				val = float64(val*f) * 1e6
			} else {
				val = (val - 1) * 1e6 // an abridged transformation's scale factor
			}
		}
		switch normName(p.name()) {
		case "xaxistranslation":
			v[0] = val
		case "yaxistranslation":
			v[1] = val
		case "zaxistranslation":
			v[2] = val
		case "xaxisrotation":
			v[3] = sign * val
		case "yaxisrotation":
			v[4] = sign * val
		case "zaxisrotation":
			v[5] = sign * val
		case "scaledifference":
			v[6] = val
		}
	}
	return v, true
}

// attachTOWGS84 adds a TOWGS84 node to the datum of a geographic or
// projected WKT tree.
func attachTOWGS84(t *wktTree, v []float64) {
	g := t
	if b := t.child("BASEGEOGCRS", "BASEGEODCRS", "GEOGCS"); b != nil {
		g = b
	}
	d := g.child("DATUM", "ENSEMBLE")
	if d == nil {
		return
	}
	n := &wktTree{kw: "TOWGS84"}
	for _, x := range v {
		n.args = append(n.args, wktValue{num: x, isNum: true})
	}
	d.args = append(d.args, wktValue{node: n})
	// The source CRS's own ID no longer describes it.
	for _, x := range []*wktTree{t, g} {
		var keep []wktValue
		for _, a := range x.args {
			if a.node != nil && (a.node.kw == "ID" || a.node.kw == "AUTHORITY") {
				continue
			}
			keep = append(keep, a)
		}
		x.args = keep
	}
}

// datumAliases maps normalised WKT1/ESRI datum names to EPSG datum codes.
var datumAliases = map[string]int{
	"wgs1984": 6326, "wgs84": 6326, "worldgeodeticsystem1984": 6326, "dwgs1984": 6326,
	"northamericandatum1983": 6269, "dnorthamerican1983": 6269, "nad83": 6269,
	"northamericandatum1927": 6267, "dnorthamerican1927": 6267, "nad27": 6267,
	"europeanterrestrialreferencesystem1989": 6258, "detrs1989": 6258, "etrs89": 6258,
	"europeanreferencesystem1989": 6258, "wgs1972": 6322, "dwgs1972": 6322,
	"osgb1936": 6277, "dosgb1936": 6277, "europeandatum1950": 6230, "deuropean1950": 6230,
}

// datumByName finds an EPSG datum by WKT1, ESRI or EPSG name.
func datumByName(r *core.Registry, name string) int {
	n := normName(name)
	if c, ok := datumAliases[n]; ok {
		return c
	}
	n = strings.TrimPrefix(n, "d")
	for _, code := range r.GeogCodes() {
		g := r.Geog(code)
		if g == nil {
			continue
		}
		if d := r.Datum(g.Datum); d != nil {
			dn := normName(d.Name)
			if dn == normName(name) || dn == n || strings.TrimSuffix(dn, "ensemble") == normName(name) {
				return d.Code
			}
		}
	}
	return 0
}

// wktGeographic reads a geographic CRS (GEOGCS or GEOGCRS).
func wktGeographic(r *core.Registry, t *wktTree) (*core.GeographicCRS, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: WKT %s: %s", core.ErrUnknownCRS, t.kw, fmt.Sprintf(format, args...))
	}
	if code := t.epsgID(); code != 0 && r.Geog(code) != nil {
		return r.GeographicCRSCached(code)
	}
	dn := t.child("DATUM", "ENSEMBLE", "GEODETICDATUM", "TRF")
	if dn == nil {
		return nil, bad("no DATUM")
	}
	sp := dn.child("SPHEROID", "ELLIPSOID")
	if sp == nil {
		return nil, bad("no ELLIPSOID")
	}
	a, ok1 := sp.number(0)
	rf, ok2 := sp.number(1)
	if !ok1 || !ok2 || !(a > 0) || rf < 0 {
		return nil, bad("bad ELLIPSOID")
	}
	if lu := sp.child("LENGTHUNIT", "UNIT"); lu != nil {
		if f, ok := lu.number(0); ok && f > 0 {
			a *= f
		}
	}
	el := proj.NewEllipsoid(a, rf)
	if !el.Valid() || (rf != 0 && !(rf > 1)) {
		return nil, bad("bad ELLIPSOID")
	}
	if w, ok := core.PROJWellKnownEllipsoid(el.A, el.B, rf); ok {
		el = w
	}
	d := &core.GeodeticDatum{Name: dn.name(), Ellipsoid: el, EllipsoidRef: core.EllipsoidRef{Code: sp.epsgID(), Name: sp.name(), Unit: 9001}, PM: core.Greenwich}
	if d.EllipsoidRef.Code != 0 {
		if ed, ok := r.Ellipsoids[d.EllipsoidRef.Code]; ok {
			d.EllipsoidRef.Name = ed.Name
		} else {
			d.EllipsoidRef.Code = 0
		}
	}
	code := dn.epsgID()
	if code == 0 {
		code = datumByName(r, dn.name())
	}
	angle := core.DegreeUnit
	if u := t.child("ANGLEUNIT", "UNIT"); u != nil {
		if f, ok := u.number(0); ok && f > 0 && math.Abs(f-math.Pi/180) > 1e-12 {
			angle = core.AngularUnit{Name: u.name(), Radians: f}
			for c, ud := range r.Units {
				if ud.Kind == "angle" && math.Abs(ud.Factor-f) < 1e-15 {
					angle.Code = c
				}
			}
		}
	}
	if pm := t.child("PRIMEM", "PRIMEMERIDIAN"); pm != nil {
		if v, ok := pm.number(0); ok && v != 0 {
			deg := v
			if u := pm.child("ANGLEUNIT", "UNIT"); u != nil {
				if f, ok := u.number(0); ok && f > 0 {
					deg = float64(v*f) / proj.DegToRad
				}
			} else if angle.Code != 0 || angle.Radians != core.DegreeUnit.Radians {
				deg = float64(v*angle.Radians) / proj.DegToRad
			}
			d.PM = core.PrimeMeridian{Name: pm.name(), Deg: deg, Value: deg, Unit: 9122}
		}
	}
	var towgs []float64
	if tw := dn.child("TOWGS84"); tw != nil {
		for i := 0; i < 7; i++ {
			v, ok := tw.number(i)
			if !ok {
				break
			}
			towgs = append(towgs, v)
		}
	}
	// An EPSG datum on the same figure and prime meridian keeps its
	// identity and shifts.
	if code != 0 {
		for _, gc := range r.GeogCodes() {
			gd := r.Geog(gc)
			if gd == nil || gd.Datum != code || gd.Deprecated {
				continue
			}
			e, err := r.GeographicCRSCached(gc)
			if err != nil || !core.SameEllipsoid(e.Datum.Ellipsoid, el) || math.Abs(e.Datum.PM.Deg-d.PM.Deg) > 1e-9 {
				continue
			}
			if len(towgs) == 0 && angle.Radians == e.Angular.Radians {
				if normName(t.name()) == normName(e.Name) || strings.HasPrefix(strings.ToLower(t.name()), "gcs_") || t.name() == "" {
					return e, nil
				}
			}
			nd := *e.Datum
			d = &nd
			break
		}
	}
	if len(towgs) > 0 {
		if !d.SetTOWGS84(towgs) {
			return nil, bad("TOWGS84 with %d values", len(towgs))
		}
		d.Key = ""
	}
	if d.Key == "" {
		if d.Code == 6326 && !d.TOWGS84 {
			d.Key = core.WGS84Datum.Key
		} else {
			d.Key = "user:" + projstring.DatumKey(d)
		}
	}
	latLon := false
	if axes := t.children("AXIS"); len(axes) >= 1 {
		dir := ""
		if len(axes[0].args) > 1 {
			dir = strings.ToLower(axes[0].args[1].str)
		}
		latLon = dir == "north" || dir == "south" || strings.Contains(strings.ToLower(axes[0].name()), "lat")
	} else if t.kw != "GEOGCS" {
		latLon = true
	}
	name := t.name()
	if name == "" {
		name = "unknown"
	}
	return &core.GeographicCRS{Name: name, Datum: d, Angular: angle, LatLon: latLon}, nil
}

// wktProjected reads a projected CRS (PROJCS or PROJCRS).
func wktProjected(r *core.Registry, t *wktTree) (core.CRS, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: WKT %s: %s", core.ErrUnknownCRS, t.kw, fmt.Sprintf(format, args...))
	}
	gt := t.child("GEOGCS", "BASEGEOGCRS", "BASEGEODCRS", "GEOGCRS")
	if gt == nil {
		return nil, bad("no base geographic CRS")
	}
	base, err := wktGeographic(r, gt)
	if err != nil {
		return nil, err
	}
	// Linear unit.
	unit, ucode := core.Metre, 9001
	var lu *wktTree
	if cs := t.child("UNIT", "LENGTHUNIT"); cs != nil {
		lu = cs
	}
	if axes := t.children("AXIS"); len(axes) > 0 {
		if u := axes[0].child("LENGTHUNIT", "UNIT"); u != nil {
			lu = u
		}
	}
	if lu != nil {
		if f, ok := lu.number(0); ok && f > 0 && f != 1 {
			unit, ucode = core.Unit{Name: lu.name(), Metres: f}, 0
			if c := lu.epsgID(); c != 0 && r.Units[c].Factor != 0 {
				ucode = c
				unit.Name = r.Units[c].Name
			} else {
				for c, ud := range r.Units {
					if ud.Kind == "length" && math.Abs(ud.Factor-f) <= 1e-15*f {
						ucode, unit.Name = c, ud.Name
					}
				}
			}
		}
	}
	// Axes: E,N unless said otherwise.
	axis := "enu"
	if axes := t.children("AXIS"); len(axes) >= 2 {
		axis = ""
		for _, a := range axes[:2] {
			dir := ""
			if len(a.args) > 1 {
				dir = strings.ToLower(a.args[1].str)
			}
			if a.child("MERIDIAN") != nil {
				// Polar axes: the name says which one it is.
				n := strings.ToLower(a.name())
				switch {
				case strings.HasPrefix(n, "easting") || n == "(e)" || strings.HasPrefix(n, "x"):
					dir = "east"
				case strings.HasPrefix(n, "northing") || n == "(n)" || strings.HasPrefix(n, "y"):
					dir = "north"
				}
			}
			switch {
			case dir == "east":
				axis += "e"
			case dir == "west":
				axis += "w"
			case dir == "north":
				axis += "n"
			case dir == "south":
				axis += "s"
			default:
				axis += map[bool]string{true: "e", false: "n"}[strings.Contains(strings.ToLower(a.name()), "east") || strings.Contains(strings.ToLower(a.name()), "x")]
			}
		}
		axis += "u"
	}
	var conv *core.Conversion
	if cv := t.child("CONVERSION", "DERIVINGCONVERSION"); cv != nil {
		conv, err = wkt2Conversion(r, cv)
	} else {
		conv, err = wkt1Conversion(r, t, unit)
	}
	if err != nil {
		return nil, err
	}
	cs, err := projstring.AxisCS(axis, ucode)
	if err != nil {
		return nil, bad("%v", err)
	}
	if lat, ok := projstring.PolarAspect(conv.Method, conv.Params); ok && axis == "enu" {
		cs = projstring.PolarCS(lat > 0, ucode)
	}
	name := t.name()
	if name == "" {
		name = "unknown"
	}
	p, err := core.NewProjected(0, name, base, conv, cs, unit, ucode, r)
	if err != nil {
		return nil, bad("%v", err)
	}
	if a, ok := asWGS84Aeqd(r, p); ok {
		return a, nil
	}
	return r.IdentifyOrKeep(p), nil
}

// asWGS84Aeqd recognises the "aeqd:LAT,LON" system in a projected CRS.
func asWGS84Aeqd(r *core.Registry, p *core.ProjectedCRS) (core.CRS, bool) {
	d := p.Base.Datum
	if p.Conv.Method != proj.MethodModifiedAeqd || p.Linear != core.Metre || p.Comp != [2]int{0, 1} || p.Sign != [2]float64{1, 1} ||
		d.PM.Deg != 0 || !(d.IsWGS84() || (d.Ellipsoid == proj.WGS84 && len(d.Shifts) == 0)) {
		return nil, false
	}
	pv, err := r.ParamValues(p.Conv.Params)
	if err != nil || pv[proj.ParFalseEasting] != 0 || pv[proj.ParFalseNorthing] != 0 {
		return nil, false
	}
	a, err := core.NewAzimuthalEquidistant(pv[proj.ParLatOrigin], pv[proj.ParLonOrigin])
	return a, err == nil
}

// codeByName returns the code of the registry name that equals name up
// to normName, 0 for none. Where several codes share the name, the
// smallest wins, so that the answer does not follow map order: EPSG
// reuses a method name only for the codes it deprecated in favour of a
// newer one (9842 and 9823 for Equidistant Cylindrical 1028 and its
// spherical form 1029), and the newer code is the smaller.
func codeByName(names map[int]string, name string) int {
	n := normName(name)
	code := 0
	for c, s := range names {
		if (code == 0 || c < code) && normName(s) == n {
			code = c
		}
	}
	return code
}

// wkt2Conversion reads CONVERSION[METHOD[...], PARAMETER[...]...].
func wkt2Conversion(r *core.Registry, cv *wktTree) (*core.Conversion, error) {
	m := cv.child("METHOD", "PROJECTION")
	if m == nil {
		return nil, fmt.Errorf("%w: WKT CONVERSION without METHOD", core.ErrUnknownCRS)
	}
	code := m.epsgID()
	if code == 0 {
		code = codeByName(r.Methods, m.name())
	}
	if code == 0 {
		return nil, fmt.Errorf("%w: WKT method %q", core.ErrUnknownCRS, m.name())
	}
	c := &core.Conversion{Name: cv.name(), Method: code}
	for _, p := range cv.children("PARAMETER") {
		pc := p.epsgID()
		if pc == 0 {
			pc = codeByName(r.Params, p.name())
		}
		v, ok := p.number(0)
		if pc == 0 || !ok {
			return nil, fmt.Errorf("%w: WKT parameter %q", core.ErrUnknownCRS, p.name())
		}
		unit := 9122
		if u := p.child("ANGLEUNIT", "LENGTHUNIT", "SCALEUNIT", "UNIT"); u != nil {
			f, _ := u.number(0)
			switch u.kw {
			case "LENGTHUNIT":
				v, unit = float64(v*f), 9001
			case "SCALEUNIT":
				v, unit = float64(v*f), 9201
			default:
				if f > 0 && math.Abs(f-math.Pi/180) > 1e-12 {
					v = float64(v*f) / proj.DegToRad
				}
			}
		} else {
			unit = defaultParamUnit(pc)
		}
		c.Params = append(c.Params, core.ParamDef{Code: pc, Value: v, Unit: unit})
	}
	return c, nil
}

// defaultParamUnit guesses the unit of a parameter given without one.
func defaultParamUnit(code int) int {
	switch code {
	case proj.ParFalseEasting, proj.ParFalseNorthing, proj.ParEastingFalseOr, proj.ParNorthingFalseOr, proj.ParEastingCentre, proj.ParNorthingCentre, proj.ParOriginHeight:
		return 9001
	case proj.ParScaleOrigin, proj.ParScaleCentre, proj.ParScalePseudoSP, proj.ParEllipsoidScale:
		return 9201
	}
	return 9122
}

// wkt1Projections maps WKT1 (GDAL) and ESRI projection names to the PROJ
// string projection the parameters are read into.
var wkt1Projections = map[string]string{
	"transversemercator": "tmerc", "gaussskruger": "tmerc", "gausskruger": "tmerc",
	"transversemercatorsouthorientated": "tmerc+wsu",
	"lambertconformalconic1sp":          "lcc", "lambertconformalconic2sp": "lcc", "lambertconformalconic": "lcc",
	"lambertconformalconic2spbelgium": "lcc", "albersconicequalarea": "aea", "albers": "aea",
	"cassinisoldner": "cass", "cassini": "cass", "polarstereographic": "stere",
	"stereographicnorthpole": "stere+n", "stereographicsouthpole": "stere+s",
	"obliquestereographic": "sterea", "doublestereographic": "sterea",
	"hotineobliquemercator": "omerc+a", "hotineobliquemercatorazimuthnaturalorigin": "omerc+a",
	"rectifiedskeworthomorphicnaturalorigin": "omerc+a", "hotineobliquemercatorazimuthcenter": "omerc",
	"rectifiedskeworthomorphiccenter": "omerc", "swissobliquecylindrical": "somerc",
	"lambertazimuthalequalarea": "laea", "mercator1sp": "merc", "mercator2sp": "merc", "mercator": "merc",
	"mercatorauxiliarysphere": "webmerc", "popularvisualisationpseudomercator": "webmerc",
	"polyconic": "poly", "krovak": "krovak", "newzealandmapgrid": "nzmg", "cylindricalequalarea": "cea",
	"equirectangular": "eqc", "equidistantcylindrical": "eqc", "platecarree": "eqc",
	"azimuthalequidistant": "aeqd", "labordeobliquemercator": "labrd", "equalearth": "eqearth",
}

// wkt1ParamNames maps normalised WKT1/ESRI parameter names to PROJ string
// parameters.
var wkt1ParamNames = map[string]string{
	"latitudeoforigin": "lat_0", "latitudeofcenter": "lat_0", "latitudeofcentre": "lat_0",
	"centralmeridian": "lon_0", "longitudeofcenter": "lonc", "longitudeofcentre": "lonc", "longitudeoforigin": "lon_0",
	"scalefactor": "k", "falseeasting": "x_0", "falsenorthing": "y_0",
	"standardparallel1": "lat_1", "standardparallel2": "lat_2", "azimuth": "alpha",
	"rectifiedgridangle": "gamma", "pseudostandardparallel1": "lat_ts", "latitudeoftruescale": "lat_ts",
	"auxiliaryspheretype": "aux", "xscale": "", "yscale": "", "xyplanerotation": "",
}

// wkt1Conversion reads PROJECTION["..."] and its PARAMETERs (degrees, the
// false origin in the CRS's unit) into a conversion, through the PROJ
// string reader.
func wkt1Conversion(r *core.Registry, t *wktTree, unit core.Unit) (*core.Conversion, error) {
	pn := t.child("PROJECTION")
	if pn == nil {
		return nil, fmt.Errorf("%w: WKT PROJCS without PROJECTION", core.ErrUnknownCRS)
	}
	proj, ok := wkt1Projections[normName(pn.name())]
	if !ok {
		return nil, fmt.Errorf("%w: WKT projection %q is not supported", core.ErrUnknownCRS, pn.name())
	}
	vals := map[string]string{}
	kind, variant, _ := strings.Cut(proj, "+")
	for _, p := range t.children("PARAMETER") {
		v, ok := p.number(0)
		if !ok {
			continue
		}
		key, known := wkt1ParamNames[normName(p.name())]
		if !known {
			return nil, fmt.Errorf("%w: WKT parameter %q", core.ErrUnknownCRS, p.name())
		}
		if key == "" {
			continue
		}
		if key == "x_0" || key == "y_0" {
			v = float64(v * unit.Metres)
		}
		if key == "lonc" && kind != "omerc" && kind != "labrd" {
			key = "lon_0"
		}
		if kind == "labrd" && key == "lonc" {
			key = "lon_0"
		}
		if kind == "labrd" && key == "alpha" {
			key = "azi"
		}
		if kind == "krovak" && key == "alpha" {
			key = "alpha"
		}
		vals[key] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	switch kind {
	case "stere":
		if variant != "" || vals["lat_1"] != "" {
			// ESRI: the standard parallel is the true-scale latitude.
			lat := vals["lat_1"]
			delete(vals, "lat_1")
			if lat != "" {
				vals["lat_ts"] = lat
			}
			if variant == "s" || strings.HasPrefix(lat, "-") {
				vals["lat_0"] = "-90"
			} else {
				vals["lat_0"] = "90"
			}
		} else if lat0, err := strconv.ParseFloat(vals["lat_0"], 64); err == nil && math.Abs(math.Abs(lat0)-90) > 1e-10 {
			// GDAL's WKT1 puts variant B's standard parallel in
			// latitude_of_origin.
			vals["lat_ts"] = vals["lat_0"]
			vals["lat_0"] = map[bool]string{true: "90", false: "-90"}[lat0 > 0]
			delete(vals, "k")
		}
	case "merc":
		if lat := vals["lat_1"]; lat != "" {
			delete(vals, "lat_1")
			if lat != "0" {
				vals["lat_ts"] = lat
			}
		}
		delete(vals, "lat_0")
	case "webmerc":
		if aux := vals["aux"]; aux != "" && aux != "0" {
			return nil, fmt.Errorf("%w: Mercator_Auxiliary_Sphere with Auxiliary_Sphere_Type %s", core.ErrUnknownCRS, aux)
		}
		delete(vals, "aux")
		delete(vals, "lat_1")
	case "lcc":
		if vals["lat_1"] == "" {
			vals["lat_1"] = vals["lat_0"]
		}
	case "krovak":
		// WKT1 Krovak: azimuth is the co-latitude of the cone axis.
	case "omerc":
		if variant == "a" {
			vals["no_uoff"] = ""
		}
	}
	delete(vals, "aux")
	if variant == "wsu" {
		vals["axis"] = "wsu"
	}
	conv, err := projstring.Conversion(r, kind, vals)
	if err != nil {
		return nil, err
	}
	conv.Name = "unnamed"
	return conv, nil
}

// IsKeyword reports whether kw opens a WKT CRS definition.
func IsKeyword(kw string) bool {
	switch strings.ToUpper(kw) {
	case "GEOGCS", "PROJCS", "COMPD_CS", "GEOGCRS", "GEOGRAPHICCRS", "GEODCRS", "GEODETICCRS",
		"PROJCRS", "PROJECTEDCRS", "BOUNDCRS", "COMPOUNDCRS":
		return true
	}
	return false
}
