package multihazard

import (
	"strings"
	"testing"

	"github.com/geodisaster/engine/workers/workertest"

	"github.com/geodisaster/engine/workers"
)

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

func TestDefMatchesKernelTables(t *testing.T) {
	workertest.CheckFamily(t, Def(), workers.MultiHazard)
}
