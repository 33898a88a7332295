package scoring

import (
	"errors"
	"strings"
	"testing"
)

const batchGold = `{"id":"r1","question_type":"sen1_flood_a","family":"sen1_flood","answer":{"flood_fraction":0.25,"status":"ok"},"gt_chain":[]}
{"id":"r2","question_type":"sen1_flood_a","answer":{"flood_fraction":0.5,"status":"ok"}}

{"id":"r3","question_type":"xbd_q1","answer":{"count":3}}
{"id":"r4","question_type":"xbd_q1","answer":{"count":4}}
{"id":"r5","question_type":"nearest_shelter","answer":{"shelter":"s1","distance_m":12.5}}
{"id":"r6","question_type":"nearest_shelter","answer":{"shelter":"s2","distance_m":null}}
{"id":"r7","question_type":"nearest_shelter","answer":{"shelter":"s3","distance_m":1}}
`

const batchPred = `{"id":"r1","answer":{"status":"ok","flood_fraction":0.2500000001}}
{"id":"r2","question_type":"sen1_flood_a","family":"sen1_flood","status":"error","answer":null,"correct":true,"error":"MapFlood: boom"}
{"id":"r3","answer":{"count":NaN}}
{"id":"r4","answer":{"count":4}}
{"id":"r4","answer":{"count":4}}
{"id":"r5","answer":{"shelter":"s1","distance_m":12.5
{"id":"r6","answer":{"shelter":"s2","distance_m":0}}
{"id":"zz","answer":1}
not json at all
`

func TestScoreSet(t *testing.T) {
	p, err := DefaultPolicy()
	if err != nil {
		t.Fatal(err)
	}
	gold, err := ReadGold(strings.NewReader("\ufeff" + batchGold)) // with a BOM
	if err != nil {
		t.Fatal(err)
	}
	preds, err := ReadPredictions(strings.NewReader(batchPred))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ScoreSet(p, gold, preds)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		correct   bool
		predicted bool
		category  string
	}{
		"r1": {true, true, ""},
		"r2": {false, true, ReasonStatus},
		"r3": {false, true, ReasonNonFinite},
		"r4": {false, true, ReasonDuplicatePrediction},
		"r5": {false, true, ReasonMalformed},
		"r6": {false, true, ReasonNullState},
		"r7": {false, false, ReasonMissingPrediction},
	}
	if len(rep.Records) != len(want) {
		t.Fatalf("%d records, want %d", len(rep.Records), len(want))
	}
	for i, r := range rep.Records {
		if wantID := "r" + string(rune('1'+i)); r.ID != wantID {
			t.Errorf("record %d is %s, want gold order %s", i, r.ID, wantID)
		}
		w := want[r.ID]
		if r.Correct != w.correct || r.Predicted != w.predicted || ReasonCategory(r.Reason) != w.category {
			t.Errorf("%s: %+v, want %+v", r.ID, r, w)
		}
	}
	if got := rep.ByType["sen1_flood_a"]; got != (Tally{Records: 2, Predicted: 2, Correct: 1}) {
		t.Errorf("by_type sen1_flood_a = %+v", got)
	}
	if got := rep.ByType["nearest_shelter"]; got != (Tally{Records: 3, Predicted: 2, Correct: 0}) {
		t.Errorf("by_type nearest_shelter = %+v", got)
	}
	if got := rep.ByFamily["routing"]; got != (Tally{Records: 3, Predicted: 2, Correct: 0}) {
		t.Errorf("by_family routing = %+v", got)
	}
	if got := rep.ByFamily["xbd"]; got != (Tally{Records: 2, Predicted: 2, Correct: 0}) {
		t.Errorf("by_family xbd = %+v", got)
	}
	if strings.Join(rep.UnknownPredictions, ",") != "zz" || strings.Join(rep.DuplicatePredictions, ",") != "r4" {
		t.Errorf("unknown %v duplicates %v", rep.UnknownPredictions, rep.DuplicatePredictions)
	}
	if len(rep.UnparsedPredictionLines) != 1 || rep.UnparsedPredictionLines[0] != 9 {
		t.Errorf("unparsed lines %v, want [9]", rep.UnparsedPredictionLines)
	}
}

func TestReadGoldErrors(t *testing.T) {
	for name, doc := range map[string]string{
		"not json":      `{"id":"a"`,
		"no id":         `{"question_type":"xbd_q1","answer":1}`,
		"no type":       `{"id":"a","answer":1}`,
		"no answer":     `{"id":"a","question_type":"xbd_q1"}`,
		"duplicate id":  "{\"id\":\"a\",\"question_type\":\"xbd_q1\",\"answer\":1}\n{\"id\":\"a\",\"question_type\":\"xbd_q1\",\"answer\":1}",
		"array line":    `[1]`,
		"number family": `{"id":"a","question_type":"xbd_q1","family":3,"answer":1}`,
	} {
		_, err := ReadGold(strings.NewReader(doc))
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: error %v, want *InputError", name, err)
		}
	}
}

func TestScoreSetRejectsBadGold(t *testing.T) {
	p, err := DefaultPolicy()
	if err != nil {
		t.Fatal(err)
	}
	for name, doc := range map[string]string{
		"unknown type":   `{"id":"a","question_type":"xbd_q6","answer":1}`,
		"family clashes": `{"id":"a","question_type":"xbd_q1","family":"routing","answer":1}`,
	} {
		gold, err := ReadGold(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ScoreSet(p, gold, &PredictionSet{ByID: map[string]Prediction{}}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// FuzzScoreSet feeds arbitrary prediction files to the batch scorer: it
// must never panic, and every gold record gets exactly one result.
func FuzzScoreSet(f *testing.F) {
	f.Add([]byte(batchPred))
	f.Add([]byte("{\"id\":\"r1\",\"answer\":NaN}\n{\"id\":\"r1\"\n\xff\xfe"))
	p, err := DefaultPolicy()
	if err != nil {
		f.Fatal(err)
	}
	gold, err := ReadGold(strings.NewReader(batchGold))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		preds, err := ReadPredictions(strings.NewReader(string(data)))
		if err != nil {
			t.Fatalf("in-memory read failed: %v", err)
		}
		rep, err := ScoreSet(p, gold, preds)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Records) != len(gold) {
			t.Fatalf("%d results for %d gold records", len(rep.Records), len(gold))
		}
		for _, r := range rep.Records {
			if r.Correct == (r.Reason != "") {
				t.Fatalf("inconsistent result %+v", r)
			}
		}
	})
}
