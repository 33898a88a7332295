package crs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
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

func (o *jsonObject) write(b *bytes.Buffer, depth int) {
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
		x.write(b, depth)
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
func jsonNum(v float64) string { return wktNum(v) }

func idJSON(code int) *jsonObject {
	return obj(jsonKV{"authority", "EPSG"}, jsonKV{"code", code})
}

// unitJSON is PROJJSON's unit: a name for metre, degree and unity, an
// object otherwise.
func unitJSON(r *registry, code int) any {
	switch code {
	case 9001:
		return "metre"
	case 9102, 9122:
		return "degree"
	case 9201:
		return "unity"
	}
	u, ok := r.units[code]
	if !ok {
		return "unknown"
	}
	typ := map[string]string{"length": "LinearUnit", "angle": "AngularUnit", "scale": "ScaleUnit"}[u.typ]
	return obj(jsonKV{"type", typ}, jsonKV{"name", u.name}, jsonKV{"conversion_factor", jsonNumber(u.factor)})
}

func linearUnitJSON(u Unit) any {
	if u.Metres == 1 {
		return "metre"
	}
	return obj(jsonKV{"type", "LinearUnit"}, jsonKV{"name", u.Name}, jsonKV{"conversion_factor", jsonNumber(u.Metres)})
}

// measureJSON is a value in a unit: a bare number in the default unit.
func measureJSON(r *registry, v float64, unit, def int) any {
	if unit == def || (def == 9122 && unit == 9102) {
		return jsonNumber(v)
	}
	return obj(jsonKV{"value", jsonNumber(v)}, jsonKV{"unit", unitJSON(r, unit)})
}

func ellipsoidJSON(r *registry, d *geodeticDatum) *jsonObject {
	if ed, ok := r.ellipsoids[d.ellRef.code]; ok && d.ellRef.code != 0 {
		o := obj(jsonKV{"name", ed.name})
		if ed.invf == 0 && (ed.b == 0 || ed.b == ed.a) {
			o.set("radius", measureJSON(r, ed.a, ed.unit, 9001))
			return o
		}
		o.set("semi_major_axis", measureJSON(r, ed.a, ed.unit, 9001))
		if ed.invf != 0 {
			o.set("inverse_flattening", jsonNumber(ed.invf))
		} else {
			o.set("semi_minor_axis", measureJSON(r, ed.b, ed.unit, 9001))
		}
		return o
	}
	name := d.ellRef.name
	if name == "" {
		name = "unknown"
	}
	o := obj(jsonKV{"name", name})
	if d.el.F == 0 {
		return o.set("radius", jsonNumber(d.el.A))
	}
	return o.set("semi_major_axis", jsonNumber(d.el.A)).set("inverse_flattening", jsonNumber(d.el.Invf()))
}

func primeMeridianJSON(r *registry, pm primeMeridian) *jsonObject {
	if pm.code == 0 {
		return obj(jsonKV{"name", pm.name}, jsonKV{"longitude", jsonNumber(pm.deg)})
	}
	return obj(jsonKV{"name", pm.name}, jsonKV{"longitude", measureJSON(r, pm.value, pm.unit, 9122)})
}

// datumJSON adds "datum" or "datum_ensemble" to o.
func datumJSON(r *registry, o *jsonObject, d *geodeticDatum) {
	dd := r.datums[d.code]
	if d.code != 0 && dd != nil && len(dd.members) > 0 {
		e := obj(jsonKV{"name", dd.name})
		var members []any
		for _, m := range dd.members {
			if md := r.datums[m]; md != nil {
				members = append(members, obj(jsonKV{"name", md.name}, jsonKV{"id", idJSON(m)}))
			}
		}
		e.set("members", members).set("ellipsoid", ellipsoidJSON(r, d)).set("accuracy", dd.accuracy).set("id", idJSON(d.code))
		o.set("datum_ensemble", e)
		return
	}
	typ := "GeodeticReferenceFrame"
	name := d.name
	var epoch float64
	anchor := ""
	if dd != nil && d.code != 0 {
		name, epoch, anchor = dd.name, dd.epoch, dd.anchor
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
	if d.pm.code != 8901 {
		dj.set("prime_meridian", primeMeridianJSON(r, d.pm))
	}
	o.set("datum", dj)
}

func csJSON(r *registry, cs csDef, unit func(axisDef) any) *jsonObject {
	var axes []any
	for _, a := range cs.axes {
		dir, merid, hasMerid := axisDirection(a.dir)
		ax := obj(jsonKV{"name", a.name}, jsonKV{"abbreviation", a.abbrev}, jsonKV{"direction", dir})
		if hasMerid {
			ax.set("meridian", obj(jsonKV{"longitude", jsonNumber(merid)}))
		}
		ax.set("unit", unit(a))
		axes = append(axes, ax)
	}
	return obj(jsonKV{"subtype", cs.typ}, jsonKV{"axis", axes})
}

// usagesJSON adds "scope"/"area"/"bbox" (one usage) or "usages".
func usagesJSON(r *registry, o *jsonObject, us []usageDef) {
	var list []*jsonObject
	for _, u := range us {
		e, ok := r.extents[u.extent]
		if !ok {
			continue
		}
		x := obj(jsonKV{"scope", r.scopes[u.scope]}, jsonKV{"area", e.desc})
		if !e.noBBox {
			x.set("bbox", obj(jsonKV{"south_latitude", jsonNumber(e.s)}, jsonKV{"west_longitude", jsonNumber(e.w)},
				jsonKV{"north_latitude", jsonNumber(e.n)}, jsonKV{"east_longitude", jsonNumber(e.e)}))
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

func geographicJSON(r *registry, g *geographicCRS, top bool) *jsonObject {
	o := obj()
	if top {
		o.set("type", "GeographicCRS")
	}
	o.set("name", g.name)
	datumJSON(r, o, g.datum)
	o.set("coordinate_system", csJSON(r, geogCSDef(r, g), func(a axisDef) any { return unitJSON(r, a.unit) }))
	if top && g.def != nil {
		usagesJSON(r, o, g.def.usages)
	}
	if g.code != 0 {
		o.set("id", idJSON(g.code))
	}
	return o
}

func projectedJSON(r *registry, p *projectedCRS) *jsonObject {
	o := obj(jsonKV{"type", "ProjectedCRS"}, jsonKV{"name", p.name})
	o.set("base_crs", geographicJSON(r, p.base, false))
	method := obj(jsonKV{"name", methodName(r, p.conv.method)}, jsonKV{"id", idJSON(p.conv.method)})
	var ps []any
	for _, q := range p.conv.params {
		ps = append(ps, obj(jsonKV{"name", paramName(r, q.code)}, jsonKV{"value", jsonNumber(q.value)},
			jsonKV{"unit", unitJSON(r, q.unit)}, jsonKV{"id", idJSON(q.code)}))
	}
	o.set("conversion", obj(jsonKV{"name", p.conv.name}, jsonKV{"method", method}, jsonKV{"parameters", ps}))
	lu := func(axisDef) any { return linearUnitJSON(p.unit) }
	if p.ucode != 0 {
		lu = func(a axisDef) any { return unitJSON(r, a.unit) }
	}
	o.set("coordinate_system", csJSON(r, p.cs, lu))
	if p.def != nil {
		usagesJSON(r, o, p.def.usages)
	}
	if p.code != 0 {
		o.set("id", idJSON(p.code))
	}
	return o
}

// boundJSON wraps a CRS whose datum has its own shift in a BoundCRS.
func boundJSON(r *registry, d *geodeticDatum, o *jsonObject) *jsonObject {
	if !d.towgs84 || len(d.shifts) == 0 {
		return o
	}
	var ps []any
	for _, v := range towgs84Params(d.shifts[0].h) {
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
	t := obj(jsonKV{"name", "Transformation from " + d.name + " to WGS84"},
		jsonKV{"method", obj(jsonKV{"name", "Position Vector transformation (geog2D domain)"}, jsonKV{"id", idJSON(9606)})},
		jsonKV{"parameters", ps})
	target := obj()
	if wgs, err := r.geographicCRSCached(4326); err == nil {
		target = geographicJSON(r, wgs, true)
	}
	return obj(jsonKV{"type", "BoundCRS"}, jsonKV{"source_crs", o}, jsonKV{"target_crs", target}, jsonKV{"transformation", t})
}

// projJSONDocument is the PROJJSON document of c (PROJJSON).
func projJSONDocument(r *registry, c CRS) ([]byte, error) {
	var o *jsonObject
	switch v := c.(type) {
	case *geographicCRS:
		o = boundJSON(r, v.datum, geographicJSON(r, v, true))
	case *projectedCRS:
		o = projectedJSON(r, v)
		if v.code == 0 {
			o = boundJSON(r, v.base.datum, o)
		}
	case azimuthalEquidistant:
		p, err := aeqdAsProjected(r, v)
		if err != nil {
			return nil, err
		}
		o = projectedJSON(r, p)
	case nil:
		return nil, fmt.Errorf("%w: nil CRS", ErrUnknownCRS)
	default:
		return nil, fmt.Errorf("%w: %s has no PROJJSON description", ErrUnknownCRS, c)
	}
	o.kv = append([]jsonKV{{"$schema", "https://proj.org/schemas/v0.5/projjson.schema.json"}}, o.kv...)
	var buf bytes.Buffer
	o.write(&buf, 0)
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}
