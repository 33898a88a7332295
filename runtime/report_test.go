package runtime_test

import (
	"testing"

	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
)

// TestNewReportTallies checks the report's denominators and statuses: a
// type with a failed or incorrect record is FAILED, one whose records all
// pass carries the corpus status, one without records is NOT_RUN, and
// every failed record is listed with its error or scorer's reason.
func TestNewReportTallies(t *testing.T) {
	msg := "step 1 ReadData: boom"
	results := []runtime.RecordResult{
		{ID: "a", QuestionType: "baseline_canopy_assessment", Family: "deforestation", Status: "ok", Correct: true, WallMS: 1000.4,
			Calls: make([]runtime.CallTrace, 3), Denials: make([]runtime.Denial, 1)},
		{ID: "b", QuestionType: "baseline_canopy_assessment", Family: "deforestation", Status: "ok", Correct: true, WallMS: 500},
		{ID: "c", QuestionType: "wildfire_a", Family: "multi_hazard", Status: "ok", Correct: false, Reason: "$.x: differs", WallMS: 1},
		{ID: "d", QuestionType: "wildfire_a", Family: "multi_hazard", Status: "error", Error: &msg},
	}
	r := runtime.NewReport(results, runtime.CorpusInfo{Status: runtime.StatusFixture})
	if r.Records != 4 || r.ToolCalls != 3 || r.ReadDenials != 1 || r.ReadPolicy != runtime.ReadPolicy {
		t.Fatalf("totals %+v", r)
	}
	if len(r.ByType) != len(workers.QuestionTypes()) || len(r.ByFamily) != len(workers.Families()) {
		t.Fatalf("%d types and %d families reported", len(r.ByType), len(r.ByFamily))
	}
	for key, want := range map[string]runtime.Tally{
		"baseline_canopy_assessment": {Records: 2, Executed: 2, Correct: 2, Status: runtime.StatusFixture},
		"wildfire_a":                 {Records: 2, Executed: 1, Errors: 1, Status: runtime.StatusFailed},
		"area_estimation":            {Status: runtime.StatusNotRun},
	} {
		if got := *r.ByType[key]; got != want {
			t.Errorf("%s: %+v, want %+v", key, got, want)
		}
	}
	if got := *r.ByFamily["multi_hazard"]; got.Status != runtime.StatusFailed || got.Records != 2 {
		t.Errorf("multi_hazard: %+v", got)
	}
	if r.RecordSeconds["deforestation"] != 1.5 || len(r.RecordSeconds) != 2 {
		t.Errorf("record seconds %v", r.RecordSeconds)
	}
	want := []runtime.FailedRecord{{ID: "c", QuestionType: "wildfire_a", Reason: "$.x: differs"}, {ID: "d", QuestionType: "wildfire_a", Error: msg}}
	if len(r.FailedRecords) != 2 || r.FailedRecords[0] != want[0] || r.FailedRecords[1] != want[1] {
		t.Errorf("failed records %+v", r.FailedRecords)
	}
}
