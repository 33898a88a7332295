package crs

// Identify returns the EPSG code of c: its own code when it has one, else
// the code of the EPSG CRS it matches, as PROJ's identification reports
// it with at least 70% confidence (the threshold of rasterio's
// CRS.to_epsg()); 0 when none does.
//
// A user-defined projected CRS matches an EPSG projected CRS whose
// conversion gives the same coordinates (a method of the same family with
// equivalent parameters: Mercator A and B, LCC 1SP and 2SP, polar
// stereographic A and B compare equal when they define the same map), on
// an equivalent ellipsoid, with the same axes and unit. As in PROJ, a
// base geographic CRS that carries an EPSG code restricts the candidates
// to that base, a datum with a real name must be the candidate's datum,
// and a datum of unknown name ("Unknown based on GRS 1980 ellipsoid")
// only needs the ellipsoid; among equal candidates the lowest name in
// byte order wins. WGS 84, NAD27 and NAD83 UTM zones are recognised
// directly. A user-defined geographic CRS matches the EPSG geographic 2D
// CRS of its datum (by EPSG datum code), prime meridian and unit.
func Identify(c CRS) int {
	r := mustEPSG()
	if code := r.Identify(c); r.Err() == nil {
		return code
	}
	return 0 // a corrupt registry record (a build defect) identifies nothing
}
