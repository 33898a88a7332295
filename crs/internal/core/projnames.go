package core

import (
	"math"
	"sort"

	"github.com/geodisaster/engine/crs/internal/proj"
)

// PROJEllipsoid is an entry of PROJ's ellipsoid list (+ellps=).
type PROJEllipsoid struct {
	a         float64
	rf, b     float64 // one of them is set
	EPSG      int     // EPSG ellipsoid code when the same figure, else 0
	EPSGName  string
	ProjDatum string // PROJ's datum name for +ellps alone
	ProjName  string // PROJ's ellipsoid name
}

// PROJEllipsoids are PROJ's +ellps values (pj_ellps), with the EPSG
// ellipsoid of the same figure where there is one.
var PROJEllipsoids = map[string]PROJEllipsoid{
	"MERIT":     {a: 6378137, rf: 298.257, ProjDatum: "Unknown based on MERIT 1983 ellipsoid", ProjName: "MERIT 1983"},
	"SGS85":     {a: 6378136, rf: 298.257, ProjDatum: "Unknown based on Soviet Geodetic System 85 ellipsoid", ProjName: "Soviet Geodetic System 85"},
	"GRS80":     {a: 6378137, rf: 298.257222101, EPSG: 7019, EPSGName: "GRS 1980", ProjDatum: "Unknown based on GRS80 ellipsoid", ProjName: "GRS 1980"},
	"IAU76":     {a: 6378140, rf: 298.257, ProjDatum: "Unknown based on IAU 1976 ellipsoid", ProjName: "IAU 1976"},
	"airy":      {a: 6377563.396, b: 6356256.910, EPSG: 7001, EPSGName: "Airy 1830", ProjDatum: "Unknown based on Airy 1830 ellipsoid", ProjName: "Airy 1830"},
	"APL4.9":    {a: 6378137, rf: 298.25, ProjDatum: "Unknown based on Appl. Physics. 1965 ellipsoid", ProjName: "Appl. Physics. 1965"},
	"NWL9D":     {a: 6378145, rf: 298.25, EPSG: 7025, EPSGName: "NWL 9D", ProjDatum: "Unknown based on Naval Weapons Lab., 1965 ellipsoid", ProjName: "Naval Weapons Lab., 1965"},
	"mod_airy":  {a: 6377340.189, b: 6356034.446, EPSG: 7002, EPSGName: "Airy Modified 1849", ProjDatum: "Unknown based on Modified Airy ellipsoid", ProjName: "Modified Airy"},
	"andrae":    {a: 6377104.43, rf: 300, ProjDatum: "Unknown based on Andrae 1876 (Den., Iclnd.) ellipsoid", ProjName: "Andrae 1876 (Den., Iclnd.)"},
	"danish":    {a: 6377019.2563, rf: 300, ProjDatum: "Unknown based on Andrae 1876 (Denmark, Iceland) ellipsoid", ProjName: "Andrae 1876 (Denmark, Iceland)"},
	"aust_SA":   {a: 6378160, rf: 298.25, EPSG: 7003, EPSGName: "Australian National Spheroid", ProjDatum: "Unknown based on Australian Natl & S. Amer. 1969 ellipsoid", ProjName: "Australian Natl & S. Amer. 1969"},
	"GRS67":     {a: 6378160, rf: 298.2471674270, EPSG: 7036, EPSGName: "GRS 1967", ProjDatum: "Unknown based on GRS 67(IUGG 1967) ellipsoid", ProjName: "GRS 67(IUGG 1967)"},
	"GSK2011":   {a: 6378136.5, rf: 298.2564151, ProjDatum: "Unknown based on GSK-2011 ellipsoid", ProjName: "GSK-2011"},
	"bessel":    {a: 6377397.155, rf: 299.1528128, EPSG: 7004, EPSGName: "Bessel 1841", ProjDatum: "Unknown based on Bessel 1841 ellipsoid", ProjName: "Bessel 1841"},
	"bess_nam":  {a: 6377483.865, rf: 299.1528128, EPSG: 7006, EPSGName: "Bessel Namibia", ProjDatum: "Unknown based on Bessel 1841 (Namibia) ellipsoid", ProjName: "Bessel 1841 (Namibia)"},
	"clrk66":    {a: 6378206.4, b: 6356583.8, EPSG: 7008, EPSGName: "Clarke 1866", ProjDatum: "Unknown based on Clarke 1866 ellipsoid", ProjName: "Clarke 1866"},
	"clrk80":    {a: 6378249.145, rf: 293.4663, ProjDatum: "Unknown based on Clarke 1880 mod. ellipsoid", ProjName: "Clarke 1880 mod."},
	"clrk80ign": {a: 6378249.2, rf: 293.4660212936269, EPSG: 7011, EPSGName: "Clarke 1880 (IGN)", ProjDatum: "Unknown based on Clarke 1880 (IGN). ellipsoid", ProjName: "Clarke 1880 (IGN)."},
	"CPM":       {a: 6375738.7, rf: 334.29, ProjDatum: "Unknown based on Comm. des Poids et Mesures 1799 ellipsoid", ProjName: "Comm. des Poids et Mesures 1799"},
	"delmbr":    {a: 6376428, rf: 311.5, ProjDatum: "Unknown based on Delambre 1810 (Belgium) ellipsoid", ProjName: "Delambre 1810 (Belgium)"},
	"engelis":   {a: 6378136.05, rf: 298.2566, ProjDatum: "Unknown based on Engelis 1985 ellipsoid", ProjName: "Engelis 1985"},
	"evrst30":   {a: 6377276.345, rf: 300.8017, EPSG: 7015, EPSGName: "Everest 1830 (1937 Adjustment)", ProjDatum: "Unknown based on Everest 1830 ellipsoid", ProjName: "Everest 1830"},
	"evrst48":   {a: 6377304.063, rf: 300.8017, EPSG: 7018, EPSGName: "Everest 1830 Modified", ProjDatum: "Unknown based on Everest 1948 ellipsoid", ProjName: "Everest 1948"},
	"evrst56":   {a: 6377301.243, rf: 300.8017, ProjDatum: "Unknown based on Everest 1956 ellipsoid", ProjName: "Everest 1956"},
	"evrst69":   {a: 6377295.664, rf: 300.8017, ProjDatum: "Unknown based on Everest 1969 ellipsoid", ProjName: "Everest 1969"},
	"evrstSS":   {a: 6377298.556, rf: 300.8017, EPSG: 7016, EPSGName: "Everest 1830 (1967 Definition)", ProjDatum: "Unknown based on Everest (Sabah & Sarawak) ellipsoid", ProjName: "Everest (Sabah & Sarawak)"},
	"fschr60":   {a: 6378166, rf: 298.3, ProjDatum: "Unknown based on Fischer (Mercury Datum) 1960 ellipsoid", ProjName: "Fischer (Mercury Datum) 1960"},
	"fschr60m":  {a: 6378155, rf: 298.3, ProjDatum: "Unknown based on Modified Fischer 1960 ellipsoid", ProjName: "Modified Fischer 1960"},
	"fschr68":   {a: 6378150, rf: 298.3, ProjDatum: "Unknown based on Fischer 1968 ellipsoid", ProjName: "Fischer 1968"},
	"helmert":   {a: 6378200, rf: 298.3, EPSG: 7020, EPSGName: "Helmert 1906", ProjDatum: "Unknown based on Helmert 1906 ellipsoid", ProjName: "Helmert 1906"},
	"hough":     {a: 6378270, rf: 297, EPSG: 7053, EPSGName: "Hough 1960", ProjDatum: "Unknown based on Hough ellipsoid", ProjName: "Hough"},
	"intl":      {a: 6378388, rf: 297, EPSG: 7022, EPSGName: "International 1924", ProjDatum: "Unknown based on International 1924 (Hayford 1909, 1910) ellipsoid", ProjName: "International 1924 (Hayford 1909, 1910)"},
	"krass":     {a: 6378245, rf: 298.3, EPSG: 7024, EPSGName: "Krassowsky 1940", ProjDatum: "Unknown based on Krassovsky, 1942 ellipsoid", ProjName: "Krassovsky, 1942"},
	"kaula":     {a: 6378163, rf: 298.24, ProjDatum: "Unknown based on Kaula 1961 ellipsoid", ProjName: "Kaula 1961"},
	"lerch":     {a: 6378139, rf: 298.257, ProjDatum: "Unknown based on Lerch 1979 ellipsoid", ProjName: "Lerch 1979"},
	"mprts":     {a: 6397300, rf: 191, ProjDatum: "Unknown based on Maupertius 1738 ellipsoid", ProjName: "Maupertius 1738"},
	"new_intl":  {a: 6378157.5, b: 6356772.2, ProjDatum: "Unknown based on New International 1967 ellipsoid", ProjName: "New International 1967"},
	"plessis":   {a: 6376523, b: 6355863, ProjDatum: "Unknown based on Plessis 1817 (France) ellipsoid", ProjName: "Plessis 1817 (France)"},
	"PZ90":      {a: 6378136, rf: 298.25784, ProjDatum: "Unknown based on PZ-90 ellipsoid", ProjName: "PZ-90"},
	"SEasia":    {a: 6378155, b: 6356773.3205, ProjDatum: "Unknown based on Southeast Asia ellipsoid", ProjName: "Southeast Asia"},
	"walbeck":   {a: 6376896, b: 6355834.8467, ProjDatum: "Unknown based on Walbeck ellipsoid", ProjName: "Walbeck"},
	"WGS60":     {a: 6378165, rf: 298.3, ProjDatum: "Unknown based on WGS 60 ellipsoid", ProjName: "WGS 60"},
	"WGS66":     {a: 6378145, rf: 298.25, ProjDatum: "Unknown based on WGS 66 ellipsoid", ProjName: "WGS 66"},
	"WGS72":     {a: 6378135, rf: 298.26, EPSG: 7043, EPSGName: "WGS 72", ProjDatum: "Unknown based on WGS 72 ellipsoid", ProjName: "WGS 72"},
	"WGS84":     {a: 6378137, rf: 298.257223563, EPSG: 7030, EPSGName: "WGS 84", ProjDatum: "Unknown based on WGS84 ellipsoid", ProjName: "WGS 84"},
	"sphere":    {a: 6370997, b: 6370997, ProjDatum: "Unknown based on Normal Sphere (r=6370997) ellipsoid", ProjName: "Normal Sphere (r=6370997)"},
}

// Figure returns the ellipsoid of a PROJ +ellps entry.
func (e PROJEllipsoid) Figure() proj.Ellipsoid {
	if e.b != 0 {
		return proj.NewEllipsoidAB(e.a, e.b)
	}
	return proj.NewEllipsoid(e.a, e.rf)
}

// projEllipsoidName returns the +ellps name of a figure PROJ knows.
func projEllipsoidName(el proj.Ellipsoid) (string, bool) {
	names := make([]string, 0, len(PROJEllipsoids))
	for n := range PROJEllipsoids {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f := PROJEllipsoids[n].Figure()
		if f.A == el.A && math.Abs(f.B-el.B) <= 1e-12*el.B {
			return n, true
		}
	}
	return "", false
}

// PROJWellKnownEllipsoid returns PROJ's +ellps figure that a registry
// ellipsoid (a and b or inverse flattening, metres) matches to a relative
// 1e-10, as PROJ substitutes it when it builds a conversion (so Bessel
// Namibia in German legal metres becomes +ellps=bess_nam).
func PROJWellKnownEllipsoid(a, b, rf float64) (proj.Ellipsoid, bool) {
	names := make([]string, 0, len(PROJEllipsoids))
	for n := range PROJEllipsoids {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		e := PROJEllipsoids[n]
		if math.Abs(a-e.a) >= 1e-10*e.a {
			continue
		}
		if e.b != 0 {
			if math.Abs(b-e.b) < 1e-10*e.b {
				return e.Figure(), true
			}
		} else if rf != 0 && math.Abs(rf-e.rf) < 1e-10*e.rf {
			return e.Figure(), true
		}
	}
	return proj.Ellipsoid{}, false
}

// PROJDatums are PROJ's +datum values this package maps onto the EPSG
// geographic CRS of that datum.
var PROJDatums = map[string]int{
	"WGS84": 4326, "NAD83": 4269, "NAD27": 4267, "potsdam": 4314, "OSGB36": 4277,
	"GGRS87": 4121, "ire65": 4299, "nzgd49": 4272, "carthage": 4223, "hermannskogel": 4312,
}

// PROJPrimeMeridians are PROJ's +pm names (degrees east of Greenwich, from
// PROJ's DMS definitions).
var PROJPrimeMeridians = map[string]float64{
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

// PROJUnits are PROJ's +units values (metres per unit) with their EPSG
// unit codes.
var PROJUnits = map[string]struct {
	Metres float64
	Code   int
}{
	"m": {1, 9001}, "km": {1000, 9036}, "ft": {0.3048, 9002}, "us-ft": {1200.0 / 3937, 9003},
	"link": {0.201168, 9098}, "us-ch": {20.11684023368047, 9033}, "ind-ft": {0.30479841, 9081},
	"ind-yd": {0.91439523, 9085}, "yd": {0.9144, 9096}, "ch": {20.1168, 9097}, "fath": {1.8288, 9014},
	"mi": {1609.344, 9093}, "us-mi": {1609.347218694437, 9035},
}
