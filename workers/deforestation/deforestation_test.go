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

func TestClassifyCauseOrderAndBoundaries(t *testing.T) {
	base := CauseInputs{HansenLossHa: 0, CanopyPct: 80, NDVIDrop: 0.02, NBRDrop: 0.01, VHDeltadB: -0.2, VVPostdB: -8}
	with := func(f func(c *CauseInputs)) CauseInputs { c := base; f(&c); return c }
	cases := []struct {
		name  string
		in    CauseInputs
		cause string
		fired []string
	}{
		{"rule 1 at exactly 0.5 ha and 50%", with(func(c *CauseInputs) { c.HansenLossHa, c.CanopyPct = 0.5, 50 }), "deforestation", []string{RuleHansenDeforestation}},
		{"rule 2 just below 50%", with(func(c *CauseInputs) { c.HansenLossHa, c.CanopyPct = 3, 49.999 }), "plantation_harvest", []string{RulePlantationHarvest}},
		{"rule 1 wins over strong optical/SAR", with(func(c *CauseInputs) { c.HansenLossHa, c.NDVIDrop, c.VHDeltadB = 2, 0.5, -4 }), "deforestation", []string{RuleHansenDeforestation}},
		{"0.499999 ha is unconfirmed: rule 3", with(func(c *CauseInputs) { c.HansenLossHa, c.NDVIDrop, c.VHDeltadB = 0.499999, 0.3, -2 }), "deforestation", []string{RuleUnconfirmedLoss, FlagMissingHansen}},
		{"NDVI exactly 0.25 fails rule 3", with(func(c *CauseInputs) { c.NDVIDrop, c.VHDeltadB = 0.25, -2 }), "agriculture", []string{RuleAgriculture}},
		{"VH exactly -1.5 fails rule 3", with(func(c *CauseInputs) { c.NDVIDrop, c.VHDeltadB = 0.4, -1.5 }), "agriculture", []string{RuleAgriculture}},
		{"rule 3 precedes rule 4", with(func(c *CauseInputs) { c.NDVIDrop, c.VHDeltadB, c.VVPostdB = 0.4, -1.6, -20 }), "deforestation", []string{RuleUnconfirmedLoss, FlagMissingHansen}},
		{"VV exactly -16 is not water", with(func(c *CauseInputs) { c.VVPostdB = -16 }), "no_change", []string{RuleNoChange}},
		{"VV below -16 is water", with(func(c *CauseInputs) { c.VVPostdB = -16.0001 }), "water_flood_edge", []string{RuleWaterFloodEdge}},
		{"NBR exactly 0.20 is not burn", with(func(c *CauseInputs) { c.NBRDrop, c.NDVIDrop = 0.20, 0.05 }), "no_change", []string{RuleNoChange}},
		{"NBR above 0.20 but equal to NDVI is not burn", with(func(c *CauseInputs) { c.NBRDrop, c.NDVIDrop = 0.22, 0.22 }), "agriculture", []string{RuleAgriculture}},
		{"burn", with(func(c *CauseInputs) { c.NBRDrop, c.NDVIDrop = 0.23, 0.22 }), "burn_bare_soil", []string{RuleBurnBareSoil}},
		{"NDVI exactly 0.10 is no change", with(func(c *CauseInputs) { c.NDVIDrop = 0.10 }), "no_change", []string{RuleNoChange}},
		{"float32(0.1) widened is above 0.10", with(func(c *CauseInputs) { c.NDVIDrop = float64(float32(0.1)) }), "agriculture", []string{RuleAgriculture}},
		{"zero loss and zero canopy are measurements", with(func(c *CauseInputs) { c.CanopyPct = 0 }), "no_change", []string{RuleNoChange}},
	}
	for _, c := range cases {
		cause, fired, err := ClassifyCause(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if cause != c.cause || strings.Join(fired, "|") != strings.Join(c.fired, "|") {
			t.Errorf("%s: got %s %v, want %s %v", c.name, cause, fired, c.cause, c.fired)
		}
	}
	for _, bad := range []struct {
		in   CauseInputs
		want string
	}{
		{with(func(c *CauseInputs) { c.HansenLossHa = -0.1 }), "negative"},
		{with(func(c *CauseInputs) { c.CanopyPct = 100.5 }), "outside 0..100"},
		{with(func(c *CauseInputs) { c.CanopyPct = -1 }), "outside 0..100"},
		{with(func(c *CauseInputs) { c.NBRDrop = math.NaN() }), "nbr_drop is not finite"},
		{with(func(c *CauseInputs) { c.VVPostdB = math.Inf(-1) }), "sar_vv_post_mean_db is not finite"},
	} {
		if _, _, err := ClassifyCause(bad.in); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: error %v, want %q", bad.in, err, bad.want)
		}
	}
}

func TestConcordanceAndSeverityBoundaries(t *testing.T) {
	for _, c := range []struct {
		ndvi, vh float64
		want     string
	}{
		{0.10, -1.0, "no_change"},
		{math.Nextafter(0.10, 1), -1.0, "discordant"},
		{0.10, math.Nextafter(-1.0, -2), "discordant"},
		{0.3, -2, "concordant"},
		{-0.2, 1, "no_change"},
	} {
		if got, _, _ := ClassifyConcordance(c.ndvi, c.vh); got != c.want {
			t.Errorf("ClassifyConcordance(%v, %v) = %s, want %s", c.ndvi, c.vh, got, c.want)
		}
	}
	for _, c := range []struct {
		d    float64
		want string
	}{
		{-3, "moderate"}, {math.Nextafter(-3, -4), "severe"}, {-1, "mild"}, {math.Nextafter(-1, -2), "moderate"},
		{0, "none"}, {math.Nextafter(0, -1), "mild"}, {2.5, "none"}, {-10, "severe"},
	} {
		if got := VHSeverity(c.d); got != c.want {
			t.Errorf("VHSeverity(%v) = %s, want %s", c.d, got, c.want)
		}
	}
}

func TestDominantPairTiesAndSkips(t *testing.T) {
	nan := float32(math.NaN())
	eps := []EpochIndices{
		{Epoch: "pre_3", NDVI: 0.75, NBR: 0.75},
		{Epoch: "pre_2", NDVI: nan, NBR: 0.7}, // not eligible
		{Epoch: "pre_1", NDVI: 0.75, NBR: 0.75},
		{Epoch: "post_1", NDVI: 0.5, NBR: 0.5},
		{Epoch: "post_2", NDVI: 0.25, NBR: 0.25},
	}
	names, pairs, best := dominantPair(eps)
	if strings.Join(names, ",") != "pre_3,pre_1,post_1,post_2" || len(pairs) != 3 {
		t.Fatalf("eligible %v pairs %d", names, len(pairs))
	}
	if best.Start != "pre_1" || best.End != "post_1" || best.Score != 0.375 {
		t.Fatalf("tie must keep the earliest pair, got %+v", best)
	}
	if _, _, b := dominantPair(eps[:2]); b != nil {
		t.Fatal("one eligible epoch gave a pair")
	}
}

func TestLossComponents8(t *testing.T) {
	// Two diagonal cells join; an isolated cell is its own patch.
	m := []bool{
		true, false, false, false,
		false, true, false, true,
		false, false, false, true,
	}
	if n, largest := lossComponents8(m, 4, 3); n != 2 || largest != 2 {
		t.Fatalf("components %d largest %d", n, largest)
	}
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

func TestLargestLossYearRule(t *testing.T) {
	m := newMemEnv()
	run := func(hist map[int]float64) (*LargestLossYear, error) {
		m.Handles["stats_1"] = &workers.Handle{Name: "stats_1", Kind: "stats", Result: &workers.Result{Payload: &LossHistogram{AreaHa: hist}}}
		r, err := detectLargestLossYear(m, args("DetectChange", map[string]any{"input": "stats_1"}))
		if err != nil {
			return nil, err
		}
		return r.Payload.(*LargestLossYear), nil
	}
	if got, err := run(map[int]float64{2016: 4.25, 2010: 4.25, 2003: 1}); err != nil || got.Year != 2010 || got.LossHa != 4.25 {
		t.Errorf("tie: %+v %v", got, err)
	}
	if got, err := run(map[int]float64{}); err != nil || got.Year != 0 || got.LossHa != 0 {
		t.Errorf("no_loss: %+v %v", got, err)
	}
	if _, err := run(map[int]float64{2005: 0}); err == nil || !strings.Contains(err.Error(), "non-positive") {
		t.Errorf("zero entry: %v", err)
	}
	if _, err := run(map[int]float64{2024: 3}); err == nil || !strings.Contains(err.Error(), "outside the 2001_2023 window") {
		t.Errorf("out-of-window entry: %v", err)
	}
	m.Handles["work_1"] = &workers.Handle{Name: "work_1", Kind: "work", Result: &workers.Result{Payload: &workers.Work{Mode: "forest_loss_history"}}}
	if _, err := detectLargestLossYear(m, args("DetectChange", map[string]any{"input": "work_1"})); err == nil || !strings.Contains(err.Error(), "requires a stats") {
		t.Errorf("work_1 as input: %v", err)
	}
}

func TestClassificationStepsVerifyTheirInput(t *testing.T) {
	m := newMemEnv()
	in := CauseInputs{HansenLossHa: 2, CanopyPct: 80, NDVIDrop: 0.4, NBRDrop: 0.3, VHDeltadB: -2, VVPostdB: -8}
	m.Handles["compare_1"] = &workers.Handle{Name: "compare_1", Kind: "compare", Result: &workers.Result{Payload: &CauseComparison{Criterion: "forest_loss_support", Inputs: in, Cause: "plantation_harvest", RulesFired: []string{RulePlantationHarvest}}}}
	labels := map[string]any{"positive": "deforestation", "negative": "no_deforestation"}
	if _, err := classifyForestLoss(m, args("ClassifyChange", map[string]any{"input": "compare_1", "labels": labels})); err == nil || !strings.Contains(err.Error(), "embeds cause plantation_harvest") {
		t.Errorf("tampered cause: %v", err)
	}
	m.Handles["compare_1"].Result.Payload.(*CauseComparison).Cause = "deforestation"
	m.Handles["compare_1"].Result.Payload.(*CauseComparison).RulesFired = []string{RuleHansenDeforestation}
	r, err := classifyForestLoss(m, args("ClassifyChange", map[string]any{"input": "compare_1", "labels": labels}))
	if err != nil || r.Payload.(*ForestLossClass).Label != "deforestation" {
		t.Fatalf("%v", err)
	}
	if got := r.Payload.(*ForestLossClass).RulesFired; strings.Join(got, "|") != RuleHansenDeforestation+"|"+RuleLabelPositive {
		t.Errorf("rules_fired %v", got)
	}
	if _, err := classifyForestLoss(m, args("ClassifyChange", map[string]any{"input": "compare_1", "labels": map[string]any{"positive": "loss", "negative": "no_deforestation"}})); err == nil || !strings.Contains(err.Error(), "must be exactly") {
		t.Errorf("wrong labels: %v", err)
	}
	if _, err := classifyFalsePositive(m, args("ClassifyChange", map[string]any{"input": "compare_1", "rule": "false_positive_type"})); err == nil || !strings.Contains(err.Error(), "needs criterion cause_attribution") {
		t.Errorf("type-1 comparison into type 4: %v", err)
	}

	best := &WindowPair{Start: "pre_1", End: "post_1", NDVIDrop: 0.3, NBRDrop: 0.2, Score: 0.45}
	m.Handles["change_1"] = &workers.Handle{Name: "change_1", Kind: "change", Result: &workers.Result{Payload: &ClearingDetection{Best: best, HansenLossHa: 0.5, Confirmed: true, NDVIDrop: 0.2, VHDeltadB: -1}}}
	wl := map[string]any{"none": nil, "changed": "start_epoch_to_end_epoch"}
	if _, err := classifyChangeWindow(m, args("ClassifyChange", map[string]any{"input": "change_1", "labels": wl})); err == nil || !strings.Contains(err.Error(), "composite score") {
		t.Errorf("inconsistent composite: %v", err)
	}
	best.Score = float64(best.NDVIDrop) + 0.5*float64(best.NBRDrop)
	r, err = classifyChangeWindow(m, args("ClassifyChange", map[string]any{"input": "change_1", "labels": wl}))
	if err != nil || r.Payload.(*ChangeWindowClass).Label != "deforestation" {
		t.Fatalf("confirmed window: %v", err)
	}
	m.Handles["change_1"].Result.Payload.(*ClearingDetection).HansenLossHa = 0.499999
	if _, err := classifyChangeWindow(m, args("ClassifyChange", map[string]any{"input": "change_1", "labels": wl})); err == nil || !strings.Contains(err.Error(), "confirmation flag") {
		t.Errorf("gate disagreement: %v", err)
	}
	m.Handles["change_1"].Result.Payload.(*ClearingDetection).Confirmed = false
	r, err = classifyChangeWindow(m, args("ClassifyChange", map[string]any{"input": "change_1", "labels": wl}))
	if err != nil || r.Payload.(*ChangeWindowClass).Window != nil || r.Payload.(*ChangeWindowClass).Label != "no_deforestation" {
		t.Fatalf("unconfirmed window: %+v %v", r, err)
	}

	m.Handles["compare_2"] = &workers.Handle{Name: "compare_2", Kind: "compare", Result: &workers.Result{Payload: &ConcordanceComparison{NDVIDrop: 0.2, NBRDrop: 0.1, VHDeltadB: -1, OpticalChange: true, Class: "concordant"}}}
	if _, err := classifyConcordance(m, args("ClassifyChange", map[string]any{"input": "compare_2"})); err == nil || !strings.Contains(err.Error(), "embeds class concordant") {
		t.Errorf("inconsistent concordance: %v", err)
	}
	m.Handles["stats_1"] = &workers.Handle{Name: "stats_1", Kind: "stats", Result: &workers.Result{Payload: &VHDeltaStats{Metric: "vh_delta_db", VHDeltadB: math.NaN(), PreCount: 2, PostCount: 3}}}
	if _, err := scoreVHSeverity(m, args("ScoreHazard", map[string]any{"input": "stats_1"})); err == nil || !strings.Contains(err.Error(), "finite VH delta") {
		t.Errorf("NaN delta: %v", err)
	}
}

func TestExtractObjectsFilter(t *testing.T) {
	m := newMemEnv()
	const w, h = 10, 6
	annual := fill(w*h, 0)
	annual[0], annual[11], annual[30] = 1, 1, 1
	forest := m.hansenScene(t, 2022, w, h, 4326, geoT, annual, fill(w*h, 0), fill(w*h, 70))
	m.Handles["work_1"] = &workers.Handle{Name: "work_1", Kind: "work", Result: &workers.Result{Payload: &workers.Work{Mode: "forest_change", Scenes: map[string]*workers.Scene{"forest": forest}}}}
	call := func(f map[string]any) (*workers.Result, error) {
		return extractLossPatches(m, args("ExtractObjects", map[string]any{"input": "work_1", "filters": f}))
	}
	r, err := call(map[string]any{"event_year": float64(2022)})
	if err != nil {
		t.Fatal(err)
	}
	lp := r.Payload.(*LossPatches)
	if lp.PixelCount != 3 || lp.Components != 2 || lp.LargestPatchPixels != 2 || lp.Source != "annual_mask" {
		t.Fatalf("%+v", lp)
	}
	for _, bad := range []struct {
		f    map[string]any
		want string
	}{
		{map[string]any{"event_year": float64(2021)}, "conflicting event year"},
		{map[string]any{"event_year": "2022"}, "must be an integer year"},
		{map[string]any{"event_year": 2022.5}, "must be an integer year"},
		{map[string]any{}, "must be exactly"},
		{map[string]any{"event_year": float64(2022), "tile": float64(3)}, "must be exactly"},
	} {
		if _, err := call(bad.f); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("filters %v: error %v, want %q", bad.f, err, bad.want)
		}
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

func TestLossMaskArtifactDeterministic(t *testing.T) {
	m := newMemEnv()
	annual := fill(60, 0)
	annual[7] = 1
	forest := m.hansenScene(t, 2020, 10, 6, 4326, geoT, annual, fill(60, 0), fill(60, 70))
	m.Handles["work_1"] = &workers.Handle{Name: "work_1", Kind: "work", Result: &workers.Result{Payload: &workers.Work{Mode: "forest_change", Scenes: map[string]*workers.Scene{"forest": forest}}}}
	var sums []string
	for k := 0; k < 2; k++ {
		r, err := extractLossPatches(m, args("ExtractObjects", map[string]any{"input": "work_1", "filters": map[string]any{"event_year": float64(2020)}}))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Artifacts) != 1 || r.Artifacts[0].Size == 0 || r.Artifacts[0].Name != "forest_loss_patches_2020.tif" {
			t.Fatalf("artifacts %+v", r.Artifacts)
		}
		sums = append(sums, r.Artifacts[0].SHA256)
	}
	if sums[0] != sums[1] {
		t.Error("loss mask artifact is not byte-deterministic")
	}
}

func TestMeasureAreaRejectsNegativeArea(t *testing.T) {
	m := newMemEnv()
	m.Handles["objects_1"] = &workers.Handle{Name: "objects_1", Kind: "objects", Result: &workers.Result{Payload: &LossPatches{EventYear: 2021, AreaHa: -0.2}}}
	if _, err := measureLossArea(m, args("MeasureArea", map[string]any{"input": "objects_1"})); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("negative area: %v", err)
	}
	m.Handles["objects_1"].Result.Payload.(*LossPatches).AreaHa = 1.25
	r, err := measureLossArea(m, args("MeasureArea", map[string]any{"input": "objects_1"}))
	if err != nil || r.Payload.(*ForestLossArea).AreaHa != 1.25 {
		t.Fatalf("%v", err)
	}
	m.Handles["work_1"] = &workers.Handle{Name: "work_1", Kind: "work", Result: &workers.Result{Payload: &workers.Work{Mode: "forest_change"}}}
	if _, err := measureLossArea(m, args("MeasureArea", map[string]any{"input": "work_1"})); err == nil || !strings.Contains(err.Error(), "requires a objects") {
		t.Errorf("work_1 into MeasureArea: %v", err)
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
