package deforestation

import (
	"fmt"
	"github.com/geodisaster/engine/workers"
)

// Decision rules of the deforestation family. Every rule takes the
// reported float64 values and compares them with the spec's thresholds in
// float64, as Python compares floats (a float32 canopy mean widened
// exactly compares as NumPy compares a float32 scalar with a Python float).

// forestCauses are the six proxy classes of spec type 4, in the spec's order.
var forestCauses = []string{"deforestation", "plantation_harvest", "water_flood_edge", "burn_bare_soil", "agriculture", "no_change"}

// The rules_fired strings. The spec prints the rules but not their strings
// ("ordered rule strings"); each string below states its rule's exact
// condition and outcome, and rules_fired lists the first matching rule's
// string followed, for rule 3, by the missing_hansen_confirmation flag.
const (
	RuleHansenDeforestation = "hansen_loss_area_ha>=0.5 and treecover2000_mean_pct>=50 -> deforestation"
	RulePlantationHarvest   = "hansen_loss_area_ha>=0.5 and treecover2000_mean_pct<50 -> plantation_harvest"
	RuleUnconfirmedLoss     = "hansen_loss_area_ha<0.5 and ndvi_drop>0.25 and sar_vh_delta_db<-1.5 -> deforestation"
	FlagMissingHansen       = "missing_hansen_confirmation"
	RuleWaterFloodEdge      = "hansen_loss_area_ha<0.5 and sar_vv_post_mean_db<-16 -> water_flood_edge"
	RuleBurnBareSoil        = "hansen_loss_area_ha<0.5 and nbr_drop>0.20 and nbr_drop>ndvi_drop -> burn_bare_soil"
	RuleAgriculture         = "hansen_loss_area_ha<0.5 and ndvi_drop>0.10 -> agriculture"
	RuleNoChange            = "otherwise -> no_change"
	// RuleLabelPositive and RuleLabelNegative are type 1's binary mapping,
	// appended after the cause rule.
	RuleLabelPositive = "cause=deforestation -> deforestation"
	RuleLabelNegative = "cause!=deforestation -> no_deforestation"
)

// CauseInputs are the six measurements the ordered proxy rules read.
type CauseInputs struct {
	HansenLossHa, CanopyPct                float64
	NDVIDrop, NBRDrop, VHDeltadB, VVPostdB float64
}

// Validate rejects non-finite measurements, a negative loss area and a
// canopy mean outside 0..100 (spec type 4, "Ordered proxy-rule contract").
func (c CauseInputs) Validate() error {
	for _, v := range []struct {
		name string
		x    float64
	}{
		{"hansen_loss_area_ha", c.HansenLossHa}, {"treecover2000_mean_pct", c.CanopyPct},
		{"ndvi_drop", c.NDVIDrop}, {"nbr_drop", c.NBRDrop},
		{"sar_vh_delta_db", c.VHDeltadB}, {"sar_vv_post_mean_db", c.VVPostdB},
	} {
		if !workers.Finite(v.x) {
			return fmt.Errorf("%s is not finite", v.name)
		}
	}
	if c.HansenLossHa < 0 {
		return fmt.Errorf("hansen_loss_area_ha %v is negative", c.HansenLossHa)
	}
	if c.CanopyPct < 0 || c.CanopyPct > 100 {
		return fmt.Errorf("treecover2000_mean_pct %v is outside 0..100", c.CanopyPct)
	}
	return nil
}

// ClassifyCause applies spec type 4's seven ordered rules (type 1 step 6
// uses the same generic classifier) and returns the first matching cause
// and its rules_fired strings. The Hansen gate compares the reported
// six-decimal hectares, so 0.4999995 ha rounds to a confirming 0.5.
func ClassifyCause(c CauseInputs) (string, []string, error) {
	if err := c.Validate(); err != nil {
		return "", nil, err
	}
	confirmed := c.HansenLossHa >= 0.5
	switch {
	case confirmed && c.CanopyPct >= 50:
		return "deforestation", []string{RuleHansenDeforestation}, nil
	case confirmed:
		return "plantation_harvest", []string{RulePlantationHarvest}, nil
	case c.NDVIDrop > 0.25 && c.VHDeltadB < -1.5:
		return "deforestation", []string{RuleUnconfirmedLoss, FlagMissingHansen}, nil
	case c.VVPostdB < -16:
		return "water_flood_edge", []string{RuleWaterFloodEdge}, nil
	case c.NBRDrop > 0.20 && c.NBRDrop > c.NDVIDrop:
		return "burn_bare_soil", []string{RuleBurnBareSoil}, nil
	case c.NDVIDrop > 0.10:
		return "agriculture", []string{RuleAgriculture}, nil
	}
	return "no_change", []string{RuleNoChange}, nil
}

// concordanceClasses are spec type 7's classes.
var concordanceClasses = []string{"concordant", "discordant", "no_change"}

// ClassifyConcordance applies spec type 7 steps 3-5: optical change is
// strictly ndvi_drop > 0.10, SAR change strictly vh_delta_db < -1.0.
func ClassifyConcordance(ndviDrop, vhDelta float64) (class string, optical, sar bool) {
	optical = ndviDrop > 0.10
	sar = vhDelta < -1.0
	switch {
	case optical && sar:
		return "concordant", optical, sar
	case optical || sar:
		return "discordant", optical, sar
	}
	return "no_change", optical, sar
}

// VHSeverity applies spec type 8 step 4's half-open intervals: severe
// < -3 <= moderate < -1 <= mild < 0 <= none.
func VHSeverity(delta float64) string {
	switch {
	case delta < -3:
		return "severe"
	case delta < -1:
		return "moderate"
	case delta < 0:
		return "mild"
	}
	return "none"
}
