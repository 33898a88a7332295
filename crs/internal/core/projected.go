package core

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

// ProjectedCRS is a projected CRS: a base geographic CRS and a conversion.
// As CRS, x and y are in the order of pyproj's always_xy (the authority
// order, except that northing-first systems are swapped) and in the CRS's
// linear unit, with the axis directions of the authority (a westing is
// positive westwards).
type ProjectedCRS struct {
	Code     int
	Name     string
	Base     *GeographicCRS
	Conv     *Conversion
	proj     proj.Projection
	Linear   Unit
	UnitCode int // EPSG code of the linear unit
	// authority axis i is sign[i] * canonical component comp[i] (0
	// easting, 1 northing), in the linear unit.
	Comp   [2]int
	Sign   [2]float64
	SwapXY bool // always_xy order is the authority order swapped
	CS     CSDef
	Def    *projDef
	// values are conv's parameters in degrees, metres and unity.
	values proj.Params
}

// Conversion is the deriving conversion of a projected CRS as the
// registry (or a user-defined definition) gives it.
type Conversion struct {
	Code   int // 0 for user-defined
	Name   string
	Method int
	Params []ParamDef
}

func (p *ProjectedCRS) String() string   { return crsString(p) }
func (p *ProjectedCRS) EPSG() int        { return p.Code }
func (p *ProjectedCRS) Geographic() bool { return false }
func (p *ProjectedCRS) Unit() Unit       { return p.Linear }

// toAxes maps canonical easting/northing (metres) to x, y of the CRS.
func (p *ProjectedCRS) toAxes(e, n float64) (float64, float64) {
	c := [2]float64{e, n}
	if p.Linear.Metres != 1 {
		c[0], c[1] = c[0]/p.Linear.Metres, c[1]/p.Linear.Metres
	}
	a0, a1 := p.Sign[0]*c[p.Comp[0]], p.Sign[1]*c[p.Comp[1]]
	if p.SwapXY {
		return a1, a0
	}
	return a0, a1
}

// fromAxes maps x, y of the CRS to canonical easting/northing (metres).
func (p *ProjectedCRS) fromAxes(x, y float64) (float64, float64) {
	if p.SwapXY {
		x, y = y, x
	}
	var c [2]float64
	c[p.Comp[0]] = p.Sign[0] * x
	c[p.Comp[1]] = p.Sign[1] * y
	if p.Linear.Metres != 1 {
		c[0], c[1] = float64(c[0]*p.Linear.Metres), float64(c[1]*p.Linear.Metres)
	}
	return c[0], c[1]
}

// ToDatum converts x, y to longitude/latitude in degrees from Greenwich on
// the base CRS's datum.
func (p *ProjectedCRS) ToDatum(x, y float64) (float64, float64, error) {
	if err := proj.CheckFinite(x, y); err != nil {
		return 0, 0, err
	}
	e, n := p.fromAxes(x, y)
	lon, lat, err := p.proj.Inverse(e, n)
	if err != nil {
		return 0, 0, err
	}
	if err := proj.CheckLonLat(lon, lat); err != nil {
		return 0, 0, fmt.Errorf("%w: (%v, %v) has no inverse", proj.ErrOutsideDomain, x, y)
	}
	return lon + p.Base.Datum.PM.Deg, lat, nil
}

// FromDatum converts longitude/latitude in degrees from Greenwich on the
// base CRS's datum to x, y.
func (p *ProjectedCRS) FromDatum(lon, lat float64) (float64, float64, error) {
	if err := proj.CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	e, n, err := p.proj.Forward(lon-p.Base.Datum.PM.Deg, lat)
	if err != nil {
		return 0, 0, err
	}
	x, y := p.toAxes(e, n)
	return x, y, nil
}

// ToLonLat converts x, y to WGS 84 longitude/latitude (degrees).
func (p *ProjectedCRS) ToLonLat(x, y float64) (float64, float64, error) {
	lon, lat, err := p.ToDatum(x, y)
	if err != nil {
		return 0, 0, err
	}
	lon, lat = p.Base.Datum.toWGS84(lon, lat)
	return lon, lat, nil
}

// FromLonLat converts WGS 84 longitude/latitude (degrees) to x, y.
func (p *ProjectedCRS) FromLonLat(lon, lat float64) (float64, float64, error) {
	if err := proj.CheckLonLat(lon, lat); err != nil {
		return 0, 0, err
	}
	lon, lat = p.Base.Datum.fromWGS84(lon, lat)
	return p.FromDatum(lon, lat)
}

func (p *ProjectedCRS) Geodetic() *GeodeticDatum { return p.Base.Datum }

// axisMapping derives the canonical components and signs of the axes of a
// projected coordinate system from their names (Easting, Westing,
// Northing, Southing, whatever the direction text of polar axes says),
// and whether pyproj's always_xy order swaps them.
func axisMapping(cs CSDef) (comp [2]int, sign [2]float64, swap bool, err error) {
	if len(cs.Axes) < 2 {
		return comp, sign, false, fmt.Errorf("coordinate system with %d axes", len(cs.Axes))
	}
	seen := [2]bool{}
	for i := 0; i < 2; i++ {
		switch strings.ToLower(cs.Axes[i].Name) {
		case "easting":
			comp[i], sign[i] = 0, 1
		case "westing":
			comp[i], sign[i] = 0, -1
		case "northing":
			comp[i], sign[i] = 1, 1
		case "southing":
			comp[i], sign[i] = 1, -1
		default:
			return comp, sign, false, fmt.Errorf("axis %q", cs.Axes[i].Name)
		}
		if seen[comp[i]] {
			return comp, sign, false, fmt.Errorf("axes %q and %q", cs.Axes[0].Name, cs.Axes[1].Name)
		}
		seen[comp[i]] = true
	}
	return comp, sign, visualSwap(cs.Axes[0].Dir, cs.Axes[1].Dir), nil
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
func (r *Registry) projectedFromRegistry(code int) (*ProjectedCRS, error) {
	return r.projectedFromRegistryOpt(code, true)
}

// projectedFromRegistryOpt builds EPSG projected CRS code; without
// needProj, a method this package does not implement leaves the CRS
// without a projection (describable, not convertible).
func (r *Registry) projectedFromRegistryOpt(code int, needProj bool) (*ProjectedCRS, error) {
	d := r.Proj(code)
	if d == nil {
		return nil, fmt.Errorf("%w: EPSG:%d", ErrUnknownCRS, code)
	}
	base, err := r.GeographicCRSCached(d.geog)
	if err != nil {
		return nil, err
	}
	cd := r.Conv(d.Conv)
	if cd == nil {
		return nil, fmt.Errorf("%w: EPSG:%d: conversion %d missing", ErrUnknownCRS, code, d.Conv)
	}
	cs, ok := r.CSs[d.cs]
	if !ok {
		return nil, fmt.Errorf("%w: EPSG:%d: coordinate system %d missing", ErrUnknownCRS, code, d.cs)
	}
	conv := &Conversion{Code: cd.Code, Name: cd.Name, Method: cd.Method, Params: cd.Params}
	uc := 0
	if len(cs.Axes) > 0 {
		uc = cs.Axes[0].Unit
	}
	u, ok := r.Units[uc]
	if !ok || u.Kind != "length" {
		return nil, fmt.Errorf("%w: EPSG:%d: linear unit %d", ErrUnknownCRS, code, uc)
	}
	unit := Unit{Name: u.Name, Metres: u.Factor}
	if uc == 9001 {
		unit = Metre
	}
	p, err := NewProjected(code, d.Name, base, conv, cs, unit, uc, r)
	if err != nil && !needProj {
		comp, sign, swap, aerr := axisMapping(cs)
		if aerr == nil {
			p, err = &ProjectedCRS{Code: code, Name: d.Name, Base: base, Conv: conv, proj: noProjection{err},
				Linear: unit, UnitCode: uc, Comp: comp, Sign: sign, SwapXY: swap, CS: cs}, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%w: EPSG:%d (%s): %v", ErrUnknownCRS, code, d.Name, err)
	}
	p.Def = d
	return p, nil
}

// NewProjected assembles a projected CRS in linear unit (EPSG unit code
// ucode, 0 when it has none) and prepares its projection.
func NewProjected(code int, name string, base *GeographicCRS, conv *Conversion, cs CSDef, unit Unit, ucode int, r *Registry) (*ProjectedCRS, error) {
	comp, sign, swap, err := axisMapping(cs)
	if err != nil {
		return nil, err
	}
	if !(unit.Metres > 0) {
		return nil, fmt.Errorf("linear unit %q", unit.Name)
	}
	pv, err := r.ParamValues(conv.Params)
	if err != nil {
		return nil, err
	}
	proj, err := proj.New(conv.Method, base.Datum.Ellipsoid, pv)
	if err != nil {
		return nil, err
	}
	return &ProjectedCRS{Code: code, Name: name, Base: base, Conv: conv, proj: proj,
		Linear: unit, UnitCode: ucode, Comp: comp, Sign: sign, SwapXY: swap, CS: cs, values: pv}, nil
}

// ParamValues converts conversion parameters to degrees, metres and unity.
func (r *Registry) ParamValues(ps []ParamDef) (proj.Params, error) {
	out := proj.Params{}
	for _, p := range ps {
		u, ok := r.Units[p.Unit]
		if !ok {
			return nil, fmt.Errorf("parameter %d: unit %d", p.Code, p.Unit)
		}
		v := p.Value
		switch u.Kind {
		case "angle":
			dv, err := r.toDegrees(p.Value, p.Unit)
			if err != nil {
				return nil, err
			}
			v = dv
		case "length":
			if p.Unit != 9001 {
				v = float64(p.Value * u.Factor)
			}
		case "scale":
			if p.Unit != 9201 {
				v = float64(p.Value * u.Factor)
			}
		}
		out[p.Code] = v
	}
	return out, nil
}

// AxisDirection splits EPSG's "South along 90°E" into the WKT direction
// and the meridian (degrees east).
func AxisDirection(d string) (dir string, meridian float64, ok bool) {
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
