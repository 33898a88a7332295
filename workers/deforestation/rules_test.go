package deforestation

import (
	"math"
	"strings"
	"testing"
)

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
