package crs

import (
	"fmt"
	"sort"
	"strings"
)

// GeoKey identifiers from the GeoTIFF 1.1 specification (OGC 19-008r4).
const (
	GTModelTypeGeoKey          = 1024
	GTRasterTypeGeoKey         = 1025
	GTCitationGeoKey           = 1026
	GeographicTypeGeoKey       = 2048
	GeogCitationGeoKey         = 2049
	GeogGeodeticDatumGeoKey    = 2050
	GeogPrimeMeridianGeoKey    = 2051
	GeogAngularUnitsGeoKey     = 2054
	GeogEllipsoidGeoKey        = 2056
	ProjectedCSTypeGeoKey      = 3072
	PCSCitationGeoKey          = 3073
	ProjectionGeoKey           = 3074
	ProjCoordTransGeoKey       = 3075
	ProjLinearUnitsGeoKey      = 3076
	ProjNatOriginLongGeoKey    = 3080
	ProjNatOriginLatGeoKey     = 3081
	ProjFalseEastingGeoKey     = 3082
	ProjFalseNorthingGeoKey    = 3083
	ProjScaleAtNatOriginGeoKey = 3092
	ProjCenterLongGeoKey       = 3088
	VerticalCSTypeGeoKey       = 4096
)

// Values of GTModelTypeGeoKey and GTRasterTypeGeoKey.
const (
	ModelTypeProjected  = 1
	ModelTypeGeographic = 2
	ModelTypeGeocentric = 3
	RasterPixelIsArea   = 1
	RasterPixelIsPoint  = 2
	userDefined         = 32767
)

// TIFF tags that hold GeoKey values out of line.
const (
	geoDoubleParamsTag = 34736
	geoASCIIParamsTag  = 34737
)

// GeoKeyDirectory is the parsed content of a GeoTIFF GeoKeyDirectoryTag
// together with the double and ASCII parameters it references.
type GeoKeyDirectory struct {
	// Version is KeyDirectoryVersion, KeyRevision, MinorRevision.
	Version [3]uint16
	// Shorts holds keys stored directly in the directory (SHORT values).
	Shorts map[uint16]uint16
	// Doubles holds keys stored in GeoDoubleParamsTag.
	Doubles map[uint16][]float64
	// ASCII holds keys stored in GeoAsciiParamsTag, without the '|' terminator.
	ASCII map[uint16]string
}

// ParseGeoKeyDirectory decodes a GeoKeyDirectoryTag (dir) with its
// GeoDoubleParamsTag (doubles) and GeoAsciiParamsTag (ascii) values. Keys
// whose values lie outside the parameter arrays are reported as errors.
func ParseGeoKeyDirectory(dir []uint16, doubles []float64, ascii string) (*GeoKeyDirectory, error) {
	if len(dir) < 4 {
		return nil, fmt.Errorf("crs: GeoKeyDirectory has %d values, need at least 4", len(dir))
	}
	g := &GeoKeyDirectory{
		Version: [3]uint16{dir[0], dir[1], dir[2]},
		Shorts:  map[uint16]uint16{},
		Doubles: map[uint16][]float64{},
		ASCII:   map[uint16]string{},
	}
	n := int(dir[3])
	if len(dir) < 4+4*n {
		return nil, fmt.Errorf("crs: GeoKeyDirectory declares %d keys but holds %d values", n, len(dir))
	}
	for i := 0; i < n; i++ {
		e := dir[4+4*i : 8+4*i]
		id, loc, count, val := e[0], e[1], int(e[2]), int(e[3])
		switch loc {
		case 0:
			g.Shorts[id] = uint16(val)
		case geoDoubleParamsTag:
			if val+count > len(doubles) {
				return nil, fmt.Errorf("crs: GeoKey %d: doubles [%d,%d) out of range (%d)", id, val, val+count, len(doubles))
			}
			g.Doubles[id] = append([]float64(nil), doubles[val:val+count]...)
		case geoASCIIParamsTag:
			if val+count > len(ascii) {
				return nil, fmt.Errorf("crs: GeoKey %d: ASCII [%d,%d) out of range (%d)", id, val, val+count, len(ascii))
			}
			s := ascii[val : val+count]
			s = strings.TrimRight(s, "|\x00")
			g.ASCII[id] = s
		default:
			if loc == 34735 && val+count <= len(dir) && count == 1 {
				g.Shorts[id] = dir[val]
			}
			// Other locations are ignored, as libgeotiff does.
		}
	}
	return g, nil
}

// PixelIsPoint reports whether GTRasterTypeGeoKey says PixelIsPoint.
func (g *GeoKeyDirectory) PixelIsPoint() bool {
	return g != nil && g.Shorts[GTRasterTypeGeoKey] == RasterPixelIsPoint
}

// geodeticDatumToGeographic maps EPSG geodetic datum codes to the EPSG code
// of their geographic 2D CRS, for user-defined geographic systems.
var geodeticDatumToGeographic = map[uint16]int{
	6326: 4326, // WGS 84
	6269: 4269, // NAD83
	6267: 4267, // NAD27
	6258: 4258, // ETRS89
	6322: 4322, // WGS 72
	6283: 4283, // GDA94
	6674: 4674, // SIRGAS 2000
	6230: 4230, // ED50
	6277: 4277, // OSGB36
}

// geographicEPSG identifies the geographic CRS of the directory (0 if
// unknown).
func (g *GeoKeyDirectory) geographicEPSG() int {
	if v, ok := g.Shorts[GeographicTypeGeoKey]; ok && v != 0 && v != userDefined {
		return int(v)
	}
	if d, ok := g.Shorts[GeogGeodeticDatumGeoKey]; ok {
		if pm, ok := g.Shorts[GeogPrimeMeridianGeoKey]; ok && pm != 8901 {
			return 0
		}
		if u, ok := g.Shorts[GeogAngularUnitsGeoKey]; ok && u != 9102 {
			return 0
		}
		return geodeticDatumToGeographic[d]
	}
	return 0
}

// utmBase maps a geographic CRS to the EPSG code base of its UTM zones
// (north, south; 0 when the datum has no southern series).
var utmBase = map[int][2]int{
	4326: {32600, 32700},
	4322: {32200, 32300},
	4269: {26900, 0},
	4267: {26700, 0},
	4258: {25800, 0},
}

// projectedEPSG identifies the projected CRS of the directory (0 if
// unknown).
func (g *GeoKeyDirectory) projectedEPSG() int {
	if v, ok := g.Shorts[ProjectedCSTypeGeoKey]; ok && v != 0 && v != userDefined {
		return int(v)
	}
	if u, ok := g.Shorts[ProjLinearUnitsGeoKey]; ok && u != 9001 {
		return 0
	}
	geog := g.geographicEPSG()
	base, ok := utmBase[geog]
	if !ok {
		return 0
	}
	// EPSG UTM conversion codes: 16001..16060 north, 16101..16160 south.
	if p, ok := g.Shorts[ProjectionGeoKey]; ok && p != userDefined {
		switch {
		case p >= 16001 && p <= 16060:
			return base[0] + int(p-16000)
		case p >= 16101 && p <= 16160 && base[1] != 0:
			return base[1] + int(p-16100)
		}
		return 0
	}
	// A Transverse Mercator spelled out with UTM's parameters.
	if g.Shorts[ProjCoordTransGeoKey] != 1 {
		return 0
	}
	lon0 := g.double(ProjNatOriginLongGeoKey, g.double(ProjCenterLongGeoKey, 999))
	lat0 := g.double(ProjNatOriginLatGeoKey, 0)
	k := g.double(ProjScaleAtNatOriginGeoKey, 0)
	fe := g.double(ProjFalseEastingGeoKey, 0)
	fn := g.double(ProjFalseNorthingGeoKey, 0)
	if lat0 != 0 || k != 0.9996 || fe != 500000 {
		return 0
	}
	zf := (lon0 + 183) / 6
	zone := int(zf)
	if float64(zone) != zf || zone < 1 || zone > 60 {
		return 0
	}
	switch fn {
	case 0:
		return base[0] + zone
	case 10000000:
		if base[1] != 0 {
			return base[1] + zone
		}
	}
	return 0
}

// double returns the first double value of key, or def.
func (g *GeoKeyDirectory) double(key uint16, def float64) float64 {
	if v := g.Doubles[key]; len(v) > 0 {
		return v[0]
	}
	return def
}

// EPSG identifies the directory's horizontal CRS as an EPSG code: the
// ProjectedCSTypeGeoKey or GeographicTypeGeoKey code when one is given, else
// a user-defined geographic CRS recognised by its datum, or a user-defined
// UTM projection recognised by its projection code or parameters. It returns
// 0 when the CRS cannot be identified.
func (g *GeoKeyDirectory) EPSG() int {
	if g == nil {
		return 0
	}
	switch g.Shorts[GTModelTypeGeoKey] {
	case ModelTypeGeographic:
		return g.geographicEPSG()
	case ModelTypeProjected:
		return g.projectedEPSG()
	case 0:
		if c := g.projectedEPSG(); c != 0 {
			return c
		}
		if _, ok := g.Shorts[ProjectedCSTypeGeoKey]; ok {
			return 0
		}
		return g.geographicEPSG()
	}
	return 0
}

// IsGeographicEPSG reports whether code is (to this package's knowledge) a
// geographic 2D CRS, which GeoTIFF writers store in GeographicTypeGeoKey;
// other codes are treated as projected.
func IsGeographicEPSG(code int) bool {
	if code < 4000 || code > 4999 {
		return false
	}
	// Projected CRSs numbered inside the 4xxx block.
	for _, r := range [][2]int{{4087, 4088}, {4390, 4463}, {4484, 4489}, {4491, 4554},
		{4568, 4589}, {4647, 4647}, {4652, 4656}, {4766, 4800}, {4812, 4839}, {4855, 4880}, {4899, 4899}} {
		if code >= r[0] && code <= r[1] {
			return false
		}
	}
	return true
}

// GeoKeysForEPSG returns a GeoKeyDirectoryTag value (version 1.1.0) that
// declares the CRS EPSG:code, PixelIsArea, as a GeoTIFF writer stores it;
// geographic codes use GeographicTypeGeoKey, others ProjectedCSTypeGeoKey.
func GeoKeysForEPSG(code int) ([]uint16, error) {
	if code <= 0 || code >= userDefined {
		return nil, fmt.Errorf("crs: EPSG code %d out of range", code)
	}
	keys := map[uint16]uint16{GTRasterTypeGeoKey: RasterPixelIsArea}
	if IsGeographicEPSG(code) {
		keys[GTModelTypeGeoKey] = ModelTypeGeographic
		keys[GeographicTypeGeoKey] = uint16(code)
		keys[GeogAngularUnitsGeoKey] = 9102
	} else {
		keys[GTModelTypeGeoKey] = ModelTypeProjected
		keys[ProjectedCSTypeGeoKey] = uint16(code)
		keys[ProjLinearUnitsGeoKey] = 9001
	}
	ids := make([]int, 0, len(keys))
	for k := range keys {
		ids = append(ids, int(k))
	}
	sort.Ints(ids)
	dir := []uint16{1, 1, 0, uint16(len(ids))}
	for _, id := range ids {
		dir = append(dir, uint16(id), 0, 1, keys[uint16(id)])
	}
	return dir, nil
}
