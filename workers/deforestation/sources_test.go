package deforestation

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// hansenScene builds a forest_mask scene from annual, lossyear and
// treecover values on a w x h grid.
func (m *memEnv) hansenScene(t *testing.T, year, w, h, epsg int, tr crs.Affine, annual, lossyear, canopy []float64) *workers.Scene {
	s := &workers.Scene{Role: "hansen", Handle: "forest_mask_1", Question: map[string]any{"parameters": map[string]any{"event_year": float64(year)}}}
	s.Files = append(s.Files,
		m.PutTIFF(t, workers.FileCard{Path: fmt.Sprintf("a/masks/loss_year_%d.tif", year)}, w, h, raster.Uint8, epsg, tr, nd(255), annual),
		m.PutTIFF(t, workers.FileCard{Path: "a/masks/lossyear.tif"}, w, h, raster.Uint8, epsg, tr, nd(255), lossyear),
		m.PutTIFF(t, workers.FileCard{Path: "a/masks/treecover2000.tif"}, w, h, raster.Uint8, epsg, tr, nd(255), canopy))
	return s
}

func TestEventYearLoss(t *testing.T) {
	const w, h = 10, 6
	n := w * h
	canopy := fill(n, 70)
	t.Run("annual mask on a projected grid: 50 cells of 100 m2 is exactly 0.5 ha", func(t *testing.T) {
		m := newMemEnv()
		annual := fill(n, 0)
		for i := 0; i < 50; i++ {
			annual[i] = 1
		}
		annual[n-1] = 255
		s := m.hansenScene(t, 2021, w, h, 32721, utm10, annual, fill(n, 0), canopy)
		hl, err := eventYearLoss(m, s, 2021)
		if err != nil {
			t.Fatal(err)
		}
		if hl.Source != "annual_mask" || hl.AreaHa != 0.5 || len(hl.Indices) != 50 || hl.Method != "affine_determinant" {
			t.Fatalf("%+v", hl)
		}
	})
	t.Run("valid annual mask without loss is 0 ha, no fallback", func(t *testing.T) {
		m := newMemEnv()
		ly := fill(n, 21) // the fallback would find loss: it must not be used
		s := m.hansenScene(t, 2021, w, h, 4326, geoT, fill(n, 0), ly, canopy)
		hl, err := eventYearLoss(m, s, 2021)
		if err != nil || hl.AreaHa != 0 || hl.Source != "annual_mask" {
			t.Fatalf("%+v %v", hl, err)
		}
	})
	t.Run("all-nodata annual mask falls back to lossyear code", func(t *testing.T) {
		m := newMemEnv()
		ly := fill(n, 0)
		ly[3], ly[4], ly[5] = 21, 20, 255
		s := m.hansenScene(t, 2021, w, h, 4326, geoT, fill(n, 255), ly, canopy)
		hl, err := eventYearLoss(m, s, 2021)
		if err != nil {
			t.Fatal(err)
		}
		ga, _ := workers.NewGridAreas(hl.Info)
		if hl.Source != "lossyear_fallback" || len(hl.Indices) != 1 || hl.Indices[0] != 3 || hl.AreaHa != workers.RoundHalfEven(ga.Cell(3)/10000, 6) {
			t.Fatalf("%+v", hl)
		}
	})
	t.Run("fallback code 0 everywhere is a valid zero", func(t *testing.T) {
		m := newMemEnv()
		s := m.hansenScene(t, 2021, w, h, 4326, geoT, fill(n, 255), fill(n, 0), canopy)
		hl, err := eventYearLoss(m, s, 2021)
		if err != nil || hl.AreaHa != 0 || hl.Source != "lossyear_fallback" {
			t.Fatalf("%+v %v", hl, err)
		}
	})
	for _, bad := range []struct {
		name       string
		year       int
		annual, ly []float64
		want       string
	}{
		{"conflicting event year", 2020, fill(n, 0), fill(n, 0), "conflicting event year"},
		{"invalid fallback code", 2021, fill(n, 255), fill(n, 30), "loss-year code 30"},
		{"nothing valid anywhere", 2021, fill(n, 255), fill(n, 255), "has a valid cell"},
	} {
		m := newMemEnv()
		s := m.hansenScene(t, 2021, w, h, 4326, geoT, bad.annual, bad.ly, canopy)
		if _, err := eventYearLoss(m, s, bad.year); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: error %v, want %q", bad.name, err, bad.want)
		}
	}
}

// sarScene declares acquisitions with constant VH/VV values per file.
func (m *memEnv) sarScene(t *testing.T, acq []workers.FileCard, vh, vv []float64) *workers.Scene {
	s := &workers.Scene{Role: "pre_post", Handle: "sar_stack_1", Time: "event_window"}
	for k, c := range acq {
		c.BandNames = []string{"VV", "VH"}
		vhs := fill(16, vh[k])
		vhs[5] = math.NaN()
		s.Files = append(s.Files, m.PutTIFF(t, c, 4, 4, raster.Float32, 4326, geoT, nil, fill(16, vv[k]), vhs))
	}
	return s
}

func TestSARChangeUsesDeclaredRoles(t *testing.T) {
	m := newMemEnv()
	// Post files first and file names in reverse chronology: only the
	// declared roles decide the groups.
	acq := []workers.FileCard{
		{Path: "s1/s1_a.tif", Date: "2022-05-01", TemporalRole: "post"},
		{Path: "s1/s1_b.tif", Date: "2020-05-01", TemporalRole: "pre"},
		{Path: "s1/s1_c.tif", Date: "2022-09-01", TemporalRole: "post"},
		{Path: "s1/s1_d.tif", Date: "2020-09-01", TemporalRole: "pre"},
		{Path: "s1/s1_e.tif", Date: "2023-01-01", TemporalRole: "post"},
	}
	s := m.sarScene(t, acq, []float64{-14.25, -12.5, -14, -11.5, -13.75}, []float64{-9, -7, -9, -7, -9})
	sc, err := sarChange(m, s)
	if err != nil {
		t.Fatal(err)
	}
	if sc.PreVHdB != -12 || sc.PostVHdB != -14 || sc.VHDeltadB != -2 || sc.PostVVdB != -9 || sc.PreCount != 2 || sc.PostCount != 3 {
		t.Fatalf("%+v", sc)
	}
	noRole := append([]workers.FileCard{}, acq...)
	noRole[2].TemporalRole = ""
	if _, err := sarChange(m, m.sarScene(t, noRole, fill(5, -12), fill(5, -7))); err == nil || !strings.Contains(err.Error(), "declares no temporal_role") {
		t.Errorf("missing role: %v", err)
	}
	if _, err := sarChange(m, m.sarScene(t, acq, []float64{-14, math.NaN(), -14, -11.5, -13.75}, fill(5, -7))); err == nil || !strings.Contains(err.Error(), "band VH has no valid pixel") {
		t.Errorf("all-NaN acquisition: %v", err)
	}
	allPre := append([]workers.FileCard{}, acq...)
	for i := range allPre {
		allPre[i].TemporalRole = "pre"
	}
	if _, err := sarChange(m, m.sarScene(t, allPre, fill(5, -12), fill(5, -7))); err == nil || !strings.Contains(err.Error(), "0 post") {
		t.Errorf("empty post group: %v", err)
	}
}

// opticalScene declares epochs with constant B4/B8/B12 reflectances; the
// loss cells (indices < lossCells) get post-event values.
func (m *memEnv) opticalScene(t *testing.T, epochs []string, bandNames []string, lossCells int) *workers.Scene {
	s := &workers.Scene{Role: "pre_post", Handle: "optical_stack_1", Time: "event_window"}
	for _, e := range epochs {
		b4, b8, b12 := fill(16, 0.0625), fill(16, 0.4375), fill(16, 0.0625) // NDVI = NBR = 0.75
		if strings.HasPrefix(e, "post") {
			for i := 0; i < lossCells; i++ {
				b4[i], b8[i], b12[i] = 0.1875, 0.3125, 0.1875 // 0.25
			}
		}
		b4[15] = -9999 // declared nodata
		bands := [][]float64{fill(16, 0.05), fill(16, 0.06), b4, b8, fill(16, 0.2), b12}
		if len(bandNames) == 5 {
			bands = bands[:5]
		}
		s.Files = append(s.Files, m.PutTIFF(t, workers.FileCard{Path: "s2/" + e + ".tif", Epoch: e, BandNames: bandNames}, 4, 4, raster.Float32, 4326, geoT, nd(-9999), bands...))
	}
	return s
}

func TestOpticalDropsRegionAndErrors(t *testing.T) {
	m := newMemEnv()
	six := []string{"B2", "B3", "B4", "B8", "B11", "B12"}
	s := m.opticalScene(t, []string{"pre_2", "pre_1", "post_1", "post_3"}, six, 4)
	od, err := opticalDrops(m, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	// AOI: 15 valid NDVI pixels, 4 of them drop by 0.5 after the event.
	want := 0.75 - float32(11*0.75+4*0.25)/15
	if od.Region != "aoi" || math.Abs(od.NDVIDrop-float64(want)) > 1e-6 {
		t.Fatalf("AOI drop %v want %v", od.NDVIDrop, want)
	}
	mask := make([]bool, 16)
	mask[0], mask[1] = true, true
	loss := &HansenLoss{Mask: mask, Indices: []int{0, 1}, Info: workers.RasterInfo{Width: 4, Height: 4, EPSG: 4326, Transform: geoT, HasTransform: true}}
	od, err = opticalDrops(m, s, loss)
	if err != nil || od.Region != "event_year_loss" || od.NDVIDrop != 0.5 || od.NBRDrop != 0.5 {
		t.Fatalf("restricted drops %+v %v", od, err)
	}
	// A loss region whose only cell is nodata in every epoch leaves no
	// finite mean: an error, not a zero drop.
	only := make([]bool, 16)
	only[15] = true
	if _, err := opticalDrops(m, s, &HansenLoss{Mask: only, Indices: []int{15}, Info: loss.Info}); err == nil || !strings.Contains(err.Error(), "no epoch gives a finite pre-event NDVI mean") {
		t.Errorf("all-invalid region: %v", err)
	}
	loss.Info.Transform = utm10
	loss.Info.EPSG = 32721
	if _, err := opticalDrops(m, s, loss); err == nil || !strings.Contains(err.Error(), "grid mismatch") {
		t.Errorf("grid mismatch: %v", err)
	}
	noB12 := m.opticalScene(t, []string{"pre_1", "post_1"}, six[:5], 0)
	if err := checkOpticalScene(noB12); err == nil || !strings.Contains(err.Error(), "missing NBR") {
		t.Errorf("missing B12: %v", err)
	}
	onlyPre := m.opticalScene(t, []string{"pre_1", "pre_2"}, six, 0)
	if err := checkOpticalScene(onlyPre); err == nil || !strings.Contains(err.Error(), "0 post") {
		t.Errorf("no post epoch: %v", err)
	}
	bad := m.opticalScene(t, []string{"pre_1", "post_1"}, six, 0)
	bad.Files[0].Epoch = "pre_4"
	if err := checkOpticalScene(bad); err == nil || !strings.Contains(err.Error(), `epoch "pre_4"`) {
		t.Errorf("unknown epoch: %v", err)
	}
}

func TestDeclaredBandFallback(t *testing.T) {
	six := &workers.SceneFile{FileCard: workers.FileCard{Path: "s2/pre_1.tif"}, Raster: &workers.RasterInfo{Count: 6, Descriptions: make([]string, 6)}}
	if b, err := declaredBand(six, "B12"); err != nil || b != 6 {
		t.Errorf("positional B12: %d %v", b, err)
	}
	two := &workers.SceneFile{FileCard: workers.FileCard{Path: "s1/x.tif"}, Raster: &workers.RasterInfo{Count: 2, Descriptions: []string{"", ""}}}
	if b, err := declaredBand(two, "VH"); err != nil || b != 2 {
		t.Errorf("positional VH: %d %v", b, err)
	}
	described := &workers.SceneFile{FileCard: workers.FileCard{Path: "s2/pre_1.tif"}, Raster: &workers.RasterInfo{Count: 6, Descriptions: []string{"a", "b", "c", "d", "e", "f"}}}
	if _, err := declaredBand(described, "B12"); err == nil {
		t.Error("descriptions that name other bands must not fall back to positions")
	}
	five := &workers.SceneFile{FileCard: workers.FileCard{Path: "s2/pre_1.tif"}, Raster: &workers.RasterInfo{Count: 5, Descriptions: make([]string, 5)}}
	if _, err := declaredBand(five, "B12"); err == nil {
		t.Error("a five-band file has no positional B12")
	}
	named := &workers.SceneFile{FileCard: workers.FileCard{Path: "s2/pre_1.tif", BandNames: []string{"B2", "B3"}}, Raster: &workers.RasterInfo{Count: 6}}
	if _, err := declaredBand(named, "B2"); err == nil || !strings.Contains(err.Error(), "2 band names for 6 bands") {
		t.Errorf("band_names count mismatch: %v", err)
	}
}

func TestEventYearFromDeclaredMask(t *testing.T) {
	m := newMemEnv()
	s := m.hansenScene(t, 2022, 4, 4, 4326, geoT, fill(16, 0), fill(16, 0), fill(16, 50))
	delete(s.Question, "parameters")
	if y, err := questionEventYear(s); err != nil || y != 2022 {
		t.Errorf("year from the declared mask: %d %v", y, err)
	}
	s.Question["parameters"] = map[string]any{"event_year": 2019.5}
	if _, err := questionEventYear(s); err == nil {
		t.Error("a fractional event year was accepted")
	}
	s.Question["parameters"] = map[string]any{"event_year": "2020"}
	if y, err := questionEventYear(s); err != nil || y != 2020 {
		t.Errorf("string year: %d %v", y, err)
	}
	s.Files = s.Files[1:]
	delete(s.Question, "parameters")
	if _, err := questionEventYear(s); err == nil || !strings.Contains(err.Error(), "0 annual loss masks") {
		t.Errorf("no year anywhere: %v", err)
	}
}

func TestDeclaredBandFallbackWithAngle(t *testing.T) {
	three := &workers.SceneFile{FileCard: workers.FileCard{Path: "s1/x.tif"}, Raster: &workers.RasterInfo{Count: 3, Descriptions: make([]string, 3)}}
	if b, err := declaredBand(three, "VH"); err != nil || b != 2 {
		t.Errorf("VV/VH/angle positional VH: %d %v", b, err)
	}
}

func TestLossYearCells(t *testing.T) {
	info := workers.RasterInfo{HasNoData: true, NoData: 254}
	by, valid, err := lossYearCells([]float32{0, 21, 255, 21, 254, 1, 25, 0, float32(math.NaN())}, info, "lossyear.tif")
	if err != nil || valid != 6 {
		t.Fatalf("valid %d, %v", valid, err)
	}
	if len(by[0]) != 0 || fmt.Sprint(by[21]) != "[1 3]" || fmt.Sprint(by[1]) != "[5]" || fmt.Sprint(by[25]) != "[6]" {
		t.Errorf("cells by code %v", by)
	}
	for _, bad := range []float32{26, 2.5, -1} {
		if _, _, err := lossYearCells([]float32{0, bad}, info, "lossyear.tif"); err == nil || !strings.Contains(err.Error(), "lossyear.tif: pixel 1 has loss-year code") {
			t.Errorf("code %v: %v", bad, err)
		}
	}
}
