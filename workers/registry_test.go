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

func TestVariantThenRunsOnSuccessOnly(t *testing.T) {
	boom := &ArgError{Tool: "T", Msg: "boom"}
	base := Variant{Tool: "T", Run: func(_ Env, a Args) (*Result, error) {
		if a.Bool("fail") {
			return nil, boom
		}
		return &Result{Evidence: map[string]any{"base": true}}, nil
	}}
	calls := 0
	v := base.Then(func(_ Env, a Args, r *Result) (*Result, error) {
		calls++
		if a.Bool("reject") {
			return nil, a.Errorf("reject", "rejected after the run")
		}
		r.Evidence["then"] = a.String("tag")
		return r, nil
	})
	r, err := v.Run(nil, ArgsOf("T", map[string]any{"tag": "x"}))
	if err != nil || r.Evidence["base"] != true || r.Evidence["then"] != "x" || calls != 1 {
		t.Errorf("success: %v %v after %d calls", r, err, calls)
	}
	if r, err := v.Run(nil, ArgsOf("T", map[string]any{"fail": true})); err != boom || r != nil || calls != 1 {
		t.Errorf("failed run: %v %v, next called %d times", r, err, calls)
	}
	if r, err := v.Run(nil, ArgsOf("T", map[string]any{"reject": true})); err == nil || r != nil || err.Error() != `T: argument "reject": rejected after the run` {
		t.Errorf("rejecting next: %v %v", r, err)
	}
	if base.Run == nil || v.Tool != "T" {
		t.Error("Then changed the original variant")
	}
	if r, _ := base.Run(nil, ArgsOf("T", nil)); r.Evidence["then"] != nil {
		t.Error("the original variant runs next")
	}
}
