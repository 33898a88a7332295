package crs

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/crs/internal/proj"
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
	g := r.geog[code]
	if g == nil {
		return code
	}
	cs := r.css[g.cs]
	if len(cs.axes) < 2 || cs.axes[0].dir != "east" {
		return code
	}
	for _, c := range r.geogCodes {
		t := r.geog[c]
		tcs := r.css[t.cs]
		if t.deprecated || t.typ != "geographic 2D" || t.datum != g.datum || len(tcs.axes) < 2 ||
			tcs.axes[0].dir != "north" || tcs.axes[0].unit != cs.axes[0].unit {
			continue
		}
		if dg, dt := r.datums[g.datum], r.datums[t.datum]; dg != nil && dt != nil && dg.pm == dt.pm {
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
	model := g.Shorts[GTModelTypeGeoKey]
	pcs := g.Shorts[ProjectedCSTypeGeoKey]
	gcs := g.Shorts[GeographicTypeGeoKey]
	if (model == 0 || model == userDefined) && pcs != 0 && pcs != userDefined {
		model = ModelTypeProjected
	}
	switch model {
	case ModelTypeProjected:
		if pcs != 0 && pcs != userDefined {
			return mustEPSG().describeEPSG(int(pcs))
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
func (g *GeoKeyDirectory) geographic() (*geographicCRS, error) {
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
		base, err := r.geographicCRSCached(gcs)
		if err != nil {
			return nil, err
		}
		if g.consistentWith(r, base) {
			return base, nil
		}
	}
	// A user-defined geographic CRS: start from what the codes give.
	var d geodeticDatum
	d.pm = greenwich
	name := "unknown"
	if gcs != 0 && gcs != userDefined {
		if base, err := r.geographicCRSCached(gcs); err == nil {
			d = *base.datum
			name = base.name
		}
	}
	if datumCode != 0 && datumCode != userDefined {
		if dd := r.datums[datumCode]; dd != nil {
			d.code, d.name, d.key = datumCode, dd.name, fmt.Sprintf("EPSG:%d", datumCode)
			if ed, ok := r.ellipsoids[dd.ell]; ok {
				if el, err := r.ellipsoid(ed); err == nil {
					d.el, d.ellRef = el, ellipsoidRef{code: dd.ell, name: ed.name, unit: ed.unit}
				}
			}
			if pm, err := r.primeMeridian(dd.pm); err == nil {
				d.pm = pm
			}
			// The datum's shifts: those of its EPSG geographic CRS.
			for _, code := range r.geogCodes {
				if gd := r.geog[code]; gd.datum == datumCode && !gd.deprecated {
					if e, err := r.geographicCRSCached(code); err == nil {
						d.shifts = e.datum.shifts
						d.key = e.datum.key
					}
					break
				}
			}
		} else {
			return nil, fmt.Errorf("%w: GeogGeodeticDatumGeoKey %d", ErrUnknownCRS, datumCode)
		}
	}
	if ellCode != 0 && ellCode != userDefined {
		ed, ok := r.ellipsoids[ellCode]
		if !ok {
			if pe, ok := epsgEllipsoidFromPROJ(ellCode); ok {
				d.el, d.ellRef = pe.figure(), ellipsoidRef{code: ellCode, name: pe.epsgNam, unit: 9001}
			} else {
				return nil, fmt.Errorf("%w: GeogEllipsoidGeoKey %d", ErrUnknownCRS, ellCode)
			}
		} else if el, err := r.ellipsoid(ed); err == nil {
			d.el, d.ellRef = el, ellipsoidRef{code: ellCode, name: ed.name, unit: ed.unit}
		}
	}
	if hasA {
		a := g.double(GeogSemiMajorAxisGeoKey, 0)
		if !(a > 0) {
			return nil, fmt.Errorf("%w: GeogSemiMajorAxisGeoKey %v", ErrUnknownCRS, a)
		}
		switch {
		case g.double(GeogInvFlatteningGeoKey, 0) != 0:
			d.el = proj.NewEllipsoid(a, g.double(GeogInvFlatteningGeoKey, 0))
		case g.double(GeogSemiMinorAxisGeoKey, 0) > 0:
			d.el = proj.NewEllipsoidAB(a, g.double(GeogSemiMinorAxisGeoKey, 0))
		case d.el.A == a:
		default:
			d.el = proj.NewEllipsoid(a, 0)
		}
		if !d.el.Valid() || (d.el.F != 0 && !(d.el.Invf() > 1)) {
			return nil, fmt.Errorf("%w: ellipsoid a=%v b=%v 1/f=%v", ErrUnknownCRS, d.el.A, d.el.B, d.el.Invf())
		}
		if w, ok := projWellKnownEllipsoid(d.el.A, d.el.B, d.el.Invf()); ok {
			d.el = w
		}
		if d.ellRef.code != 0 && !sameEllipsoid(d.el, mustEllipsoid(r, d.ellRef.code)) {
			d.ellRef = ellipsoidRef{name: "unknown", unit: 9001}
		}
	}
	if d.el.A == 0 {
		d.el, d.ellRef = proj.WGS84, ellipsoidRef{code: 7030, name: "WGS 84", unit: 9001}
	}
	if pmCode != 0 && pmCode != userDefined {
		pm, err := r.primeMeridian(pmCode)
		if err != nil {
			return nil, fmt.Errorf("%w: GeogPrimeMeridianGeoKey %d", ErrUnknownCRS, pmCode)
		}
		d.pm = pm
	}
	if hasPMLong {
		if v := g.double(GeogPrimeMeridianLongGeoKey, 0); v != d.pm.deg {
			d.pm = primeMeridian{name: "unknown", deg: projPrimeMeridianValue(v), value: v, unit: 9122}
			if v == 0 {
				d.pm = greenwich
			}
		}
	}
	cit := g.ASCII[GeogCitationGeoKey]
	if v := citationPart(cit, "GCS Name"); v != "" {
		name = v
	} else if cit != "" && !strings.Contains(cit, "=") && name == "unknown" {
		name = cit
	}
	if d.name == "" {
		d.name = "unknown"
		if v := citationPart(cit, "Datum"); v != "" {
			d.name = v
		} else if d.ellRef.name != "" {
			d.name = "Unknown based on " + d.ellRef.name + " ellipsoid"
		}
	}
	if len(towgs) > 0 {
		if !d.setTOWGS84(towgs) {
			return nil, fmt.Errorf("%w: GeogTOWGS84GeoKey with %d values", ErrUnknownCRS, len(towgs))
		}
		d.key = ""
	}
	if d.key == "" || (d.code == 0 && !d.towgs84) {
		if d.el == proj.WGS84 && len(d.shifts) == 0 && d.pm.deg == 0 {
			d.key = wgs84Datum.key
		} else {
			d.key = "user:" + datumKey(&d)
		}
	}
	unit := degreeUnit
	if angCode != 0 && angCode != userDefined && angCode != 9102 && angCode != 9122 {
		u, ok := r.units[angCode]
		if !ok || u.typ != "angle" {
			return nil, fmt.Errorf("%w: GeogAngularUnitsGeoKey %d", ErrUnknownCRS, angCode)
		}
		unit = angularUnit{code: angCode, name: u.name, radians: u.factor}
	}
	return &geographicCRS{name: name, datum: &d, unit: unit, latLon: true}, nil
}

// consistentWith reports whether the datum, ellipsoid, prime meridian and
// unit keys agree with the EPSG geographic CRS base (GDAL then takes the
// keys as that CRS) and carry no shift of their own.
func (g *GeoKeyDirectory) consistentWith(r *registry, base *geographicCRS) bool {
	if len(g.Doubles[GeogTOWGS84GeoKey]) > 0 {
		return false
	}
	if d := int(g.Shorts[GeogGeodeticDatumGeoKey]); d != 0 && d != userDefined && d != base.datum.code {
		return false
	}
	if e := int(g.Shorts[GeogEllipsoidGeoKey]); e != 0 && e != userDefined && e != base.datum.ellRef.code {
		return false
	}
	if a, ok := g.Doubles[GeogSemiMajorAxisGeoKey]; ok && len(a) > 0 {
		el := base.datum.el
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
	if pm := int(g.Shorts[GeogPrimeMeridianGeoKey]); pm != 0 && pm != userDefined && pm != base.datum.pm.code {
		return false
	}
	if v, ok := g.Doubles[GeogPrimeMeridianLongGeoKey]; ok && len(v) > 0 && math.Abs(v[0]-base.datum.pm.deg) > 1e-9 {
		return false
	}
	return true
}

// projPrimeMeridianValue is the longitude PROJ computes with for a prime
// meridian at v degrees: its own value of a +pm it knows when v agrees
// with it to 1e-10 radians (Paris: GDAL writes EPSG's 2.33722917°, PROJ
// computes with 2°20'14.025"), else v.
func projPrimeMeridianValue(v float64) float64 {
	for _, w := range projPrimeMeridians {
		if math.Abs(w-v) < 1e-10/proj.DegToRad {
			return w
		}
	}
	return v
}

// mustEllipsoid returns the registry ellipsoid code (WGS 84 if unknown).
func mustEllipsoid(r *registry, code int) proj.Ellipsoid {
	if ed, ok := r.ellipsoids[code]; ok {
		if el, err := r.ellipsoid(ed); err == nil {
			return el
		}
	}
	if pe, ok := epsgEllipsoidFromPROJ(code); ok {
		return pe.figure()
	}
	return proj.WGS84
}

// epsgEllipsoidFromPROJ finds the PROJ ellipsoid of an EPSG ellipsoid code
// the registry does not carry (no CRS of it uses it).
func epsgEllipsoidFromPROJ(code int) (projEllipsoid, bool) {
	for _, e := range projEllipsoids {
		if e.epsg == code {
			return e, true
		}
	}
	return projEllipsoid{}, false
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
	var conv *conversion
	if p := int(g.Shorts[ProjectionGeoKey]); p != 0 && p != userDefined {
		cd := r.convs[p]
		if cd == nil {
			return nil, fmt.Errorf("%w: ProjectionGeoKey %d", ErrUnknownCRS, p)
		}
		conv = &conversion{code: cd.code, name: cd.name, method: cd.method, params: cd.params}
	} else {
		if conv, err = g.conversion(unit); err != nil {
			return nil, err
		}
	}
	cs, _ := axisCS("enu", ucode)
	switch lat, polar := polarAspect(conv.method, conv.params); {
	case conv.method == proj.MethodTMSouth:
		cs, _ = axisCS("wsu", ucode)
	case polar && conv.method == proj.MethodLAEA:
		cs = polarCS(lat > 0, ucode)
	case polar:
		// GDAL gives polar stereographic CRSs EPSG's axes, along the
		// meridians 90° and 180° (north) or 0° from the origin's.
		cs = polarCSAlong(lat > 0, conversionLon0(conv), ucode)
	}
	p, err := newProjected(0, name, base, conv, cs, unit, ucode, r)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnknownCRS, err)
	}
	return p, nil
}

// linearUnit reads ProjLinearUnitsGeoKey or ProjLinearUnitSizeGeoKey.
func (g *GeoKeyDirectory) linearUnit(r *registry) (Unit, int, error) {
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
	u, ok := r.units[code]
	if !ok || u.typ != "length" {
		return Unit{}, 0, fmt.Errorf("%w: ProjLinearUnitsGeoKey %d", ErrUnknownCRS, code)
	}
	return Unit{Name: u.name, Metres: u.factor}, code, nil
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
func (g *GeoKeyDirectory) conversion(u Unit) (*conversion, error) {
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
	deg := func(code int, v float64) paramDef { return paramDef{code: code, value: v, unit: 9122} }
	met := func(code int, v float64) paramDef { return paramDef{code: code, value: v, unit: 9001} }
	uni := func(code int, v float64) paramDef { return paramDef{code: code, value: v, unit: 9201} }
	c := &conversion{name: "unnamed"}
	switch ct {
	case ctTransverseMercator, ctTransvMercatorSouthOrient:
		c.method = proj.MethodTM
		if ct == ctTransvMercatorSouthOrient {
			c.method = proj.MethodTMSouth
		}
		c.params = []paramDef{deg(proj.ParLatOrigin, natLat), deg(proj.ParLonOrigin, natLon), uni(proj.ParScaleOrigin, scale),
			met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
	case ctMercator:
		if lat, ok := g.Doubles[ProjStdParallel1GeoKey]; ok && len(lat) > 0 {
			c.method = proj.MethodMercatorB
			c.params = []paramDef{deg(proj.ParLat1stSP, lat[0]), deg(proj.ParLonOrigin, natLon), met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
		} else {
			c.method = proj.MethodMercatorA
			c.params = []paramDef{deg(proj.ParLatOrigin, natLat), deg(proj.ParLonOrigin, natLon), uni(proj.ParScaleOrigin, scale),
				met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
		}
		if p := g.Shorts[ProjectionGeoKey]; p == 1024 || p == 9841 {
			c.method = proj.MethodPseudoMercator
			c.params = []paramDef{deg(proj.ParLatOrigin, 0), deg(proj.ParLonOrigin, natLon), met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
		}
	case ctObliqueMercator, ctHotineAzimuthCenter:
		az := g.firstDouble(0, ProjAzimuthAngleGeoKey)
		rect := g.firstDouble(90, ProjRectifiedGridAngleGeoKey)
		c.method = proj.MethodHotineA
		e, n := met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)
		if ct == ctHotineAzimuthCenter {
			c.method = proj.MethodHotineB
			e, n = met(proj.ParEastingCentre, fe), met(proj.ParNorthingCentre, fn)
		}
		c.params = []paramDef{deg(proj.ParLatCentre, natLat), deg(proj.ParLonCentre, natLon), deg(proj.ParAzimuth, az),
			deg(proj.ParRectifiedAngle, rect), uni(proj.ParScaleCentre, scale), e, n}
	case ctObliqueMercatorLaborde:
		c.method = proj.MethodLaborde
		c.params = []paramDef{deg(proj.ParLatCentre, natLat), deg(proj.ParLonCentre, natLon), deg(proj.ParAzimuth, g.firstDouble(0, ProjAzimuthAngleGeoKey)),
			uni(proj.ParScaleCentre, scale), met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
	case ctEquirectangular:
		c.method = proj.MethodEquidistantCyl
		c.params = []paramDef{deg(proj.ParLat1stSP, g.firstDouble(0, ProjStdParallel1GeoKey)), deg(proj.ParLonOrigin, natLon),
			met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
		if natLat != 0 {
			c.params = append(c.params, deg(proj.ParLatOrigin, natLat))
		}
	case ctPolarStereographic:
		lon := g.firstDouble(0, ProjStraightVertPoleLongGeoKey, ProjNatOriginLongGeoKey, ProjFalseOriginLongGeoKey, ProjCenterLongGeoKey)
		// GDAL's SetPS: variant B (standard parallel) when the scale is 1
		// and the latitude is not a pole, else variant A.
		if scale == 1 && math.Abs(math.Abs(natLat)-90) > 1e-8 {
			c.method = proj.MethodPolarStereoB
			c.params = []paramDef{deg(proj.ParLatStdParallel, natLat), deg(proj.ParLonOfOrigin, lon), met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
		} else {
			c.method = proj.MethodPolarStereoA
			c.params = []paramDef{deg(proj.ParLatOrigin, natLat), deg(proj.ParLonOrigin, lon), uni(proj.ParScaleOrigin, scale),
				met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
		}
	case ctLambertConfConic2SP, ctAlbersEqualArea:
		c.method = proj.MethodLCC2SP
		if ct == ctAlbersEqualArea {
			c.method = proj.MethodAlbers
		}
		c.params = []paramDef{deg(proj.ParLatFalseOrigin, natLat), deg(proj.ParLonFalseOrigin, natLon),
			deg(proj.ParLat1stSP, g.firstDouble(0, ProjStdParallel1GeoKey)), deg(proj.ParLat2ndSP, g.firstDouble(0, ProjStdParallel2GeoKey)),
			met(proj.ParEastingFalseOr, fe), met(proj.ParNorthingFalseOr, fn)}
	case ctCassiniSoldner, ctPolyconic, ctAzimuthalEquidistant, ctLambertAzimEqualArea, ctNewZealandMapGrid:
		c.method = originMethods[ct]
		c.params = []paramDef{deg(proj.ParLatOrigin, natLat), deg(proj.ParLonOrigin, natLon), met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
	case ctObliqueStereographic, ctLambertConfConic1SP:
		c.method = originMethods[ct]
		c.params = []paramDef{deg(proj.ParLatOrigin, natLat), deg(proj.ParLonOrigin, natLon), uni(proj.ParScaleOrigin, scale),
			met(proj.ParFalseEasting, fe), met(proj.ParFalseNorthing, fn)}
	case ctCylindricalEqualArea:
		c.method = proj.MethodLCEA
		c.params = []paramDef{deg(proj.ParLat1stSP, g.firstDouble(0, ProjStdParallel1GeoKey)), deg(proj.ParLonOrigin, natLon),
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
func conversionLon0(c *conversion) float64 {
	for _, p := range c.params {
		if p.code == proj.ParLonOrigin || p.code == proj.ParLonOfOrigin {
			return p.value
		}
	}
	return 0
}

// polarCSAlong is EPSG's polar coordinate system for a projection centred
// on longitude lon0: easting along lon0+90°, northing along lon0+180°
// (north pole, axes pointing south) or lon0 (south pole, north).
func polarCSAlong(north bool, lon0 float64, ucode int) csDef {
	along := func(dir string, lon float64) string {
		lon = proj.Wrap180(lon)
		hemi := "E"
		if lon < 0 {
			hemi, lon = "W", -lon
		}
		return dir + " along " + strconv.FormatFloat(lon, 'f', -1, 64) + "°" + hemi
	}
	if north {
		return csDef{typ: "Cartesian", axes: []axisDef{
			{name: "Easting", abbrev: "E", dir: along("South", lon0+90), unit: ucode},
			{name: "Northing", abbrev: "N", dir: along("South", lon0+180), unit: ucode}}}
	}
	return csDef{typ: "Cartesian", axes: []axisDef{
		{name: "Easting", abbrev: "E", dir: along("North", lon0+90), unit: ucode},
		{name: "Northing", abbrev: "N", dir: along("North", lon0), unit: ucode}}}
}
