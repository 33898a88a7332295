package multihazard

import (
	"github.com/geodisaster/engine/workers"
	"math"
	"strings"
	"testing"
)

func TestPercentileMatchesNumPy(t *testing.T) {
	// Values printed by NumPy 1.24: np.percentile(x, 95).
	cases := []struct {
		x    []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, 3.8499999999999996},
		{[]float64{5.5}, 5.5},
		{[]float64{0.1, 0.11, 0.2, 0.2, 0.3, 0.31, 0.35, 0.45, 0.5, 0.7, 0.9}, 0.8},
	}
	for _, c := range cases {
		if got := Percentile(c.x, 95); got != c.want {
			t.Errorf("Percentile(%v, 95) = %v, want %v", c.x, got, c.want)
		}
	}
	if got := Percentile([]float64{1, 2, 3}, 100); got != 3 {
		t.Errorf("p100 = %v, want the maximum", got)
	}
	if got := Percentile(nil, 50); !math.IsNaN(got) {
		t.Errorf("percentile of nothing = %v, want NaN", got)
	}
}

func TestPopMeanStdMatchesNumPy(t *testing.T) {
	mu, sd := popMeanStd([]float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6})
	if mu != 0.35000000000000003 || sd != 0.1707825127659933 {
		t.Errorf("mean, std = %v, %v; NumPy gives 0.35000000000000003, 0.1707825127659933", mu, sd)
	}
}

func TestSymmetricPctDelta(t *testing.T) {
	if got := SymmetricPctDelta(0, 0); got != 0 {
		t.Errorf("two zero areas: %v, want 0", got)
	}
	if got := SymmetricPctDelta(10, 0); got != 200 {
		t.Errorf("one zero area: %v, want 200", got)
	}
	if got := SymmetricPctDelta(90, 110); got != 20 {
		t.Errorf("90 vs 110: %v, want 20", got)
	}
	if SymmetricPctDelta(3, 7) != SymmetricPctDelta(7, 3) {
		t.Error("not symmetric")
	}
	if got := median3([]float64{30, 10, 20}); got != 20 {
		t.Errorf("median3 = %v", got)
	}
}

func TestBinarySupport(t *testing.T) {
	T, F := true, false
	all := []bool{T, T, T, T}
	// Identical non-constant masks: IoU 1, agreement 1, kappa 1.
	s, err := binarySupport([]bool{T, F, T, F}, all, []bool{T, F, T, F}, all)
	if err != nil || s.IoU != 1 || s.Agreement != 1 || s.Kappa == nil || *s.Kappa != 1 {
		t.Errorf("identical masks: %+v %v", s, err)
	}
	// Two empty masks: IoU 1 by the set rule, kappa undefined (nil).
	s, err = binarySupport([]bool{F, F, F, F}, all, []bool{F, F, F, F}, all)
	if err != nil || s.IoU != 1 || s.Agreement != 1 || s.Kappa != nil {
		t.Errorf("empty masks: %+v %v", s, err)
	}
	// Only common valid cells count: the disagreeing cell is invalid in b.
	s, err = binarySupport([]bool{T, T, F, F}, all, []bool{T, F, F, T}, []bool{T, F, T, F})
	if err != nil || s.IoU != 1 || s.Agreement != 1 {
		t.Errorf("common valid cells: %+v %v", s, err)
	}
	// Disjoint: IoU 0, kappa -1.
	s, _ = binarySupport([]bool{T, T, F, F}, all, []bool{F, F, T, T}, all)
	if s.IoU != 0 || s.Agreement != 0 || s.Kappa == nil || *s.Kappa != -1 {
		t.Errorf("disjoint: %+v", s)
	}
	if _, err := binarySupport([]bool{T}, []bool{T}, []bool{T}, []bool{F}); err == nil || !strings.Contains(err.Error(), "empty common valid") {
		t.Errorf("no common valid cell: err = %v", err)
	}
}

func TestParseNDVIBaseline(t *testing.T) {
	good := "date,role,mean_ndvi\n2015-07-15,baseline,0.5\n2016-07-15,baseline,0.6\n2022-07-15,target,0.3\n"
	base, date, mirror, err := parseNDVIBaseline([]byte(good))
	if err != nil || len(base) != 2 || base[1] != 0.6 || date != "2022-07-15" || mirror != 0.3 {
		t.Fatalf("good CSV: %v %v %v %v", base, date, mirror, err)
	}
	bad := map[string]string{
		"two targets":    "date,role,mean_ndvi\n2015,baseline,0.5\n2016,baseline,0.6\n2022,target,0.3\n2023,target,0.3\n",
		"no target":      "date,role,mean_ndvi\n2015,baseline,0.5\n2016,baseline,0.6\n",
		"one baseline":   "date,role,mean_ndvi\n2015,baseline,0.5\n2022,target,0.3\n",
		"undated":        "date,role,mean_ndvi\n2015,baseline,0.5\n2016,baseline,0.6\n,target,0.3\n",
		"unknown role":   "date,role,mean_ndvi\n2015,baseline,0.5\n2016,reference,0.6\n2022,target,0.3\n",
		"not a number":   "date,role,mean_ndvi\n2015,baseline,nan\n2016,baseline,0.6\n2022,target,0.3\n",
		"missing column": "date,kind,mean_ndvi\n2015,baseline,0.5\n",
	}
	for name, csv := range bad {
		if _, _, _, err := parseNDVIBaseline([]byte(csv)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestQuartileBinsCoverage(t *testing.T) {
	n := &Normalization{Path: "n.json", Sources: map[string]NormSource{
		"s": {Q25: -0.1381913721561432, Q50: 0.6701323390007019, Q75: 1.3935534954071045, Classes: []string{"q1", "q2", "q3", "q4"}},
		"x": {Q25: 1, Q50: 2, Q75: 3, Classes: []string{"a", "a", "b", "c"}},
	}}
	bins, err := n.classBins("s")
	if err != nil {
		t.Fatal(err)
	}
	if bins[0].Lower != -1e30 || bins[3].Upper != 1e30 || bins[1].Lower != bins[0].Upper || bins[2].Upper != 1.3935534954071045 {
		t.Errorf("bins %+v do not cover [-1e30, 1e30) contiguously", bins)
	}
	if _, err := n.classBins("x"); err == nil {
		t.Error("duplicate labels accepted")
	}
	if _, err := n.classBins("missing"); err == nil {
		t.Error("missing source accepted")
	}
}

func TestRegistryHasEveryMultiHazardVariant(t *testing.T) {
	r, err := workers.NewRegistry([]workers.FamilyDef{Def()})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"ComputeStats":     {"burned_area", "forest_loss", "built_up_gain", "ndvi_z_score", "peak_no2_column"},
		"ScoreHazard":      {"question_defined_class", "benchmark_relative_column_quartile", "impact_footprint"},
		"CompareSources":   {"area_agreement", "iou", "benchmark_relative_intensity_agreement"},
		"EstimateExposure": {"", "nearest_highway", "population_in_footprint", "schools", "high_no2_column_population"},
		"ReadData":         {"wildfire", "deforestation", "urban_expansion", "drought", "air_pollution", "exposure"},
		"PrepareScene": {"wildfire_burn", "forest_loss", "built_up_gain", "drought_anomaly", "pollution_peak", "multisource_hazard",
			"multisource", "wildfire_burn_exposure", "forest_loss_exposure", "built_up_gain_exposure", "drought_anomaly_exposure", "pollution_peak_exposure"},
	}
	for tool, vals := range want {
		have := map[string]bool{}
		for _, v := range r.Values(tool) {
			have[v] = true
		}
		for _, v := range vals {
			if !have[v] {
				t.Errorf("%s has no variant %q", tool, v)
			}
		}
	}
	// Unknown arguments and values are rejected naming what is allowed.
	if _, _, err := r.Resolve("CompareSources", map[string]any{"input": "work_1", "criterion": "iou", "minimum_iou": 0.3,
		"threshold_contract": "per_source_train_pixel_q25_v1", "normalization_fit_split": "test"}); err == nil || !strings.Contains(err.Error(), "allowed: train") {
		t.Errorf("a non-train fit split: %v", err)
	}
	if _, _, err := r.Resolve("ScoreHazard", map[string]any{"input": "work_1", "hazard": "air_pollution", "scale": "question_defined_class"}); err == nil {
		t.Error("question_defined_class accepted the air_pollution hazard (type 26 uses its own scale)")
	}
}

func TestVerdictBoundariesInclusive(t *testing.T) {
	if areaVerdict(15.317, 15.317) != SourcesAgree || areaVerdict(15.317, 15.316) != SourcesDisagree {
		t.Error("the median-difference limit is not inclusive")
	}
	if iouVerdict(0.3, 0.3) != SourcesAgree || iouVerdict(0.299999, 0.3) != SourcesDisagree {
		t.Error("the minimum IoU is not inclusive")
	}
	for z, want := range map[float64]string{-0.5: StateTypical, 0.5: StateTypical, -0.5000001: StateBelow, 0.5000001: StateAbove, 0: StateTypical} {
		if got := intensityState(z); got != want {
			t.Errorf("intensityState(%v) = %s, want %s", z, got, want)
		}
	}
}
