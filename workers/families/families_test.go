package families

import (
	"strings"
	"testing"

	"github.com/geodisaster/engine/workers"
)

func TestResolveRejectsUnknownsAndNamesAllowed(t *testing.T) {
	r, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"Guess", map[string]any{}, "unknown tool"},
		{"ComputeStats", map[string]any{"input": "work_1", "region": "aoi"}, "required argument missing (allowed values:"},
		{"ComputeStats", map[string]any{"input": "work_1", "metrics": map[string]any{"nope": true}, "region": "aoi"}, `unsupported value "nope"`},
		{"ComputeStats", map[string]any{"input": "work_1", "metrics": map[string]any{"burned_area": "yes"}, "region": "aoi"}, "must be true"},
		{"ComputeStats", map[string]any{"input": "work_1", "metrics": map[string]any{"burned_area": true}, "region": "aoi", "extra": 1}, `unknown argument for burned_area (allowed:`},
		{"ComputeStats", map[string]any{"input": 3.0, "metrics": map[string]any{"burned_area": true}, "region": "aoi"}, "must be a handle name"},
		{"ComputeStats", map[string]any{"input": "work_1", "work": "work_1", "metrics": map[string]any{"burned_area": true}, "region": "aoi"}, "give the input handle once"},
	}
	for _, c := range cases {
		_, _, err := r.Resolve(c.tool, c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: error %v, want %q", c.tool, c.args, err, c.want)
		}
	}
}

func TestWorkIsAnAliasOfInput(t *testing.T) {
	r, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	_, a, err := r.Resolve("ComputeStats", map[string]any{"work": "work_1", "metrics": map[string]any{"burned_area": true}, "region": "aoi"})
	if err != nil {
		t.Fatal(err)
	}
	if a.String("input") != "work_1" || a.Has("work") {
		t.Fatalf("work= not mapped to input: %v", a.Map())
	}
}

func TestEveryToolHasVariants(t *testing.T) {
	r, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range workers.Tools() {
		if len(r.Variants(tool.Name)) == 0 {
			t.Errorf("tool %s has no variant", tool.Name)
		}
	}
	if len(workers.Tools()) != 18 {
		t.Errorf("%d tools, the spec has 18", len(workers.Tools()))
	}
}
