package crs

import (
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/geodisaster/engine/crs/internal/core"
	"github.com/geodisaster/engine/crs/internal/wkt"
)

// GDALCoordinateSystem returns what GDAL 3.6's gdalinfo -json prints as
// coordinateSystem for a GeoTIFF with these keys: the WKT2:2019 text
// ("wkt") and dataAxisToSRSAxisMapping (GDAL's traditional GIS order:
// [2,1] when the WKT's first axis is latitude or northing, [1,2]
// otherwise).
//
// GDAL does not simply print PROJ's WKT of the code. A projected code
// alone (no other CRS keys) is imported from EPSG, except the WGS 84 UTM
// zones, whose base then shows DATUM["World Geodetic System 1984"] instead
// of the WGS 84 ensemble;
// a geographic code is rebuilt from the keys unless its datum is
// dynamic (EPSG:4326's WGS 84 ensemble, ITRF...): the inverse flattening
// recomputed from the axes as libgeotiff and GDAL compute it, no USAGE,
// latitude first. These rules give gdalinfo's text byte for byte for
// the GeoTIFFs GDAL writes for EPSG codes (tested against gdalinfo on a
// sample of codes; exceptions in docs/crs.md). User-defined keys (a
// projected or geographic model without a code, as GDAL writes a CRS given
// by a PROJ string) get the CRS GDAL assembles from them with its setters
// (see gdaluserdefined.go), byte for byte with gdalinfo for every
// projection GDAL writes to keys that this package implements; an ESRI
// PE-string citation (GDAL's Krovak, Web Mercator) gets WKT2's
// description of the CRS, which PROJ reads as the CRS gdalinfo prints
// though the names differ. A directory without a CRS gives "", nil, nil.
func (g *GeoKeyDirectory) GDALCoordinateSystem() (wkt string, dataAxisToSRSAxisMapping []int, err error) {
	wkt, dataAxisToSRSAxisMapping, err = g.gdalCoordinateSystem()
	if err == nil {
		if e := mustEPSG().Err(); e != nil {
			return "", nil, e
		}
	}
	return wkt, dataAxisToSRSAxisMapping, err
}

// gdalCoordinateSystem is GDALCoordinateSystem before the check for a
// corrupt registry record.
func (g *GeoKeyDirectory) gdalCoordinateSystem() (wkt string, dataAxisToSRSAxisMapping []int, err error) {
	c, err := g.CRS()
	if err != nil || c == nil {
		return "", nil, err
	}
	r, err := epsg()
	if err != nil {
		return "", nil, err
	}
	mapping := []int{1, 2}
	if p, ok := c.(*core.ProjectedCRS); ok && gdalSwapsAxes(p) || !ok && AuthorityOrderSwapped(c) {
		mapping = []int{2, 1}
	}
	switch v := c.(type) {
	case *core.ProjectedCRS:
		if v.Code != 0 && g.onlyProjectedCode() {
			return writeWKT(gdalProjectedCodeNode(r, v)), mapping, nil
		}
	case *core.GeographicCRS:
		if v.Code != 0 {
			if dd := r.Datum(v.Datum.Code); dd != nil && !datumIsDynamic(r, dd) {
				return writeWKT(gdalGeographicNode(r, v)), []int{2, 1}, nil
			}
		}
	}
	if userDefinedKeys(g) {
		if n, ok := g.gdalUserDefinedNode(r, c); ok {
			if _, geog := c.(*core.GeographicCRS); geog {
				return writeWKT(n), []int{2, 1}, nil
			}
			return writeWKT(n), []int{1, 2}, nil
		}
	}
	w, err := WKT2(c)
	return w, mapping, err
}

// gdalProjectedCodeNode is the WKT GDAL imports for projected CRS p given
// by its code alone.
func gdalProjectedCodeNode(r *core.Registry, p *core.ProjectedCRS) *wkt.Node {
	n := wkt.ProjectedNode(r, p)
	if (p.Code > 32600 && p.Code <= 32660) || (p.Code > 32700 && p.Code <= 32760) {
		// libgeotiff builds the WGS 84 UTM zones itself, on
		// GDAL's well-known WGS 84 datum rather than the ensemble.
		demoteEnsemble(n)
	}
	return n
}

// onlyProjectedCode reports GDAL's condition for importing a projected
// CRS from its code: none of the keys that would override it.
func (g *GeoKeyDirectory) onlyProjectedCode() bool {
	for _, k := range []uint16{ProjectionGeoKey, ProjCoordTransGeoKey, GeographicTypeGeoKey, GeogGeodeticDatumGeoKey, GeogEllipsoidGeoKey} {
		if _, ok := g.Shorts[k]; ok {
			return false
		}
	}
	return true
}

func writeWKT(n *wkt.Node) string {
	var sb strings.Builder
	n.Write(&sb, 0)
	return sb.String()
}

// datumIsDynamic reports a dynamic datum, or an ensemble of dynamic ones.
func datumIsDynamic(r *core.Registry, d *core.DatumDef) bool {
	if d.Epoch != 0 {
		return true
	}
	if len(d.Members) == 0 {
		return false
	}
	for _, m := range d.Members {
		if md := r.Datum(m); md == nil || md.Epoch == 0 {
			return false
		}
	}
	return true
}

// gdalDegree is GDAL's SRS_UA_DEGREE_CONV as CPLAtof reads it.
const gdalDegree = 0.0174532925199433

// gdalAngularUnitNode is an ANGLEUNIT as libgeotiff and GDAL build it:
// the factor from the unit's size in degrees.
func gdalAngularUnitNode(r *core.Registry, code int) *wkt.Node {
	name := "degree"
	deg := 1.0
	if code != 9102 && code != 9122 && code != 9110 && code != 9108 {
		if u, ok := r.Units[code]; ok && u.Kind == "angle" {
			name = u.Name
			deg = u.Factor / (math.Pi / 180)
			if code == 9105 {
				deg = 0.9 // grad: libgeotiff's 180/200
			}
		}
	}
	return wkt.NewNode("ANGLEUNIT", wkt.Quote(name), wkt.Num(float64(deg*gdalDegree)))
}

// gdalGeographicNode rebuilds a geographic CRS as GDAL does from a
// GeographicTypeGeoKey code.
// gdalDatumName is the datum name GDAL gives a geographic CRS it rebuilds
// from GeoKeys: it massages the name to WKT1 style (every character but
// letters, digits and '+' becomes '_', repeated and trailing '_' dropped)
// and PROJ maps it back to the EPSG name when the two compare equal
// ignoring case, spaces, '_', '-', '/', '(', ')', '.', '&' and ',' — not
// for a name with an apostrophe ("M'poraloko" stays "M_poraloko").
func gdalDatumName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r == '+' || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else if !strings.HasSuffix(b.String(), "_") {
			b.WriteByte('_')
		}
	}
	massaged := strings.TrimRight(b.String(), "_")
	canon := func(s string) string {
		return strings.Map(func(r rune) rune {
			if strings.ContainsRune(" _-/().&,", r) {
				return -1
			}
			return unicode.ToLower(r)
		}, s)
	}
	if canon(massaged) == canon(name) {
		return name
	}
	return massaged
}

// gdalSwapsAxes is GDAL's rule for the data axis mapping of a projected
// CRS in traditional GIS order (ogrspatialreference.cpp,
// isNorthEastAxisOrder): swapped when the first axis points north and the
// second east, or both point north (or both south) and are named
// "Northing" then "Easting".
func gdalSwapsAxes(p *core.ProjectedCRS) bool {
	if len(p.CS.Axes) < 2 {
		return false
	}
	a0, a1 := p.CS.Axes[0], p.CS.Axes[1]
	word := func(dir string) string {
		w, _, _ := strings.Cut(strings.ToLower(dir), " ")
		return w
	}
	d0, d1 := word(a0.Dir), word(a1.Dir)
	if d0 == "north" && d1 == "east" {
		return true
	}
	prefix := func(s, p string) bool { return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) }
	return (d0 == d1 && (d0 == "north" || d0 == "south")) && prefix(a0.Name, "northing") && prefix(a1.Name, "easting")
}

func gdalGeographicNode(r *core.Registry, g *core.GeographicCRS) *wkt.Node {
	d := g.Datum
	dd := r.Datum(d.Code)
	datumName := gdalDatumName(strings.TrimSuffix(dd.Name, " ensemble"))
	a, b := d.Ellipsoid.A, d.Ellipsoid.B
	if ed, ok := r.Ellipsoids[d.EllipsoidRef.Code]; ok {
		// libgeotiff's axes, in metres: b from the inverse flattening.
		f := r.Units[ed.Unit].Factor
		a = float64(ed.A * f)
		if ed.Invf != 0 {
			b = float64(a * (1 - 1/ed.Invf))
		} else if ed.B != 0 {
			b = float64(ed.B * f)
		} else {
			b = a
		}
	}
	invf := 0.0
	if math.Abs(a-b) >= 1e-8*a {
		invf = a / (a - b)
	}
	if math.Abs(a-6378137) < 1e-10 && math.Abs(invf-298.257223563) < 1e-10 {
		invf = 298.257223563
	}
	ell := wkt.NewNode("ELLIPSOID", wkt.Quote(d.EllipsoidRef.Name), wkt.Num(a), wkt.Num(invf)).Add(wkt.NewNode("LENGTHUNIT", wkt.Quote("metre"), "1"))
	n := wkt.NewNode("GEOGCRS", wkt.Quote(g.Name))
	n.Add(wkt.NewNode("DATUM", wkt.Quote(datumName)).Add(ell))
	pm := d.PM
	pmNode := wkt.NewNode("PRIMEM", wkt.Quote(pm.Name), wkt.Num(pm.Value)).Add(gdalAngularUnitNode(r, pm.Unit))
	n.Add(pmNode)
	cs := wkt.GeogCSDef(r, g)
	lonFirst := len(cs.Axes) > 0 && cs.Axes[0].Dir == "east"
	latName, lonName := "geodetic latitude (Lat)", "geodetic longitude (Lon)"
	if lonFirst {
		latName, lonName = "latitude", "longitude"
	}
	unit := 9122
	if len(cs.Axes) > 0 {
		unit = cs.Axes[0].Unit
	}
	n.Add(wkt.NewNode("CS", "ellipsoidal", "2"))
	for i, ax := range [][2]string{{latName, "north"}, {lonName, "east"}} {
		a := wkt.NewNode("AXIS", wkt.Quote(ax[0]), ax[1]).Add(wkt.NewNode("ORDER", strconv.Itoa(i+1)), gdalAngularUnitNode(r, unit))
		a.Extra = true
		n.Add(a)
	}
	n.Add(wkt.IDNode(g.Code))
	return n
}
