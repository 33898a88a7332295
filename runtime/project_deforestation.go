package runtime

import (
	"fmt"

	"github.com/geodisaster/engine/workers"
)

// Answer projections of the deforestation family (types 1-8).
func deforestationProjectors() map[string]Projector {
	return map[string]Projector{
		"baseline_canopy_assessment": projectBaselineCanopy,
	}
}

// projectBaselineCanopy builds type 5's two-field answer from class_n.
func projectBaselineCanopy(v *View) (any, error) {
	h := v.Latest("class")
	if h == nil {
		return nil, nil
	}
	c, ok := h.Result.Payload.(*workers.CanopyClass)
	if !ok {
		return nil, fmt.Errorf("%s is not a canopy-density classification", h.Name)
	}
	return map[string]any{
		"baseline_class":         c.Class,
		"treecover2000_mean_pct": float64(c.MeanPct),
	}, nil
}
