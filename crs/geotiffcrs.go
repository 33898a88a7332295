package crs

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/crs/internal/core"
	"github.com/geodisaster/engine/crs/internal/proj"
	"github.com/geodisaster/engine/crs/internal/projstring"
)

// GeoTIFF coordinate transformation codes (ProjCoordTransGeoKey).
const (
	ctTransverseMercator        = 1
	ctObliqueMercator           = 3
	ctObliqueMercatorLaborde    = 4
	ctMercator                  = 7
	ctLambertConfConic2SP       = 8
	ctLambertConfConic1SP       = 9
	ctLambertAzimEqualArea      = 10
	ctAlbersEqualArea           = 11
	ctAzimuthalEquidistant      = 12
	ctPolarStereographic        = 15
	ctObliqueStereographic      = 16
	ctEquirectangular           = 17
	ctCassiniSoldner            = 18
	ctPolyconic                 = 22
	ctNewZealandMapGrid         = 26
	ctTransvMercatorSouthOrient = 27
	ctCylindricalEqualArea      = 28
	ctHotineAzimuthCenter       = 9815
)

// EPSG returns the EPSG code of the directory's horizontal CRS, as
// rasterio's CRS.to_epsg() reports it for the file: the
// ProjectedCSTypeGeoKey or GeographicTypeGeoKey code when one is given,
// else the EPSG CRS PROJ identifies the user-defined CRS with (see
// Identify; the CRS is read from the keys as GDAL reads it, see CRS). It
// returns 0 when the CRS has no EPSG code. As rasterio does, it reports a
// longitude-first geographic code ("RGFG95 (lon-lat)", 7041) as its
// latitude-first twin (4624): GeoTIFF coordinates are longitude first
// either way. (One difference is kept: for EPSG:4266 rasterio reports no
// code, because GDAL renames the datum "M_poraloko"; the engine reports
// 4266.)
func (g *GeoKeyDirectory) EPSG() int {
	if g == nil {
		return 0
	}
	model := g.Shorts[GTModelTypeGeoKey]
	pcs := g.Shorts[ProjectedCSTypeGeoKey]
	gcs := g.Shorts[GeographicTypeGeoKey]
	switch {
	case (model == ModelTypeProjected || model == 0 || model == userDefined) && pcs != 0 && pcs != userDefined:
		return int(pcs)
	case model == ModelTypeGeographic && gcs != 0 && gcs != userDefined:
		return latLonTwin(int(gcs))
	case model == 0 && gcs != 0 && gcs != userDefined && pcs == 0:
		// No model type: GDAL makes it a local CS; the engine honours the
		// geographic code as it always has.
		return int(gcs)
	}
	c, err := g.CRS()
	if err != nil || c == nil {
		return 0
	}
	return Identify(c)
}

// latLonTwin returns the non-deprecated latitude-first geographic 2D CRS
// on the same datum, prime meridian and angular unit as the
// longitude-first geographic CRS code, or code.
func latLonTwin(code int) int {
	r, err := epsg()
	if err != nil {
		return code
	}
	if twin := latLonTwinIn(r, code); r.Err() == nil {
		return twin
	}
	return code // a corrupt registry record (a build defect)
}

// latLonTwinIn is latLonTwin with registry r.
func latLonTwinIn(r *core.Registry, code int) int {
	g := r.Geog(code)
	if g == nil {
		return code
	}
	cs := r.CSs[g.Cs]
	if len(cs.Axes) < 2 || cs.Axes[0].Dir != "east" {
		return code
	}
	for _, c := range r.GeogCodes() {
		t := r.Geog(c)
		if t == nil {
			continue
		}
		tcs := r.CSs[t.Cs]
		if t.Deprecated || t.Kind != "geographic 2D" || t.Datum != g.Datum || len(tcs.Axes) < 2 ||
			tcs.Axes[0].Dir != "north" || tcs.Axes[0].Unit != cs.Axes[0].Unit {
			continue
		}
		if dg, dt := r.Datum(g.Datum), r.Datum(t.Datum); dg != nil && dt != nil && dg.PM == dt.PM {
			return c
		}
	}
	return code
}

// CRS returns the CRS the directory describes, read as GDAL 3.6 reads
// GeoKeys (libgeotiff's normalisation of the keys, then GDAL's mapping of
// each ProjCoordTransGeoKey onto an EPSG method): the EPSG CRS of a
// ProjectedCSTypeGeoKey or GeographicTypeGeoKey code; otherwise a
// user-defined CRS on the geographic CRS, datum, ellipsoid and prime
// meridian the keys give, with its +towgs84 (GeogTOWGS84GeoKey), the
// projection of ProjectionGeoKey (an EPSG conversion code) or of
// ProjCoordTransGeoKey and the Proj*GeoKey parameters (angles in degrees,
// as GDAL writes and reads them; false origins in the linear unit), in
// the linear unit of ProjLinearUnitsGeoKey or ProjLinearUnitSizeGeoKey;
// or the CRS of an "ESRI PE String = ..." citation when the model type is
// not given (ArcGIS's Web Mercator). Projections this package does not
// implement are errors wrapping ErrUnknownCRS; a directory without a CRS
// (no keys, a geocentric or local model) returns nil, nil.
func (g *GeoKeyDirectory) CRS() (CRS, error) {
	if g == nil {
		return nil, nil
	}
	c, err := g.crs()
	return checked(mustEPSG(), c, err)
}

// crs is CRS before the check for a corrupt registry record.
func (g *GeoKeyDirectory) crs() (CRS, error) {
	model := g.Shorts[GTModelTypeGeoKey]
	pcs := g.Shorts[ProjectedCSTypeGeoKey]
	gcs := g.Shorts[GeographicTypeGeoKey]
	if (model == 0 || model == userDefined) && pcs != 0 && pcs != userDefined {
		model = ModelTypeProjected
	}
	switch model {
	case ModelTypeProjected:
		if pcs != 0 && pcs != userDefined {
			return mustEPSG().DescribeEPSG(int(pcs))
		}
		return g.userProjected()
	case ModelTypeGeographic:
		return g.geographic()
	case 0:
		if gcs != 0 && gcs != userDefined {
			return g.geographic()
		}
	}
	if pe, ok := esriPEString(g.ASCII[PCSCitationGeoKey]); ok {
		return Parse(pe)
	}
	return nil, nil
}

// esriPEString extracts the WKT of an "ESRI PE String = " citation.
func esriPEString(s string) (string, bool) {
	const prefix = "ESRI PE String = "
	i := strings.Index(s, prefix)
	if i < 0 {
		return "", false
	}
	return s[i+len(prefix):], true
}

// citationPart returns the value of "key = value|" in a GDAL-written
// GeogCitationGeoKey ("GCS Name = x|Datum = y|Ellipsoid = z|Primem = w|").
func citationPart(s, key string) string {
	for _, part := range strings.Split(s, "|") {
		k, v, ok := strings.Cut(part, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), key) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// geographic builds the geographic CRS of the keys.
func (g *GeoKeyDirectory) geographic() (*core.GeographicCRS, error) {
	r, err := epsg()
	if err != nil {
		return nil, err
	}
	gcs := int(g.Shorts[GeographicTypeGeoKey])
	datumCode := int(g.Shorts[GeogGeodeticDatumGeoKey])
	ellCode := int(g.Shorts[GeogEllipsoidGeoKey])
	pmCode := int(g.Shorts[GeogPrimeMeridianGeoKey])
	angCode := int(g.Shorts[GeogAngularUnitsGeoKey])
	_, hasA := g.Doubles[GeogSemiMajorAxisGeoKey]
	_, hasPMLong := g.Doubles[GeogPrimeMeridianLongGeoKey]
	towgs := g.Doubles[GeogTOWGS84GeoKey]
	if gcs != 0 && gcs != userDefined {
		base, err := r.GeographicCRSCached(gcs)
		if err != nil {
			return nil, err
		}
		if g.consistentWith(r, base) {
			return base, nil
		}
	}
	// A user-defined geographic CRS: start from what the codes give.
	var d core.GeodeticDatum
	d.PM = core.Greenwich
	name := "unknown"
	if gcs != 0 && gcs != userDefined {
		if base, err := r.GeographicCRSCached(gcs); err == nil {
			d = *base.Datum
			name = base.Name
		}
	}
	if datumCode != 0 && datumCode != userDefined {
		if dd := r.Datum(datumCode); dd != nil {
			d.Code, d.Name, d.Key = datumCode, dd.Name, fmt.Sprintf("EPSG:%d", datumCode)
			if ed, ok := r.Ellipsoids[dd.Ell]; ok {
				if el, err := r.Ellipsoid(ed); err == nil {
					d.Ellipsoid, d.EllipsoidRef = el, core.EllipsoidRef{Code: dd.Ell, Name: ed.Name, Unit: ed.Unit}
				}
			}
			if pm, err := r.PrimeMeridian(dd.PM); err == nil {
				d.PM = pm
			}
			// The datum's shifts: those of its EPSG geographic CRS.
			for _, code := range r.GeogCodes() {
				if gd := r.Geog(code); gd != nil && gd.Datum == datumCode && !gd.Deprecated {
					if e, err := r.GeographicCRSCached(code); err == nil {
						d.Shifts = e.Datum.Shifts
						d.Key = e.Datum.Key
					}
					break
				}
			}
		} else {
			return nil, fmt.Errorf("%w: GeogGeodeticDatumGeoKey %d", ErrUnknownCRS, datumCode)
		}
	}
	if ellCode != 0 && ellCode != userDefined {
		ed, ok := r.Ellipsoids[ellCode]
		if !ok {
			if pe, ok := epsgEllipsoidFromPROJ(ellCode); ok {
				d.Ellipsoid, d.EllipsoidRef = pe.Figure(), core.EllipsoidRef{Code: ellCode, Name: pe.EPSGName, Unit: 9001}
			} else {
				return nil, fmt.Errorf("%w: GeogEllipsoidGeoKey %d", ErrUnknownCRS, ellCode)
			}
		} else if el, err := r.Ellipsoid(ed); err == nil {
			d.Ellipsoid, d.EllipsoidRef = el, core.EllipsoidRef{Code: ellCode, Name: ed.Name, Unit: ed.Unit}
		}
	}
	if hasA {
		a := g.double(GeogSemiMajorAxisGeoKey, 0)
		if !(a > 0) {
			return nil, fmt.Errorf("%w: GeogSemiMajorAxisGeoKey %v", ErrUnknownCRS, a)
		}
		switch {
		case g.double(GeogInvFlatteningGeoKey, 0) != 0:
			d.Ellipsoid = proj.NewEllipsoid(a, g.double(GeogInvFlatteningGeoKey, 0))
		case g.double(GeogSemiMinorAxisGeoKey, 0) > 0:
			d.Ellipsoid = proj.NewEllipsoidAB(a, g.double(GeogSemiMinorAxisGeoKey, 0))
		case d.Ellipsoid.A == a:
		default:
			d.Ellipsoid = proj.NewEllipsoid(a, 0)
		}
		if !d.Ellipsoid.Valid() || (d.Ellipsoid.F != 0 && !(d.Ellipsoid.Invf() > 1)) {
			return nil, fmt.Errorf("%w: ellipsoid a=%v b=%v 1/f=%v", ErrUnknownCRS, d.Ellipsoid.A, d.Ellipsoid.B, d.Ellipsoid.Invf())
		}
		if w, ok := core.PROJWellKnownEllipsoid(d.Ellipsoid.A, d.Ellipsoid.B, d.Ellipsoid.Invf()); ok {
			d.Ellipsoid = w
		}
		if d.EllipsoidRef.Code != 0 && !core.SameEllipsoid(d.Ellipsoid, mustEllipsoid(r, d.EllipsoidRef.Code)) {
			d.EllipsoidRef = core.EllipsoidRef{Name: "unknown", Unit: 9001}
		}
	}
	if d.Ellipsoid.A == 0 {
		d.Ellipsoid, d.EllipsoidRef = proj.WGS84, core.EllipsoidRef{Code: 7030, Name: "WGS 84", Unit: 9001}
	}
	if pmCode != 0 && pmCode != userDefined {
		pm, err := r.PrimeMeridian(pmCode)
		if err != nil {
			return nil, fmt.Errorf("%w: GeogPrimeMeridianGeoKey %d", ErrUnknownCRS, pmCode)
		}
		d.PM = pm
	}
	if hasPMLong {
		if v := g.double(GeogPrimeMeridianLongGeoKey, 0); v != d.PM.Deg {
			d.PM = core.PrimeMeridian{Name: "unknown", Deg: projPrimeMeridianValue(v), Value: v, Unit: 9122}
			if v == 0 {
				d.PM = core.Greenwich
			}
		}
	}
	cit := g.ASCII[GeogCitationGeoKey]
	if v := citationPart(cit, "GCS Name"); v != "" {
		name = v
	} else if cit != "" && !strings.Contains(cit, "=") && name == "unknown" {
		name = cit
	}
	if d.Name == "" {
		d.Name = "unknown"
		if v := citationPart(cit, "Datum"); v != "" {
			d.Name = v
		} else if d.EllipsoidRef.Name != "" {
			d.Name = "Unknown based on " + d.EllipsoidRef.Name + " ellipsoid"
		}
	}
	if len(towgs) > 0 {
		if !d.SetTOWGS84(towgs) {
			return nil, fmt.Errorf("%w: GeogTOWGS84GeoKey with %d values", ErrUnknownCRS, len(towgs))
		}
		d.Key = ""
	}
	if d.Key == "" || (d.Code == 0 && !d.TOWGS84) {
		if d.Ellipsoid == proj.WGS84 && len(d.Shifts) == 0 && d.PM.Deg == 0 {
			d.Key = core.WGS84Datum.Key
		} else {
			d.Key = "user:" + projstring.DatumKey(&d)
		}
	}
	unit := core.DegreeUnit
	if angCode != 0 && angCode != userDefined && angCode != 9102 && angCode != 9122 {
		u, ok := r.Units[angCode]
		if !ok || u.Kind != "angle" {
			return nil, fmt.Errorf("%w: GeogAngularUnitsGeoKey %d", ErrUnknownCRS, angCode)
		}
		unit = core.AngularUnit{Code: angCode, Name: u.Name, Radians: u.Factor}
	}
	return &core.GeographicCRS{Name: name, Datum: &d, Angular: unit, LatLon: true}, nil
}

// consistentWith reports whether the datum, ellipsoid, prime meridian and
// unit keys agree with the EPSG geographic CRS base (GDAL then takes the
// keys as that CRS) and carry no shift of their own.
func (g *GeoKeyDirectory) consistentWith(r *core.Registry, base *core.GeographicCRS) bool {
	if len(g.Doubles[GeogTOWGS84GeoKey]) > 0 {
		return false
	}
	if d := int(g.Shorts[GeogGeodeticDatumGeoKey]); d != 0 && d != userDefined && d != base.Datum.Code {
		return false
	}
	if e := int(g.Shorts[GeogEllipsoidGeoKey]); e != 0 && e != userDefined && e != base.Datum.EllipsoidRef.Code {
		return false
	}
	if a, ok := g.Doubles[GeogSemiMajorAxisGeoKey]; ok && len(a) > 0 {
		el := base.Datum.Ellipsoid
		if math.Abs(a[0]-el.A) > 1e-6*el.A {
			return false
		}
		if rf := g.double(GeogInvFlatteningGeoKey, 0); rf != 0 && math.Abs(rf-el.Invf()) > 1e-6*rf {
			return false
		}
		if b := g.double(GeogSemiMinorAxisGeoKey, 0); b != 0 && math.Abs(b-el.B) > 1e-6*el.B {
			return false
		}
	}
	if pm := int(g.Shorts[GeogPrimeMeridianGeoKey]); pm != 0 && pm != userDefined && pm != base.Datum.PM.Code {
		return false
	}
	if v, ok := g.Doubles[GeogPrimeMeridianLongGeoKey]; ok && len(v) > 0 && math.Abs(v[0]-base.Datum.PM.Deg) > 1e-9 {
		return false
	}
	return true
}

// projPrimeMeridianValue is the longitude PROJ computes with for a prime
// meridian at v degrees: its own value of a +pm it knows when v agrees
// with it to 1e-10 radians (Paris: GDAL writes EPSG's 2.33722917°, PROJ
// computes with 2°20'14.025"), else v.
func projPrimeMeridianValue(v float64) float64 {
	for _, w := range core.PROJPrimeMeridians {
		if math.Abs(w-v) < 1e-10/proj.DegToRad {
			return w
		}
	}
	return v
}

// mustEllipsoid returns the registry ellipsoid code (WGS 84 if unknown).
func mustEllipsoid(r *core.Registry, code int) proj.Ellipsoid {
	if ed, ok := r.Ellipsoids[code]; ok {
		if el, err := r.Ellipsoid(ed); err == nil {
			return el
		}
	}
	if pe, ok := epsgEllipsoidFromPROJ(code); ok {
		return pe.Figure()
	}
	return proj.WGS84
}

// epsgEllipsoidFromPROJ finds the PROJ ellipsoid of an EPSG ellipsoid code
// the registry does not carry (no CRS of it uses it).
func epsgEllipsoidFromPROJ(code int) (core.PROJEllipsoid, bool) {
	for _, e := range core.PROJEllipsoids {
		if e.EPSG == code {
			return e, true
		}
	}
	return core.PROJEllipsoid{}, false
}

// userProjected builds a user-defined projected CRS from the keys.
func (g *GeoKeyDirectory) userProjected() (CRS, error) {
	r, err := epsg()
	if err != nil {
		return nil, err
	}
	base, err := g.geographic()
	if err != nil {
		return nil, err
	}
	unit, ucode, err := g.linearUnit(r)
	if err != nil {
		return nil, err
	}
	name := "unknown"
	if c := g.ASCII[PCSCitationGeoKey]; c != "" && !strings.Contains(c, "=") {
		name = c
	} else if c := g.ASCII[GTCitationGeoKey]; c != "" && !strings.Contains(c, "=") {
		name = c
	}
	var conv *core.Conversion
	if p := int(g.Shorts[ProjectionGeoKey]); p != 0 && p != userDefined {
		cd := r.Conv(p)
		if cd == nil {
			return nil, fmt.Errorf("%w: ProjectionGeoKey %d", ErrUnknownCRS, p)
		}
		conv = &core.Conversion{Code: cd.Code, Name: cd.Name, Method: cd.Method, Params: cd.Params}
	} else {
		if conv, err = g.conversion(unit); err != nil {
			return nil, err
		}
	}
	cs, _ := projstring.AxisCS("enu", ucode)
	switch lat, polar := projstring.PolarAspect(conv.Method, conv.Params); {
	case conv.Method == proj.MethodTMSouth:
		cs, _ = projstring.AxisCS("wsu", ucode)
	case polar && conv.Method == proj.MethodLAEA:
		cs = projstring.PolarCS(lat > 0, ucode)
	case polar:
		// GDAL gives polar stereographic CRSs EPSG's axes, along the
		// meridians 90° and 180° (north) or 0° from the origin's.
		cs = polarCSAlong(lat > 0, conversionLon0(conv), ucode)
	}
	p, err := core.NewProjected(0, name, base, conv, cs, unit, ucode, r)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnknownCRS, err)
	}
	return p, nil
}

// linearUnit reads ProjLinearUnitsGeoKey or ProjLinearUnitSizeGeoKey.
func (g *GeoKeyDirectory) linearUnit(r *core.Registry) (Unit, int, error) {
	code := int(g.Shorts[ProjLinearUnitsGeoKey])
	if code == 0 || code == 9001 {
		if size := g.double(ProjLinearUnitSizeGeoKey, 0); size > 0 && size != 1 && code == 0 {
			return Unit{Name: "unknown", Metres: size}, 0, nil
		}
		return Metre, 9001, nil
	}
	if code == userDefined {
		size := g.double(ProjLinearUnitSizeGeoKey, 0)
		if !(size > 0) {
			return Unit{}, 0, fmt.Errorf("%w: user-defined linear unit without ProjLinearUnitSizeGeoKey", ErrUnknownCRS)
		}
		return Unit{Name: "unknown", Metres: size}, 0, nil
	}
	u, ok := r.Units[code]
	if !ok || u.Kind != "length" {
		return Unit{}, 0, fmt.Errorf("%w: ProjLinearUnitsGeoKey %d", ErrUnknownCRS, code)
	}
	return Unit{Name: u.Name, Metres: u.Factor}, code, nil
}

// firstDouble returns the value of the first of keys present, or def.
func (g *GeoKeyDirectory) firstDouble(def float64, keys ...uint16) float64 {
	for _, k := range keys {
		if v := g.Doubles[k]; len(v) > 0 {
			return v[0]
		}
	}
	return def
}

// conversion maps ProjCoordTransGeoKey and the parameter keys onto an
// EPSG method and parameters, as libgeotiff normalises them
// (GTIFFetchProjParms) and GDAL maps them (SetTM, SetLCC, SetPS, ...).
func (g *GeoKeyDirectory) conversion(u Unit) (*core.Conversion, error) {
	ct := int(g.Shorts[ProjCoordTransGeoKey])
	if ct == 0 {
		return nil, fmt.Errorf("%w: user-defined projected CRS without ProjCoordTransGeoKey", ErrUnknownCRS)
	}
	lin := func(v float64) float64 { return float64(v * u.Metres) }
	fe := lin(g.firstDouble(0, ProjFalseEastingGeoKey, ProjCenterEastingGeoKey, ProjFalseOriginEastingGeoKey))
	fn := lin(g.firstDouble(0, ProjFalseNorthingGeoKey, ProjCenterNorthingGeoKey, ProjFalseOriginNorthingGeoKey))
	natLon := g.firstDouble(0, ProjNatOriginLongGeoKey, ProjFalseOriginLongGeoKey, ProjCenterLongGeoKey)
	natLat := g.firstDouble(0, ProjNatOriginLatGeoKey, ProjFalseOriginLatGeoKey, ProjCenterLatGeoKey)
	scale := g.firstDouble(1, ProjScaleAtNatOriginGeoKey, ProjScaleAtCenterGeoKey)
	deg := func(code int, v float64) core.ParamDef { return core.ParamDef{Code: code, Value: v, Unit: 9122} }
	met := func(code int, v float64) core.ParamDef { return core.ParamDef{Code: code, Value: v, Unit: 9001} }
	uni := func(code int, v float64) core.ParamDef { return core.ParamDef{Code: code, Value: v, Unit: 9201} }
	c := &core.Conversion{Name: "unnamed"}
	switch ct {
	case ctTransverseMercator, ctTransvMercatorSouthOrient:
		c.Method = proj.MethodTM
		if ct == ctTransvMercatorSouthOrient {
			c.Method = proj.MethodTMSouth
		}
		c.Params = []core.ParamDef{deg(proj.ParLatOrigin, natLat), deg(proj.ParLonOrigin, natLon), uni(proj.ParScaleOrigin, scale),
			met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
	case ctMercator:
		if lat, ok := g.Doubles[ProjStdParallel1GeoKey]; ok && len(lat) > 0 {
			c.Method = proj.MethodMercatorB
			c.Params = []core.ParamDef{deg(proj.ParLat1stSP, lat[0]), deg(proj.ParLonOrigin, natLon), met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
		} else {
			c.Method = proj.MethodMercatorA
			c.Params = []core.ParamDef{deg(proj.ParLatOrigin, natLat), deg(proj.ParLonOrigin, natLon), uni(proj.ParScaleOrigin, scale),
				met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
		}
		if p := g.Shorts[ProjectionGeoKey]; p == 1024 || p == 9841 {
			c.Method = proj.MethodPseudoMercator
			c.Params = []core.ParamDef{deg(proj.ParLatOrigin, 0), deg(proj.ParLonOrigin, natLon), met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
		}
	case ctObliqueMercator, ctHotineAzimuthCenter:
		az := g.firstDouble(0, ProjAzimuthAngleGeoKey)
		rect := g.firstDouble(90, ProjRectifiedGridAngleGeoKey)
		c.Method = proj.MethodHotineA
		e, n := met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)
		if ct == ctHotineAzimuthCenter {
			c.Method = proj.MethodHotineB
			e, n = met(proj.ParEastingCentre, fe), met(proj.ParNorthingCentre, fn)
		}
		c.Params = []core.ParamDef{deg(proj.ParLatCentre, natLat), deg(proj.ParLonCentre, natLon), deg(proj.ParAzimuth, az),
			deg(proj.ParRectifiedAngle, rect), uni(proj.ParScaleCentre, scale), e, n}
	case ctObliqueMercatorLaborde:
		c.Method = proj.MethodLaborde
		c.Params = []core.ParamDef{deg(proj.ParLatCentre, natLat), deg(proj.ParLonCentre, natLon), deg(proj.ParAzimuth, g.firstDouble(0, ProjAzimuthAngleGeoKey)),
			uni(proj.ParScaleCentre, scale), met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
	case ctEquirectangular:
		c.Method = proj.MethodEquidistantCyl
		c.Params = []core.ParamDef{deg(proj.ParLat1stSP, g.firstDouble(0, ProjStdParallel1GeoKey)), deg(proj.ParLonOrigin, natLon),
			met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
		if natLat != 0 {
			c.Params = append(c.Params, deg(proj.ParLatOrigin, natLat))
		}
	case ctPolarStereographic:
		lon := g.firstDouble(0, ProjStraightVertPoleLongGeoKey, ProjNatOriginLongGeoKey, ProjFalseOriginLongGeoKey, ProjCenterLongGeoKey)
		// GDAL's SetPS: variant B (standard parallel) when the scale is 1
		// and the latitude is not a pole, else variant A.
		if scale == 1 && math.Abs(math.Abs(natLat)-90) > 1e-8 {
			c.Method = proj.MethodPolarStereoB
			c.Params = []core.ParamDef{deg(proj.ParLatStdParallel, natLat), deg(proj.ParLonOfOrigin, lon), met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
		} else {
			c.Method = proj.MethodPolarStereoA
			c.Params = []core.ParamDef{deg(proj.ParLatOrigin, natLat), deg(proj.ParLonOrigin, lon), uni(proj.ParScaleOrigin, scale),
				met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
		}
	case ctLambertConfConic2SP, ctAlbersEqualArea:
		c.Method = proj.MethodLCC2SP
		if ct == ctAlbersEqualArea {
			c.Method = proj.MethodAlbers
		}
		c.Params = []core.ParamDef{deg(proj.ParLatFalseOrigin, natLat), deg(proj.ParLonFalseOrigin, natLon),
			deg(proj.ParLat1stSP, g.firstDouble(0, ProjStdParallel1GeoKey)), deg(proj.ParLat2ndSP, g.firstDouble(0, ProjStdParallel2GeoKey)),
			met(proj.ParEastingFalseOr, fe), met(proj.ParNorthingFalseOr, fn)}
	case ctCassiniSoldner, ctPolyconic, ctAzimuthalEquidistant, ctLambertAzimEqualArea, ctNewZealandMapGrid:
		c.Method = originMethods[ct]
		c.Params = []core.ParamDef{deg(proj.ParLatOrigin, natLat), deg(proj.ParLonOrigin, natLon), met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
	case ctObliqueStereographic, ctLambertConfConic1SP:
		c.Method = originMethods[ct]
		c.Params = []core.ParamDef{deg(proj.ParLatOrigin, natLat), deg(proj.ParLonOrigin, natLon), uni(proj.ParScaleOrigin, scale),
			met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
	case ctCylindricalEqualArea:
		c.Method = proj.MethodLCEA
		c.Params = []core.ParamDef{deg(proj.ParLat1stSP, g.firstDouble(0, ProjStdParallel1GeoKey)), deg(proj.ParLonOrigin, natLon),
			met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
	default:
		return nil, fmt.Errorf("%w: ProjCoordTransGeoKey %d is not supported", ErrUnknownCRS, ct)
	}
	return c, nil
}

// originMethods are the methods of the GeoTIFF coordinate transformations
// whose parameters are a natural origin, false easting and northing (and a
// scale factor for oblique stereographic and LCC 1SP).
var originMethods = map[int]int{
	ctCassiniSoldner: proj.MethodCassini, ctPolyconic: proj.MethodPolyconic, ctAzimuthalEquidistant: proj.MethodModifiedAeqd,
	ctLambertAzimEqualArea: proj.MethodLAEA, ctNewZealandMapGrid: proj.MethodNZMG,
	ctObliqueStereographic: proj.MethodObliqueStereo, ctLambertConfConic1SP: proj.MethodLCC1SP,
}

// conversionLon0 returns a polar conversion's longitude of origin.
func conversionLon0(c *core.Conversion) float64 {
	for _, p := range c.Params {
		if p.Code == proj.ParLonOrigin || p.Code == proj.ParLonOfOrigin {
			return p.Value
		}
	}
	return 0
}

// polarCSAlong is EPSG's polar coordinate system for a projection centred
// on longitude lon0: easting along lon0+90°, northing along lon0+180°
// (north pole, axes pointing south) or lon0 (south pole, north).
func polarCSAlong(north bool, lon0 float64, ucode int) core.CSDef {
	along := func(dir string, lon float64) string {
		lon = proj.Wrap180(lon)
		hemi := "E"
		if lon < 0 {
			hemi, lon = "W", -lon
		}
		return dir + " along " + strconv.FormatFloat(lon, 'f', -1, 64) + "°" + hemi
	}
	if north {
		return core.CSDef{Kind: "Cartesian", Axes: []core.AxisDef{
			{Name: "Easting", Abbrev: "E", Dir: along("South", lon0+90), Unit: ucode},
			{Name: "Northing", Abbrev: "N", Dir: along("South", lon0+180), Unit: ucode}}}
	}
	return core.CSDef{Kind: "Cartesian", Axes: []core.AxisDef{
		{Name: "Easting", Abbrev: "E", Dir: along("North", lon0+90), Unit: ucode},
		{Name: "Northing", Abbrev: "N", Dir: along("North", lon0), Unit: ucode}}}
}
