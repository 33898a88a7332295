package main

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"

	kit "github.com/geodisaster/engine/internal/cli"
)

// TestAreaCLI checks "geodisaster area" on the GDAL-written fixtures of
// conformance/geodesy/gen_area.py against mpmath (quadrangle) and
// pyproj.Geod (geodesic) answers.
func TestAreaCLI(t *testing.T) {
	var g struct {
		Cases []struct {
			File       string
			Value      *float64
			Pixels     int64
			Quadrangle float64 `json:"quadrangle_m2"`
			Geodesic   float64 `json:"geodesic_m2"`
			Projected  float64 `json:"projected_m2"`
		}
	}
	readJSON(t, "../../conformance/geodesy/area_goldens.json", &g)
	for _, c := range g.Cases {
		path := "../../conformance/geodesy/testdata/" + c.File
		methods := map[string]float64{"quadrangle": c.Quadrangle, "geodesic": c.Geodesic}
		if c.Projected != 0 {
			methods = map[string]float64{"quadrangle": c.Projected}
		}
		for m, want := range methods {
			args := []string{"area", "--json", "--method", m}
			if c.Value != nil {
				args = append(args, "--value", strconv.FormatFloat(*c.Value, 'g', -1, 64))
			}
			args = append(args, path)
			code, out, stderr := runCLI(t, "", args...)
			if code != kit.ExitOK {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			var res areaResult
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("%v: %v in %q", args, err, out)
			}
			if res.Pixels != c.Pixels {
				t.Errorf("%v: %d pixels want %d", args, res.Pixels, c.Pixels)
			}
			if rel := math.Abs(res.AreaM2-want) / want; rel > 1e-9 {
				t.Errorf("%v: %v m² want %v (rel %g)", args, res.AreaM2, want, rel)
			}
		}
	}
	if code, _, _ := runCLI(t, "", "area", "--method", "sphere", "x.tif"); code != kit.ExitUsage {
		t.Errorf("bad method exit %d", code)
	}
	if code, _, _ := runCLI(t, "", "area", "--value", "abc", "x.tif"); code != kit.ExitUsage {
		t.Errorf("bad value exit %d", code)
	}
	if code, _, _ := runCLI(t, "", "area", "/nonexistent.tif"); code != kit.ExitCannotRun {
		t.Errorf("missing file exit %d", code)
	}
}
