package xbd

import (
	"encoding/json"
	"testing"

	"github.com/geodisaster/engine/scoring"
)

// TestConcentrationUnrounded: types 34 and 35 emit max/total as the spec
// states it ("Concentration is max quadrant severe count / total severe
// count", no rounding); 11/27 rounded to 0.4074 is 7.4e-6 away, outside
// the scorer's 1e-6 tolerance.
func TestConcentrationUnrounded(t *testing.T) {
	c := &XBDConcentration{Counts: [4]int{11, 7, 5, 4}, Total: 27, Score: 11.0 / 27, HasScore: true, Worst: "Q0", Tied: []string{"Q0"}}
	m := ConcentrationFields(c)
	if got := m["concentration_score"]; got != 11.0/27 {
		t.Fatalf("concentration_score %v, want %v", got, 11.0/27)
	}
	got, _ := json.Marshal(map[string]any{"s": m["concentration_score"]})
	if v := scoring.ScoreV2(json.RawMessage(`{"s":0.4074}`), got, scoring.DefaultAbsTol); v.Correct {
		t.Error("a four-decimal score would still pass the scorer: the test proves nothing")
	}
	if v := scoring.ScoreV2(json.RawMessage(`{"s":0.4074074074074074}`), got, scoring.DefaultAbsTol); !v.Correct {
		t.Errorf("the exact ratio fails: %s", v.Reason)
	}
	c.HasScore, c.Total = false, 0
	if m := ConcentrationFields(c); m["concentration_score"] != nil || m["worst_quadrant"] != nil {
		t.Errorf("zero severe: %v", m)
	}
}
