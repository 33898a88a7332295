package crs

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/crs/internal/proj"
)

// wktNode is a WKT keyword with its inline values and child nodes.
type wktNode struct {
	kw       string
	vals     []string // already formatted: quoted strings, numbers, enums
	children []*wktNode
	// extra indents the node by one more level than a child of its parent
	// (PROJ prints the AXIS nodes after CS[...] that way).
	extra bool
}

func node(kw string, vals ...string) *wktNode { return &wktNode{kw: kw, vals: vals} }

func (n *wktNode) add(c ...*wktNode) *wktNode {
	for _, x := range c {
		if x != nil {
			n.children = append(n.children, x)
		}
	}
	return n
}

// write prints the node as PROJ's multi-line WKT: children on their own
// lines, four spaces of indentation per level.
func (n *wktNode) write(sb *strings.Builder, depth int) {
	sb.WriteString(n.kw)
	sb.WriteByte('[')
	sb.WriteString(strings.Join(n.vals, ","))
	for i, c := range n.children {
		if i > 0 || len(n.vals) > 0 {
			sb.WriteByte(',')
		}
		d := depth + 1
		if c.extra {
			d++
		}
		sb.WriteByte('\n')
		sb.WriteString(strings.Repeat("    ", d))
		c.write(sb, d)
	}
	sb.WriteByte(']')
}

// quote is a WKT quoted string (quotes doubled).
func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// wktNum formats a number as PROJ does: 15 significant digits, or 14 when
// 15 would show a run of nines.
func wktNum(v float64) string {
	s := strconv.FormatFloat(v, 'g', 15, 64)
	if strings.Contains(s, "9999999999") {
		s = strconv.FormatFloat(v, 'g', 14, 64)
	}
	return strings.Replace(s, "e", "E", 1)
}

func idNode(code int) *wktNode {
	if code <= 0 {
		return nil
	}
	return node("ID", quote("EPSG"), strconv.Itoa(code))
}

// unitNode is LENGTHUNIT/ANGLEUNIT/SCALEUNIT of a registry unit.
func unitNode(r *registry, code int) *wktNode {
	u, ok := r.units[code]
	if !ok {
		return node("UNIT", quote("unknown"), "1")
	}
	if code == 9122 {
		u.name = "degree" // PROJ's name for "degree (supplier to define representation)"
	}
	kw := map[string]string{"length": "LENGTHUNIT", "angle": "ANGLEUNIT", "scale": "SCALEUNIT"}[u.typ]
	if kw == "" {
		kw = "UNIT"
	}
	return node(kw, quote(u.name), wktNum(u.factor))
}

func lengthUnitNode(u Unit) *wktNode { return node("LENGTHUNIT", quote(u.Name), wktNum(u.Metres)) }

// ellipsoidNode is ELLIPSOID[name, a, 1/f, unit] in the ellipsoid's unit.
func ellipsoidNode(r *registry, d *geodeticDatum) *wktNode {
	if ed, ok := r.ellipsoids[d.ellRef.code]; ok && d.ellRef.code != 0 {
		invf := ed.invf
		if invf == 0 && ed.b != 0 && ed.b != ed.a {
			f := r.units[ed.unit].factor
			a, b := float64(ed.a*f), float64(ed.b*f)
			invf = a / (a - b)
		}
		return node("ELLIPSOID", quote(ed.name), wktNum(ed.a), wktNum(invf)).add(unitNode(r, ed.unit))
	}
	name := d.ellRef.name
	if name == "" {
		name = "unknown"
	}
	return node("ELLIPSOID", quote(name), wktNum(d.el.A), wktNum(d.el.Invf())).add(unitNode(r, 9001))
}

// datumNodes returns the DYNAMIC (or nil) and DATUM/ENSEMBLE nodes.
func datumNodes(r *registry, d *geodeticDatum) (*wktNode, *wktNode) {
	dd := r.datums[d.code]
	if d.code == 0 || dd == nil {
		return nil, node("DATUM", quote(d.name)).add(ellipsoidNode(r, d))
	}
	var dyn *wktNode
	if dd.epoch != 0 {
		dyn = node("DYNAMIC").add(node("FRAMEEPOCH", wktNum(dd.epoch)))
	}
	if len(dd.members) > 0 {
		e := node("ENSEMBLE", quote(dd.name))
		for _, m := range dd.members {
			if md := r.datums[m]; md != nil {
				e.add(node("MEMBER", quote(md.name)))
			}
		}
		e.add(ellipsoidNode(r, d), node("ENSEMBLEACCURACY", dd.accuracy))
		return dyn, e
	}
	n := node("DATUM", quote(dd.name)).add(ellipsoidNode(r, d))
	if dd.anchor != "" {
		n.add(node("ANCHOR", quote(dd.anchor)))
	}
	return dyn, n
}

func primemNode(r *registry, pm primeMeridian) *wktNode {
	if pm.code == 0 {
		return node("PRIMEM", quote(pm.name), wktNum(pm.deg)).add(unitNode(r, 9122))
	}
	return node("PRIMEM", quote(pm.name), wktNum(pm.value)).add(unitNode(r, pm.unit))
}

// axisNodes returns CS[...] and its AXIS nodes for a coordinate system.
func axisNodes(r *registry, cs csDef, unit func(axisDef) *wktNode) []*wktNode {
	out := []*wktNode{node("CS", cs.typ, strconv.Itoa(len(cs.axes)))}
	for i, a := range cs.axes {
		name := strings.ToLower(a.name[:1]) + a.name[1:]
		switch {
		case i == 0 && a.name == "Easting" && a.abbrev == "E", i == 1 && a.name == "Northing" && a.abbrev == "N":
			name = "(" + a.abbrev + ")"
		case a.abbrev != "":
			name += " (" + a.abbrev + ")"
		}
		dir, merid, hasMerid := axisDirection(a.dir)
		ax := node("AXIS", quote(name), dir)
		ax.extra = true
		if hasMerid {
			ax.add(node("MERIDIAN", wktNum(merid)).add(unitNode(r, 9122)))
		}
		ax.add(node("ORDER", strconv.Itoa(i+1)), unit(a))
		out = append(out, ax)
	}
	return out
}

// usageNodes are the USAGE nodes of registry usages.
func usageNodes(r *registry, us []usageDef) []*wktNode {
	var out []*wktNode
	for _, u := range us {
		e, ok := r.extents[u.extent]
		if !ok {
			continue
		}
		n := node("USAGE").add(node("SCOPE", quote(r.scopes[u.scope])), node("AREA", quote(e.desc)))
		if !e.noBBox {
			n.add(node("BBOX", wktNum(e.s), wktNum(e.w), wktNum(e.n), wktNum(e.e)))
		}
		out = append(out, n)
	}
	return out
}

// geogCSDef returns the coordinate system of a geographic CRS.
func geogCSDef(r *registry, g *geographicCRS) csDef {
	if g.cs != nil {
		return *g.cs
	}
	if g.def != nil {
		if cs, ok := r.css[g.def.cs]; ok {
			return cs
		}
	}
	u := g.unit.code
	return csDef{typ: "ellipsoidal", axes: []axisDef{
		{name: "Geodetic latitude", abbrev: "Lat", dir: "north", unit: u},
		{name: "Geodetic longitude", abbrev: "Lon", dir: "east", unit: u}}}
}

func geographicNode(r *registry, g *geographicCRS, kw string, withCS bool) *wktNode {
	n := node(kw, quote(g.name))
	dyn, datum := datumNodes(r, g.datum)
	n.add(dyn, datum, primemNode(r, g.datum.pm))
	if withCS {
		for _, a := range axisNodes(r, geogCSDef(r, g), func(a axisDef) *wktNode { return unitNode(r, a.unit) }) {
			n.add(a)
		}
		if g.def != nil {
			n.add(usageNodes(r, g.def.usages)...)
		}
	}
	n.add(idNode(g.code))
	return n
}

func projectedNode(r *registry, p *projectedCRS) *wktNode {
	n := node("PROJCRS", quote(p.name))
	n.add(geographicNode(r, p.base, "BASEGEOGCRS", false))
	n.add(conversionNode(r, p.conv))
	lu := func(axisDef) *wktNode { return lengthUnitNode(p.unit) }
	if p.ucode != 0 {
		lu = func(a axisDef) *wktNode { return unitNode(r, a.unit) }
	}
	for _, a := range axisNodes(r, p.cs, lu) {
		n.add(a)
	}
	if p.def != nil {
		n.add(usageNodes(r, p.def.usages)...)
	}
	n.add(idNode(p.code))
	return n
}

func conversionNode(r *registry, c *conversion) *wktNode {
	n := node("CONVERSION", quote(c.name))
	m := node("METHOD", quote(methodName(r, c.method)))
	m.add(idNode(c.method))
	n.add(m)
	for _, p := range c.params {
		pn := node("PARAMETER", quote(paramName(r, p.code)), wktNum(p.value))
		pn.add(unitNode(r, p.unit), idNode(p.code))
		n.add(pn)
	}
	return n
}

func methodName(r *registry, code int) string {
	if s, ok := r.methods[code]; ok {
		return s
	}
	if s, ok := extraMethodNames[code]; ok {
		return s
	}
	return fmt.Sprintf("EPSG method %d", code)
}

func paramName(r *registry, code int) string {
	if s, ok := r.params[code]; ok {
		return s
	}
	return fmt.Sprintf("EPSG parameter %d", code)
}

// extraMethodNames names the methods PROJ knows that no EPSG CRS of the
// registry uses.
var extraMethodNames = map[int]string{}

// wktNodeOf builds the WKT tree of a CRS.
func wktNodeOf(r *registry, c CRS) (*wktNode, error) {
	switch v := c.(type) {
	case *geographicCRS:
		return boundIfShifted(r, v.datum, geographicNode(r, v, "GEOGCRS", true)), nil
	case *projectedCRS:
		n := projectedNode(r, v)
		if v.code == 0 {
			return boundIfShifted(r, v.base.datum, n), nil
		}
		return n, nil
	case azimuthalEquidistant:
		p, err := aeqdAsProjected(r, v)
		if err != nil {
			return nil, err
		}
		return projectedNode(r, p), nil
	case nil:
		return nil, fmt.Errorf("%w: nil CRS", ErrUnknownCRS)
	}
	return nil, fmt.Errorf("%w: %s has no WKT description", ErrUnknownCRS, c)
}

// aeqdAsProjected expresses the WGS 84 aeqd system as a projected CRS
// (PROJ's +proj=aeqd +datum=WGS84).
func aeqdAsProjected(r *registry, a azimuthalEquidistant) (*projectedCRS, error) {
	wgs, err := r.fromEPSG(4326)
	if err != nil {
		return nil, err
	}
	conv := &conversion{name: "unknown", method: proj.MethodModifiedAeqd, params: []paramDef{
		{code: proj.ParLatOrigin, value: a.lat0, unit: 9122}, {code: proj.ParLonOrigin, value: a.lon0, unit: 9122},
		{code: proj.ParFalseEasting, value: 0, unit: 9001}, {code: proj.ParFalseNorthing, value: 0, unit: 9001}}}
	cs, _ := axisCS("enu", 9001)
	return newProjected(0, "unknown", wgs.(*geographicCRS), conv, cs, Metre, 9001, r)
}

// towgs84Param is one parameter of a +towgs84 shift as WKT/PROJJSON
// write it.
type towgs84Param struct {
	name string
	code int
	v    float64
}

// towgs84Params lists a Helmert's parameters in the abridged form:
// translations (m), position-vector rotations (arc-seconds), scale factor.
func towgs84Params(h *proj.Helmert) []towgs84Param {
	const asec = math.Pi / 648000
	return []towgs84Param{
		{"X-axis translation", 8605, h.Tx}, {"Y-axis translation", 8606, h.Ty}, {"Z-axis translation", 8607, h.Tz},
		{"X-axis rotation", 8608, h.M[7] / asec}, {"Y-axis rotation", 8609, h.M[2] / asec}, {"Z-axis rotation", 8610, h.M[3] / asec},
		{"Scale difference", 8611, h.K},
	}
}

// boundIfShifted wraps a user-defined CRS whose datum carries its own
// transformation to WGS 84 in a BOUNDCRS, as PROJ writes +towgs84.
func boundIfShifted(r *registry, d *geodeticDatum, n *wktNode) *wktNode {
	if !d.towgs84 || len(d.shifts) == 0 {
		return n
	}
	wgs, _ := r.geographicCRSCached(4326)
	var target *wktNode
	if wgs != nil {
		target = geographicNode(r, wgs, "GEOGCRS", true)
	}
	return boundNode(n, target, "Transformation from "+d.name+" to WGS84", d.shifts[0].h)
}

// boundNode is BOUNDCRS[SOURCECRS[source], TARGETCRS[target],
// ABRIDGEDTRANSFORMATION[name, h]].
func boundNode(source, target *wktNode, name string, h *proj.Helmert) *wktNode {
	t := node("ABRIDGEDTRANSFORMATION", quote(name))
	t.add(node("METHOD", quote("Position Vector transformation (geog2D domain)")).add(idNode(9606)))
	// An abridged transformation's parameters carry no units: metres,
	// arc-seconds and the scale as a factor, as PROJ writes +towgs84.
	for _, v := range towgs84Params(h) {
		t.add(node("PARAMETER", quote(v.name), wktNum(v.v)).add(idNode(v.code)))
	}
	return node("BOUNDCRS").add(node("SOURCECRS").add(source), node("TARGETCRS").add(target), t)
}
