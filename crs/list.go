package crs

import (
	"math"

	"github.com/geodisaster/engine/crs/internal/core"
	"github.com/geodisaster/engine/crs/internal/proj"
	"github.com/geodisaster/engine/crs/internal/wkt"
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
	if err != nil || r.ParseAll() != nil {
		return nil
	}
	var out []Info
	add := func(i Info, us []core.UsageDef) {
		if len(us) > 0 {
			if e, ok := r.Extent(us[0].Extent); ok {
				i.Area, i.South, i.West, i.North, i.East = e.Name, e.S, e.W, e.N, e.E
			}
		}
		out = append(out, i)
	}
	gcodes, pcodes := r.GeogCodes(), r.ProjCodes()
	gi, pi := 0, 0
	for gi < len(gcodes) || pi < len(pcodes) {
		if pi >= len(pcodes) || (gi < len(gcodes) && gcodes[gi] < pcodes[pi]) {
			g := r.Geog(gcodes[gi])
			gi++
			if g == nil || g.Kind != "geographic 2D" {
				continue
			}
			add(Info{Code: g.Code, Name: g.Name, Kind: g.Kind, Deprecated: g.Deprecated, Convertible: true}, g.Usages)
			continue
		}
		p := r.Proj(pcodes[pi])
		pi++
		if p == nil {
			continue
		}
		i := Info{Code: p.Code, Name: p.Name, Kind: "projected", Deprecated: p.Deprecated}
		if cd := r.Conv(p.Conv); cd != nil {
			i.Method = wkt.MethodName(r, cd.Method)
			if proj.Supported(cd.Method) {
				_, err := FromEPSG(p.Code)
				i.Convertible = err == nil
			}
		}
		add(i, p.Usages)
	}
	return out
}

// DegreesPerUnit returns the size in degrees of a geographic CRS's
// angular unit (1 for degrees, 0.9 for grads) and true; false for other
// CRSs.
func DegreesPerUnit(c CRS) (float64, bool) {
	g, ok := c.(*core.GeographicCRS)
	if !ok {
		return 0, false
	}
	if g.Angular.Code == 9122 || g.Angular.Code == 9102 || g.Angular.Radians == core.DegreeUnit.Radians {
		return 1, true
	}
	return g.Angular.Radians / (math.Pi / 180), true
}
