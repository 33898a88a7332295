package inspect

import (
	"encoding/json"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/internal/cli/cmdtest"
)

// rasterCorpus is the committed raster conformance corpus.
const rasterCorpus = "../../../../conformance/raster/testdata"

// sharedData is the read-only real data (/work/shared/data beside the
// repository).
var sharedData = filepath.Join("..", "..", "..", "..", "..", "shared", "data")

// TestMain removes the files the tests of the binary share.
func TestMain(m *testing.M) {
	code := m.Run()
	userDefinedDir.Remove()
	os.Exit(code)
}

// numOrString decodes inspect's JSON numbers, which may be "nan"/"inf".
func numOrString(t *testing.T, v any) float64 {
	t.Helper()
	switch x := v.(type) {
	case float64:
		return x
	case string:
		f, err := strconv.ParseFloat(x, 64)
		if err != nil {
			t.Fatalf("bad number %q", x)
		}
		return f
	}
	t.Fatalf("not a number: %v", v)
	return 0
}

// TestInspectEngineAgreesWithGDAL runs inspect --engine --json --checksum
// --stats --recompute (the engine's own document) on every corpus file and
// compares with GDAL's goldens.
func TestInspectEngineAgreesWithGDAL(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(rasterCorpus, "goldens.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Files map[string]struct {
			Width, Height, Count int
			DType                string      `json:"dtype"`
			Transform            []float64   `json:"transform"`
			EPSG                 int         `json:"epsg"`
			NoData               *string     `json:"nodata"`
			SHA                  []string    `json:"band_sha256"`
			Lossy                bool        `json:"lossy"`
			Stats                [][]float64 `json:"stats"`
		} `json:"files"`
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	for _, name := range slices.Sorted(maps.Keys(g.Files)) {
		want := g.Files[name]
		code, out, errs := cmdtest.Run(t, Commands(), "", "inspect", "--engine", "--json", "--checksum", "--stats", "--recompute", filepath.Join(rasterCorpus, name))
		if code != 0 {
			t.Errorf("%s: exit %d: %s", name, code, errs)
			continue
		}
		var rep map[string]any
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if int(rep["width"].(float64)) != want.Width || int(rep["height"].(float64)) != want.Height ||
			int(rep["count"].(float64)) != want.Count || rep["dtype"] != want.DType {
			t.Errorf("%s: size/type %v %v %v %v", name, rep["width"], rep["height"], rep["count"], rep["dtype"])
		}
		if int(rep["epsg"].(float64)) != want.EPSG {
			t.Errorf("%s: epsg %v, want %d", name, rep["epsg"], want.EPSG)
		}
		if want.EPSG != 0 && rep["crs"] != "EPSG:"+strconv.Itoa(want.EPSG) {
			t.Errorf("%s: crs %v", name, rep["crs"])
		}
		tr, _ := rep["transform"].([]any)
		if len(tr) != len(want.Transform) {
			t.Errorf("%s: transform %v, want %v", name, tr, want.Transform)
		} else {
			for i := range tr {
				if numOrString(t, tr[i]) != want.Transform[i] {
					t.Errorf("%s: transform %v, want %v", name, tr, want.Transform)
					break
				}
			}
		}
		if (rep["nodata"] == nil) != (want.NoData == nil) {
			t.Errorf("%s: nodata %v, want %v", name, rep["nodata"], want.NoData)
		} else if want.NoData != nil {
			w, _ := strconv.ParseFloat(*want.NoData, 64)
			if got := numOrString(t, rep["nodata"]); got != w && !(math.IsNaN(got) && math.IsNaN(w)) {
				t.Errorf("%s: nodata %v, want %v", name, got, w)
			}
		}
		sums, _ := rep["band_sha256"].([]any)
		if len(sums) != len(want.SHA) {
			t.Fatalf("%s: band_sha256 %v", name, sums)
		}
		bands := rep["bands"].([]any)
		for i := range sums {
			if sums[i] != want.SHA[i] {
				t.Errorf("%s: band %d sha256 %v, want %s", name, i+1, sums[i], want.SHA[i])
			}
			if i >= len(want.Stats) || want.Stats[i] == nil {
				continue
			}
			st, _ := bands[i].(map[string]any)["stats"].(map[string]any)
			if st == nil {
				t.Errorf("%s: band %d has no stats", name, i+1)
				continue
			}
			got := []float64{numOrString(t, st["minimum"]), numOrString(t, st["maximum"]), numOrString(t, st["mean"]), numOrString(t, st["stddev"])}
			for k := range got {
				if got[k] != want.Stats[i][k] {
					t.Errorf("%s: band %d stats %v, want %v", name, i+1, got, want.Stats[i][:4])
					break
				}
			}
		}
	}
}

func TestInspectStoredStatistics(t *testing.T) {
	p := filepath.Join(sharedData, "rasterio", "RGB.byte.tif")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus absent: %s", p)
	}
	// gdalinfo -stats reports the statistics stored in RGB.byte.tif (and
	// gdalinfo without -stats too).
	code, out, errs := cmdtest.Run(t, Commands(), "", "inspect", p, "--stats")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"STATISTICS_MEAN=29.947726688477", "STATISTICS_STDDEV=52.340921626611", "Minimum=0.000, Maximum=255.000, Mean=29.948, StdDev=52.341"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// --recompute excludes nodata 0, as GDAL's ComputeStatistics does.
	_, out, _ = cmdtest.Run(t, Commands(), "", "inspect", "--stats", "--recompute", "--engine", "--json", p)
	var rep struct {
		Bands []struct {
			Stats struct {
				Source string
				Mean   float64
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Bands) != 3 {
		t.Fatalf("bad JSON (%v): %s", err, out)
	}
	if s := rep.Bands[0].Stats; s.Source != "computed" || s.Mean != 44.434478650699106 {
		t.Errorf("recomputed band 1 stats %+v", s)
	}
}

func TestInspectUsage(t *testing.T) {
	if code, _, _ := cmdtest.Run(t, Commands(), "", "inspect"); code != kit.ExitUsage {
		t.Errorf("no file: exit %d", code)
	}
	if code, _, _ := cmdtest.Run(t, Commands(), "", "inspect", "a.tif", "b.tif"); code != kit.ExitUsage {
		t.Errorf("two files: exit %d", code)
	}
	if code, _, _ := cmdtest.Run(t, Commands(), "", "inspect", "--help"); code != kit.ExitOK {
		t.Errorf("--help: exit %d", code)
	}
	if code, _, errs := cmdtest.Run(t, Commands(), "", "inspect", filepath.Join(t.TempDir(), "missing.tif")); code != kit.ExitCannotRun || errs == "" {
		t.Errorf("missing file: exit %d %q", code, errs)
	}
	bad := filepath.Join(t.TempDir(), "bad.tif")
	os.WriteFile(bad, []byte("II*\x00garbage"), 0o644)
	if code, _, errs := cmdtest.Run(t, Commands(), "", "inspect", "--json", bad); code != kit.ExitCannotRun || !strings.Contains(errs, "invalid format") {
		t.Errorf("bad file: exit %d %q", code, errs)
	}
}
