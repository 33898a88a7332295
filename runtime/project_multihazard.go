package runtime

import (
	"fmt"

	"github.com/geodisaster/engine/workers"
)

// Answer projections of the multi-hazard family (types 9-28).
func multiHazardProjectors() map[string]Projector {
	return map[string]Projector{
		"wildfire_a": projectHazardArea("burned_area", "mcd64a1__event"),
	}
}

// projectHazardArea builds a multi-hazard A answer from stats_n plus the
// literal terminal status, once TaskComplete(status=TASK_COMPLETE) ran.
func projectHazardArea(metric, handle string) Projector {
	return func(v *View) (any, error) {
		h := v.Latest("stats")
		if h == nil || !v.Completed() {
			return nil, nil
		}
		st, ok := h.Result.Payload.(*workers.AreaStats)
		if !ok || st.Metric != metric {
			return nil, fmt.Errorf("%s is not a %s measurement", h.Name, metric)
		}
		if st.Handle != handle {
			return nil, fmt.Errorf("%s measured %s, the answer requires %s", h.Name, st.Handle, handle)
		}
		return map[string]any{
			"status": "TASK_COMPLETE",
			"answer": map[string]any{"value": st.AreaHa, "units": "ha"},
			"evidence": map[string]any{
				"primary_area_ha": st.AreaHa,
				"primary_handle":  st.Handle,
			},
		}, nil
	}
}
