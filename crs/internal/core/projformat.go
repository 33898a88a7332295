package core

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/crs/internal/proj"
)

// crsString is the String of a system: "EPSG:n" when it has an EPSG
// code, else its PROJ string.
func crsString(c CRS) string {
	if code := c.EPSG(); code != 0 {
		return fmt.Sprintf("EPSG:%d", code)
	}
	return projString(c)
}

// projString formats a CRS as a PROJ string that Parse (and PROJ) read
// back as the same system.
func projString(c CRS) string {
	var sb strings.Builder
	switch v := c.(type) {
	case *GeographicCRS:
		sb.WriteString("+proj=longlat")
		writeDatum(&sb, v.Datum)
	case *ProjectedCRS:
		writeProjection(&sb, v)
		writeDatum(&sb, v.Base.Datum)
		writeUnitsAxis(&sb, v)
	default:
		return c.String()
	}
	sb.WriteString(" +no_defs +type=crs")
	return sb.String()
}

// fmtNum formats a PROJ string value: the shortest decimal that reads back
// exactly, without an exponent.
func fmtNum(v float64) string {
	if v != 0 && math.Abs(v) < 1e-6 {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func writeDatum(sb *strings.Builder, d *GeodeticDatum) {
	datumName := ""
	if !d.TOWGS84 && d.Code != 0 {
		datumName = d.projName
	}
	if datumName != "" {
		fmt.Fprintf(sb, " +datum=%s", datumName)
	} else {
		named := false
		if name, ok := projEllipsoidName(d.Ellipsoid); ok {
			fmt.Fprintf(sb, " +ellps=%s", name)
			named = true
		}
		if !named {
			if d.Ellipsoid.F == 0 {
				fmt.Fprintf(sb, " +R=%s", fmtNum(d.Ellipsoid.A))
			} else {
				fmt.Fprintf(sb, " +a=%s +rf=%s", fmtNum(d.Ellipsoid.A), fmtNum(d.Ellipsoid.Invf()))
			}
		}
		if len(d.Shifts) > 0 {
			h := d.Shifts[0].H
			if d.TOWGS84 || len(d.Shifts) == 1 {
				fmt.Fprintf(sb, " +towgs84=%s", towgs84Text(h))
			}
		}
	}
	if d.PM.Deg != 0 {
		fmt.Fprintf(sb, " +pm=%s", fmtNum(d.PM.Deg))
	}
}

// towgs84Text formats a Helmert as PROJ's 7 +towgs84 values.
func towgs84Text(h *proj.Helmert) string {
	const asec = math.Pi / 648000
	rx, ry, rz := h.M[7]/asec, h.M[2]/asec, h.M[3]/asec
	ds := (h.K - 1) * 1e6
	return strings.Join([]string{fmtNum(h.Tx), fmtNum(h.Ty), fmtNum(h.Tz), fmtNum(rx), fmtNum(ry), fmtNum(rz), fmtNum(ds)}, ",")
}

func writeUnitsAxis(sb *strings.Builder, p *ProjectedCRS) {
	switch {
	case p.Linear.Metres == 1:
		sb.WriteString(" +units=m")
	default:
		name := ""
		for n, u := range PROJUnits {
			if u.Metres == p.Linear.Metres || (u.Code == p.UnitCode && p.UnitCode > 0) {
				name = n
				break
			}
		}
		if name != "" {
			fmt.Fprintf(sb, " +units=%s", name)
		} else {
			fmt.Fprintf(sb, " +to_meter=%s", fmtNum(p.Linear.Metres))
		}
	}
	axis := ""
	for i := 0; i < 2; i++ {
		c := "ewns"[p.Comp[i]*2 : p.Comp[i]*2+2]
		if p.Sign[i] > 0 {
			axis += c[:1]
		} else {
			axis += c[1:]
		}
	}
	if axis != "en" {
		fmt.Fprintf(sb, " +axis=%su", axis)
	}
}

// projKey is a PROJ string parameter and the EPSG parameter it takes its
// value from.
type projKey struct {
	key  string
	code int
}

// projSpelling is how PROJ 9.1 spells a conversion method: +proj and its
// fixed flags, then the parameters in PROJ's order (false easting and
// northing follow).
type projSpelling struct {
	head string
	keys []projKey
}

var (
	latLon0    = []projKey{{"lat_0", proj.ParLatOrigin}, {"lon_0", proj.ParLonOrigin}}
	latLon0K   = []projKey{{"lat_0", proj.ParLatOrigin}, {"lon_0", proj.ParLonOrigin}, {"k", proj.ParScaleOrigin}}
	lccKeys    = []projKey{{"lat_0", proj.ParLatFalseOrigin}, {"lon_0", proj.ParLonFalseOrigin}, {"lat_1", proj.ParLat1stSP}, {"lat_2", proj.ParLat2ndSP}, {"k_0", proj.ParEllipsoidScale}}
	aeaKeys    = []projKey{{"lat_0", proj.ParLatFalseOrigin}, {"lon_0", proj.ParLonFalseOrigin}, {"lat_1", proj.ParLat1stSP}, {"lat_2", proj.ParLat2ndSP}}
	hotineKeys = []projKey{{"lat_0", proj.ParLatCentre}, {"lonc", proj.ParLonCentre}, {"alpha", proj.ParAzimuth}, {"gamma", proj.ParRectifiedAngle}, {"k", proj.ParScaleCentre}}
)

// projSpellings are the spellings by EPSG method code.
var projSpellings = map[int]projSpelling{
	proj.MethodTM:                {"+proj=tmerc", latLon0K},
	proj.MethodTM3D:              {"+proj=tmerc", latLon0K},
	proj.MethodTMSouth:           {"+proj=tmerc", latLon0K},
	proj.MethodLCC1SP:            {"+proj=lcc", []projKey{{"lat_1", proj.ParLatOrigin}, {"lat_0", proj.ParLatOrigin}, {"lon_0", proj.ParLonOrigin}, {"k_0", proj.ParScaleOrigin}}},
	proj.MethodLCC2SP:            {"+proj=lcc", lccKeys},
	proj.MethodLCC2SPBelgium:     {"+proj=lcc", lccKeys},
	proj.MethodLCC2SPMichigan:    {"+proj=lcc", lccKeys},
	proj.MethodAlbers:            {"+proj=aea", aeaKeys},
	proj.MethodCassini:           {"+proj=cass", latLon0},
	proj.MethodHyperbolicCassini: {"+proj=cass +hyperbolic", latLon0},
	proj.MethodPolarStereoA:      {"+proj=stere", latLon0K},
	// +lat_0 (±90, the pole of the standard parallel's hemisphere) is
	// written by writeProjection.
	proj.MethodPolarStereoB:   {"+proj=stere", []projKey{{"lat_ts", proj.ParLatStdParallel}, {"lon_0", proj.ParLonOfOrigin}}},
	proj.MethodObliqueStereo:  {"+proj=sterea", latLon0K},
	proj.MethodHotineA:        {"+proj=omerc +no_uoff", hotineKeys},
	proj.MethodHotineB:        {"+proj=omerc", hotineKeys},
	proj.MethodLAEA:           {"+proj=laea", latLon0},
	proj.MethodLAEASpherical:  {"+proj=laea", latLon0},
	proj.MethodMercatorA:      {"+proj=merc", []projKey{{"lon_0", proj.ParLonOrigin}, {"k", proj.ParScaleOrigin}}},
	proj.MethodMercatorB:      {"+proj=merc", []projKey{{"lat_ts", proj.ParLat1stSP}, {"lon_0", proj.ParLonOrigin}}},
	proj.MethodPseudoMercator: {"+proj=webmerc", latLon0},
	proj.MethodColombiaUrban:  {"+proj=col_urban", []projKey{{"lat_0", proj.ParLatOrigin}, {"lon_0", proj.ParLonOrigin}, {"h_0", proj.ParOriginHeight}}},
	proj.MethodPolyconic:      {"+proj=poly", latLon0},
	proj.MethodKrovak:         {"+proj=krovak", krovakKeys},
	proj.MethodKrovakNorth:    {"+proj=krovak", krovakKeys},
	proj.MethodEqualEarth:     {"+proj=eqearth", []projKey{{"lon_0", proj.ParLonOrigin}}},
	proj.MethodLCEA:           {"+proj=cea", []projKey{{"lat_ts", proj.ParLat1stSP}, {"lon_0", proj.ParLonOrigin}}},
	proj.MethodEquidistantCyl: {"+proj=eqc", []projKey{{"lat_ts", proj.ParLat1stSP}, {"lat_0", proj.ParLatOrigin}, {"lon_0", proj.ParLonOrigin}}},
	proj.MethodNZMG:           {"+proj=nzmg", latLon0},
	proj.MethodGuam:           {"+proj=aeqd +guam", latLon0},
	proj.MethodModifiedAeqd:   {"+proj=aeqd", latLon0},
	proj.MethodLaborde:        {"+proj=labrd", []projKey{{"lat_0", proj.ParLatCentre}, {"lon_0", proj.ParLonCentre}, {"azi", proj.ParAzimuth}, {"k", proj.ParScaleCentre}}},
}

var (
	krovakKeys = []projKey{{"lat_0", proj.ParLatCentre}, {"lon_0", proj.ParLonOfOrigin}, {"alpha", proj.ParColatConeAxis}, {"lat_ts", proj.ParLatPseudoSP}, {"k", proj.ParScalePseudoSP}}
	// somercSpelling is Hotine variant B as PROJ maps it onto the Swiss
	// oblique Mercator.
	somercSpelling = projSpelling{"+proj=somerc", []projKey{{"lat_0", proj.ParLatCentre}, {"lon_0", proj.ParLonCentre}, {"k_0", proj.ParScaleCentre}}}
)

// writeProjection writes +proj and its parameters as PROJ 9.1 spells the
// conversion, then the false easting and northing.
func writeProjection(sb *strings.Builder, p *ProjectedCRS) {
	pv := p.values
	sp := projSpellings[p.Conv.Method]
	if _, ok := p.proj.(*proj.SwissOblique); ok {
		sp = somercSpelling
	}
	sb.WriteString(sp.head)
	if p.Conv.Method == proj.MethodPolarStereoB {
		if pv[proj.ParLatStdParallel] < 0 {
			sb.WriteString(" +lat_0=-90")
		} else {
			sb.WriteString(" +lat_0=90")
		}
	}
	for _, k := range sp.keys {
		if v, ok := pv[k.code]; ok {
			fmt.Fprintf(sb, " +%s=%s", k.key, fmtNum(v))
		}
	}
	for _, f := range falseOrigin {
		for _, c := range f.codes {
			if v, ok := pv[c]; ok {
				fmt.Fprintf(sb, " +%s=%s", f.key, fmtNum(v))
				break
			}
		}
	}
}

// falseOrigin are +x_0 and +y_0 with the EPSG parameters that give them,
// the first present.
var falseOrigin = []struct {
	key   string
	codes []int
}{
	{"x_0", []int{proj.ParFalseEasting, proj.ParEastingFalseOr, proj.ParEastingCentre}},
	{"y_0", []int{proj.ParFalseNorthing, proj.ParNorthingFalseOr, proj.ParNorthingCentre}},
}
