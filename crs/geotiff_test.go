package crs_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster"
)

// gdalCase is one line of conformance/crs/geotiff_cases.py.
type gdalCase struct {
	Def     string `json:"def"`
	File    string `json:"file"`
	EPSG    *int   `json:"epsg"`
	WKT     string `json:"wkt"`
	Mapping []int  `json:"mapping"`
	Aux     bool   `json:"aux"`
	Error   string `json:"error"`
}

// wantEPSG is the code rasterio's CRS.to_epsg() reports for the case's
// file, 0 for none.
func (c gdalCase) wantEPSG() int {
	if c.EPSG == nil {
		return 0
	}
	return *c.EPSG
}

// gdalCases writes GeoTIFFs with GDAL/rasterio (geotiff_cases.py args)
// and returns what gdalinfo and rasterio read from them. It skips
// without the native stack, and fails under CI=true.
func gdalCases(t *testing.T, args ...string) []gdalCase {
	t.Helper()
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		py = "python3"
	}
	if err := exec.Command(py, "-c", "import rasterio, osgeo").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but rasterio/GDAL's Python bindings are missing: %v", err)
		}
		t.Skipf("rasterio/GDAL not available: %v", err)
	}
	if _, err := exec.LookPath("gdalinfo"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but gdalinfo is not installed")
		}
		t.Skip("gdalinfo not installed")
	}
	dir := t.TempDir()
	cmd := exec.Command(py, append([]string{"../conformance/crs/geotiff_cases.py", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("geotiff_cases.py: %v\n%s", err, stderr.String())
	}
	return crs.DecodeJSONLines[gdalCase](t, out, 0)
}

// checkEPSG reads the GeoKeys of a case's file and requires their EPSG
// code to be rasterio's (errors name the case as name).
func checkEPSG(t *testing.T, c gdalCase, name string) *crs.GeoKeyDirectory {
	t.Helper()
	g := geoKeysOf(t, c.File)
	if got, want := g.EPSG(), c.wantEPSG(); got != want {
		t.Errorf("%s: EPSG %d, rasterio's to_epsg() %d", name, got, want)
	}
	return g
}

func geoKeysOf(t *testing.T, path string) *crs.GeoKeyDirectory {
	t.Helper()
	d, err := raster.Open(path)
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	defer d.Close()
	return d.GeoKeys()
}

// gdalWKTExceptions are the EPSG codes whose GeoTIFFs GDAL writes with
// extra keys (the grad-based French and Malagasy systems): GDAL then
// rebuilds the projected CRS from the keys and gdalinfo's WKT names the
// conversion "unnamed"; the engine prints the EPSG definition.
var gdalWKTExceptions = map[int]bool{
	22300: true, 27561: true, 27562: true, 27563: true, 27564: true, 27571: true, 27572: true,
	27573: true, 27574: true, 27500: true, 29701: true, 29702: true, 27581: true,
}

// rasterioLosesCode are the codes whose GeoTIFFs rasterio's to_epsg()
// reports without a code, because GDAL renames the datum of the
// geographic CRS it rebuilds from the keys ("M_poraloko") and PROJ no
// longer recognises it; the engine reports the file's code.
var rasterioLosesCode = map[int]bool{4266: true}

// TestGDALCoordinateSystemMatchesGdalinfo requires the engine's
// coordinateSystem of GDAL-written GeoTIFFs to be gdalinfo -json's, byte
// for byte (WKT) and value for value (axis mapping), on a seeded sample
// of EPSG codes plus the common ones; GEODISASTER_CRS_GDALINFO=all for
// every code, =C1,C2,... for those codes.
func TestGDALCoordinateSystemMatchesGdalinfo(t *testing.T) {
	args := []string{"--sample", "120", "--seed", "27"}
	switch v := os.Getenv("GEODISASTER_CRS_GDALINFO"); v {
	case "":
	case "all":
		args = nil
	default:
		args = []string{"--codes", v} // a comma-separated list
	}
	cases := gdalCases(t, args...)
	cases = append(cases, gdalCases(t, "--codes", "4326,4258,4269,4267,4807,7041,9000,32633,32718,25832,31467,3857,2056,27700,3035,2154,3031,3413,5070,28992")...)
	bad := 0
	for _, c := range cases {
		if c.Error != "" || c.Aux {
			continue // GDAL wrote the CRS to a .aux.xml sidecar: not GeoKeys
		}
		code, _ := strconv.Atoi(c.Def[5:])
		g := geoKeysOf(t, c.File)
		w, m, err := g.GDALCoordinateSystem()
		if err != nil {
			t.Errorf("%s: %v", c.Def, err)
			continue
		}
		if w != c.WKT || !equalInts(m, c.Mapping) {
			if gdalWKTExceptions[code] {
				continue
			}
			bad++
			t.Errorf("%s: coordinateSystem differs from gdalinfo's (mapping %v vs %v):\n%s\n---- gdalinfo:\n%s", c.Def, m, c.Mapping, w, c.WKT)
		}
		want := c.wantEPSG() // the code, or its replacement for a deprecated one
		if got := g.EPSG(); got != want && !(want == 0 && got == code && rasterioLosesCode[code]) {
			t.Errorf("%s: EPSG() %d, rasterio's to_epsg() %d", c.Def, got, want)
		}
	}
	t.Logf("%d GeoTIFFs compared with gdalinfo, %d differ", len(cases), bad)
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// userDefinedGeoTIFFs are CRSs written through rasterio from PROJ strings,
// so that the GeoKeys are user-defined, as a GIS user writes them.
var userDefinedGeoTIFFs = []string{
	// Polar stereographic, south and north (EPSG:3031, 3413).
	"+proj=stere +lat_0=-90 +lat_ts=-71 +lon_0=0 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs",
	"+proj=stere +lat_0=90 +lat_ts=70 +lon_0=-45 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs",
	"+proj=stere +lat_0=90 +lon_0=0 +k=0.994 +x_0=2000000 +y_0=2000000 +datum=WGS84 +units=m +no_defs",
	// Mercator: World Mercator; Web Mercator (GDAL writes an ESRI PE
	// string citation).
	"+proj=merc +lon_0=0 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs",
	"+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs",
	// LCC: Lambert-93 on an unnamed GRS80 datum; a CRS without a code.
	"+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs",
	"+proj=lcc +lat_0=40 +lon_0=-97 +lat_1=33 +lat_2=45 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs",
	"+proj=lcc +lat_1=49 +lat_2=46 +lat_0=47.5 +lon_0=13.3333333333333 +x_0=400000 +y_0=400000 +ellps=GRS80 +units=m +no_defs",
	// Albers: CONUS Albers on NAD83 (EPSG:5070).
	"+proj=aea +lat_0=23 +lon_0=-96 +lat_1=29.5 +lat_2=45.5 +x_0=0 +y_0=0 +datum=NAD83 +units=m +no_defs",
	// LAEA: LAEA Europe (northing first in EPSG, so no code); the EASE
	// north grid and a North Pole LAEA (easting first).
	"+proj=laea +lat_0=52 +lon_0=10 +x_0=4321000 +y_0=3210000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs",
	"+proj=laea +lat_0=90 +lon_0=0 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs",
	"+proj=laea +lat_0=90 +lon_0=180 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs",
	// TM, Swiss oblique Mercator, oblique stereographic, UTM.
	"+proj=tmerc +lat_0=0 +lon_0=9 +k=1 +x_0=3500000 +y_0=0 +ellps=bessel +towgs84=598.1,73.7,418.2,0.202,0.045,-2.455,6.7 +units=m +no_defs",
	"+proj=somerc +lat_0=46.9524055555556 +lon_0=7.43958333333333 +k_0=1 +x_0=2600000 +y_0=1200000 +ellps=bessel +towgs84=674.374,15.056,405.346,0,0,0,0 +units=m +no_defs",
	"+proj=sterea +lat_0=52.1561605555556 +lon_0=5.38763888888889 +k=0.9999079 +x_0=155000 +y_0=463000 +ellps=bessel +towgs84=565.417,50.3319,465.552,-0.398957,0.343988,-1.8774,4.0725 +units=m +no_defs",
	"+proj=utm +zone=33 +datum=WGS84 +units=m +no_defs",
	"+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +ellps=airy +units=m +no_defs",
	// Cassini (Soldner Berlin: no code for rasterio, its datum is
	// unnamed), Polyconic (5880), NZMG (27200), Hotine (a Malaysian RSO
	// without a code), equidistant cylindrical (4087), cylindrical equal
	// area (EASE-Grid 2.0 global, 6933), Krovak (no code: east-west axes),
	// the Guam ellipsoidal aeqd and a Stereo70 without a code.
	"+proj=cass +lat_0=52.4186482777778 +lon_0=13.6272036666667 +x_0=40000 +y_0=10000 +ellps=bessel +towgs84=598.1,73.7,418.2,0.202,0.045,-2.455,6.7 +units=m +no_defs",
	"+proj=poly +lat_0=0 +lon_0=-54 +x_0=5000000 +y_0=10000000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs",
	"+proj=nzmg +lat_0=-41 +lon_0=173 +x_0=2510000 +y_0=6023150 +ellps=intl +datum=nzgd49 +units=m +no_defs",
	"+proj=omerc +no_uoff +lat_0=4 +lonc=102.25 +alpha=323.025796466667 +gamma=323.130102222222 +k=0.99984 +x_0=804671 +y_0=0 +ellps=GRS80 +units=m +no_defs",
	"+proj=eqc +lat_ts=0 +lat_0=0 +lon_0=0 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs",
	"+proj=cea +lat_ts=30 +lon_0=0 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs",
	"+proj=krovak +lat_0=49.5 +lon_0=24.8333333333333 +alpha=30.2881397527778 +k=0.9999 +x_0=0 +y_0=0 +ellps=bessel +towgs84=589,76,480,0,0,0,0 +units=m +no_defs",
	"+proj=aeqd +lat_0=13.4724663527778 +lon_0=144.748750705556 +x_0=50000 +y_0=50000 +ellps=clrk66 +units=m +no_defs",
	"+proj=sterea +lat_0=46 +lon_0=25 +k=0.99975 +x_0=500000 +y_0=500000 +ellps=krass +towgs84=2.329,-147.042,-92.08,0.309,-0.325,-0.497,5.69 +units=m +no_defs",
	// Geographic: WGS 84 and NAD83 spelled out; a datum without a code.
	"+proj=longlat +datum=WGS84 +no_defs",
	"+proj=longlat +datum=NAD83 +no_defs",
	"+proj=longlat +ellps=intl +towgs84=-87,-98,-121,0,0,0,0 +no_defs",
}

// TestGeoKeysIdentifyLikeRasterio writes user-defined GeoTIFFs with GDAL
// (rasterio, PROJ strings) and requires the engine's EPSG code to be the
// one rasterio's CRS.to_epsg() reports (0 for none); for those without a
// code, PROJ must read the engine's WKT2 and PROJJSON back as the CRS of
// the PROJ string or the one GDAL reads from the file.
func TestGeoKeysIdentifyLikeRasterio(t *testing.T) {
	cases := gdalCases(t, append([]string{"--user"}, userDefinedGeoTIFFs...)...)
	if len(cases) != len(userDefinedGeoTIFFs) {
		t.Fatalf("%d cases for %d definitions", len(cases), len(userDefinedGeoTIFFs))
	}
	var noCode []crs.DescribedCRS
	for _, c := range cases {
		if c.Error != "" {
			t.Errorf("%s: %s", c.Def, c.Error)
			continue
		}
		g := checkEPSG(t, c, c.Def)
		want, got := c.wantEPSG(), g.EPSG()
		cr, err := g.CRS()
		if err != nil || cr == nil {
			t.Errorf("%s: CRS: %v", c.Def, err)
			continue
		}
		t.Logf("%s -> EPSG %d (%v)", c.Def, got, cr)
		if want == 0 {
			// PROJ must read the description as the PROJ string's CRS or
			// as the one GDAL reads from the file: GDAL gives a polar LAEA
			// east/north axes, and loses a +towgs84 the GeoKeys cannot
			// hold (Krovak, which it writes as an ESRI PE string).
			d := crs.Describe(t, c.Def, cr, true)
			d.Also = []string{c.WKT}
			noCode = append(noCode, d)
		}
	}
	if len(noCode) == 0 {
		t.Fatal("no case without an EPSG code")
	}
	t.Logf("%d GeoTIFFs without a code described", len(noCode))
	crs.CheckPROJReadsBack(t, noCode)
}

// TestRealGeoTIFFsLikeGDAL reads the real-world GeoTIFFs of ../shared/data
// and, with GEODISASTER_CRS_CORPUS=DIR, every .tif/.tiff under DIR (a
// held-out corpus): the engine's EPSG code is rasterio's to_epsg(), its
// coordinateSystem is gdalinfo -json's (unless GDAL read the CRS from a
// .aux.xml sidecar), and a CRS without a code is described in WKT2 and
// PROJJSON that PROJ reads back as the CRS GDAL reads.
func TestRealGeoTIFFsLikeGDAL(t *testing.T) {
	var files []string
	for _, root := range []string{filepath.Join("..", "..", "shared", "data"), os.Getenv("GEODISASTER_CRS_CORPUS")} {
		if root == "" {
			continue
		}
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			ext := strings.ToLower(filepath.Ext(p))
			if err == nil && !d.IsDir() && (ext == ".tif" || ext == ".tiff") {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) == 0 {
		t.Skip("no GeoTIFFs under ../shared/data")
	}
	cases := gdalCases(t, append([]string{"--files"}, files...)...)
	var noCode []crs.DescribedCRS
	coded := 0
	for _, c := range cases {
		if c.Error != "" {
			t.Logf("%s: GDAL/rasterio cannot read it: %s", c.Def, c.Error)
			continue
		}
		g := checkEPSG(t, c, c.File)
		want := c.wantEPSG()
		if !c.Aux {
			w, m, err := g.GDALCoordinateSystem()
			if err != nil || w != c.WKT || !equalInts(m, c.Mapping) {
				t.Errorf("%s: coordinateSystem differs from gdalinfo's (%v; mapping %v vs %v):\n%s\n---- gdalinfo:\n%s", c.File, err, m, c.Mapping, w, c.WKT)
			}
		}
		if want != 0 {
			coded++
			continue
		}
		cr, err := g.CRS()
		if c.WKT == "" && cr == nil {
			continue // no CRS for GDAL either
		}
		if err != nil || cr == nil || c.WKT == "" {
			if !c.Aux {
				t.Errorf("%s: CRS %v (%v), gdalinfo's WKT has %d bytes", c.File, cr, err, len(c.WKT))
			}
			continue
		}
		noCode = append(noCode, crs.Describe(t, c.WKT, cr, true))
	}
	t.Logf("%d GeoTIFFs, %d with an EPSG code, %d described without one", len(cases), coded, len(noCode))
	crs.CheckPROJReadsBack(t, noCode)
}
