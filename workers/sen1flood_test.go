package workers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"log/slog"
	"math"
	"strings"
	"testing"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster"
)

// sen1Env is a minimal Env over in-memory handles for worker unit tests.
type sen1Env struct{ handles map[string]*Handle }

func (e *sen1Env) Context() context.Context { return context.Background() }
func (e *sen1Env) Logger() *slog.Logger     { return slog.New(slog.DiscardHandler) }
func (e *sen1Env) Open(name string) (*Handle, error) {
	if h, ok := e.handles[name]; ok {
		return h, nil
	}
	return nil, fmt.Errorf("unknown handle %q", name)
}
func (e *sen1Env) ReadFile(string) ([]byte, error) { return nil, fmt.Errorf("no files") }
func (e *sen1Env) Band(string, int) (*raster.Band, RasterInfo, error) {
	return nil, RasterInfo{}, fmt.Errorf("no files")
}
func (e *sen1Env) RasterInfo(string) (RasterInfo, error) { return RasterInfo{}, fmt.Errorf("no files") }
func (e *sen1Env) WriteArtifact(name string, data []byte, sum func() [32]byte) (Artifact, error) {
	return testArtifact(name, data, sum), nil
}

func testInfo(w, h int) RasterInfo {
	return RasterInfo{Width: w, Height: h, Count: 2, DataType: raster.Float32, EPSG: 4326, HasTransform: true,
		Transform: crs.Affine{0.0001, 0, 10, 0, -0.0001, 45}, NoData: -9999, HasNoData: true}
}

func TestPredictFloodRule(t *testing.T) {
	info := testInfo(4, 2)
	nan := float32(math.NaN())
	vv := []float32{-20, -8, -9999, -21, nan, -7, -19, -9}
	vh := []float32{-25, -15, -20, -9999, -26, -14, -24, -16}
	m, err := PredictFlood(vv, vh, info)
	if err != nil {
		t.Fatal(err)
	}
	// Valid: 0, 1, 5, 6, 7 (pixel 2 VV nodata, 3 VH nodata, 4 NaN).
	want := []uint8{1, 0, 255, 255, 255, 0, 1, 0}
	for i := range want {
		if m.Mask[i] != want[i] {
			t.Fatalf("mask %v, want %v (threshold %v)", m.Mask, want, m.Threshold)
		}
	}
	if m.Valid != 5 || m.Flood != 2 {
		t.Errorf("valid %d flood %d", m.Valid, m.Flood)
	}
	// A score equal to the threshold is flood: a constant chip floods all.
	c, err := PredictFlood([]float32{-12, -12}, []float32{-12, -12}, testInfo(2, 1))
	if err != nil || c.Flood != 2 || c.Threshold != -12 {
		t.Errorf("constant chip: %+v %v", c, err)
	}
	if _, err := PredictFlood([]float32{-9999, nan}, []float32{1, 1}, testInfo(2, 1)); err == nil || !strings.Contains(err.Error(), "all-nodata") {
		t.Errorf("all-nodata chip: %v", err)
	}
	if _, err := PredictFlood([]float32{1}, []float32{1, 2}, testInfo(2, 1)); err == nil {
		t.Error("short band accepted")
	}
}

func TestFloodGridPartition(t *testing.T) {
	// 6x5: rows split [0,1) [1,2) [2,3) [3,5); columns [0,1) [1,3) [3,4) [4,6).
	for _, n := range []int{4, 5, 6, 7, 512} {
		for i := 0; i < n; i++ {
			k := sen1CellIndex(i, n)
			if i < k*n/4 || i >= (k+1)*n/4 {
				t.Fatalf("n=%d i=%d -> cell %d", n, i, k)
			}
		}
	}
	mask := make([]uint8, 30)
	mask[0] = MaskFlood
	mask[29] = MaskFlood
	mask[28] = MaskNoData
	cells := FloodGrid(mask, 6, 5, 2)
	if cells[0].Valid != 1 || cells[0].Flood != 1 || cells[0].Percentage != 100 || cells[0].Share != 0.5 {
		t.Errorf("cell 0: %+v", cells[0])
	}
	if c := cells[15]; c.Valid != 3 || c.Flood != 1 || c.Row != 3 || c.Col != 3 {
		t.Errorf("cell 15: %+v", c)
	}
	total := 0
	for _, c := range cells {
		total += c.Valid
	}
	if total != 29 {
		t.Errorf("cells cover %d valid pixels, want 29", total)
	}
}

func TestRankFloodCellsTies(t *testing.T) {
	cells := []FloodCell{
		{ID: 0, Valid: 0},
		{ID: 1, Valid: 10, Flood: 5, Percentage: 50},
		{ID: 2, Valid: 20, Flood: 10, Percentage: 50},
		{ID: 3, Valid: 10, Flood: 5, Percentage: 50},
		{ID: 4, Valid: 10, Flood: 9, Percentage: 90},
		{ID: 5, Valid: 10, Flood: 0, Percentage: 0},
	}
	var got []int
	for _, c := range RankFloodCells(cells) {
		got = append(got, c.ID)
	}
	want := []int{4, 2, 3, 1, 5, 0}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// TestEmptyPredictionBranch describes and ranks a prediction without flood
// pixels (unreachable through Otsu, whose threshold is at least the lowest
// bin centre, but the spec defines the branch): zero measurements, no
// largest component, concentration 0 and dispersed.
func TestEmptyPredictionBranch(t *testing.T) {
	info := testInfo(8, 8)
	areas, err := NewGridAreas(info)
	if err != nil {
		t.Fatal(err)
	}
	m := &FloodMask{Info: info, Mask: make([]uint8, 64), Valid: 64, Areas: areas, Method: Sen1FloodMethod}
	labels, comps, err := LabelFlood(m)
	if err != nil || len(comps) != 0 {
		t.Fatal(comps, err)
	}
	o := &FloodObjects{Target: "flood_components", Mask: m, Labels: labels, Components: comps}
	env := &sen1Env{handles: map[string]*Handle{"objects_1": {Name: "objects_1", Kind: "objects", Result: &Result{Payload: o}}}}
	reg, err := NewRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	call := func(tool string, args map[string]any) *Result {
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
	env.handles["flood_report_1"] = &Handle{Name: "flood_report_1", Kind: "flood_report", Result: res}
	rk := call("RankRegions", map[string]any{"input": "flood_report_1", "by": "flood_percentage", "candidates": "grid_4x4", "top_k": 3.0})
	top := rk.Payload.(*FloodRanking).Top
	if top[0].ID != 15 || top[1].ID != 14 || top[2].ID != 13 {
		t.Errorf("empty ranking %+v", top)
	}
}

func TestLabelFloodMeasures(t *testing.T) {
	info := testInfo(4, 3)
	areas, _ := NewGridAreas(info)
	mask := []uint8{
		1, 0, 0, 0,
		0, 1, 0, 1,
		0, 0, 0, 1,
	}
	m := &FloodMask{Info: info, Mask: mask, Areas: areas}
	_, comps, err := LabelFlood(m)
	if err != nil || len(comps) != 2 {
		t.Fatal(comps, err)
	}
	// Pixels 0 and 5 touch diagonally: one component, first in label order.
	c := comps[0]
	if c.Pixels != 2 || c.ID != 1 {
		t.Errorf("component 1: %+v", c)
	}
	if c.BBox != [4]float64{10, 45 - 2*0.0001, 10 + 2*0.0001, 45} {
		t.Errorf("bbox %v", c.BBox)
	}
	wantLon := (10 + 0.5*0.0001 + 10 + 1.5*0.0001) / 2
	if math.Abs(c.Centroid[0]-wantLon) > 1e-12 {
		t.Errorf("centroid %v", c.Centroid)
	}
	if math.Abs(c.AreaM2-(areas.RowArea[0]+areas.RowArea[1])) > 1e-9 {
		t.Errorf("area %v", c.AreaM2)
	}
	o := &FloodObjects{Components: comps}
	if l := o.Largest(); l.ID != 1 {
		t.Errorf("largest tie must pick the first label, got %d", l.ID)
	}
}

func TestFloodPolygonsGeoJSON(t *testing.T) {
	info := testInfo(3, 3)
	labels := []int32{1, 1, 1, 1, 0, 1, 1, 1, 1}
	polys, err := raster.Polygonize(labels, 3, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	doc := FloodPolygonsGeoJSON(polys, []FloodComponent{{ID: 1, Pixels: 8}}, info)
	var fc struct {
		Features []struct {
			Properties map[string]int `json:"properties"`
			Geometry   struct {
				Type        string         `json:"type"`
				Coordinates [][][2]float64 `json:"coordinates"`
			} `json:"geometry"`
		} `json:"features"`
	}
	if err := json.Unmarshal(doc, &fc); err != nil {
		t.Fatal(err)
	}
	if len(fc.Features) != 1 || fc.Features[0].Properties["component_id"] != 1 || fc.Features[0].Properties["pixel_count"] != 8 {
		t.Fatalf("features %+v", fc.Features)
	}
	rings := fc.Features[0].Geometry.Coordinates
	if len(rings) != 2 {
		t.Fatalf("rings %v", rings)
	}
	signed := func(r [][2]float64) float64 {
		s := 0.0
		for i := 0; i+1 < len(r); i++ {
			s += r[i][0]*r[i+1][1] - r[i+1][0]*r[i][1]
		}
		return s
	}
	for k, r := range rings {
		if r[0] != r[len(r)-1] {
			t.Errorf("ring %d not closed", k)
		}
		if (k == 0) != (signed(r) > 0) {
			t.Errorf("ring %d orientation: signed area %v (RFC 7946: exterior CCW, holes CW)", k, signed(r))
		}
	}
}

// TestSen1GreyMatchesRound compares the render's grey mapping with
// math.Round over [-26, 1] dB at a fine step, every float32 near the
// rounding boundaries and the special values.
func TestSen1GreyMatchesRound(t *testing.T) {
	ref := func(v float32) uint8 {
		f := float64(v)
		if math.IsNaN(f) {
			return 0
		}
		g := math.Round(float64((f - sen1MinDB) / (sen1MaxDB - sen1MinDB) * 255))
		return uint8(max(0, min(255, g)))
	}
	check := func(v float32) {
		if got, want := sen1Grey(v, false), ref(v); got != want {
			t.Fatalf("sen1Grey(%v) = %d, math.Round gives %d", v, got, want)
		}
	}
	for v := -26.0; v <= 1; v += 1e-4 {
		check(float32(v))
	}
	for k := 0; k <= 255; k++ {
		v := float32((float64(k)+0.5)/255*25 - 25)
		for i := 0; i < 200; i++ {
			v = math.Nextafter32(v, -30)
		}
		for i := 0; i < 400; i++ {
			check(v)
			v = math.Nextafter32(v, 30)
		}
	}
	for _, v := range []float64{math.Inf(1), math.Inf(-1), math.NaN(), -9999, 1e30, -1e30, 0, math.Copysign(0, -1)} {
		check(float32(v))
	}
	if sen1Grey(0, true) != 0 {
		t.Error("nodata is not black")
	}
}

// TestSen1EncodePNG decodes the stored-block PNG with image/png.
func TestSen1EncodePNG(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {3, 2}, {512, 512}, {200, 150}} {
		w, h := sz[0], sz[1]
		raw := make([]byte, h*(1+3*w))
		for i := range raw {
			raw[i] = byte(i*7 + i/13)
		}
		for y := 0; y < h; y++ {
			raw[y*(1+3*w)] = 0
		}
		img, err := png.Decode(bytes.NewReader(sen1EncodePNG(raw, w, h)))
		if err != nil {
			t.Fatalf("%dx%d: %v", w, h, err)
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				p := raw[y*(1+3*w)+1+3*x:]
				if uint8(r>>8) != p[0] || uint8(g>>8) != p[1] || uint8(b>>8) != p[2] {
					t.Fatalf("%dx%d pixel (%d,%d) decodes as %d,%d,%d, want %v", w, h, x, y, r>>8, g>>8, b>>8, p[:3])
				}
			}
		}
	}
}
