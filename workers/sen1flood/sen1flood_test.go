package sen1flood

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"
)

// sen1Env is a minimal Env over in-memory handles for worker unit tests.
type sen1Env struct{ handles map[string]*workers.Handle }

func (e *sen1Env) Context() context.Context { return context.Background() }

func (e *sen1Env) Logger() *slog.Logger { return slog.New(slog.DiscardHandler) }

func (e *sen1Env) Open(name string) (*workers.Handle, error) {
	if h, ok := e.handles[name]; ok {
		return h, nil
	}
	return nil, fmt.Errorf("unknown handle %q", name)
}

func (e *sen1Env) ReadFile(string) ([]byte, error) { return nil, fmt.Errorf("no files") }

func (e *sen1Env) Band(string, int) (*raster.Band, workers.RasterInfo, error) {
	return nil, workers.RasterInfo{}, fmt.Errorf("no files")
}

func (e *sen1Env) RasterInfo(string) (workers.RasterInfo, error) {
	return workers.RasterInfo{}, fmt.Errorf("no files")
}

func (e *sen1Env) WriteArtifact(name string, data []byte, sum func() [32]byte) (workers.Artifact, error) {
	return workertest.Artifact(name, data, sum), nil
}

func testInfo(w, h int) workers.RasterInfo {
	return workers.RasterInfo{Width: w, Height: h, Count: 2, DataType: raster.Float32, EPSG: 4326, HasTransform: true,
		Transform: crs.Affine{0.0001, 0, 10, 0, -0.0001, 45}, NoData: -9999, HasNoData: true}
}

// TestEmptyPredictionBranch describes and ranks a prediction without flood
// pixels (unreachable through Otsu, whose threshold is at least the lowest
// bin centre, but the spec defines the branch): zero measurements, no
// largest component, concentration 0 and dispersed.
func TestEmptyPredictionBranch(t *testing.T) {
	info := testInfo(8, 8)
	areas, err := workers.NewGridAreas(info)
	if err != nil {
		t.Fatal(err)
	}
	m := &FloodMask{Info: info, Mask: make([]uint8, 64), Valid: 64, Areas: areas, Method: Sen1FloodMethod}
	labels, comps, err := LabelFlood(m)
	if err != nil || len(comps) != 0 {
		t.Fatal(comps, err)
	}
	o := &FloodObjects{Target: "flood_components", Mask: m, Labels: labels, Components: comps}
	env := &sen1Env{handles: map[string]*workers.Handle{"objects_1": {Name: "objects_1", Kind: "objects", Result: &workers.Result{Payload: o}}}}
	reg, err := workers.NewRegistry([]workers.FamilyDef{Def()})
	if err != nil {
		t.Fatal(err)
	}
	call := func(tool string, args map[string]any) *workers.Result {
		t.Helper()
		v, a, err := reg.Resolve(tool, args)
		if err != nil {
			t.Fatal(err)
		}
		res, err := v.Run(env, a)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := call("DescribeFlood", map[string]any{"input": "objects_1", "metrics": map[string]any{
		"flood_percentage": true, "flood_area": true, "components": true, "grid_4x4": true, "concentration": true, "pattern": true}})
	r := res.Payload.(*FloodReport)
	if r.FloodPercentage != 0 || r.FloodAreaM2 != 0 || r.Largest() != nil || r.Concentration != 0 || r.Pattern != "dispersed" {
		t.Errorf("empty report: %+v", r)
	}
	if CentroidJSON(r.Largest()) != nil || BBoxJSON(r.Largest()) != nil {
		t.Error("empty prediction has a centroid or bbox")
	}
	if b, _ := json.Marshal(res.Evidence); !strings.Contains(string(b), `"largest_component":null`) {
		t.Errorf("evidence %s", b)
	}
	env.handles["flood_report_1"] = &workers.Handle{Name: "flood_report_1", Kind: "flood_report", Result: res}
	rk := call("RankRegions", map[string]any{"input": "flood_report_1", "by": "flood_percentage", "candidates": "grid_4x4", "top_k": 3.0})
	top := rk.Payload.(*FloodRanking).Top
	if top[0].ID != 15 || top[1].ID != 14 || top[2].ID != 13 {
		t.Errorf("empty ranking %+v", top)
	}
}

func TestSen1SceneChecks(t *testing.T) {
	good := func() *workers.Scene {
		info := workers.RasterInfo{Width: 8, Height: 8, Count: 2, DataType: raster.Float32, EPSG: 4326,
			Transform: workertest.GeoT, HasTransform: true, Descriptions: []string{"VV", "vh"}}
		return &workers.Scene{Handle: "input_1", Files: []workers.SceneFile{
			{FileCard: workers.FileCard{Path: "chip/meta.json"}},
			{FileCard: workers.FileCard{Path: "chip/s1.tif"}, Raster: &info},
		}}
	}
	if err := sen1CheckSARScene(nil, good()); err != nil {
		t.Fatalf("a good chip: %v", err)
	}
	for _, c := range []struct {
		edit func(r *workers.RasterInfo)
		want string
	}{
		{func(r *workers.RasterInfo) { r.Count = 3 }, "has 3 bands"},
		{func(r *workers.RasterInfo) { r.DataType = raster.Uint16 }, "float32 dB"},
		{func(r *workers.RasterInfo) { r.Descriptions = []string{"VH", "VV"} }, `band 1 is named "VH"`},
		{func(r *workers.RasterInfo) { r.EPSG = 32633 }, "EPSG:32633"},
		{func(r *workers.RasterInfo) { r.Transform[4] = 0.00025 }, "not a north-up grid"},
		{func(r *workers.RasterInfo) { r.HasTransform = false }, "no geotransform"},
	} {
		s := good()
		c.edit(s.Files[1].Raster)
		if err := sen1CheckSARScene(nil, s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	s := good()
	s.Files = append(s.Files, s.Files[1])
	if err := sen1CheckSARScene(nil, s); err == nil || !strings.Contains(err.Error(), "several rasters") {
		t.Errorf("two rasters: %v", err)
	}
	s.Files = s.Files[:1]
	if err := sen1CheckSARScene(nil, s); err == nil || !strings.Contains(err.Error(), "no GeoTIFF") {
		t.Errorf("no raster: %v", err)
	}
	for _, c := range []struct {
		w, h int
		ok   bool
	}{{512, 512, true}, {4, 4, true}, {8, 12, true}, {3, 4, false}, {512, 510, false}, {0, 0, false}} {
		if err := sen1CheckGrid4x4(c.w, c.h); (err == nil) != c.ok {
			t.Errorf("%dx%d: %v", c.w, c.h, err)
		}
	}
}

func TestDefMatchesKernelTables(t *testing.T) {
	workertest.CheckFamily(t, Def(), workers.Sen1Flood)
}
