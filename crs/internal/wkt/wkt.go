package wkt

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/crs/internal/core"
	"github.com/geodisaster/engine/crs/internal/proj"
	"github.com/geodisaster/engine/crs/internal/projstring"
)

// Node is a WKT keyword with its inline values and child nodes.
type Node struct {
	Keyword  string
	vals     []string // already formatted: quoted strings, numbers, enums
	Children []*Node
	// Extra indents the node by one more level than a child of its parent
	// (PROJ prints the AXIS nodes after CS[...] that way).
	Extra bool
}

// NewNode returns the node kw[vals...] without children; vals are already
// formatted (Quote, Num, enumeration words).
func NewNode(kw string, vals ...string) *Node { return &Node{Keyword: kw, vals: vals} }

// Add appends the non-nil nodes c to n's children and returns n.
func (n *Node) Add(c ...*Node) *Node {
	for _, x := range c {
		if x != nil {
			n.Children = append(n.Children, x)
		}
	}
	return n
}

// Write prints the node as PROJ's multi-line WKT: children on their own
// lines, four spaces of indentation per level.
func (n *Node) Write(sb *strings.Builder, depth int) {
	sb.WriteString(n.Keyword)
	sb.WriteByte('[')
	sb.WriteString(strings.Join(n.vals, ","))
	for i, c := range n.Children {
		if i > 0 || len(n.vals) > 0 {
			sb.WriteByte(',')
		}
		d := depth + 1
		if c.Extra {
			d++
		}
		sb.WriteByte('\n')
		sb.WriteString(strings.Repeat("    ", d))
		c.Write(sb, d)
	}
	sb.WriteByte(']')
}

// Quote is a WKT quoted string (quotes doubled).
func Quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// Num formats a number as PROJ does: 15 significant digits, or 14 when
// 15 would show a run of nines.
func Num(v float64) string {
	s := strconv.FormatFloat(v, 'g', 15, 64)
	if strings.Contains(s, "9999999999") {
		s = strconv.FormatFloat(v, 'g', 14, 64)
	}
	return strings.Replace(s, "e", "E", 1)
}

// IdNode is ID["EPSG",code], nil for no code.
func IDNode(code int) *Node {
	if code <= 0 {
		return nil
	}
	return NewNode("ID", Quote("EPSG"), strconv.Itoa(code))
}

// unitNode is LENGTHUNIT/ANGLEUNIT/SCALEUNIT of a registry unit.
func unitNode(r *core.Registry, code int) *Node {
	u, ok := r.Units[code]
	if !ok {
		return NewNode("UNIT", Quote("unknown"), "1")
	}
	if code == 9122 {
		u.Name = "degree" // PROJ's name for "degree (supplier to define representation)"
	}
	kw := map[string]string{"length": "LENGTHUNIT", "angle": "ANGLEUNIT", "scale": "SCALEUNIT"}[u.Kind]
	if kw == "" {
		kw = "UNIT"
	}
	return NewNode(kw, Quote(u.Name), Num(u.Factor))
}

func lengthUnitNode(u core.Unit) *Node { return NewNode("LENGTHUNIT", Quote(u.Name), Num(u.Metres)) }

// ellipsoidNode is ELLIPSOID[name, a, 1/f, unit] in the ellipsoid's unit.
func ellipsoidNode(r *core.Registry, d *core.GeodeticDatum) *Node {
	if ed, ok := r.Ellipsoids[d.EllipsoidRef.Code]; ok && d.EllipsoidRef.Code != 0 {
		invf := ed.Invf
		if invf == 0 && ed.B != 0 && ed.B != ed.A {
			f := r.Units[ed.Unit].Factor
			a, b := float64(ed.A*f), float64(ed.B*f)
			invf = a / (a - b)
		}
		return NewNode("ELLIPSOID", Quote(ed.Name), Num(ed.A), Num(invf)).Add(unitNode(r, ed.Unit))
	}
	name := d.EllipsoidRef.Name
	if name == "" {
		name = "unknown"
	}
	return NewNode("ELLIPSOID", Quote(name), Num(d.Ellipsoid.A), Num(d.Ellipsoid.Invf())).Add(unitNode(r, 9001))
}

// datumNodes returns the DYNAMIC (or nil) and DATUM/ENSEMBLE nodes.
func datumNodes(r *core.Registry, d *core.GeodeticDatum) (*Node, *Node) {
	dd := r.Datum(d.Code)
	if d.Code == 0 || dd == nil {
		return nil, NewNode("DATUM", Quote(d.Name)).Add(ellipsoidNode(r, d))
	}
	var dyn *Node
	if dd.Epoch != 0 {
		dyn = NewNode("DYNAMIC").Add(NewNode("FRAMEEPOCH", Num(dd.Epoch)))
	}
	if len(dd.Members) > 0 {
		e := NewNode("ENSEMBLE", Quote(dd.Name))
		for _, m := range dd.Members {
			if md := r.Datum(m); md != nil {
				e.Add(NewNode("MEMBER", Quote(md.Name)))
			}
		}
		e.Add(ellipsoidNode(r, d), NewNode("ENSEMBLEACCURACY", dd.Accuracy))
		return dyn, e
	}
	n := NewNode("DATUM", Quote(dd.Name)).Add(ellipsoidNode(r, d))
	if dd.Anchor != "" {
		n.Add(NewNode("ANCHOR", Quote(dd.Anchor)))
	}
	return dyn, n
}

func primemNode(r *core.Registry, pm core.PrimeMeridian) *Node {
	if pm.Code == 0 {
		return NewNode("PRIMEM", Quote(pm.Name), Num(pm.Deg)).Add(unitNode(r, 9122))
	}
	return NewNode("PRIMEM", Quote(pm.Name), Num(pm.Value)).Add(unitNode(r, pm.Unit))
}

// axisNodes returns CS[...] and its AXIS nodes for a coordinate system.
func axisNodes(r *core.Registry, cs core.CSDef, unit func(core.AxisDef) *Node) []*Node {
	out := []*Node{NewNode("CS", cs.Kind, strconv.Itoa(len(cs.Axes)))}
	for i, a := range cs.Axes {
		name := strings.ToLower(a.Name[:1]) + a.Name[1:]
		switch {
		case i == 0 && a.Name == "Easting" && a.Abbrev == "E", i == 1 && a.Name == "Northing" && a.Abbrev == "N":
			name = "(" + a.Abbrev + ")"
		case a.Abbrev != "":
			name += " (" + a.Abbrev + ")"
		}
		dir, merid, hasMerid := core.AxisDirection(a.Dir)
		ax := NewNode("AXIS", Quote(name), dir)
		ax.Extra = true
		if hasMerid {
			ax.Add(NewNode("MERIDIAN", Num(merid)).Add(unitNode(r, 9122)))
		}
		ax.Add(NewNode("ORDER", strconv.Itoa(i+1)), unit(a))
		out = append(out, ax)
	}
	return out
}

// usageNodes are the USAGE nodes of registry usages.
func usageNodes(r *core.Registry, us []core.UsageDef) []*Node {
	var out []*Node
	for _, u := range us {
		e, ok := r.Extent(u.Extent)
		if !ok {
			continue
		}
		n := NewNode("USAGE").Add(NewNode("SCOPE", Quote(r.Scopes[u.Scope])), NewNode("AREA", Quote(e.Desc)))
		if !e.NoBBox {
			n.Add(NewNode("BBOX", Num(e.S), Num(e.W), Num(e.N), Num(e.E)))
		}
		out = append(out, n)
	}
	return out
}

// GeogCSDef returns the coordinate system of a geographic CRS.
func GeogCSDef(r *core.Registry, g *core.GeographicCRS) core.CSDef {
	if g.CS != nil {
		return *g.CS
	}
	if g.Def != nil {
		if cs, ok := r.CSs[g.Def.Cs]; ok {
			return cs
		}
	}
	u := g.Angular.Code
	return core.CSDef{Kind: "ellipsoidal", Axes: []core.AxisDef{
		{Name: "Geodetic latitude", Abbrev: "Lat", Dir: "north", Unit: u},
		{Name: "Geodetic longitude", Abbrev: "Lon", Dir: "east", Unit: u}}}
}

// GeographicNode is g as a WKT2 geodetic CRS node with keyword kw
// (GEOGCRS, BASEGEOGCRS), its axes and usages when withCS.
func GeographicNode(r *core.Registry, g *core.GeographicCRS, kw string, withCS bool) *Node {
	n := NewNode(kw, Quote(g.Name))
	dyn, datum := datumNodes(r, g.Datum)
	n.Add(dyn, datum, primemNode(r, g.Datum.PM))
	if withCS {
		n.Add(axisNodes(r, GeogCSDef(r, g), func(a core.AxisDef) *Node { return unitNode(r, a.Unit) })...)
		if g.Def != nil {
			n.Add(usageNodes(r, g.Def.Usages)...)
		}
	}
	n.Add(IDNode(g.Code))
	return n
}

// ProjectedNode is p as a WKT2 PROJCRS node, as PROJ prints it.
func ProjectedNode(r *core.Registry, p *core.ProjectedCRS) *Node {
	n := NewNode("PROJCRS", Quote(p.Name))
	n.Add(GeographicNode(r, p.Base, "BASEGEOGCRS", false))
	n.Add(ConversionNode(r, p.Conv))
	lu := func(core.AxisDef) *Node { return lengthUnitNode(p.Linear) }
	if p.UnitCode != 0 {
		lu = func(a core.AxisDef) *Node { return unitNode(r, a.Unit) }
	}
	n.Add(axisNodes(r, p.CS, lu)...)
	if p.Def != nil {
		n.Add(usageNodes(r, p.Def.Usages)...)
	}
	n.Add(IDNode(p.Code))
	return n
}

// ConversionNode is c as a WKT2 CONVERSION node.
func ConversionNode(r *core.Registry, c *core.Conversion) *Node {
	n := NewNode("CONVERSION", Quote(c.Name))
	m := NewNode("METHOD", Quote(MethodName(r, c.Method)))
	m.Add(IDNode(c.Method))
	n.Add(m)
	for _, p := range c.Params {
		pn := NewNode("PARAMETER", Quote(paramName(r, p.Code)), Num(p.Value))
		pn.Add(unitNode(r, p.Unit), IDNode(p.Code))
		n.Add(pn)
	}
	return n
}

// MethodName is the EPSG name of method code as PROJ prints it.
func MethodName(r *core.Registry, code int) string {
	if s, ok := r.Methods[code]; ok {
		return s
	}
	if s, ok := extraMethodNames[code]; ok {
		return s
	}
	return fmt.Sprintf("EPSG method %d", code)
}

func paramName(r *core.Registry, code int) string {
	if s, ok := r.Params[code]; ok {
		return s
	}
	return fmt.Sprintf("EPSG parameter %d", code)
}

// extraMethodNames names the methods PROJ knows that no EPSG CRS of the
// registry uses.
var extraMethodNames = map[int]string{}

// NodeOf builds the WKT tree of a CRS.
func NodeOf(r *core.Registry, c core.CRS) (*Node, error) {
	switch v := c.(type) {
	case *core.GeographicCRS:
		return boundIfShifted(r, v.Datum, GeographicNode(r, v, "GEOGCRS", true)), nil
	case *core.ProjectedCRS:
		n := ProjectedNode(r, v)
		if v.Code == 0 {
			return boundIfShifted(r, v.Base.Datum, n), nil
		}
		return n, nil
	case core.AzimuthalEquidistant:
		p, err := aeqdAsProjected(r, v)
		if err != nil {
			return nil, err
		}
		return ProjectedNode(r, p), nil
	case nil:
		return nil, fmt.Errorf("%w: nil CRS", core.ErrUnknownCRS)
	}
	return nil, fmt.Errorf("%w: %s has no WKT description", core.ErrUnknownCRS, c)
}

// aeqdAsProjected expresses the WGS 84 aeqd system as a projected CRS
// (PROJ's +proj=aeqd +datum=WGS84).
func aeqdAsProjected(r *core.Registry, a core.AzimuthalEquidistant) (*core.ProjectedCRS, error) {
	wgs, err := r.FromEPSG(4326)
	if err != nil {
		return nil, err
	}
	conv := &core.Conversion{Name: "unknown", Method: proj.MethodModifiedAeqd, Params: []core.ParamDef{
		{Code: proj.ParLatOrigin, Value: a.Lat0, Unit: 9122}, {Code: proj.ParLonOrigin, Value: a.Lon0, Unit: 9122},
		{Code: proj.ParFalseEasting, Value: 0, Unit: 9001}, {Code: proj.ParFalseNorthing, Value: 0, Unit: 9001}}}
	cs, _ := projstring.AxisCS("enu", 9001)
	return core.NewProjected(0, "unknown", wgs.(*core.GeographicCRS), conv, cs, core.Metre, 9001, r)
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
func boundIfShifted(r *core.Registry, d *core.GeodeticDatum, n *Node) *Node {
	if !d.TOWGS84 || len(d.Shifts) == 0 {
		return n
	}
	wgs, _ := r.GeographicCRSCached(4326)
	var target *Node
	if wgs != nil {
		target = GeographicNode(r, wgs, "GEOGCRS", true)
	}
	return BoundNode(n, target, "Transformation from "+d.Name+" to WGS84", d.Shifts[0].H)
}

// BoundNode is BOUNDCRS[SOURCECRS[source], TARGETCRS[target],
// ABRIDGEDTRANSFORMATION[name, h]].
func BoundNode(source, target *Node, name string, h *proj.Helmert) *Node {
	t := NewNode("ABRIDGEDTRANSFORMATION", Quote(name))
	t.Add(NewNode("METHOD", Quote("Position Vector transformation (geog2D domain)")).Add(IDNode(9606)))
	// An abridged transformation's parameters carry no units: metres,
	// arc-seconds and the scale as a factor, as PROJ writes +towgs84.
	for _, v := range towgs84Params(h) {
		t.Add(NewNode("PARAMETER", Quote(v.name), Num(v.v)).Add(IDNode(v.code)))
	}
	return NewNode("BOUNDCRS").Add(NewNode("SOURCECRS").Add(source), NewNode("TARGETCRS").Add(target), t)
}
