package workers

import "testing"

// TestQuestionTypesTable: 43 types numbered 1..43 in order, unique ids,
// each in one of the five families, every family non-empty, and the
// families' type ranges as the specification lists them.
func TestQuestionTypesTable(t *testing.T) {
	qs := QuestionTypes()
	if len(qs) != 43 {
		t.Fatalf("%d question types", len(qs))
	}
	fams := map[Family]bool{}
	for _, f := range Families() {
		fams[f] = true
	}
	if len(fams) != 5 {
		t.Fatalf("families %v", Families())
	}
	ids := map[string]bool{}
	perFamily := map[Family][2]int{}
	for i, q := range qs {
		if q.Number != i+1 {
			t.Errorf("position %d holds type %d", i+1, q.Number)
		}
		if q.ID == "" || ids[q.ID] {
			t.Errorf("type %d: id %q empty or repeated", q.Number, q.ID)
		}
		ids[q.ID] = true
		if !fams[q.Family] {
			t.Errorf("type %d: family %q is not one of Families()", q.Number, q.Family)
		}
		r, ok := perFamily[q.Family]
		if !ok {
			r[0] = q.Number
		}
		r[1] = q.Number
		perFamily[q.Family] = r
	}
	want := map[Family][2]int{Deforestation: {1, 8}, MultiHazard: {9, 28}, XBD: {29, 35}, Routing: {36, 38}, Sen1Flood: {39, 43}}
	for f, r := range want {
		if perFamily[f] != r {
			t.Errorf("family %s spans types %v, want %v", f, perFamily[f], r)
		}
	}
}

func TestQuestionTypesReturnsACopy(t *testing.T) {
	qs := QuestionTypes()
	qs[0].ID = "changed"
	if QuestionTypes()[0].ID != "forest_loss_detection" {
		t.Error("modifying the returned slice changed the table")
	}
}

func TestLookupQuestionType(t *testing.T) {
	q, ok := LookupQuestionType("nearest_shelter")
	if !ok || q.Number != 36 || q.Family != Routing {
		t.Errorf("nearest_shelter: %+v %v", q, ok)
	}
	for _, id := range []string{"", "Nearest_Shelter", "xbd_q6", " sen1_flood_a"} {
		if q, ok := LookupQuestionType(id); ok || q != (QuestionType{}) {
			t.Errorf("%q resolved to %+v", id, q)
		}
	}
}
