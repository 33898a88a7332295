package wkt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/geodisaster/engine/crs/internal/core"
)

// jsonObject is a JSON object that keeps its key order.
type jsonObject struct{ kv []jsonKV }

type jsonKV struct {
	k string
	v any // string, float64, int, *jsonObject, []any, jsonNumber
}

// jsonNumber is a number formatted as PROJ formats it.
type jsonNumber float64

func obj(kv ...jsonKV) *jsonObject { return &jsonObject{kv: kv} }

func (o *jsonObject) set(k string, v any) *jsonObject {
	o.kv = append(o.kv, jsonKV{k, v})
	return o
}

func (o *jsonObject) Write(b *bytes.Buffer, depth int) {
	if len(o.kv) == 0 {
		b.WriteString("{}")
		return
	}
	b.WriteString("{\n")
	for i, kv := range o.kv {
		b.WriteString(indent(depth + 1))
		k, _ := json.Marshal(kv.k)
		b.Write(k)
		b.WriteString(": ")
		writeJSONValue(b, kv.v, depth+1)
		if i < len(o.kv)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent(depth))
	b.WriteByte('}')
}

func indent(d int) string { return string(bytes.Repeat([]byte("  "), d)) }

func writeJSONValue(b *bytes.Buffer, v any, depth int) {
	switch x := v.(type) {
	case *jsonObject:
		x.Write(b, depth)
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range x {
			b.WriteString(indent(depth + 1))
			writeJSONValue(b, e, depth+1)
			if i < len(x)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent(depth))
		b.WriteByte(']')
	case jsonNumber:
		b.WriteString(jsonNum(float64(x)))
	case int:
		b.WriteString(strconv.Itoa(x))
	default:
		s, _ := json.Marshal(x)
		b.Write(s)
	}
}

// jsonNum formats a number for PROJJSON as PROJ does (as in WKT: 15
// significant digits).
func jsonNum(v float64) string { return Num(v) }

func idJSON(code int) *jsonObject {
	return obj(jsonKV{"authority", "EPSG"}, jsonKV{"code", code})
}

// unitJSON is PROJJSON's unit: a name for metre, degree and unity, an
// object otherwise.
func unitJSON(r *core.Registry, code int) any {
	switch code {
	case 9001:
		return "metre"
	case 9102, 9122:
		return "degree"
	case 9201:
		return "unity"
	}
	u, ok := r.Units[code]
	if !ok {
		return "unknown"
	}
	typ := map[string]string{"length": "LinearUnit", "angle": "AngularUnit", "scale": "ScaleUnit"}[u.Kind]
	return obj(jsonKV{"type", typ}, jsonKV{"name", u.Name}, jsonKV{"conversion_factor", jsonNumber(u.Factor)})
}

func linearUnitJSON(u core.Unit) any {
	if u.Metres == 1 {
		return "metre"
	}
	return obj(jsonKV{"type", "LinearUnit"}, jsonKV{"name", u.Name}, jsonKV{"conversion_factor", jsonNumber(u.Metres)})
}

// measureJSON is a value in a unit: a bare number in the default unit.
func measureJSON(r *core.Registry, v float64, unit, def int) any {
	if unit == def || (def == 9122 && unit == 9102) {
		return jsonNumber(v)
	}
	return obj(jsonKV{"value", jsonNumber(v)}, jsonKV{"unit", unitJSON(r, unit)})
}

func ellipsoidJSON(r *core.Registry, d *core.GeodeticDatum) *jsonObject {
	if ed, ok := r.Ellipsoids[d.EllipsoidRef.Code]; ok && d.EllipsoidRef.Code != 0 {
		o := obj(jsonKV{"name", ed.Name})
		if ed.Invf == 0 && (ed.B == 0 || ed.B == ed.A) {
			o.set("radius", measureJSON(r, ed.A, ed.Unit, 9001))
			return o
		}
		o.set("semi_major_axis", measureJSON(r, ed.A, ed.Unit, 9001))
		if ed.Invf != 0 {
			o.set("inverse_flattening", jsonNumber(ed.Invf))
		} else {
			o.set("semi_minor_axis", measureJSON(r, ed.B, ed.Unit, 9001))
		}
		return o
	}
	name := d.EllipsoidRef.Name
	if name == "" {
		name = "unknown"
	}
	o := obj(jsonKV{"name", name})
	if d.Ellipsoid.F == 0 {
		return o.set("radius", jsonNumber(d.Ellipsoid.A))
	}
	return o.set("semi_major_axis", jsonNumber(d.Ellipsoid.A)).set("inverse_flattening", jsonNumber(d.Ellipsoid.Invf()))
}

func primeMeridianJSON(r *core.Registry, pm core.PrimeMeridian) *jsonObject {
	if pm.Code == 0 {
		return obj(jsonKV{"name", pm.Name}, jsonKV{"longitude", jsonNumber(pm.Deg)})
	}
	return obj(jsonKV{"name", pm.Name}, jsonKV{"longitude", measureJSON(r, pm.Value, pm.Unit, 9122)})
}

// datumJSON adds "datum" or "datum_ensemble" to o.
func datumJSON(r *core.Registry, o *jsonObject, d *core.GeodeticDatum) {
	dd := r.Datum(d.Code)
	if d.Code != 0 && dd != nil && len(dd.Members) > 0 {
		e := obj(jsonKV{"name", dd.Name})
		var members []any
		for _, m := range dd.Members {
			if md := r.Datum(m); md != nil {
				members = append(members, obj(jsonKV{"name", md.Name}, jsonKV{"id", idJSON(m)}))
			}
		}
		e.set("members", members).set("ellipsoid", ellipsoidJSON(r, d)).set("accuracy", dd.Accuracy).set("id", idJSON(d.Code))
		o.set("datum_ensemble", e)
		return
	}
	typ := "GeodeticReferenceFrame"
	name := d.Name
	var epoch float64
	anchor := ""
	if dd != nil && d.Code != 0 {
		name, epoch, anchor = dd.Name, dd.Epoch, dd.Anchor
	}
	if epoch != 0 {
		typ = "DynamicGeodeticReferenceFrame"
	}
	dj := obj(jsonKV{"type", typ}, jsonKV{"name", name})
	if epoch != 0 {
		dj.set("frame_reference_epoch", jsonNumber(epoch))
	}
	if anchor != "" {
		dj.set("anchor", anchor)
	}
	dj.set("ellipsoid", ellipsoidJSON(r, d))
	if d.PM.Code != 8901 {
		dj.set("prime_meridian", primeMeridianJSON(r, d.PM))
	}
	o.set("datum", dj)
}

func csJSON(r *core.Registry, cs core.CSDef, unit func(core.AxisDef) any) *jsonObject {
	var axes []any
	for _, a := range cs.Axes {
		dir, merid, hasMerid := core.AxisDirection(a.Dir)
		ax := obj(jsonKV{"name", a.Name}, jsonKV{"abbreviation", a.Abbrev}, jsonKV{"direction", dir})
		if hasMerid {
			ax.set("meridian", obj(jsonKV{"longitude", jsonNumber(merid)}))
		}
		ax.set("unit", unit(a))
		axes = append(axes, ax)
	}
	return obj(jsonKV{"subtype", cs.Kind}, jsonKV{"axis", axes})
}

// usagesJSON adds "scope"/"area"/"bbox" (one usage) or "usages".
func usagesJSON(r *core.Registry, o *jsonObject, us []core.UsageDef) {
	var list []*jsonObject
	for _, u := range us {
		e, ok := r.Extent(u.Extent)
		if !ok {
			continue
		}
		x := obj(jsonKV{"scope", r.Scopes[u.Scope]}, jsonKV{"area", e.Desc})
		if !e.NoBBox {
			x.set("bbox", obj(jsonKV{"south_latitude", jsonNumber(e.S)}, jsonKV{"west_longitude", jsonNumber(e.W)},
				jsonKV{"north_latitude", jsonNumber(e.N)}, jsonKV{"east_longitude", jsonNumber(e.E)}))
		}
		list = append(list, x)
	}
	switch len(list) {
	case 0:
	case 1:
		o.kv = append(o.kv, list[0].kv...)
	default:
		var arr []any
		for _, x := range list {
			arr = append(arr, x)
		}
		o.set("usages", arr)
	}
}

func geographicJSON(r *core.Registry, g *core.GeographicCRS, top bool) *jsonObject {
	o := obj()
	if top {
		o.set("type", "GeographicCRS")
	}
	o.set("name", g.Name)
	datumJSON(r, o, g.Datum)
	o.set("coordinate_system", csJSON(r, GeogCSDef(r, g), func(a core.AxisDef) any { return unitJSON(r, a.Unit) }))
	if top && g.Def != nil {
		usagesJSON(r, o, g.Def.Usages)
	}
	if g.Code != 0 {
		o.set("id", idJSON(g.Code))
	}
	return o
}

func projectedJSON(r *core.Registry, p *core.ProjectedCRS) *jsonObject {
	o := obj(jsonKV{"type", "ProjectedCRS"}, jsonKV{"name", p.Name})
	o.set("base_crs", geographicJSON(r, p.Base, false))
	method := obj(jsonKV{"name", MethodName(r, p.Conv.Method)}, jsonKV{"id", idJSON(p.Conv.Method)})
	var ps []any
	for _, q := range p.Conv.Params {
		ps = append(ps, obj(jsonKV{"name", paramName(r, q.Code)}, jsonKV{"value", jsonNumber(q.Value)},
			jsonKV{"unit", unitJSON(r, q.Unit)}, jsonKV{"id", idJSON(q.Code)}))
	}
	o.set("conversion", obj(jsonKV{"name", p.Conv.Name}, jsonKV{"method", method}, jsonKV{"parameters", ps}))
	lu := func(core.AxisDef) any { return linearUnitJSON(p.Linear) }
	if p.UnitCode != 0 {
		lu = func(a core.AxisDef) any { return unitJSON(r, a.Unit) }
	}
	o.set("coordinate_system", csJSON(r, p.CS, lu))
	if p.Def != nil {
		usagesJSON(r, o, p.Def.Usages)
	}
	if p.Code != 0 {
		o.set("id", idJSON(p.Code))
	}
	return o
}

// boundJSON wraps a CRS whose datum has its own shift in a BoundCRS.
func boundJSON(r *core.Registry, d *core.GeodeticDatum, o *jsonObject) *jsonObject {
	if !d.TOWGS84 || len(d.Shifts) == 0 {
		return o
	}
	var ps []any
	for _, v := range towgs84Params(d.Shifts[0].H) {
		var unit any = "metre"
		switch v.code {
		case 8608, 8609, 8610:
			unit = unitJSON(r, 9104)
		case 8611:
			unit = unitJSON(r, 9202)
			v.v = (v.v - 1) * 1e6
		}
		ps = append(ps, obj(jsonKV{"name", v.name}, jsonKV{"value", jsonNumber(v.v)}, jsonKV{"unit", unit}, jsonKV{"id", idJSON(v.code)}))
	}
	t := obj(jsonKV{"name", "Transformation from " + d.Name + " to WGS84"},
		jsonKV{"method", obj(jsonKV{"name", "Position Vector transformation (geog2D domain)"}, jsonKV{"id", idJSON(9606)})},
		jsonKV{"parameters", ps})
	target := obj()
	if wgs, err := r.GeographicCRSCached(4326); err == nil {
		target = geographicJSON(r, wgs, true)
	}
	return obj(jsonKV{"type", "BoundCRS"}, jsonKV{"source_crs", o}, jsonKV{"target_crs", target}, jsonKV{"transformation", t})
}

// PROJJSON is the PROJJSON document of c (PROJJSON).
func PROJJSON(r *core.Registry, c core.CRS) ([]byte, error) {
	var o *jsonObject
	switch v := c.(type) {
	case *core.GeographicCRS:
		o = boundJSON(r, v.Datum, geographicJSON(r, v, true))
	case *core.ProjectedCRS:
		o = projectedJSON(r, v)
		if v.Code == 0 {
			o = boundJSON(r, v.Base.Datum, o)
		}
	case core.AzimuthalEquidistant:
		p, err := aeqdAsProjected(r, v)
		if err != nil {
			return nil, err
		}
		o = projectedJSON(r, p)
	case nil:
		return nil, fmt.Errorf("%w: nil CRS", core.ErrUnknownCRS)
	default:
		return nil, fmt.Errorf("%w: %s has no PROJJSON description", core.ErrUnknownCRS, c)
	}
	o.kv = append([]jsonKV{{"$schema", "https://proj.org/schemas/v0.5/projjson.schema.json"}}, o.kv...)
	var buf bytes.Buffer
	o.Write(&buf, 0)
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}
