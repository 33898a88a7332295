package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/geodisaster/engine/raster"
)

// userDefinedCase is a CRS given to gdal_translate as a PROJ string, so
// that GDAL writes user-defined GeoKeys.
type userDefinedCase struct {
	name, proj string
	ullr       []string // -a_ullr; empty: 1 km around the false origin (10-11°E, 49-50°N for longlat)
	// notGDAL says why gdalinfo's WKT is not reproduced (see docs/crs.md);
	// the test then requires PROJ to read inspect's WKT as the same CRS.
	notGDAL string
	toEPSG  bool // check the code rasterio's to_epsg() gives
	// grid says why wgs84Extent differs: PROJ shifts the datum with a grid
	// the engine does not apply (docs/crs.md, "No grids").
	grid string
}

var userDefinedCases = []userDefinedCase{
	{name: "tm_wgs84", proj: "+proj=tmerc +lat_0=10 +lon_0=5 +k=0.9996 +x_0=500000 +y_0=100 +datum=WGS84 +units=m"},
	{name: "tm_intl_towgs84", proj: "+proj=tmerc +lat_0=10 +lon_0=5 +k=0.9996 +x_0=500000 +y_0=100 +ellps=intl +towgs84=-87,-98,-121 +units=m"},
	{name: "tm_bessel", proj: "+proj=tmerc +lat_0=0 +lon_0=9 +k=1 +x_0=3500000 +y_0=0 +ellps=bessel +units=m"},
	{name: "tm_nad83_ft", proj: "+proj=tmerc +lat_0=31 +lon_0=-110.1666666666667 +k=0.9999 +x_0=213360 +y_0=0 +datum=NAD83 +units=ft"},
	{name: "tm_user_ellipsoid", proj: "+proj=tmerc +lat_0=0 +lon_0=3 +k=1 +x_0=0 +y_0=0 +a=6378000 +rf=300 +units=m"},
	{name: "tm_to_meter", proj: "+proj=tmerc +lat_0=0 +lon_0=3 +k=1 +x_0=1000 +y_0=0 +datum=WGS84 +to_meter=0.3"},
	{name: "tm_potsdam", proj: "+proj=tmerc +lat_0=0 +lon_0=9 +k=1 +x_0=3500000 +y_0=0 +datum=potsdam +units=m",
		ullr: []string{"3500000", "5501000", "3501000", "5500000"}, grid: "BETA2007 (DHDN)"},
	{name: "tm_wgs84_ellipsoid", proj: "+proj=tmerc +lat_0=0 +lon_0=9 +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=m"},
	{name: "tm_south_orientated", proj: "+proj=tmerc +axis=wsu +lat_0=-22 +lon_0=17 +k=1 +x_0=0 +y_0=0 +ellps=bessel +units=m"},
	{name: "utm_intl", proj: "+proj=utm +zone=33 +ellps=intl +units=m"},
	{name: "utm_south_grs80", proj: "+proj=utm +zone=23 +south +ellps=GRS80 +towgs84=0,0,0 +units=m"},
	{name: "utm_etrs_like", proj: "+proj=utm +zone=32 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m"},
	{name: "lcc1sp_wgs84", proj: "+proj=lcc +lat_1=45 +lat_0=45 +lon_0=3 +k_0=0.99 +x_0=600000 +y_0=200000 +datum=WGS84 +units=m"},
	{name: "lcc1sp_paris", proj: "+proj=lcc +lat_1=49.5 +lat_0=49.5 +lon_0=0 +k_0=0.999877341 +x_0=600000 +y_0=200000 +ellps=clrk80ign +pm=paris +towgs84=-168,-60,320 +units=m"},
	{name: "lcc2sp_wgs84", proj: "+proj=lcc +lat_1=30 +lat_2=60 +lat_0=40 +lon_0=10 +x_0=0 +y_0=0 +datum=WGS84 +units=m"},
	{name: "lcc2sp_nad83_usft", proj: "+proj=lcc +lat_1=33 +lat_2=45 +lat_0=39 +lon_0=-96 +x_0=0 +y_0=0 +datum=NAD83 +units=us-ft"},
	{name: "lcc2sp_lambert93", proj: "+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m", toEPSG: true},
	{name: "aea_conus", proj: "+proj=aea +lat_0=23 +lon_0=-96 +lat_1=29.5 +lat_2=45.5 +x_0=0 +y_0=0 +datum=NAD83 +units=m", toEPSG: true},
	{name: "aea_wgs84", proj: "+proj=aea +lat_1=29.5 +lat_2=45.5 +lat_0=23 +lon_0=-96 +x_0=0 +y_0=0 +datum=WGS84 +units=m"},
	{name: "aea_user_ellipsoid", proj: "+proj=aea +lat_1=20 +lat_2=50 +lat_0=0 +lon_0=100 +x_0=0 +y_0=0 +a=6378245 +rf=298.3 +units=m"},
	{name: "ps_a_north", proj: "+proj=stere +lat_0=90 +lon_0=0 +k=0.994 +x_0=2000000 +y_0=2000000 +datum=WGS84 +units=m", toEPSG: true},
	{name: "ps_a_south", proj: "+proj=stere +lat_0=-90 +lon_0=0 +k=0.994 +x_0=2000000 +y_0=2000000 +datum=WGS84 +units=m"},
	{name: "ps_b_antarctic", proj: "+proj=stere +lat_0=-90 +lat_ts=-71 +lon_0=0 +datum=WGS84 +units=m", toEPSG: true},
	{name: "ps_b_arctic", proj: "+proj=stere +lat_0=90 +lat_ts=70 +lon_0=-45 +x_0=0 +y_0=0 +datum=WGS84 +units=m", toEPSG: true},
	{name: "ps_b_intl", proj: "+proj=stere +lat_0=-90 +lat_ts=-60 +lon_0=30 +ellps=intl +units=m"},
	{name: "sterea_rd", proj: "+proj=sterea +lat_0=52.15616055555555 +lon_0=5.38763888888889 +k=0.9999079 +x_0=155000 +y_0=463000 +ellps=bessel +towgs84=565.417,50.3319,465.552,-0.398957,0.343988,-1.8774,4.0725 +units=m"},
	{name: "sterea_wgs84", proj: "+proj=sterea +lat_0=46 +lon_0=25 +k=0.99975 +x_0=500000 +y_0=500000 +datum=WGS84 +units=m"},
	{name: "merc_a_world", proj: "+proj=merc +lon_0=0 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=m", toEPSG: true},
	{name: "merc_a_bessel", proj: "+proj=merc +lon_0=110 +k=0.997 +x_0=3900000 +y_0=900000 +ellps=bessel +units=m"},
	{name: "merc_b_wgs84", proj: "+proj=merc +lat_ts=30 +lon_0=0 +x_0=0 +y_0=0 +datum=WGS84 +units=m"},
	{name: "merc_b_krassowsky", proj: "+proj=merc +lat_ts=42 +lon_0=51 +x_0=0 +y_0=0 +ellps=krass +units=m"},
	{name: "laea_europe_wgs84", proj: "+proj=laea +lat_0=52 +lon_0=10 +x_0=4321000 +y_0=3210000 +datum=WGS84 +units=m"},
	{name: "laea_grs80", proj: "+proj=laea +lat_0=52 +lon_0=10 +x_0=4321000 +y_0=3210000 +ellps=GRS80 +units=m"},
	{name: "laea_ease_north", proj: "+proj=laea +lat_0=90 +lon_0=0 +x_0=0 +y_0=0 +datum=WGS84 +units=m", toEPSG: true},
	{name: "laea_sphere", proj: "+proj=laea +lat_0=45 +lon_0=-100 +x_0=0 +y_0=0 +a=6370997 +b=6370997 +units=m"},
	{name: "cass_wgs84", proj: "+proj=cass +lat_0=10.44166666666667 +lon_0=-61.33333333333334 +x_0=86501.46392052 +y_0=65379.0134283 +datum=WGS84 +units=m"},
	{name: "cass_towgs84", proj: "+proj=cass +lat_0=31.73409694444445 +lon_0=35.21208055555556 +x_0=170251.555 +y_0=126867.909 +a=6378300.789 +b=6356566.435 +towgs84=-275.722,94.7824,340.894,-8.001,-4.42,-11.821,1 +units=m"},
	{name: "omerc_b", proj: "+proj=omerc +lat_0=4 +lonc=102.25 +alpha=323.0257905 +k=0.99984 +x_0=804670.24 +y_0=0 +gamma=323.1301023611111 +datum=WGS84 +units=m"},
	{name: "omerc_a", proj: "+proj=omerc +no_uoff +lat_0=4 +lonc=115 +alpha=53.31582047222222 +gamma=53.13010236111111 +k=0.99984 +x_0=0 +y_0=0 +datum=WGS84 +units=m"},
	{name: "omerc_everest", proj: "+proj=omerc +lat_0=4 +lonc=115 +alpha=53.31582047222222 +k=0.99984 +x_0=590476.87 +y_0=442857.65 +gamma=53.13010236111111 +ellps=evrstSS +units=m"},
	{name: "eqc_wgs84", proj: "+proj=eqc +lat_ts=0 +lat_0=0 +lon_0=0 +x_0=0 +y_0=0 +datum=WGS84 +units=m"},
	{name: "eqc_grs80", proj: "+proj=eqc +lat_ts=30 +lat_0=0 +lon_0=10 +x_0=0 +y_0=0 +ellps=GRS80 +units=m"},
	{name: "poly_wgs84", proj: "+proj=poly +lat_0=0 +lon_0=-54 +x_0=5000000 +y_0=10000000 +datum=WGS84 +units=m"},
	{name: "poly_intl", proj: "+proj=poly +lat_0=0 +lon_0=-54 +x_0=5000000 +y_0=10000000 +ellps=intl +units=m"},
	{name: "cea_wgs84", proj: "+proj=cea +lat_ts=30 +lon_0=0 +x_0=0 +y_0=0 +datum=WGS84 +units=m"},
	{name: "nzmg", proj: "+proj=nzmg +lat_0=-41 +lon_0=173 +x_0=2510000 +y_0=6023150 +ellps=intl +towgs84=59.47,-5.04,187.44,0.47,-0.1,1.024,-4.5993 +units=m"},
	{name: "aeqd_wgs84", proj: "+proj=aeqd +lat_0=40 +lon_0=-100 +x_0=0 +y_0=0 +datum=WGS84 +units=m"},
	{name: "krovak", proj: "+proj=krovak +lat_0=49.5 +lon_0=24.83333333333333 +alpha=30.28813972222222 +k=0.9999 +x_0=0 +y_0=0 +ellps=bessel +towgs84=589,76,480,0,0,0,0 +units=m",
		ullr:    []string{"-740000", "-1040000", "-739000", "-1041000"},
		notGDAL: "GDAL writes Krovak as an ESRI PE-string citation and reads it with PROJ's ESRI WKT import"},
	{name: "webmerc_esri", proj: "+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs",
		notGDAL: "GDAL writes Web Mercator as an ESRI PE-string citation and reads it with PROJ's ESRI WKT import"},
	{name: "longlat_nad83", proj: "+proj=longlat +datum=NAD83 +no_defs"},
	{name: "longlat_intl", proj: "+proj=longlat +ellps=intl +no_defs"},
	{name: "longlat_intl_towgs84", proj: "+proj=longlat +ellps=intl +towgs84=-87,-98,-121 +no_defs"},
	{name: "longlat_paris", proj: "+proj=longlat +ellps=clrk80ign +pm=paris +towgs84=-168,-60,320 +no_defs"},
	{name: "longlat_user", proj: "+proj=longlat +a=6378000 +rf=300 +pm=2.5 +no_defs"},
	{name: "longlat_sphere", proj: "+proj=longlat +R=6371000 +no_defs"},
	{name: "longlat_grs80", proj: "+proj=longlat +ellps=GRS80 +no_defs"},
	{name: "longlat_ferro", proj: "+proj=longlat +ellps=bessel +pm=ferro +no_defs"},
}

var projParam = regexp.MustCompile(`\+([xy])_0=(-?[0-9.]+)`)

// userDefinedSource returns gdal_translate, the raster the cases are cut
// from (the rasterio test raster shade.tif) and a directory for them.
func userDefinedSource(t *testing.T) (translate, src, dir string) {
	t.Helper()
	translate = needTool(t, "gdal_translate")
	src = filepath.Join("..", "..", "..", "shared", "data", "rasterio", "shade.tif")
	if _, err := os.Stat(src); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but %s is absent", src)
		}
		t.Skipf("corpus absent: %s", src)
	}
	return translate, src, t.TempDir()
}

// writeUserDefined writes c as a small GeoTIFF with gdal_translate.
func writeUserDefined(t *testing.T, translate, src, dir string, c userDefinedCase) string {
	t.Helper()
	ullr := c.ullr
	if len(ullr) == 0 && strings.HasPrefix(c.proj, "+proj=longlat") {
		ullr = []string{"10", "50", "11", "49"}
	}
	if len(ullr) == 0 {
		x0, y0 := 0.0, 0.0
		for _, m := range projParam.FindAllStringSubmatch(c.proj, -1) {
			v, _ := strconv.ParseFloat(m[2], 64)
			if m[1] == "x" {
				x0 = v
			} else {
				y0 = v
			}
		}
		if strings.Contains(c.proj, "+proj=utm") {
			x0 = 500000
			if strings.Contains(c.proj, "+south") {
				y0 = 10000000
			}
		}
		if strings.Contains(c.proj, "+units=us-ft") || strings.Contains(c.proj, "+units=ft") || strings.Contains(c.proj, "+to_meter") {
			x0, y0 = 0, 0 // keep it simple: the origin in the file's unit
		}
		f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
		ullr = []string{f(x0 - 500), f(y0 + 1500), f(x0 + 1500), f(y0 - 500)}
	}
	p := filepath.Join(dir, c.name+".tif")
	args := append([]string{"-q", "-a_srs", c.proj, "-a_ullr"}, ullr...)
	args = append(args, "-outsize", "8", "8", "-b", "1", src, p)
	cmd := exec.Command(translate, args...)
	cmd.Env = append(os.Environ(), "GDAL_PAM_ENABLED=NO")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gdal_translate %s: %v\n%s", c.name, err, msg)
	}
	return p
}

// TestInspectUserDefinedCRSLikeGdalinfo writes GeoTIFFs for PROJ strings
// of every method family GDAL writes to GeoKeys, on WGS 84 and other
// datums, and compares inspect --json with gdalinfo -json: the
// coordinateSystem (WKT byte for byte, axis mapping), the stac proj:*
// members, cornerCoordinates and wgs84Extent; and the text form with
// plain gdalinfo (WKT block and corner coordinates included).
func TestInspectUserDefinedCRSLikeGdalinfo(t *testing.T) {
	gdalinfo := needTool(t, "gdalinfo")
	translate, src, dir := userDefinedSource(t)
	same := 0
	for _, c := range userDefinedCases {
		f := writeUserDefined(t, translate, src, dir, c)
		want := gdalinfoJSON(t, gdalinfo, f)
		code, out, errs := runCLI(t, "", "inspect", "--json", f)
		if code != exitOK {
			t.Errorf("%s: inspect exit %d: %s", c.name, code, errs)
			continue
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		wcs, _ := want["coordinateSystem"].(map[string]any)
		gcs, _ := got["coordinateSystem"].(map[string]any)
		if c.notGDAL != "" {
			t.Logf("%s: WKT not compared (%s)", c.name, c.notGDAL)
			if gcs == nil {
				t.Errorf("%s: inspect has no coordinateSystem", c.name)
				continue
			}
			sameCRSInPROJ(t, c.name, fmt.Sprint(wcs["wkt"]), fmt.Sprint(gcs["wkt"]))
		} else {
			if fmt.Sprint(wcs["wkt"]) != fmt.Sprint(gcs["wkt"]) {
				t.Errorf("%s: WKT differs:\n--- gdalinfo\n%v\n--- inspect\n%v", c.name, wcs["wkt"], gcs["wkt"])
			} else {
				same++
			}
			if fmt.Sprint(wcs["dataAxisToSRSAxisMapping"]) != fmt.Sprint(gcs["dataAxisToSRSAxisMapping"]) {
				t.Errorf("%s: axis mapping gdalinfo %v, inspect %v", c.name, wcs["dataAxisToSRSAxisMapping"], gcs["dataAxisToSRSAxisMapping"])
			}
		}
		var diffs, missing []string
		jsonDiff(".cornerCoordinates", want["cornerCoordinates"], got["cornerCoordinates"], &diffs, &missing)
		var extentDiffs []string
		jsonDiff(".wgs84Extent", want["wgs84Extent"], got["wgs84Extent"], &extentDiffs, &missing)
		for _, d := range extentDiffs {
			// A datum shift agrees with PROJ's to about 1e-9 degrees; the
			// seventh decimal gdalinfo prints may then round the other way.
			var w, g float64
			if _, err := fmt.Sscanf(d[strings.Index(d, ": gdalinfo ")+2:], "gdalinfo %g, inspect %g", &w, &g); err == nil && math.Abs(w-g) <= 1.01e-7 {
				t.Logf("%s: %s (last digit)", c.name, d)
				continue
			}
			if c.grid != "" {
				t.Logf("%s: %s (PROJ applies the %s grid)", c.name, d, c.grid)
				continue
			}
			diffs = append(diffs, d)
		}
		ws, _ := want["stac"].(map[string]any)
		gs, _ := got["stac"].(map[string]any)
		for k, v := range ws {
			if !strings.HasPrefix(k, "proj:") || k == "proj:projjson" || (k == "proj:wkt2" && c.notGDAL != "") {
				continue
			}
			jsonDiff(".stac."+k, v, gs[k], &diffs, &missing)
		}
		for k := range gs {
			if _, ok := ws[k]; !ok && strings.HasPrefix(k, "proj:") {
				diffs = append(diffs, fmt.Sprintf(".stac.%s: only inspect has it", k))
			}
		}
		for _, d := range append(diffs, missing...) {
			t.Errorf("%s: %s", c.name, d)
		}
		if c.notGDAL == "" {
			textLikeGdalinfo(t, gdalinfo, c.name, f)
		}
	}
	t.Logf("%d PROJ strings; WKT byte for byte with gdalinfo for %d", len(userDefinedCases), same)
}

// textLikeGdalinfo compares inspect's text with plain gdalinfo's, line for
// line (Files and the path differ only by the temporary directory).
func textLikeGdalinfo(t *testing.T, gdalinfo, name, f string) {
	t.Helper()
	cmd := exec.Command(gdalinfo, f)
	cmd.Env = append(os.Environ(), "GDAL_PAM_ENABLED=NO")
	want, err := cmd.Output()
	if err != nil {
		t.Fatalf("gdalinfo %s: %v", f, err)
	}
	_, got, _ := runCLI(t, "", "inspect", f)
	if string(want) != got {
		t.Errorf("%s: text differs:\n--- gdalinfo\n%s\n--- inspect\n%s", name, want, got)
	}
}

// sameCRSInPROJ requires PROJ (pyproj) to read both WKTs as equivalent CRSs.
func sameCRSInPROJ(t *testing.T, name, gdalWKT, ours string) {
	t.Helper()
	py := needTool(t, "/usr/bin/python3")
	script := `import sys, pyproj
a, b = pyproj.CRS(sys.argv[1]), pyproj.CRS(sys.argv[2])
a = a.source_crs if a.is_bound else a
b = b.source_crs if b.is_bound else b
t = pyproj.Transformer.from_crs(a, b, always_xy=True)
ok = a.equals(b, ignore_axis_order=True)
ga, gb = a.geodetic_crs, b.geodetic_crs
for lon, lat in ((15, 50), (0, 45), (-100, 40), (10, -75)):
    try:
        x, y = pyproj.Transformer.from_crs(ga, a, always_xy=True).transform(lon, lat)
        x2, y2 = pyproj.Transformer.from_crs(gb, b, always_xy=True).transform(lon, lat)
    except Exception:
        continue
    if abs(x - x2) > 1e-6 or abs(y - y2) > 1e-6:
        ok = False
print("same" if ok else "different")
`
	out, err := exec.Command(py, "-c", script, gdalWKT, ours).CombinedOutput()
	if err != nil {
		if os.Getenv("CI") != "true" && strings.Contains(string(out), "No module named") {
			t.Skipf("pyproj absent: %s", out)
		}
		t.Fatalf("%s: pyproj: %v\n%s", name, err, out)
	}
	if strings.TrimSpace(string(out)) != "same" {
		t.Errorf("%s: PROJ does not read inspect's WKT as gdalinfo's CRS:\n--- gdalinfo\n%s\n--- inspect\n%s", name, gdalWKT, ours)
	}
}

// TestInspectUserDefinedEPSGLikeRasterio requires inspect --engine --json
// and raster.Dataset.EPSG to report the code rasterio's CRS.to_epsg()
// gives for user-defined polar stereographic, Mercator, LCC, Albers and
// LAEA GeoTIFFs written by GDAL from PROJ strings.
func TestInspectUserDefinedEPSGLikeRasterio(t *testing.T) {
	py := needTool(t, "/usr/bin/python3")
	translate, src, dir := userDefinedSource(t)
	n := 0
	for _, c := range userDefinedCases {
		if !c.toEPSG {
			continue
		}
		f := writeUserDefined(t, translate, src, dir, c)
		out, err := exec.Command(py, "-c", "import sys, rasterio\nwith rasterio.open(sys.argv[1]) as d: print(d.crs.to_epsg() or 0)", f).CombinedOutput()
		if err != nil {
			if os.Getenv("CI") != "true" && strings.Contains(string(out), "No module named") {
				t.Skipf("rasterio absent: %s", out)
			}
			t.Fatalf("%s: rasterio: %v\n%s", c.name, err, out)
		}
		want, _ := strconv.Atoi(strings.TrimSpace(string(out)))
		if want == 0 {
			t.Errorf("%s: rasterio reports no code; the case should have one", c.name)
		}
		d, err := raster.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.EPSG(); got != want {
			t.Errorf("%s: Dataset.EPSG() %d, rasterio %d", c.name, got, want)
		}
		code, js, errs := runCLI(t, "", "inspect", "--engine", "--json", f)
		var doc struct {
			CRS any `json:"crs"`
		}
		if code != exitOK || json.Unmarshal([]byte(js), &doc) != nil {
			t.Fatalf("%s: inspect --engine --json: exit %d %s", c.name, code, errs)
		}
		if fmt.Sprint(doc.CRS) != fmt.Sprintf("EPSG:%d", want) {
			t.Errorf("%s: inspect --engine --json crs %v, rasterio EPSG:%d", c.name, doc.CRS, want)
		}
		n++
	}
	t.Logf("%d user-defined GeoTIFFs: inspect and Dataset.EPSG report rasterio's code", n)
}
