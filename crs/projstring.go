package crs

import (
	"fmt"
	"strconv"
	"strings"
)

// parseProjString interprets the PROJ strings of the systems this package
// implements: "+proj=longlat +datum=WGS84", "+proj=utm +zone=Z [+south]
// +datum=WGS84", "+proj=aeqd +lat_0=φ +lon_0=λ +datum=WGS84" and
// "+proj=webmerc +datum=WGS84" (or the "+proj=merc +a=6378137 +b=6378137
// ..." spelling of EPSG:3857). +ellps=WGS84 may stand for +datum=WGS84;
// +units=m, +no_defs, +type=crs and zero +x_0/+y_0/+k are accepted. Any
// other parameter or value is an error, never silently ignored.
func parseProjString(s string) (CRS, error) {
	params := map[string]string{}
	for _, tok := range strings.Fields(s) {
		tok = strings.TrimPrefix(tok, "+")
		k, v, _ := strings.Cut(tok, "=")
		if _, dup := params[k]; dup {
			return nil, fmt.Errorf("%w: %q: repeated +%s", ErrUnknownCRS, s, k)
		}
		params[k] = v
	}
	bad := func(why string) error { return fmt.Errorf("%w: %q: %s", ErrUnknownCRS, s, why) }
	take := func(k string) (string, bool) {
		v, ok := params[k]
		delete(params, k)
		return v, ok
	}
	num := func(k string) (float64, bool, error) {
		v, ok := take(k)
		if !ok {
			return 0, false, nil
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, true, bad("+" + k + " is not a number")
		}
		return f, true, nil
	}
	proj, _ := take("proj")
	datum, hasDatum := take("datum")
	ellps, hasEllps := take("ellps")
	wgs84 := (hasDatum && datum == "WGS84") || (!hasDatum && hasEllps && ellps == "WGS84")
	if hasDatum && hasEllps && ellps != "WGS84" {
		wgs84 = false
	}
	if u, ok := take("units"); ok && u != "m" {
		return nil, bad("only +units=m is supported")
	}
	take("no_defs")
	take("type")
	for _, k := range []string{"x_0", "y_0"} {
		if v, ok, err := num(k); err != nil {
			return nil, err
		} else if ok && v != 0 {
			return nil, bad("false easting/northing is not supported")
		}
	}
	var c CRS
	var err error
	switch proj {
	case "longlat", "latlong", "lonlat", "latlon":
		if !wgs84 {
			return nil, bad("only the WGS84 datum is supported")
		}
		c = geographicWGS84{}
	case "utm":
		if !wgs84 {
			return nil, bad("only the WGS84 datum is supported")
		}
		z, ok := take("zone")
		zone, perr := strconv.Atoi(z)
		if !ok || perr != nil {
			return nil, bad("+proj=utm needs an integer +zone")
		}
		_, south := take("south")
		c, err = NewUTM(zone, !south)
	case "aeqd":
		if !wgs84 {
			return nil, bad("only the WGS84 datum is supported")
		}
		lat, _, err1 := num("lat_0")
		lon, _, err2 := num("lon_0")
		if err1 != nil || err2 != nil {
			return nil, bad("bad +lat_0/+lon_0")
		}
		c, err = NewAzimuthalEquidistant(lat, lon)
	case "webmerc":
		if !wgs84 {
			return nil, bad("only the WGS84 datum is supported")
		}
		c = WebMercator()
	case "merc":
		a, _ := take("a")
		b, _ := take("b")
		if a != "6378137" || b != "6378137" {
			return nil, bad("only the spherical Web Mercator form (+a=6378137 +b=6378137) is supported")
		}
		for _, k := range []string{"lat_ts", "lon_0"} {
			if v, ok, err := num(k); err != nil || (ok && v != 0) {
				return nil, bad("+" + k + " must be 0")
			}
		}
		if v, ok, err := num("k"); err != nil || (ok && v != 1) {
			return nil, bad("+k must be 1")
		}
		if g, ok := take("nadgrids"); ok && g != "@null" {
			return nil, bad("+nadgrids must be @null")
		}
		take("wktext")
		c = WebMercator()
	default:
		return nil, bad("unsupported +proj")
	}
	if err != nil {
		return nil, err
	}
	if len(params) > 0 {
		keys := make([]string, 0, len(params))
		for k := range params {
			keys = append(keys, "+"+k)
		}
		return nil, bad("unsupported parameters " + strings.Join(keys, " "))
	}
	return c, nil
}
