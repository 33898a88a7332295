package crs

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/crs/internal/proj"
)

// projString formats a CRS as a PROJ string that Parse (and PROJ) read
// back as the same system.
func projString(c CRS) string {
	var sb strings.Builder
	switch v := c.(type) {
	case *geographicCRS:
		sb.WriteString("+proj=longlat")
		writeDatum(&sb, v.datum)
	case *projectedCRS:
		writeProjection(&sb, v)
		writeDatum(&sb, v.base.datum)
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

func writeDatum(sb *strings.Builder, d *geodeticDatum) {
	datumName := ""
	if !d.towgs84 && d.code != 0 {
		datumName = d.projName
	}
	if datumName != "" {
		fmt.Fprintf(sb, " +datum=%s", datumName)
	} else {
		named := false
		if name, ok := projEllipsoidName(d.el); ok {
			fmt.Fprintf(sb, " +ellps=%s", name)
			named = true
		}
		if !named {
			if d.el.F == 0 {
				fmt.Fprintf(sb, " +R=%s", fmtNum(d.el.A))
			} else {
				fmt.Fprintf(sb, " +a=%s +rf=%s", fmtNum(d.el.A), fmtNum(d.el.Invf()))
			}
		}
		if len(d.shifts) > 0 {
			h := d.shifts[0].h
			if d.towgs84 || len(d.shifts) == 1 {
				fmt.Fprintf(sb, " +towgs84=%s", towgs84Text(h))
			}
		}
	}
	if d.pm.deg != 0 {
		fmt.Fprintf(sb, " +pm=%s", fmtNum(d.pm.deg))
	}
}

// towgs84Text formats a Helmert as PROJ's 7 +towgs84 values.
func towgs84Text(h *proj.Helmert) string {
	const asec = math.Pi / 648000
	rx, ry, rz := h.M[7]/asec, h.M[2]/asec, h.M[3]/asec
	ds := (h.K - 1) * 1e6
	return strings.Join([]string{fmtNum(h.Tx), fmtNum(h.Ty), fmtNum(h.Tz), fmtNum(rx), fmtNum(ry), fmtNum(rz), fmtNum(ds)}, ",")
}

func writeUnitsAxis(sb *strings.Builder, p *projectedCRS) {
	switch {
	case p.unit.Metres == 1:
		sb.WriteString(" +units=m")
	default:
		name := ""
		for n, u := range projUnits {
			if u.metres == p.unit.Metres || (u.code == p.ucode && p.ucode > 0) {
				name = n
				break
			}
		}
		if name != "" {
			fmt.Fprintf(sb, " +units=%s", name)
		} else {
			fmt.Fprintf(sb, " +to_meter=%s", fmtNum(p.unit.Metres))
		}
	}
	axis := ""
	for i := 0; i < 2; i++ {
		c := "ewns"[p.comp[i]*2 : p.comp[i]*2+2]
		if p.sign[i] > 0 {
			axis += c[:1]
		} else {
			axis += c[1:]
		}
	}
	if axis != "en" {
		fmt.Fprintf(sb, " +axis=%su", axis)
	}
}

// writeProjection writes +proj and its parameters as PROJ 9.1 spells the
// conversion.
func writeProjection(sb *strings.Builder, p *projectedCRS) {
	pv := p.values
	w := func(k string, codes ...int) {
		if len(codes) == 0 {
			return
		}
		if v, ok := pv[codes[0]]; ok {
			fmt.Fprintf(sb, " +%s=%s", k, fmtNum(v))
		}
	}
	fe := func() { w("x_0", proj.ParFalseEasting, proj.ParEastingFalseOr, proj.ParEastingCentre) }
	en := func() {
		for _, c := range []int{proj.ParFalseEasting, proj.ParEastingFalseOr, proj.ParEastingCentre} {
			if v, ok := pv[c]; ok {
				fmt.Fprintf(sb, " +x_0=%s", fmtNum(v))
				break
			}
		}
		for _, c := range []int{proj.ParFalseNorthing, proj.ParNorthingFalseOr, proj.ParNorthingCentre} {
			if v, ok := pv[c]; ok {
				fmt.Fprintf(sb, " +y_0=%s", fmtNum(v))
				break
			}
		}
	}
	_ = fe
	switch p.conv.method {
	case proj.MethodTM, proj.MethodTM3D, proj.MethodTMSouth:
		sb.WriteString("+proj=tmerc")
		w("lat_0", proj.ParLatOrigin)
		w("lon_0", proj.ParLonOrigin)
		w("k", proj.ParScaleOrigin)
	case proj.MethodLCC1SP:
		sb.WriteString("+proj=lcc")
		w("lat_1", proj.ParLatOrigin)
		w("lat_0", proj.ParLatOrigin)
		w("lon_0", proj.ParLonOrigin)
		w("k_0", proj.ParScaleOrigin)
	case proj.MethodLCC2SP, proj.MethodLCC2SPBelgium, proj.MethodLCC2SPMichigan:
		sb.WriteString("+proj=lcc")
		w("lat_0", proj.ParLatFalseOrigin)
		w("lon_0", proj.ParLonFalseOrigin)
		w("lat_1", proj.ParLat1stSP)
		w("lat_2", proj.ParLat2ndSP)
		w("k_0", proj.ParEllipsoidScale)
	case proj.MethodAlbers:
		sb.WriteString("+proj=aea")
		w("lat_0", proj.ParLatFalseOrigin)
		w("lon_0", proj.ParLonFalseOrigin)
		w("lat_1", proj.ParLat1stSP)
		w("lat_2", proj.ParLat2ndSP)
	case proj.MethodCassini, proj.MethodHyperbolicCassini:
		sb.WriteString("+proj=cass")
		if p.conv.method == proj.MethodHyperbolicCassini {
			sb.WriteString(" +hyperbolic")
		}
		w("lat_0", proj.ParLatOrigin)
		w("lon_0", proj.ParLonOrigin)
	case proj.MethodPolarStereoA:
		sb.WriteString("+proj=stere")
		w("lat_0", proj.ParLatOrigin)
		w("lon_0", proj.ParLonOrigin)
		w("k", proj.ParScaleOrigin)
	case proj.MethodPolarStereoB:
		sb.WriteString("+proj=stere")
		if pv[proj.ParLatStdParallel] < 0 {
			sb.WriteString(" +lat_0=-90")
		} else {
			sb.WriteString(" +lat_0=90")
		}
		w("lat_ts", proj.ParLatStdParallel)
		w("lon_0", proj.ParLonOfOrigin)
	case proj.MethodObliqueStereo:
		sb.WriteString("+proj=sterea")
		w("lat_0", proj.ParLatOrigin)
		w("lon_0", proj.ParLonOrigin)
		w("k", proj.ParScaleOrigin)
	case proj.MethodHotineA, proj.MethodHotineB:
		if _, ok := p.proj.(*proj.SwissOblique); ok {
			sb.WriteString("+proj=somerc")
			w("lat_0", proj.ParLatCentre)
			w("lon_0", proj.ParLonCentre)
			w("k_0", proj.ParScaleCentre)
			break
		}
		sb.WriteString("+proj=omerc")
		if p.conv.method == proj.MethodHotineA {
			sb.WriteString(" +no_uoff")
		}
		w("lat_0", proj.ParLatCentre)
		w("lonc", proj.ParLonCentre)
		w("alpha", proj.ParAzimuth)
		w("gamma", proj.ParRectifiedAngle)
		w("k", proj.ParScaleCentre)
	case proj.MethodLAEA, proj.MethodLAEASpherical:
		sb.WriteString("+proj=laea")
		w("lat_0", proj.ParLatOrigin)
		w("lon_0", proj.ParLonOrigin)
	case proj.MethodMercatorA:
		sb.WriteString("+proj=merc")
		w("lon_0", proj.ParLonOrigin)
		w("k", proj.ParScaleOrigin)
	case proj.MethodMercatorB:
		sb.WriteString("+proj=merc")
		w("lat_ts", proj.ParLat1stSP)
		w("lon_0", proj.ParLonOrigin)
	case proj.MethodPseudoMercator:
		sb.WriteString("+proj=webmerc")
		w("lat_0", proj.ParLatOrigin)
		w("lon_0", proj.ParLonOrigin)
	case proj.MethodColombiaUrban:
		sb.WriteString("+proj=col_urban")
		w("lat_0", proj.ParLatOrigin)
		w("lon_0", proj.ParLonOrigin)
		w("h_0", proj.ParOriginHeight)
	case proj.MethodPolyconic:
		sb.WriteString("+proj=poly")
		w("lat_0", proj.ParLatOrigin)
		w("lon_0", proj.ParLonOrigin)
	case proj.MethodKrovak, proj.MethodKrovakNorth:
		sb.WriteString("+proj=krovak")
		w("lat_0", proj.ParLatCentre)
		w("lon_0", proj.ParLonOfOrigin)
		w("alpha", proj.ParColatConeAxis)
		w("lat_ts", proj.ParLatPseudoSP)
		w("k", proj.ParScalePseudoSP)
	case proj.MethodEqualEarth:
		sb.WriteString("+proj=eqearth")
		w("lon_0", proj.ParLonOrigin)
	case proj.MethodLCEA:
		sb.WriteString("+proj=cea")
		w("lat_ts", proj.ParLat1stSP)
		w("lon_0", proj.ParLonOrigin)
	case proj.MethodEquidistantCyl:
		sb.WriteString("+proj=eqc")
		w("lat_ts", proj.ParLat1stSP)
		w("lat_0", proj.ParLatOrigin)
		w("lon_0", proj.ParLonOrigin)
	case proj.MethodNZMG:
		sb.WriteString("+proj=nzmg")
		w("lat_0", proj.ParLatOrigin)
		w("lon_0", proj.ParLonOrigin)
	case proj.MethodGuam:
		sb.WriteString("+proj=aeqd +guam")
		w("lat_0", proj.ParLatOrigin)
		w("lon_0", proj.ParLonOrigin)
	case proj.MethodModifiedAeqd:
		sb.WriteString("+proj=aeqd")
		w("lat_0", proj.ParLatOrigin)
		w("lon_0", proj.ParLonOrigin)
	case proj.MethodLaborde:
		sb.WriteString("+proj=labrd")
		w("lat_0", proj.ParLatCentre)
		w("lon_0", proj.ParLonCentre)
		w("azi", proj.ParAzimuth)
		w("k", proj.ParScaleCentre)
	}
	en()
}
