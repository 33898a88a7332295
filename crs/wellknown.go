package crs

import (
	"fmt"
	"math"

	"github.com/geodisaster/engine/crs/internal/core"
	"github.com/geodisaster/engine/crs/internal/proj"
)

// NewUTM returns WGS 84 / UTM zone 1-60, north (EPSG:32601-32660, false
// northing 0) or south (EPSG:32701-32760, false northing 10,000 km). Points
// more than 60° of longitude from the central meridian are outside the
// domain; latitudes are not limited to the zone's band (like PROJ).
func NewUTM(zone int, north bool) (CRS, error) {
	if zone < 1 || zone > 60 {
		return nil, fmt.Errorf("%w: UTM zone %d outside 1-60", ErrUnknownCRS, zone)
	}
	if north {
		return FromEPSG(32600 + zone)
	}
	return FromEPSG(32700 + zone)
}

// UTMZone returns the standard UTM zone number (1-60) of a longitude,
// without the Norway/Svalbard exceptions.
func UTMZone(lon float64) int {
	z := int(math.Floor((proj.Wrap180(lon)+180)/6)) + 1
	if z > 60 {
		z = 60
	}
	return z
}

// WebMercator returns EPSG:3857, WGS 84 / Pseudo-Mercator.
func WebMercator() CRS {
	c, err := FromEPSG(3857)
	if err != nil {
		panic(err) // the embedded table always holds EPSG:3857
	}
	return c
}

// WGS84LonLat returns EPSG:4326, WGS84 geographic longitude/latitude in
// degrees (x = longitude, y = latitude).
func WGS84LonLat() CRS {
	c, err := FromEPSG(4326)
	if err != nil {
		panic(err) // the embedded table always holds EPSG:4326
	}
	return c
}

// NewAzimuthalEquidistant returns the azimuthal equidistant CRS on the
// WGS84 ellipsoid centred at lat0, lon0 (degrees), equivalent to PROJ's
// "+proj=aeqd +lat_0=lat0 +lon_0=lon0 +datum=WGS84" (no false origin,
// metres). Distances and azimuths from the centre are exact (Karney
// geodesics), so x, y agree with PROJ to nanometres at any distance; the
// whole globe except the antipode maps one to one. Errors for a centre
// latitude outside [-90, 90] or non-finite input.
func NewAzimuthalEquidistant(lat0, lon0 float64) (CRS, error) {
	return core.NewAzimuthalEquidistant(lat0, lon0)
}
