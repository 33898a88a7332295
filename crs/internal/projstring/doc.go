// Package projstring reads PROJ strings ("+proj=utm +zone=33 +south
// +datum=WGS84", any implemented method with +ellps, +a/+b/+rf, +towgs84,
// +pm, +units and +axis) into the CRSs of crs/internal/core, refusing
// what PROJ would refuse or this engine cannot honour (Parse), and builds
// the conversion of a PROJ projection name and its parameters
// (Conversion) for the WKT1 and GeoTIFF readers. The PROJ string a CRS
// prints is core's.
package projstring
