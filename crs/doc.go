// Package crs names, identifies, describes and converts coordinate
// reference systems as PROJ 9.1 does, and maps pixels to world coordinates
// through affine geotransforms. docs/crs.md has the coverage and the
// measurements.
//
// Systems are values of the CRS interface, obtained with Parse ("EPSG:n",
// PROJ strings, WKT1/WKT2, "aeqd:LAT,LON"), FromEPSG, NewUTM,
// NewAzimuthalEquidistant or GeoKeyDirectory.CRS. The EPSG registry is
// generated from PROJ's database (conformance/crs/gen_tables.py reads
// Debian's proj.db, PROJ 9.1.1 / EPSG v10.076): every EPSG geographic 2D
// CRS and every projected CRS whose method is implemented (31 methods,
// each in its own file), 5,108 of the 5,135 non-deprecated EPSG projected
// CRSs, all those PROJ itself can convert.
//
// Transform and Transformer convert between any two systems. Between a
// projected CRS and its base geographic CRS (or two CRSs on one datum)
// the conversion is direct, never through WGS 84; between datums it
// applies the EPSG Helmert transformation to WGS 84 that PROJ chooses for
// the point (by area of use, accuracy and supersession, a ballpark shift
// where EPSG publishes none), and no grid. Coordinates are in the CRS's
// units, x then y: longitude, latitude in degrees relative to the CRS's
// prime meridian for a geographic CRS (pyproj's always_xy order), easting,
// northing for a projected one, whatever the authority axis order
// (AuthorityOrderSwapped tells it; cmd transform uses it as cs2cs does).
//
// Accuracy against PROJ 9.1 (crs/sweep_test.go, conformance/crs/sweep.py):
// every projected CRS converts from its base geographic CRS within 1 µm
// of PROJ (Krovak 1 µm, the rest below 0.4 µm) and back within 1e-10
// degrees, on points over its area of use; Web Mercator, UTM (Krüger
// series to 6th order in n, PROJ's default algorithm) and aeqd (Karney
// geodesics from the centre) are bit-identical to the engine's earlier
// code. Datum shifts agree with cs2cs within 1e-10 degrees except where
// PROJ uses a grid of Debian's proj-data (DHDN, CH1903, NTF, NZGD49).
//
// Identify and GeoKeyDirectory.EPSG find the EPSG code of a user-defined
// CRS as PROJ's identification with rasterio's 70% threshold
// (CRS.to_epsg()) does. WKT2 and PROJJSON describe any CRS: byte for byte
// as PROJ prints them for registry codes, and in a form PROJ reads back as
// the same CRS for the others. GeoKeyDirectory.GDALCoordinateSystem is
// what gdalinfo -json prints for a GeoTIFF.
//
// Pixel mapping: Affine.PixelXY and Affine.RowCol reproduce
// rasterio.transform.xy and rowcol bit for bit (rasterio's inverse
// multiplies by 1/det; Affine.Invert divides, which can differ in the last
// bit).
//
// Bad input is an error, never a silent value: latitudes outside
// [-90, 90] and non-finite coordinates wrap ErrInvalidCoordinate, points a
// projection cannot represent (a pole in Web Mercator, more than 60° from
// a transverse Mercator central meridian, beyond the antipode in aeqd)
// wrap ErrOutsideDomain, unknown codes and definitions wrap ErrUnknownCRS,
// and GeoKey directories libgeotiff refuses are *GeoKeyError values
// wrapping ErrGeoKeyDirectory.
//
// Determinism: products in this package are rounded explicitly
// (float64(x*y)) so no fused multiply-add changes results on arm64; Go's
// math library itself (math.Sin, math.Atan, ...) is compiled with fused
// operations on arm64, so transcendental results may still differ in the
// last bit between architectures.
package crs
