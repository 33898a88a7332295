package workers

import "testing"

func TestNewVariantTakesItsValueFromTheDiscriminatingParam(t *testing.T) {
	run := func(Env, Args) (*Result, error) { return nil, nil }
	v := NewVariant("CompareSources", run, Input("work"), Choice("signals", "optical_sar_hansen"), Choice("criterion", "validation"))
	if v.Tool != "CompareSources" || v.Value != "validation" || len(v.Params) != 3 || v.Params[1].Name != "signals" || v.Run == nil {
		t.Errorf("criterion variant %+v", v)
	}
	if v := NewVariant("ComputeStats", run, Input("work"), Flags("metrics", "vh_delta_db"), Choice("region", "aoi")); v.Value != "vh_delta_db" {
		t.Errorf("one-flag metrics: value %q", v.Value)
	}
	// A multi-flag or open key names no single value: the default variant.
	if v := NewVariant("ComputeStats", run, Input("work"), Flags("metrics", "a", "b")); v.Value != "" {
		t.Errorf("two flags: value %q, want the default", v.Value)
	}
	if v := NewVariant("EstimateExposure", run, Input("work")); v.Value != "" {
		t.Errorf("no key: value %q", v.Value)
	}
}
