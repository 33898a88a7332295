package multihazard

import (
	"math"
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
