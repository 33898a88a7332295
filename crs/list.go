package crs

import (
	"math"

	"github.com/geodisaster/engine/crs/internal/proj"
)

// Info describes an EPSG CRS of the embedded registry.
type Info struct {
	Code       int
	Name       string
	Kind       string // "geographic 2D" or "projected"
	Method     string // conversion method of a projected CRS
	Area       string // area of use (the EPSG extent's name)
	South      float64
	West       float64
	North      float64
	East       float64 // bounding box of the area of use, degrees (West > East across the antimeridian)
	Deprecated bool
	// Convertible reports whether FromEPSG accepts the code (its method is
	// implemented); the others can only be described (WKT2FromEPSG).
	Convertible bool
}

// List returns every EPSG CRS of the registry (geographic 2D and
// projected, deprecated ones included and flagged), by code.
func List() []Info {
	r, err := epsg()
	if err != nil {
		return nil
	}
	var out []Info
	add := func(i Info, us []usageDef) {
		if len(us) > 0 {
			if e, ok := r.extents[us[0].extent]; ok {
				i.Area, i.South, i.West, i.North, i.East = e.name, e.s, e.w, e.n, e.e
			}
		}
		out = append(out, i)
	}
	gi, pi := 0, 0
	for gi < len(r.geogCodes) || pi < len(r.projCodes) {
		if pi >= len(r.projCodes) || (gi < len(r.geogCodes) && r.geogCodes[gi] < r.projCodes[pi]) {
			g := r.geog[r.geogCodes[gi]]
			gi++
			if g.typ != "geographic 2D" {
				continue
			}
			add(Info{Code: g.code, Name: g.name, Kind: g.typ, Deprecated: g.deprecated, Convertible: true}, g.usages)
			continue
		}
		p := r.proj[r.projCodes[pi]]
		pi++
		i := Info{Code: p.code, Name: p.name, Kind: "projected", Deprecated: p.deprecated}
		if cd := r.convs[p.conv]; cd != nil {
			i.Method = methodName(r, cd.method)
			if proj.Supported(cd.method) {
				_, err := FromEPSG(p.code)
				i.Convertible = err == nil
			}
		}
		add(i, p.usages)
	}
	return out
}

// DegreesPerUnit returns the size in degrees of a geographic CRS's
// angular unit (1 for degrees, 0.9 for grads) and true; false for other
// CRSs.
func DegreesPerUnit(c CRS) (float64, bool) {
	g, ok := c.(*geographicCRS)
	if !ok {
		return 0, false
	}
	if g.unit.code == 9122 || g.unit.code == 9102 || g.unit.radians == degreeUnit.radians {
		return 1, true
	}
	return g.unit.radians / (math.Pi / 180), true
}
