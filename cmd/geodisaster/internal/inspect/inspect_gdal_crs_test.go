package inspect

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/internal/cli/cmdtest"
	"github.com/geodisaster/engine/internal/testdir"
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

// userDefinedCases reads testdata/user_defined_crs.tsv.
func userDefinedCases(t *testing.T) []userDefinedCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "user_defined_crs.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var out []userDefinedCase
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 2 {
			t.Fatalf("user_defined_crs.tsv: %q", line)
		}
		c := userDefinedCase{name: f[0], proj: f[1]}
		for _, o := range f[2:] {
			k, v, _ := strings.Cut(o, "=")
			switch k {
			case "to_epsg":
				c.toEPSG = true
			case "ullr":
				c.ullr = strings.Split(v, ",")
			case "grid":
				c.grid = v
			case "not_gdal":
				c.notGDAL = v
			default:
				t.Fatalf("user_defined_crs.tsv: option %q", o)
			}
		}
		out = append(out, c)
	}
	return out
}

var projParam = regexp.MustCompile(`\+([xy])_0=(-?[0-9.]+)`)

// userDefinedSource returns gdal_translate and the raster the cases are
// cut from (the rasterio test raster shade.tif).
func userDefinedSource(t *testing.T) (translate, src string) {
	t.Helper()
	translate = cmdtest.NeedTool(t, "gdal_translate")
	src = filepath.Join(sharedData, "rasterio", "shade.tif")
	if _, err := os.Stat(src); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but %s is absent", src)
		}
		t.Skipf("corpus absent: %s", src)
	}
	return translate, src
}

// writeUserDefined writes c as a small GeoTIFF with gdal_translate.
func writeUserDefined(translate, src, dir string, c userDefinedCase) error {
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
		return fmt.Errorf("gdal_translate %s: %v\n%s", c.name, err, msg)
	}
	return nil
}

var userDefinedDir testdir.Once

// userDefinedFiles writes every case of user_defined_crs.tsv once per
// test binary (gdal_translate runs in parallel, one process per core)
// and returns the cases with their files' paths.
func userDefinedFiles(t *testing.T) ([]userDefinedCase, map[string]string) {
	t.Helper()
	translate, src := userDefinedSource(t)
	cases := userDefinedCases(t)
	dir := userDefinedDir.Dir(t, "geodisaster-user-defined-crs-", func(dir string) error {
		errs := make([]error, len(cases))
		sem := make(chan struct{}, runtime.NumCPU())
		var wg sync.WaitGroup
		for i, c := range cases {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				errs[i] = writeUserDefined(translate, src, dir, c)
			}()
		}
		wg.Wait()
		return errors.Join(errs...)
	})
	files := map[string]string{}
	for _, c := range cases {
		files[c.name] = filepath.Join(dir, c.name+".tif")
	}
	return cases, files
}

// TestInspectUserDefinedCRSLikeGdalinfo writes GeoTIFFs for PROJ strings
// of every method family GDAL writes to GeoKeys, on WGS 84 and other
// datums, and compares inspect --json with gdalinfo -json: the
// coordinateSystem (WKT byte for byte, axis mapping), the stac proj:*
// members, cornerCoordinates and wgs84Extent; and the text form with
// plain gdalinfo (WKT block and corner coordinates included).
func TestInspectUserDefinedCRSLikeGdalinfo(t *testing.T) {
	gdalinfo := cmdtest.NeedTool(t, "gdalinfo")
	cases, files := userDefinedFiles(t)
	var same atomic.Int32
	t.Run("case", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				f := files[c.name]
				want := gdalinfoJSON(t, gdalinfo, f)
				code, out, errs := cmdtest.Run(t, Commands(), "", "inspect", "--json", f)
				if code != kit.ExitOK {
					t.Errorf("%s: inspect exit %d: %s", c.name, code, errs)
					return
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
						return
					}
					sameCRSInPROJ(t, c.name, fmt.Sprint(wcs["wkt"]), fmt.Sprint(gcs["wkt"]))
				} else {
					if fmt.Sprint(wcs["wkt"]) != fmt.Sprint(gcs["wkt"]) {
						t.Errorf("%s: WKT differs:\n--- gdalinfo\n%v\n--- inspect\n%v", c.name, wcs["wkt"], gcs["wkt"])
					} else {
						same.Add(1)
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
			})
		}
	})
	t.Logf("%d PROJ strings; WKT byte for byte with gdalinfo for %d", len(cases), same.Load())
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
	_, got, _ := cmdtest.Run(t, Commands(), "", "inspect", f)
	if string(want) != got {
		t.Errorf("%s: text differs:\n--- gdalinfo\n%s\n--- inspect\n%s", name, want, got)
	}
}

// sameCRSInPROJ requires PROJ (pyproj) to read both WKTs as equivalent CRSs.
func sameCRSInPROJ(t *testing.T, name, gdalWKT, ours string) {
	t.Helper()
	py := cmdtest.NeedTool(t, "/usr/bin/python3")
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
	py := cmdtest.NeedTool(t, "/usr/bin/python3")
	cases, files := userDefinedFiles(t)
	var sel []userDefinedCase
	args := []string{"-c", "import sys, rasterio\nfor f in sys.argv[1:]:\n    with rasterio.open(f) as d: print(d.crs.to_epsg() or 0)"}
	for _, c := range cases {
		if c.toEPSG {
			sel = append(sel, c)
			args = append(args, files[c.name])
		}
	}
	// One interpreter for every file: importing rasterio is the slow part.
	out, err := exec.Command(py, args...).CombinedOutput()
	if err != nil {
		if os.Getenv("CI") != "true" && strings.Contains(string(out), "No module named") {
			t.Skipf("rasterio absent: %s", out)
		}
		t.Fatalf("rasterio: %v\n%s", err, out)
	}
	codes := strings.Fields(string(out))
	if len(codes) != len(sel) {
		t.Fatalf("rasterio printed %d codes for %d files:\n%s", len(codes), len(sel), out)
	}
	for i, c := range sel {
		f := files[c.name]
		want, _ := strconv.Atoi(codes[i])
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
		code, js, errs := cmdtest.Run(t, Commands(), "", "inspect", "--engine", "--json", f)
		var doc struct {
			CRS any `json:"crs"`
		}
		if code != kit.ExitOK || json.Unmarshal([]byte(js), &doc) != nil {
			t.Fatalf("%s: inspect --engine --json: exit %d %s", c.name, code, errs)
		}
		if fmt.Sprint(doc.CRS) != fmt.Sprintf("EPSG:%d", want) {
			t.Errorf("%s: inspect --engine --json crs %v, rasterio EPSG:%d", c.name, doc.CRS, want)
		}
	}
	t.Logf("%d user-defined GeoTIFFs: inspect and Dataset.EPSG report rasterio's code", len(sel))
}
