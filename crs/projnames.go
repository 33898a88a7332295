package crs

import (
	"math"
	"sort"

	"github.com/geodisaster/engine/crs/internal/proj"
)

// projEllipsoid is an entry of PROJ's ellipsoid list (+ellps=).
type projEllipsoid struct {
	a         float64
	rf, b     float64 // one of them is set
	epsg      int     // EPSG ellipsoid code when the same figure, else 0
	epsgNam   string
	projDatum string // PROJ's datum name for +ellps alone
	projName  string // PROJ's ellipsoid name
}

// projEllipsoids are PROJ's +ellps values (pj_ellps), with the EPSG
// ellipsoid of the same figure where there is one.
var projEllipsoids = map[string]projEllipsoid{
	"MERIT":     {a: 6378137, rf: 298.257, projDatum: "Unknown based on MERIT 1983 ellipsoid", projName: "MERIT 1983"},
	"SGS85":     {a: 6378136, rf: 298.257, projDatum: "Unknown based on Soviet Geodetic System 85 ellipsoid", projName: "Soviet Geodetic System 85"},
	"GRS80":     {a: 6378137, rf: 298.257222101, epsg: 7019, epsgNam: "GRS 1980", projDatum: "Unknown based on GRS80 ellipsoid", projName: "GRS 1980"},
	"IAU76":     {a: 6378140, rf: 298.257, projDatum: "Unknown based on IAU 1976 ellipsoid", projName: "IAU 1976"},
	"airy":      {a: 6377563.396, b: 6356256.910, epsg: 7001, epsgNam: "Airy 1830", projDatum: "Unknown based on Airy 1830 ellipsoid", projName: "Airy 1830"},
	"APL4.9":    {a: 6378137, rf: 298.25, projDatum: "Unknown based on Appl. Physics. 1965 ellipsoid", projName: "Appl. Physics. 1965"},
	"NWL9D":     {a: 6378145, rf: 298.25, epsg: 7025, epsgNam: "NWL 9D", projDatum: "Unknown based on Naval Weapons Lab., 1965 ellipsoid", projName: "Naval Weapons Lab., 1965"},
	"mod_airy":  {a: 6377340.189, b: 6356034.446, epsg: 7002, epsgNam: "Airy Modified 1849", projDatum: "Unknown based on Modified Airy ellipsoid", projName: "Modified Airy"},
	"andrae":    {a: 6377104.43, rf: 300, projDatum: "Unknown based on Andrae 1876 (Den., Iclnd.) ellipsoid", projName: "Andrae 1876 (Den., Iclnd.)"},
	"danish":    {a: 6377019.2563, rf: 300, projDatum: "Unknown based on Andrae 1876 (Denmark, Iceland) ellipsoid", projName: "Andrae 1876 (Denmark, Iceland)"},
	"aust_SA":   {a: 6378160, rf: 298.25, epsg: 7003, epsgNam: "Australian National Spheroid", projDatum: "Unknown based on Australian Natl & S. Amer. 1969 ellipsoid", projName: "Australian Natl & S. Amer. 1969"},
	"GRS67":     {a: 6378160, rf: 298.2471674270, epsg: 7036, epsgNam: "GRS 1967", projDatum: "Unknown based on GRS 67(IUGG 1967) ellipsoid", projName: "GRS 67(IUGG 1967)"},
	"GSK2011":   {a: 6378136.5, rf: 298.2564151, projDatum: "Unknown based on GSK-2011 ellipsoid", projName: "GSK-2011"},
	"bessel":    {a: 6377397.155, rf: 299.1528128, epsg: 7004, epsgNam: "Bessel 1841", projDatum: "Unknown based on Bessel 1841 ellipsoid", projName: "Bessel 1841"},
	"bess_nam":  {a: 6377483.865, rf: 299.1528128, epsg: 7006, epsgNam: "Bessel Namibia", projDatum: "Unknown based on Bessel 1841 (Namibia) ellipsoid", projName: "Bessel 1841 (Namibia)"},
	"clrk66":    {a: 6378206.4, b: 6356583.8, epsg: 7008, epsgNam: "Clarke 1866", projDatum: "Unknown based on Clarke 1866 ellipsoid", projName: "Clarke 1866"},
	"clrk80":    {a: 6378249.145, rf: 293.4663, projDatum: "Unknown based on Clarke 1880 mod. ellipsoid", projName: "Clarke 1880 mod."},
	"clrk80ign": {a: 6378249.2, rf: 293.4660212936269, epsg: 7011, epsgNam: "Clarke 1880 (IGN)", projDatum: "Unknown based on Clarke 1880 (IGN). ellipsoid", projName: "Clarke 1880 (IGN)."},
	"CPM":       {a: 6375738.7, rf: 334.29, projDatum: "Unknown based on Comm. des Poids et Mesures 1799 ellipsoid", projName: "Comm. des Poids et Mesures 1799"},
	"delmbr":    {a: 6376428, rf: 311.5, projDatum: "Unknown based on Delambre 1810 (Belgium) ellipsoid", projName: "Delambre 1810 (Belgium)"},
	"engelis":   {a: 6378136.05, rf: 298.2566, projDatum: "Unknown based on Engelis 1985 ellipsoid", projName: "Engelis 1985"},
	"evrst30":   {a: 6377276.345, rf: 300.8017, epsg: 7015, epsgNam: "Everest 1830 (1937 Adjustment)", projDatum: "Unknown based on Everest 1830 ellipsoid", projName: "Everest 1830"},
	"evrst48":   {a: 6377304.063, rf: 300.8017, epsg: 7018, epsgNam: "Everest 1830 Modified", projDatum: "Unknown based on Everest 1948 ellipsoid", projName: "Everest 1948"},
	"evrst56":   {a: 6377301.243, rf: 300.8017, projDatum: "Unknown based on Everest 1956 ellipsoid", projName: "Everest 1956"},
	"evrst69":   {a: 6377295.664, rf: 300.8017, projDatum: "Unknown based on Everest 1969 ellipsoid", projName: "Everest 1969"},
	"evrstSS":   {a: 6377298.556, rf: 300.8017, epsg: 7016, epsgNam: "Everest 1830 (1967 Definition)", projDatum: "Unknown based on Everest (Sabah & Sarawak) ellipsoid", projName: "Everest (Sabah & Sarawak)"},
	"fschr60":   {a: 6378166, rf: 298.3, projDatum: "Unknown based on Fischer (Mercury Datum) 1960 ellipsoid", projName: "Fischer (Mercury Datum) 1960"},
	"fschr60m":  {a: 6378155, rf: 298.3, projDatum: "Unknown based on Modified Fischer 1960 ellipsoid", projName: "Modified Fischer 1960"},
	"fschr68":   {a: 6378150, rf: 298.3, projDatum: "Unknown based on Fischer 1968 ellipsoid", projName: "Fischer 1968"},
	"helmert":   {a: 6378200, rf: 298.3, epsg: 7020, epsgNam: "Helmert 1906", projDatum: "Unknown based on Helmert 1906 ellipsoid", projName: "Helmert 1906"},
	"hough":     {a: 6378270, rf: 297, epsg: 7053, epsgNam: "Hough 1960", projDatum: "Unknown based on Hough ellipsoid", projName: "Hough"},
	"intl":      {a: 6378388, rf: 297, epsg: 7022, epsgNam: "International 1924", projDatum: "Unknown based on International 1924 (Hayford 1909, 1910) ellipsoid", projName: "International 1924 (Hayford 1909, 1910)"},
	"krass":     {a: 6378245, rf: 298.3, epsg: 7024, epsgNam: "Krassowsky 1940", projDatum: "Unknown based on Krassovsky, 1942 ellipsoid", projName: "Krassovsky, 1942"},
	"kaula":     {a: 6378163, rf: 298.24, projDatum: "Unknown based on Kaula 1961 ellipsoid", projName: "Kaula 1961"},
	"lerch":     {a: 6378139, rf: 298.257, projDatum: "Unknown based on Lerch 1979 ellipsoid", projName: "Lerch 1979"},
	"mprts":     {a: 6397300, rf: 191, projDatum: "Unknown based on Maupertius 1738 ellipsoid", projName: "Maupertius 1738"},
	"new_intl":  {a: 6378157.5, b: 6356772.2, projDatum: "Unknown based on New International 1967 ellipsoid", projName: "New International 1967"},
	"plessis":   {a: 6376523, b: 6355863, projDatum: "Unknown based on Plessis 1817 (France) ellipsoid", projName: "Plessis 1817 (France)"},
	"PZ90":      {a: 6378136, rf: 298.25784, projDatum: "Unknown based on PZ-90 ellipsoid", projName: "PZ-90"},
	"SEasia":    {a: 6378155, b: 6356773.3205, projDatum: "Unknown based on Southeast Asia ellipsoid", projName: "Southeast Asia"},
	"walbeck":   {a: 6376896, b: 6355834.8467, projDatum: "Unknown based on Walbeck ellipsoid", projName: "Walbeck"},
	"WGS60":     {a: 6378165, rf: 298.3, projDatum: "Unknown based on WGS 60 ellipsoid", projName: "WGS 60"},
	"WGS66":     {a: 6378145, rf: 298.25, projDatum: "Unknown based on WGS 66 ellipsoid", projName: "WGS 66"},
	"WGS72":     {a: 6378135, rf: 298.26, epsg: 7043, epsgNam: "WGS 72", projDatum: "Unknown based on WGS 72 ellipsoid", projName: "WGS 72"},
	"WGS84":     {a: 6378137, rf: 298.257223563, epsg: 7030, epsgNam: "WGS 84", projDatum: "Unknown based on WGS84 ellipsoid", projName: "WGS 84"},
	"sphere":    {a: 6370997, b: 6370997, projDatum: "Unknown based on Normal Sphere (r=6370997) ellipsoid", projName: "Normal Sphere (r=6370997)"},
}

// figure returns the ellipsoid of a PROJ +ellps entry.
func (e projEllipsoid) figure() proj.Ellipsoid {
	if e.b != 0 {
		return proj.NewEllipsoidAB(e.a, e.b)
	}
	return proj.NewEllipsoid(e.a, e.rf)
}

// projEllipsoidName returns the +ellps name of a figure PROJ knows.
func projEllipsoidName(el proj.Ellipsoid) (string, bool) {
	names := make([]string, 0, len(projEllipsoids))
	for n := range projEllipsoids {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f := projEllipsoids[n].figure()
		if f.A == el.A && math.Abs(f.B-el.B) <= 1e-12*el.B {
			return n, true
		}
	}
	return "", false
}

// projWellKnownEllipsoid returns PROJ's +ellps figure that a registry
// ellipsoid (a and b or inverse flattening, metres) matches to a relative
// 1e-10, as PROJ substitutes it when it builds a conversion (so Bessel
// Namibia in German legal metres becomes +ellps=bess_nam).
func projWellKnownEllipsoid(a, b, rf float64) (proj.Ellipsoid, bool) {
	names := make([]string, 0, len(projEllipsoids))
	for n := range projEllipsoids {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		e := projEllipsoids[n]
		if math.Abs(a-e.a) >= 1e-10*e.a {
			continue
		}
		if e.b != 0 {
			if math.Abs(b-e.b) < 1e-10*e.b {
				return e.figure(), true
			}
		} else if rf != 0 && math.Abs(rf-e.rf) < 1e-10*e.rf {
			return e.figure(), true
		}
	}
	return proj.Ellipsoid{}, false
}

// projDatums are PROJ's +datum values this package maps onto the EPSG
// geographic CRS of that datum.
var projDatums = map[string]int{
	"WGS84": 4326, "NAD83": 4269, "NAD27": 4267, "potsdam": 4314, "OSGB36": 4277,
	"GGRS87": 4121, "ire65": 4299, "nzgd49": 4272, "carthage": 4223, "hermannskogel": 4312,
}

// projPrimeMeridians are PROJ's +pm names (degrees east of Greenwich, from
// PROJ's DMS definitions).
var projPrimeMeridians = map[string]float64{
	"greenwich":  0.0,                 // 0dE
	"lisbon":     -9.131906111111112,  // 9d07'54.862"W
	"paris":      2.337229166666667,   // 2d20'14.025"E
	"bogota":     -74.08091666666667,  // 74d04'51.3"W
	"madrid":     -3.6873750000000003, // 3d41'14.55"W
	"rome":       12.452333333333332,  // 12d27'8.4"E
	"bern":       7.439583333333333,   // 7d26'22.5"E
	"jakarta":    106.80771944444444,  // 106d48'27.79"E
	"ferro":      -17.666666666666668, // 17d40'W
	"brussels":   4.3679749999999995,  // 4d22'4.71"E
	"stockholm":  18.05827777777778,   // 18d3'29.8"E
	"athens":     23.716337499999998,  // 23d42'58.815"E
	"oslo":       10.722916666666666,  // 10d43'22.5"E
	"copenhagen": 12.577875,           // 12d34'40.35"E
}

// projUnits are PROJ's +units values (metres per unit) with their EPSG
// unit codes.
var projUnits = map[string]struct {
	metres float64
	code   int
}{
	"m": {1, 9001}, "km": {1000, 9036}, "ft": {0.3048, 9002}, "us-ft": {1200.0 / 3937, 9003},
	"link": {0.201168, 9098}, "us-ch": {20.11684023368047, 9033}, "ind-ft": {0.30479841, 9081},
	"ind-yd": {0.91439523, 9085}, "yd": {0.9144, 9096}, "ch": {20.1168, 9097}, "fath": {1.8288, 9014},
	"mi": {1609.344, 9093}, "us-mi": {1609.347218694437, 9035},
}
