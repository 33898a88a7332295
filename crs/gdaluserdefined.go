package crs

import (
	"math"
	"strings"

	"github.com/geodisaster/engine/crs/internal/core"
	"github.com/geodisaster/engine/crs/internal/proj"
	"github.com/geodisaster/engine/crs/internal/projstring"
	"github.com/geodisaster/engine/crs/internal/wkt"
)

// This file builds what gdalinfo prints for a GeoTIFF whose keys describe
// a user-defined CRS (ProjectedCSTypeGeoKey or GeographicTypeGeoKey
// 32767, as GDAL writes a CRS given by a PROJ string). GDAL 3.6
// (gt_wkt_srs.cpp, GTIFGetOGISDefnAsOSR) does not take such a CRS from a
// registry: it assembles one from libgeotiff's normalised definition with
// OGRSpatialReference's builders (SetGeogCS, SetTM, SetLCC, SetPS, ...),
// and PROJ writes the result. Hence the particulars reproduced here:
//
//   - the geographic CRS is named from the GeogCitationGeoKey parts
//     ("GCS Name = ...|Datum = ...|Ellipsoid = ...|Primem = ...|") or, for
//     what the citation does not name, from the EPSG codes of the keys
//     (a datum name massaged to WKT1 style and mapped back by PROJ); an
//     EPSG datum or ensemble becomes a plain DATUM;
//   - the ellipsoid's inverse flattening is the key's when the citation
//     names the ellipsoid, else a/(a-b) of libgeotiff's axes;
//   - every object that has an EPSG code carries it (the GEOGCRS, datum,
//     ellipsoid, units), and PROJ prints an identifier only where no
//     enclosing object has one;
//   - the conversion is named after its method (PROJ's default name for a
//     conversion built without one), its parameters in degrees and metres;
//   - the axes are "easting"/"northing" in the file's linear unit (with its
//     EPSG code), except where GDAL's builder makes its own axes (without
//     the unit's code): polar stereographic and polar LAEA get PROJ's
//     fixed polar axes (along 90°E and 180°E in the north, 90°E and 0°E in
//     the south, whatever the longitude of origin), other LAEA "(E)",
//     "(N)", south-orientated Transverse Mercator westing, southing;
//   - a GeogTOWGS84GeoKey gives a BOUNDCRS to WGS 84 whose transformation
//     is "Transformation to WGS84" (for a projected CRS the target's WGS 84
//     is a DATUM, for a geographic one EPSG:4326 as the registry has it).

// gdalGeog is a geographic CRS as GDAL assembles it from GeoKeys.
type gdalGeog struct {
	name, datum, ellipsoid, pm string
	gcs, datumCode, ellCode    int
	a, invf, pmValue           float64
}

// gdalGeogOf reads the geographic part of the keys as GTIFGetOGISDefnAsOSR
// does; ok is false for what this file does not reproduce (an angular unit
// other than the degree).
func (g *GeoKeyDirectory) gdalGeogOf(r *core.Registry, base *core.GeographicCRS) (gdalGeog, bool) {
	code := func(k uint16) int {
		if v := int(g.Shorts[k]); v != userDefined {
			return v
		}
		return 0
	}
	if u := code(GeogAngularUnitsGeoKey); u != 0 && u != 9102 && u != 9122 {
		return gdalGeog{}, false
	}
	var gg gdalGeog
	gg.gcs = code(GeographicTypeGeoKey)
	pmCode := 0
	if gd := r.Geog(gg.gcs); gd != nil {
		gg.datumCode = gd.Datum
	} else {
		gg.gcs = 0
	}
	if v := code(GeogGeodeticDatumGeoKey); v != 0 {
		gg.datumCode = v
	}
	dd := r.Datum(gg.datumCode)
	if dd == nil {
		gg.datumCode = 0
	} else {
		gg.ellCode, pmCode = dd.Ell, dd.PM
	}
	if v := code(GeogEllipsoidGeoKey); v != 0 {
		gg.ellCode = v
	}
	if v := code(GeogPrimeMeridianGeoKey); v != 0 {
		pmCode = v
	}
	ed, hasEll := r.Ellipsoids[gg.ellCode]
	if !hasEll {
		gg.ellCode = 0
	}
	cit := g.ASCII[GeogCitationGeoKey]
	if gg.gcs != 0 {
		gg.name = r.Geog(gg.gcs).Name
		cit = "" // GDAL reads the citation only for a user-defined GCS
	} else if v := citationPart(cit, "GCS Name"); v != "" {
		gg.name = v
	} else if !strings.Contains(cit, "=") {
		gg.name = cit
	}
	gg.datum = citationPart(cit, "Datum")
	if gg.datum == "" && dd != nil {
		gg.datum = gdalDatumName(strings.TrimSuffix(dd.Name, " ensemble"))
	}
	if gg.datum == "" {
		gg.datum = "unnamed"
	}
	if gg.name == "" {
		gg.name = gg.datum
	}
	// libgeotiff's axes: the keys, else the EPSG ellipsoid.
	el := base.Datum.Ellipsoid
	gg.a = el.A
	b := el.B
	if rf := g.double(GeogInvFlatteningGeoKey, 0); rf != 0 {
		b = float64(gg.a * (1 - 1/rf))
	} else if hasEll && g.double(GeogSemiMinorAxisGeoKey, 0) == 0 && g.double(GeogSemiMajorAxisGeoKey, 0) == 0 {
		f := r.Units[ed.Unit].Factor
		gg.a = float64(ed.A * f)
		switch {
		case ed.Invf != 0:
			b = float64(gg.a * (1 - 1/ed.Invf))
		case ed.B != 0:
			b = float64(ed.B * f)
		default:
			b = gg.a
		}
	}
	if gg.ellipsoid = citationPart(cit, "Ellipsoid"); gg.ellipsoid != "" {
		gg.invf = g.double(GeogInvFlatteningGeoKey, 0)
		if math.IsInf(gg.invf, 0) {
			gg.invf = 0
		}
	} else if hasEll {
		gg.ellipsoid = ed.Name
	} else {
		gg.ellipsoid = "unnamed"
	}
	if gg.invf == 0 && b != gg.a {
		gg.invf = gg.a / (gg.a - b)
		if math.Abs(gg.a-6378137) < 1e-10 && math.Abs(gg.invf-298.257223563) < 1e-10 {
			gg.invf = 298.257223563
		}
	}
	gg.pmValue = base.Datum.PM.Deg
	if gg.pm = citationPart(cit, "Primem"); gg.pm != "" {
		gg.pmValue = g.double(GeogPrimeMeridianLongGeoKey, 0)
	} else if pm, err := r.PrimeMeridian(pmCode); err == nil && pmCode != 0 {
		gg.pm = pm.Name
	} else if gg.pmValue == 0 {
		gg.pm = "Greenwich"
	} else {
		gg.pm = "unnamed"
	}
	return gg, true
}

// gdalDegreeUnit is the degree as PROJ creates it for GDAL (EPSG:9122).
func gdalDegreeUnit() *wkt.Node {
	return wkt.NewNode("ANGLEUNIT", wkt.Quote("degree"), wkt.Num(gdalDegree)).Add(wkt.IDNode(9122))
}

// node builds the GEOGCRS/BASEGEOGCRS of the geographic part, with the
// latitude, longitude axes when withCS.
func (gg gdalGeog) node(kw string, withCS bool) *wkt.Node {
	ell := wkt.NewNode("ELLIPSOID", wkt.Quote(gg.ellipsoid), wkt.Num(gg.a), wkt.Num(gg.invf)).
		Add(wkt.NewNode("LENGTHUNIT", wkt.Quote("metre"), "1").Add(wkt.IDNode(9001)), wkt.IDNode(gg.ellCode))
	n := wkt.NewNode(kw, wkt.Quote(gg.name))
	n.Add(wkt.NewNode("DATUM", wkt.Quote(gg.datum)).Add(ell, wkt.IDNode(gg.datumCode)))
	n.Add(wkt.NewNode("PRIMEM", wkt.Quote(gg.pm), wkt.Num(gg.pmValue)).Add(gdalDegreeUnit()))
	if withCS {
		n.Add(wkt.NewNode("CS", "ellipsoidal", "2"))
		for i, ax := range [][2]string{{"latitude", "north"}, {"longitude", "east"}} {
			a := wkt.NewNode("AXIS", wkt.Quote(ax[0]), ax[1]).Add(wkt.NewNode("ORDER", string(rune('1'+i))), gdalDegreeUnit())
			a.Extra = true
			n.Add(a)
		}
	}
	return n.Add(wkt.IDNode(gg.gcs))
}

// gdalUserDefinedNode returns the WKT tree gdalinfo prints for the
// user-defined CRS c of the keys, or ok false where this package does not
// reproduce GDAL's reading (ESRI PE-string citations, which GDAL hands to
// PROJ's ESRI WKT import; angular units other than the degree).
func (g *GeoKeyDirectory) gdalUserDefinedNode(r *core.Registry, c CRS) (n *wkt.Node, ok bool) {
	if _, pe := esriPEString(g.ASCII[PCSCitationGeoKey]); pe {
		return nil, false
	}
	var base *core.GeographicCRS
	p, projected := c.(*core.ProjectedCRS)
	if projected {
		base = p.Base
	} else if gc, isGeog := c.(*core.GeographicCRS); isGeog {
		base = gc
	} else {
		return nil, false
	}
	gg, ok := g.gdalGeogOf(r, base)
	if !ok {
		return nil, false
	}
	if !projected {
		n = gg.node("GEOGCRS", true)
	} else {
		n = wkt.NewNode("PROJCRS", wkt.Quote(p.Name)).Add(gg.node("BASEGEOGCRS", false))
		conv := *p.Conv
		conv.Name = wkt.MethodName(r, conv.Method)
		n.Add(wkt.ConversionNode(r, &conv))
		for _, a := range gdalProjectedAxes(p) {
			n.Add(a)
		}
	}
	if d := base.Datum; d.TOWGS84 && len(d.Shifts) > 0 && len(g.Doubles[GeogTOWGS84GeoKey]) > 0 {
		wgs, err := r.GeographicCRSCached(4326)
		if err != nil {
			return nil, false
		}
		target := wkt.GeographicNode(r, wgs, "GEOGCRS", true)
		if projected {
			demoteEnsemble(target)
		}
		n = wkt.BoundNode(n, target, "Transformation to WGS84", d.Shifts[0].H)
	}
	pruneNestedIDs(n, false)
	return n, true
}

// gdalProjectedAxes are the CS and AXIS nodes GDAL's builders give a
// user-defined projected CRS.
func gdalProjectedAxes(p *core.ProjectedCRS) []*wkt.Node {
	unit := wkt.NewNode("LENGTHUNIT", wkt.Quote(p.Linear.Name), wkt.Num(p.Linear.Metres))
	if p.Linear.Name == "metre" && p.Linear.Metres == 1 {
		unit = wkt.NewNode("LENGTHUNIT", wkt.Quote("metre"), "1")
	}
	type axis struct {
		name, dir string
		meridian  float64
	}
	var axes [2]axis
	lat, polar := projstring.PolarAspect(p.Conv.Method, p.Conv.Params)
	switch {
	case p.Conv.Method == proj.MethodPolarStereoA || p.Conv.Method == proj.MethodPolarStereoB || polar && p.Conv.Method == proj.MethodLAEA:
		if lat > 0 {
			axes = [2]axis{{"(E)", "south", 90}, {"(N)", "south", 180}}
		} else {
			axes = [2]axis{{"(E)", "north", 90}, {"(N)", "north", 0}}
		}
	case p.Conv.Method == proj.MethodLAEA:
		// SetLAEA builds its own easting, northing axes (no unit code).
		axes = [2]axis{{"(E)", "east", math.NaN()}, {"(N)", "north", math.NaN()}}
	case p.Conv.Method == proj.MethodTMSouth:
		axes = [2]axis{{"easting (Y)", "west", math.NaN()}, {"northing (X)", "south", math.NaN()}}
	default:
		// Built through GDAL's WKT1 tree: the unit keeps its EPSG code.
		unit.Add(wkt.IDNode(p.UnitCode))
		axes = [2]axis{{"easting", "east", math.NaN()}, {"northing", "north", math.NaN()}}
	}
	out := []*wkt.Node{wkt.NewNode("CS", "Cartesian", "2")}
	for i, a := range axes {
		ax := wkt.NewNode("AXIS", wkt.Quote(a.name), a.dir)
		ax.Extra = true
		if !math.IsNaN(a.meridian) {
			ax.Add(wkt.NewNode("MERIDIAN", wkt.Num(a.meridian)).Add(gdalDegreeUnit()))
		}
		out = append(out, ax.Add(wkt.NewNode("ORDER", string(rune('1'+i))), unit))
	}
	return out
}

// demoteEnsemble replaces the WGS 84 ENSEMBLE of a GEOGCRS or of a
// PROJCRS's base by DATUM["World Geodetic System 1984", ELLIPSOID[...]].
func demoteEnsemble(n *wkt.Node) {
	for i, d := range n.Children {
		switch d.Keyword {
		case "BASEGEOGCRS":
			demoteEnsemble(d)
		case "ENSEMBLE":
			nd := wkt.NewNode("DATUM", wkt.Quote("World Geodetic System 1984"))
			for _, e := range d.Children {
				if e.Keyword == "ELLIPSOID" {
					nd.Add(e)
				}
			}
			n.Children[i] = nd
		}
	}
}

// pruneNestedIDs drops the ID nodes below an object that has one, as PROJ
// prints identifiers only on the outermost identified object.
func pruneNestedIDs(n *wkt.Node, inside bool) {
	has := false
	for _, c := range n.Children {
		if c.Keyword == "ID" {
			has = true
		}
	}
	kept := n.Children[:0]
	for _, c := range n.Children {
		if c.Keyword == "ID" && inside {
			continue
		}
		pruneNestedIDs(c, inside || has)
		kept = append(kept, c)
	}
	n.Children = kept
}

// userDefinedKeys reports keys GDAL assembles a CRS from: a projected
// model without a ProjectedCSTypeGeoKey code, or a geographic model
// without a GeographicTypeGeoKey code.
func userDefinedKeys(g *GeoKeyDirectory) bool {
	pcs, gcs := g.Shorts[ProjectedCSTypeGeoKey], g.Shorts[GeographicTypeGeoKey]
	switch g.Shorts[GTModelTypeGeoKey] {
	case ModelTypeProjected:
		return pcs == 0 || pcs == userDefined
	case ModelTypeGeographic:
		return gcs == 0 || gcs == userDefined
	}
	return false
}
