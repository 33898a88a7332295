package crs

import (
	"strings"

	"github.com/geodisaster/engine/crs/internal/wkt"
)

// WKT2FromEPSG returns the WKT2:2019 of any EPSG CRS of the embedded
// registry, including those whose method this package cannot convert
// (FromEPSG refuses those).
func WKT2FromEPSG(code int) (string, error) {
	c, err := mustEPSG().DescribeEPSG(code)
	if err != nil {
		return "", err
	}
	return WKT2(c)
}

// WKT2 returns c as OGC WKT2:2019 (ISO 19162:2019) in the multi-line form
// PROJ prints (projinfo -o WKT2_2019, pyproj's CRS.to_wkt("WKT2_2019",
// pretty=True)): byte-equal to PROJ's for the EPSG CRSs of the embedded
// registry. User-defined CRSs (from a PROJ string, WKT or GeoKeys) get a
// description PROJ parses back to the same CRS: a PROJCRS or GEOGCRS
// without identifiers, wrapped in a BOUNDCRS when the datum carries its
// own shift to WGS 84 (+towgs84); the aeqd:LAT,LON systems as the PROJCRS
// of PROJ's +proj=aeqd. It is an error for a CRS this package cannot
// describe.
func WKT2(c CRS) (string, error) {
	r, err := epsg()
	if err != nil {
		return "", err
	}
	n, err := wkt.NodeOf(r, c)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	n.Write(&sb, 0)
	return checked(r, sb.String(), nil)
}

// PROJJSON returns c as PROJJSON (PROJ's JSON encoding of ISO 19111,
// schema v0.5 as PROJ 9.1 writes it), indented by two spaces: for the
// EPSG CRSs of the embedded registry the document pyproj's
// CRS.to_json_dict() gives, key for key; for user-defined CRSs a
// description PROJ parses back to the same CRS (see WKT2).
func PROJJSON(c CRS) ([]byte, error) {
	r, err := epsg()
	if err != nil {
		return nil, err
	}
	j, err := wkt.PROJJSON(r, c)
	return checked(r, j, err)
}

// PROJJSONFromEPSG is PROJJSON for any EPSG CRS of the registry, as
// WKT2FromEPSG.
func PROJJSONFromEPSG(code int) ([]byte, error) {
	c, err := mustEPSG().DescribeEPSG(code)
	if err != nil {
		return nil, err
	}
	return PROJJSON(c)
}
