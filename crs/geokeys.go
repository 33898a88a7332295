package crs

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// GeoKey identifiers from the GeoTIFF 1.1 specification (OGC 19-008r4).
const (
	GTModelTypeGeoKey              = 1024
	GTRasterTypeGeoKey             = 1025
	GTCitationGeoKey               = 1026
	GeographicTypeGeoKey           = 2048
	GeogCitationGeoKey             = 2049
	GeogGeodeticDatumGeoKey        = 2050
	GeogPrimeMeridianGeoKey        = 2051
	GeogLinearUnitsGeoKey          = 2052
	GeogLinearUnitSizeGeoKey       = 2053
	GeogAngularUnitsGeoKey         = 2054
	GeogAngularUnitSizeGeoKey      = 2055
	GeogEllipsoidGeoKey            = 2056
	GeogSemiMajorAxisGeoKey        = 2057
	GeogSemiMinorAxisGeoKey        = 2058
	GeogInvFlatteningGeoKey        = 2059
	GeogAzimuthUnitsGeoKey         = 2060
	GeogPrimeMeridianLongGeoKey    = 2061
	GeogTOWGS84GeoKey              = 2062
	ProjectedCSTypeGeoKey          = 3072
	PCSCitationGeoKey              = 3073
	ProjectionGeoKey               = 3074
	ProjCoordTransGeoKey           = 3075
	ProjLinearUnitsGeoKey          = 3076
	ProjLinearUnitSizeGeoKey       = 3077
	ProjStdParallel1GeoKey         = 3078
	ProjStdParallel2GeoKey         = 3079
	ProjNatOriginLongGeoKey        = 3080
	ProjNatOriginLatGeoKey         = 3081
	ProjFalseEastingGeoKey         = 3082
	ProjFalseNorthingGeoKey        = 3083
	ProjFalseOriginLongGeoKey      = 3084
	ProjFalseOriginLatGeoKey       = 3085
	ProjFalseOriginEastingGeoKey   = 3086
	ProjFalseOriginNorthingGeoKey  = 3087
	ProjCenterLongGeoKey           = 3088
	ProjCenterLatGeoKey            = 3089
	ProjCenterEastingGeoKey        = 3090
	ProjCenterNorthingGeoKey       = 3091
	ProjScaleAtNatOriginGeoKey     = 3092
	ProjScaleAtCenterGeoKey        = 3093
	ProjAzimuthAngleGeoKey         = 3094
	ProjStraightVertPoleLongGeoKey = 3095
	ProjRectifiedGridAngleGeoKey   = 3096
	VerticalCSTypeGeoKey           = 4096
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
	geoKeyDirectoryTag = 34735
	geoDoubleParamsTag = 34736
	geoASCIIParamsTag  = 34737
)

// Limits of libgeotiff's GeoKey reader (geo_keyp.h MAX_VALUES): more keys
// or double parameters than these make it refuse the directory.
const (
	maxGeoKeyValues = 1000
	maxGeoKeys      = (4 + maxGeoKeyValues) * 2 / 8 // key entries of 8 bytes in 4+MAX_VALUES shorts
)

// ErrGeoKeyDirectory is wrapped by the errors of a GeoKey directory that
// libgeotiff (and so GDAL) refuses to read; test with errors.Is.
var ErrGeoKeyDirectory = errors.New("crs: invalid GeoKey directory")

// GeoKeyError reports why a GeoKey directory is refused, in libgeotiff's
// terms; Key is the GeoKey concerned (0 for the directory header).
type GeoKeyError struct {
	Key    uint16
	Reason string
}

func (e *GeoKeyError) Error() string {
	if e.Key == 0 {
		return "crs: invalid GeoKey directory: " + e.Reason
	}
	return fmt.Sprintf("crs: invalid GeoKey directory: key %d: %s", e.Key, e.Reason)
}

// Unwrap returns ErrGeoKeyDirectory.
func (e *GeoKeyError) Unwrap() error { return ErrGeoKeyDirectory }

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
// GeoDoubleParamsTag (doubles) and GeoAsciiParamsTag (ascii) values. It
// refuses, with a *GeoKeyError, the directories libgeotiff's GTIFNew
// refuses: a KeyDirectoryVersion above 1, more keys than the tag holds or
// libgeotiff accepts, a key stored in the directory with a count other
// than 1, a key whose values lie outside GeoDoubleParams, GeoAsciiParams
// or the directory, or a key in an unknown TIFF tag. (GDAL then ignores
// the GeoKeys, with the warning "GeoTIFF tags apparently corrupt".) As
// libgeotiff does, an ASCII value that overruns the parameters from inside
// them is truncated, and a value counting one byte past the end (a NUL
// instead of the '|' terminator) is accepted.
func ParseGeoKeyDirectory(dir []uint16, doubles []float64, ascii string) (*GeoKeyDirectory, error) {
	if len(dir) < 4 {
		return nil, &GeoKeyError{Reason: fmt.Sprintf("%d values, need at least 4", len(dir))}
	}
	if dir[0] > 1 {
		return nil, &GeoKeyError{Reason: fmt.Sprintf("KeyDirectoryVersion %d (only 1 exists)", dir[0])}
	}
	g := &GeoKeyDirectory{
		Version: [3]uint16{dir[0], dir[1], dir[2]},
		Shorts:  map[uint16]uint16{},
		Doubles: map[uint16][]float64{},
		ASCII:   map[uint16]string{},
	}
	n := int(dir[3])
	if n >= maxGeoKeys {
		return nil, &GeoKeyError{Reason: fmt.Sprintf("%d keys (libgeotiff reads at most %d)", n, maxGeoKeys-1)}
	}
	if len(dir) < 4+4*n {
		return nil, &GeoKeyError{Reason: fmt.Sprintf("declares %d keys but holds %d values", n, len(dir))}
	}
	if len(doubles) > maxGeoKeyValues {
		return nil, &GeoKeyError{Reason: fmt.Sprintf("%d GeoDoubleParams (libgeotiff reads at most %d)", len(doubles), maxGeoKeyValues)}
	}
	for i := 0; i < n; i++ {
		e := dir[4+4*i : 8+4*i]
		id, loc, count, off := e[0], e[1], int(e[2]), int(e[3])
		switch loc {
		case 0:
			if count != 1 {
				return nil, &GeoKeyError{Key: id, Reason: fmt.Sprintf("stored in the directory with count %d, whereas only 1 is legal", count)}
			}
			g.Shorts[id] = uint16(off)
		case geoKeyDirectoryTag:
			if off+count > len(dir) {
				return nil, &GeoKeyError{Key: id, Reason: fmt.Sprintf("SHORT values [%d,%d) beyond the directory's %d values", off, off+count, len(dir))}
			}
			if count >= 1 {
				g.Shorts[id] = dir[off]
			}
		case geoDoubleParamsTag:
			if off+count > len(doubles) {
				return nil, &GeoKeyError{Key: id, Reason: fmt.Sprintf("DOUBLE values [%d,%d) beyond GeoDoubleParams' %d values", off, off+count, len(doubles))}
			}
			g.Doubles[id] = append([]float64(nil), doubles[off:off+count]...)
		case geoASCIIParamsTag:
			if ascii == "" {
				return nil, &GeoKeyError{Key: id, Reason: "ASCII value but GeoAsciiParams is missing or empty"}
			}
			switch {
			case off+count == len(ascii)+1 && count > 0:
				count--
			case off < len(ascii) && off+count > len(ascii):
				count = len(ascii) - off // libgeotiff truncates with a warning
			case off+count > len(ascii):
				return nil, &GeoKeyError{Key: id, Reason: fmt.Sprintf("ASCII value [%d,%d) beyond GeoAsciiParams' %d bytes", off, off+count, len(ascii))}
			}
			s := strings.TrimSuffix(ascii[off:off+count], "|")
			if i := strings.IndexByte(s, 0); i >= 0 {
				s = s[:i] // a C string to libgeotiff
			}
			g.ASCII[id] = s
		default:
			return nil, &GeoKeyError{Key: id, Reason: fmt.Sprintf("values in unknown TIFF tag %d", loc)}
		}
	}
	return g, nil
}

// PixelIsPoint reports whether GTRasterTypeGeoKey says PixelIsPoint.
func (g *GeoKeyDirectory) PixelIsPoint() bool {
	return g != nil && g.Shorts[GTRasterTypeGeoKey] == RasterPixelIsPoint
}

// double returns the first double value of key, or def.
func (g *GeoKeyDirectory) double(key uint16, def float64) float64 {
	if v := g.Doubles[key]; len(v) > 0 {
		return v[0]
	}
	return def
}

// IsGeographicEPSG reports whether code is an EPSG geographic 2D CRS (which
// GeoTIFF writers store in GeographicTypeGeoKey); other codes are treated as
// projected.
func IsGeographicEPSG(code int) bool {
	if r, err := epsg(); err == nil {
		if g := r.Geog(code); g != nil {
			return g.Kind == "geographic 2D"
		}
		if r.Proj(code) != nil {
			return false
		}
	}
	return code >= 4000 && code <= 4999
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
