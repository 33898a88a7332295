package crs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/crs/internal/proj"
)

// noProjection stands for a conversion this package cannot compute.
type noProjection struct{ err error }

func (n noProjection) Forward(lon, lat float64) (float64, float64, error) {
	return 0, 0, fmt.Errorf("%w: %v", ErrUnknownCRS, n.err)
}
func (n noProjection) Inverse(x, y float64) (float64, float64, error) {
	return 0, 0, fmt.Errorf("%w: %v", ErrUnknownCRS, n.err)
}

// projectedCRS is a projected CRS: a base geographic CRS and a conversion.
// As CRS, x and y are in the order of pyproj's always_xy (the authority
// order, except that northing-first systems are swapped) and in the CRS's
// linear unit, with the axis directions of the authority (a westing is
// positive westwards).
type projectedCRS struct {
	code  int
	name  string
	base  *geographicCRS
	conv  *conversion
	proj  proj.Projection
	unit  Unit
	ucode int // EPSG code of the linear unit
	// authority axis i is sign[i] * canonical component comp[i] (0
	// easting, 1 northing), in the linear unit.
	comp   [2]int
	sign   [2]float64
	swapXY bool // always_xy order is the authority order swapped
	cs     csDef
	def    *projDef
	// values are conv's parameters in degrees, metres and unity.
	values proj.Params
}

// conversion is the deriving conversion of a projected CRS as the
// registry (or a user-defined definition) gives it.
type conversion struct {
	code   int // 0 for user-defined
	name   string
	method int
	params []paramDef
}

func (p *projectedCRS) String() string {
	if p.code != 0 {
		return fmt.Sprintf("EPSG:%d", p.code)
	}
	return projString(p)
}
func (p *projectedCRS) EPSG() int        { return p.code }
func (p *projectedCRS) Geographic() bool { return false }
func (p *projectedCRS) Unit() Unit       { return p.unit }

// toAxes maps canonical easting/northing (metres) to x, y of the CRS.
func (p *projectedCRS) toAxes(e, n float64) (float64, float64) {
	c := [2]float64{e, n}
	if p.unit.Metres != 1 {
		c[0], c[1] = c[0]/p.unit.Metres, c[1]/p.unit.Metres
	}
	a0, a1 := p.sign[0]*c[p.comp[0]], p.sign[1]*c[p.comp[1]]
	if p.swapXY {
		return a1, a0
	}
	return a0, a1
}

// fromAxes maps x, y of the CRS to canonical easting/northing (metres).
func (p *projectedCRS) fromAxes(x, y float64) (float64, float64) {
	if p.swapXY {
		x, y = y, x
	}
	var c [2]float64
	c[p.comp[0]] = p.sign[0] * x
	c[p.comp[1]] = p.sign[1] * y
	if p.unit.Metres != 1 {
		c[0], c[1] = float64(c[0]*p.unit.Metres), float64(c[1]*p.unit.Metres)
	}
	return c[0], c[1]
}

// toDatum converts x, y to longitude/latitude in degrees from Greenwich on
// the base CRS's datum.
func (p *projectedCRS) toDatum(x, y float64) (float64, float64, error) {
	if err := proj.CheckFinite(x, y); err != nil {
		return 0, 0, err
	}
	e, n := p.fromAxes(x, y)
	lon, lat, err := p.proj.Inverse(e, n)
	if err != nil {
		return 0, 0, err
	}
	if err := proj.CheckLonLat(lon, lat); err != nil {
		return 0, 0, fmt.Errorf("%w: (%v, %v) has no inverse", ErrOutsideDomain, x, y)
	}
	return lon + p.base.datum.pm.deg, lat, nil
}

// fromDatum converts longitude/latitude in degrees from Greenwich on the
// base CRS's datum to x, y.
func (p *projectedCRS) fromDatum(lon, lat float64) (float64, float64, error) {
	if err := proj.CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	e, n, err := p.proj.Forward(lon-p.base.datum.pm.deg, lat)
	if err != nil {
		return 0, 0, err
	}
	x, y := p.toAxes(e, n)
	return x, y, nil
}

// ToLonLat converts x, y to WGS 84 longitude/latitude (degrees).
func (p *projectedCRS) ToLonLat(x, y float64) (float64, float64, error) {
	lon, lat, err := p.toDatum(x, y)
	if err != nil {
		return 0, 0, err
	}
	lon, lat = p.base.datum.toWGS84(lon, lat)
	return lon, lat, nil
}

// FromLonLat converts WGS 84 longitude/latitude (degrees) to x, y.
func (p *projectedCRS) FromLonLat(lon, lat float64) (float64, float64, error) {
	if err := proj.CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	lon, lat = p.base.datum.fromWGS84(lon, lat)
	return p.fromDatum(lon, lat)
}

func (p *projectedCRS) geodetic() *geodeticDatum { return p.base.datum }

// axisMapping derives the canonical components and signs of the axes of a
// projected coordinate system from their names (Easting, Westing,
// Northing, Southing, whatever the direction text of polar axes says),
// and whether pyproj's always_xy order swaps them.
func axisMapping(cs csDef) (comp [2]int, sign [2]float64, swap bool, err error) {
	if len(cs.axes) < 2 {
		return comp, sign, false, fmt.Errorf("coordinate system with %d axes", len(cs.axes))
	}
	seen := [2]bool{}
	for i := 0; i < 2; i++ {
		switch strings.ToLower(cs.axes[i].name) {
		case "easting":
			comp[i], sign[i] = 0, 1
		case "westing":
			comp[i], sign[i] = 0, -1
		case "northing":
			comp[i], sign[i] = 1, 1
		case "southing":
			comp[i], sign[i] = 1, -1
		default:
			return comp, sign, false, fmt.Errorf("axis %q", cs.axes[i].name)
		}
		if seen[comp[i]] {
			return comp, sign, false, fmt.Errorf("axes %q and %q", cs.axes[0].name, cs.axes[1].name)
		}
		seen[comp[i]] = true
	}
	return comp, sign, visualSwap(cs.axes[0].dir, cs.axes[1].dir), nil
}

// visualSwap is PROJ's rule (proj_normalize_for_visualization) for
// swapping a projected CRS's axes into the "x y" order: north then east,
// and the polar systems whose first axis points along 180°E then 90°E
// (south) or 180°E or 0°E then 90°E (north).
func visualSwap(d0, d1 string) bool {
	d0, d1 = strings.ToLower(d0), strings.ToLower(d1)
	if d0 == "north" && d1 == "east" {
		return true
	}
	if strings.HasPrefix(d0, "south along 180°e") && strings.HasPrefix(d1, "south along 90°e") {
		return true
	}
	if strings.HasPrefix(d0, "north along ") && strings.HasPrefix(d1, "north along 90°e") {
		return strings.HasPrefix(d0, "north along 180°e") || strings.HasPrefix(d0, "north along 0°e")
	}
	return false
}

// projectedFromRegistry builds EPSG projected CRS code.
func (r *registry) projectedFromRegistry(code int) (*projectedCRS, error) {
	return r.projectedFromRegistryOpt(code, true)
}

// projectedFromRegistryOpt builds EPSG projected CRS code; without
// needProj, a method this package does not implement leaves the CRS
// without a projection (describable, not convertible).
func (r *registry) projectedFromRegistryOpt(code int, needProj bool) (*projectedCRS, error) {
	d, ok := r.proj[code]
	if !ok {
		return nil, fmt.Errorf("%w: EPSG:%d", ErrUnknownCRS, code)
	}
	base, err := r.geographicCRSCached(d.geog)
	if err != nil {
		return nil, err
	}
	cd, ok := r.convs[d.conv]
	if !ok {
		return nil, fmt.Errorf("%w: EPSG:%d: conversion %d missing", ErrUnknownCRS, code, d.conv)
	}
	cs, ok := r.css[d.cs]
	if !ok {
		return nil, fmt.Errorf("%w: EPSG:%d: coordinate system %d missing", ErrUnknownCRS, code, d.cs)
	}
	conv := &conversion{code: cd.code, name: cd.name, method: cd.method, params: cd.params}
	uc := 0
	if len(cs.axes) > 0 {
		uc = cs.axes[0].unit
	}
	u, ok := r.units[uc]
	if !ok || u.typ != "length" {
		return nil, fmt.Errorf("%w: EPSG:%d: linear unit %d", ErrUnknownCRS, code, uc)
	}
	unit := Unit{Name: u.name, Metres: u.factor}
	if uc == 9001 {
		unit = Metre
	}
	p, err := newProjected(code, d.name, base, conv, cs, unit, uc, r)
	if err != nil && !needProj {
		comp, sign, swap, aerr := axisMapping(cs)
		if aerr == nil {
			p, err = &projectedCRS{code: code, name: d.name, base: base, conv: conv, proj: noProjection{err},
				unit: unit, ucode: uc, comp: comp, sign: sign, swapXY: swap, cs: cs}, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%w: EPSG:%d (%s): %v", ErrUnknownCRS, code, d.name, err)
	}
	p.def = d
	return p, nil
}

// newProjected assembles a projected CRS in linear unit (EPSG unit code
// ucode, 0 when it has none) and prepares its projection.
func newProjected(code int, name string, base *geographicCRS, conv *conversion, cs csDef, unit Unit, ucode int, r *registry) (*projectedCRS, error) {
	comp, sign, swap, err := axisMapping(cs)
	if err != nil {
		return nil, err
	}
	if !(unit.Metres > 0) {
		return nil, fmt.Errorf("linear unit %q", unit.Name)
	}
	pv, err := r.paramValues(conv.params)
	if err != nil {
		return nil, err
	}
	proj, err := proj.New(conv.method, base.datum.el, pv)
	if err != nil {
		return nil, err
	}
	return &projectedCRS{code: code, name: name, base: base, conv: conv, proj: proj,
		unit: unit, ucode: ucode, comp: comp, sign: sign, swapXY: swap, cs: cs, values: pv}, nil
}

// paramValues converts conversion parameters to degrees, metres and unity.
func (r *registry) paramValues(ps []paramDef) (proj.Params, error) {
	out := proj.Params{}
	for _, p := range ps {
		u, ok := r.units[p.unit]
		if !ok {
			return nil, fmt.Errorf("parameter %d: unit %d", p.code, p.unit)
		}
		v := p.value
		switch u.typ {
		case "angle":
			dv, err := r.toDegrees(p.value, p.unit)
			if err != nil {
				return nil, err
			}
			v = dv
		case "length":
			if p.unit != 9001 {
				v = float64(p.value * u.factor)
			}
		case "scale":
			if p.unit != 9201 {
				v = float64(p.value * u.factor)
			}
		}
		out[p.code] = v
	}
	return out, nil
}

// axisDirection splits EPSG's "South along 90°E" into the WKT direction
// and the meridian (degrees east).
func axisDirection(d string) (dir string, meridian float64, ok bool) {
	l := strings.ToLower(d)
	head, rest, found := strings.Cut(l, " along ")
	if !found {
		return l, 0, false
	}
	rest = strings.TrimSpace(rest)
	sign := 1.0
	switch {
	case strings.HasSuffix(rest, "°w"):
		sign = -1
		rest = strings.TrimSuffix(rest, "°w")
	case strings.HasSuffix(rest, "°e"):
		rest = strings.TrimSuffix(rest, "°e")
	}
	v, err := strconv.ParseFloat(rest, 64)
	if err != nil {
		return head, 0, false
	}
	return head, sign * v, true
}
