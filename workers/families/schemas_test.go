package families

import (
	"slices"
	"strings"
	"testing"

	"github.com/geodisaster/engine/workers"
)

func TestSchemaTypesCoverEveryQuestionType(t *testing.T) {
	got := SchemaTypes()
	if !slices.IsSorted(got) {
		t.Errorf("SchemaTypes not sorted: %v", got)
	}
	var want []string
	for _, q := range workers.QuestionTypes() {
		want = append(want, q.ID)
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("schema types %v, want the 43 question types %v", got, want)
	}
	compiled, err := CompileSchemas()
	if err != nil {
		t.Fatal(err)
	}
	if len(compiled) != len(want) {
		t.Errorf("%d compiled schemas, want %d", len(compiled), len(want))
	}
}

func TestSchemaUnknownTypeIsAnError(t *testing.T) {
	if _, err := Schema("no_such_type"); err == nil || !strings.Contains(err.Error(), `"no_such_type"`) {
		t.Fatalf("Schema(no_such_type) error %v, want one naming the type", err)
	}
	doc, err := Schema("forest_loss_detection")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "2020-12") {
		t.Errorf("forest_loss_detection schema does not declare draft 2020-12")
	}
}
