// Package crs identifies coordinate reference systems, maps pixels to world
// coordinates through affine geotransforms and converts coordinates between
// the systems the engine supports (geographic WGS84, Web Mercator, UTM and a
// local azimuthal equidistant system), computing what PROJ computes.
//
// Systems are values of the CRS interface, obtained with Parse ("EPSG:n",
// "aeqd:LAT,LON"), FromEPSG, NewUTM or NewAzimuthalEquidistant, and
// converted with Transform, always through WGS84 longitude/latitude. For
// EPSG:4326, x is longitude and y latitude (pyproj's always_xy order).
//
// Accuracy against PROJ 9.1 (conformance/geodesy/crs_goldens.json):
// Web Mercator, UTM (Krüger series to 6th order in n, PROJ's default
// algorithm) and aeqd (Karney geodesics from the centre) agree within
// 0.1 µm away from the poles and 4 µm for aeqd centred on a pole, where
// PROJ switches to an approximate meridian-distance series (ours stays
// the exact geodesic distance); inverses agree within
// 1e-11 degrees. Systems on the ETRS89, NAD83 and RGF93 datums agree within
// 0.1 µm; those on OSGB36 within 0.1 mm; those on MGI and DHDN use one
// Helmert set while PROJ picks among several by area, so they can differ
// by up to about 3 m.
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
// wrap ErrOutsideDomain, and unknown codes wrap ErrUnknownCRS.
//
// Determinism: products in this package are rounded explicitly
// (float64(x*y)) so no fused multiply-add changes results on arm64; Go's
// math library itself (math.Sin, math.Atan, ...) is compiled with fused
// operations on arm64, so transcendental results may still differ in the
// last bit between architectures.
package crs
