package scoring_test

import (
	"fmt"

	"github.com/geodisaster/engine/scoring"
)

func ExampleScoreV2() {
	gold := []byte(`{"flood_fraction": 0.25, "classes": [{"label": "water"}, {"label": "land"}]}`)
	for _, pred := range []string{
		`{"classes": [{"label": "water"}, {"label": "land"}], "flood_fraction": 0.2500004}`,
		`{"flood_fraction": 0.2501, "classes": [{"label": "water"}, {"label": "land"}]}`,
		`{"flood_fraction": 0.25, "classes": [{"label": "land"}, {"label": "water"}]}`,
		`{"flood_fraction": NaN, "classes": [{"label": "water"}, {"label": "land"}]}`,
		`{"flood_fraction": 0.25, "classes": [{"label": "water"}]}`,
		`{"flood_fraction": 0.25, "classes": [{"label": "water"}, {"label": true}]}`,
	} {
		v := scoring.ScoreV2(gold, []byte(pred), scoring.DefaultAbsTol)
		if v.Correct {
			fmt.Println("correct")
			continue
		}
		fmt.Println(v.Path, scoring.ReasonCategory(v.Reason))
	}
	// Output:
	// correct
	// $.flood_fraction value beyond tolerance
	// $.classes[0] order
	// $.flood_fraction non-finite
	// $.classes length
	// $.classes[1].label type
}

func ExampleGeoKToolsScore() {
	for _, pred := range []any{110.0, 110.01, "1e3", "1,000"} {
		ref := 100.0
		if _, ok := pred.(string); ok {
			ref = 1000
		}
		fmt.Printf("%.4f\n", scoring.GeoKToolsScore(ref, pred))
	}
	// Output:
	// 1.0000
	// 0.8999
	// 0.0010
	// 0.0010
}

func ExampleAuditMixture() {
	a, err := scoring.AuditMixture([]float64{10, 50, 15, 10}, []float64{30, 100, 50, 30}, []float64{0.9, 0.8, 0.6, 0.4})
	if err != nil {
		panic(err)
	}
	fmt.Printf("TV bound %.3f pp, corner max %.3f pp\n", 100*a.TVBound, 100*a.CornerMax)
	fmt.Printf("dev %.2f%%, test %.2f%%\n", 100**a.DevMean, 100**a.TestMean)
	// Output:
	// TV bound 11.204 pp, corner max 11.204 pp
	// dev 72.94%, test 70.95%
}
