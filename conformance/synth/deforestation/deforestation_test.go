package deforestation

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/conformance/synth/internal/synthtest"
	"github.com/geodisaster/engine/runtime"
)

// TestDeforestationScenariosReplay generates every scenario of the
// deforestation types 1-4 and 6-8 (ten records each, beyond the default
// six that the oracle goldens cover: exact VV -16, lossyear fallback with
// event-year codes, late windows) and requires the engine to reproduce the
// generator's gold for each, and the scenarios' classes to all occur.
func TestDeforestationScenariosReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and replays 70 AOIs")
	}
	types := []string{"forest_loss_detection", "area_estimation", "change_window_estimation", "false_positive_rejection",
		"multi_year_loss_attribution", "cross_modal_concordance", "severity_proxy_numeric"}
	_, recs, eng := synthtest.Generate(t, Types(), core.Options{Types: types, PerType: 10, Seed: 9})
	seen := map[string]bool{}
	for _, res := range eng.Replay(context.Background(), recs, runtime.ReplayOptions{Workers: 2}) {
		if res.Status != "ok" || !res.Correct {
			t.Errorf("%s: status %s error %v reason %s", res.ID, res.Status, res.Error, res.Reason)
			continue
		}
		var ans map[string]any
		if err := json.Unmarshal(res.Answer, &ans); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"label", "cause", "concordance", "severity"} {
			if v, ok := ans[k].(string); ok {
				seen[res.QuestionType+":"+v] = true
			}
		}
		if y, ok := ans["year"].(string); ok {
			seen[res.QuestionType+":"+y] = true
		}
	}
	for _, want := range []string{
		"forest_loss_detection:deforestation", "forest_loss_detection:no_deforestation",
		"change_window_estimation:deforestation", "change_window_estimation:no_deforestation",
		"false_positive_rejection:deforestation", "false_positive_rejection:plantation_harvest",
		"false_positive_rejection:water_flood_edge", "false_positive_rejection:burn_bare_soil",
		"false_positive_rejection:agriculture", "false_positive_rejection:no_change",
		"multi_year_loss_attribution:no_loss",
		"cross_modal_concordance:concordant", "cross_modal_concordance:discordant", "cross_modal_concordance:no_change",
		"severity_proxy_numeric:severe", "severity_proxy_numeric:moderate", "severity_proxy_numeric:mild", "severity_proxy_numeric:none",
	} {
		if !seen[want] {
			t.Errorf("no scenario produced %s", want)
		}
	}
}
