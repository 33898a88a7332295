package crs

import (
	"math"
	"strings"

	"github.com/geodisaster/engine/crs/internal/proj"
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
func (g *GeoKeyDirectory) gdalGeogOf(r *registry, base *geographicCRS) (gdalGeog, bool) {
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
	if gd := r.geog[gg.gcs]; gd != nil {
		gg.datumCode = gd.datum
	} else {
		gg.gcs = 0
	}
	if v := code(GeogGeodeticDatumGeoKey); v != 0 {
		gg.datumCode = v
	}
	dd := r.datums[gg.datumCode]
	if dd == nil {
		gg.datumCode = 0
	} else {
		gg.ellCode, pmCode = dd.ell, dd.pm
	}
	if v := code(GeogEllipsoidGeoKey); v != 0 {
		gg.ellCode = v
	}
	if v := code(GeogPrimeMeridianGeoKey); v != 0 {
		pmCode = v
	}
	ed, hasEll := r.ellipsoids[gg.ellCode]
	if !hasEll {
		gg.ellCode = 0
	}
	cit := g.ASCII[GeogCitationGeoKey]
	if gg.gcs != 0 {
		gg.name = r.geog[gg.gcs].name
		cit = "" // GDAL reads the citation only for a user-defined GCS
	} else if v := citationPart(cit, "GCS Name"); v != "" {
		gg.name = v
	} else if !strings.Contains(cit, "=") {
		gg.name = cit
	}
	gg.datum = citationPart(cit, "Datum")
	if gg.datum == "" && dd != nil {
		gg.datum = gdalDatumName(strings.TrimSuffix(dd.name, " ensemble"))
	}
	if gg.datum == "" {
		gg.datum = "unnamed"
	}
	if gg.name == "" {
		gg.name = gg.datum
	}
	// libgeotiff's axes: the keys, else the EPSG ellipsoid.
	el := base.datum.el
	gg.a = el.A
	b := el.B
	if rf := g.double(GeogInvFlatteningGeoKey, 0); rf != 0 {
		b = float64(gg.a * (1 - 1/rf))
	} else if hasEll && g.double(GeogSemiMinorAxisGeoKey, 0) == 0 && g.double(GeogSemiMajorAxisGeoKey, 0) == 0 {
		f := r.units[ed.unit].factor
		gg.a = float64(ed.a * f)
		switch {
		case ed.invf != 0:
			b = float64(gg.a * (1 - 1/ed.invf))
		case ed.b != 0:
			b = float64(ed.b * f)
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
		gg.ellipsoid = ed.name
	} else {
		gg.ellipsoid = "unnamed"
	}
	if gg.invf == 0 && b != gg.a {
		gg.invf = gg.a / (gg.a - b)
		if math.Abs(gg.a-6378137) < 1e-10 && math.Abs(gg.invf-298.257223563) < 1e-10 {
			gg.invf = 298.257223563
		}
	}
	gg.pmValue = base.datum.pm.deg
	if gg.pm = citationPart(cit, "Primem"); gg.pm != "" {
		gg.pmValue = g.double(GeogPrimeMeridianLongGeoKey, 0)
	} else if pm, err := r.primeMeridian(pmCode); err == nil && pmCode != 0 {
		gg.pm = pm.name
	} else if gg.pmValue == 0 {
		gg.pm = "Greenwich"
	} else {
		gg.pm = "unnamed"
	}
	return gg, true
}

// gdalDegreeUnit is the degree as PROJ creates it for GDAL (EPSG:9122).
func gdalDegreeUnit() *wktNode {
	return node("ANGLEUNIT", quote("degree"), wktNum(gdalDegree)).add(idNode(9122))
}

// node builds the GEOGCRS/BASEGEOGCRS of the geographic part, with the
// latitude, longitude axes when withCS.
func (gg gdalGeog) node(kw string, withCS bool) *wktNode {
	ell := node("ELLIPSOID", quote(gg.ellipsoid), wktNum(gg.a), wktNum(gg.invf)).
		add(node("LENGTHUNIT", quote("metre"), "1").add(idNode(9001)), idNode(gg.ellCode))
	n := node(kw, quote(gg.name))
	n.add(node("DATUM", quote(gg.datum)).add(ell, idNode(gg.datumCode)))
	n.add(node("PRIMEM", quote(gg.pm), wktNum(gg.pmValue)).add(gdalDegreeUnit()))
	if withCS {
		n.add(node("CS", "ellipsoidal", "2"))
		for i, ax := range [][2]string{{"latitude", "north"}, {"longitude", "east"}} {
			a := node("AXIS", quote(ax[0]), ax[1]).add(node("ORDER", string(rune('1'+i))), gdalDegreeUnit())
			a.extra = true
			n.add(a)
		}
	}
	return n.add(idNode(gg.gcs))
}

// gdalUserDefinedNode returns the WKT tree gdalinfo prints for the
// user-defined CRS c of the keys, or ok false where this package does not
// reproduce GDAL's reading (ESRI PE-string citations, which GDAL hands to
// PROJ's ESRI WKT import; angular units other than the degree).
func (g *GeoKeyDirectory) gdalUserDefinedNode(r *registry, c CRS) (n *wktNode, ok bool) {
	if _, pe := esriPEString(g.ASCII[PCSCitationGeoKey]); pe {
		return nil, false
	}
	var base *geographicCRS
	p, projected := c.(*projectedCRS)
	if projected {
		base = p.base
	} else if gc, isGeog := c.(*geographicCRS); isGeog {
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
		n = node("PROJCRS", quote(p.name)).add(gg.node("BASEGEOGCRS", false))
		conv := *p.conv
		conv.name = methodName(r, conv.method)
		n.add(conversionNode(r, &conv))
		for _, a := range gdalProjectedAxes(p) {
			n.add(a)
		}
	}
	if d := base.datum; d.towgs84 && len(d.shifts) > 0 && len(g.Doubles[GeogTOWGS84GeoKey]) > 0 {
		wgs, err := r.geographicCRSCached(4326)
		if err != nil {
			return nil, false
		}
		target := geographicNode(r, wgs, "GEOGCRS", true)
		if projected {
			demoteEnsemble(target)
		}
		n = boundNode(n, target, "Transformation to WGS84", d.shifts[0].h)
	}
	pruneNestedIDs(n, false)
	return n, true
}

// gdalProjectedAxes are the CS and AXIS nodes GDAL's builders give a
// user-defined projected CRS.
func gdalProjectedAxes(p *projectedCRS) []*wktNode {
	unit := node("LENGTHUNIT", quote(p.unit.Name), wktNum(p.unit.Metres))
	if p.unit.Name == "metre" && p.unit.Metres == 1 {
		unit = node("LENGTHUNIT", quote("metre"), "1")
	}
	type axis struct {
		name, dir string
		meridian  float64
	}
	var axes [2]axis
	lat, polar := polarAspect(p.conv.method, p.conv.params)
	switch {
	case p.conv.method == proj.MethodPolarStereoA || p.conv.method == proj.MethodPolarStereoB || polar && p.conv.method == proj.MethodLAEA:
		if lat > 0 {
			axes = [2]axis{{"(E)", "south", 90}, {"(N)", "south", 180}}
		} else {
			axes = [2]axis{{"(E)", "north", 90}, {"(N)", "north", 0}}
		}
	case p.conv.method == proj.MethodLAEA:
		// SetLAEA builds its own easting, northing axes (no unit code).
		axes = [2]axis{{"(E)", "east", math.NaN()}, {"(N)", "north", math.NaN()}}
	case p.conv.method == proj.MethodTMSouth:
		axes = [2]axis{{"easting (Y)", "west", math.NaN()}, {"northing (X)", "south", math.NaN()}}
	default:
		// Built through GDAL's WKT1 tree: the unit keeps its EPSG code.
		unit.add(idNode(p.ucode))
		axes = [2]axis{{"easting", "east", math.NaN()}, {"northing", "north", math.NaN()}}
	}
	out := []*wktNode{node("CS", "Cartesian", "2")}
	for i, a := range axes {
		ax := node("AXIS", quote(a.name), a.dir)
		ax.extra = true
		if !math.IsNaN(a.meridian) {
			ax.add(node("MERIDIAN", wktNum(a.meridian)).add(gdalDegreeUnit()))
		}
		out = append(out, ax.add(node("ORDER", string(rune('1'+i))), unit))
	}
	return out
}

// demoteEnsemble replaces the WGS 84 ENSEMBLE of a GEOGCRS or of a
// PROJCRS's base by DATUM["World Geodetic System 1984", ELLIPSOID[...]].
func demoteEnsemble(n *wktNode) {
	for i, d := range n.children {
		switch d.kw {
		case "BASEGEOGCRS":
			demoteEnsemble(d)
		case "ENSEMBLE":
			nd := node("DATUM", quote("World Geodetic System 1984"))
			for _, e := range d.children {
				if e.kw == "ELLIPSOID" {
					nd.add(e)
				}
			}
			n.children[i] = nd
		}
	}
}

// pruneNestedIDs drops the ID nodes below an object that has one, as PROJ
// prints identifiers only on the outermost identified object.
func pruneNestedIDs(n *wktNode, inside bool) {
	has := false
	for _, c := range n.children {
		if c.kw == "ID" {
			has = true
		}
	}
	kept := n.children[:0]
	for _, c := range n.children {
		if c.kw == "ID" && inside {
			continue
		}
		pruneNestedIDs(c, inside || has)
		kept = append(kept, c)
	}
	n.children = kept
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
