package families

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

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

func TestCompiledSchemaOncePerType(t *testing.T) {
	var wg sync.WaitGroup
	got := make([]*jsonschema.Schema, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := CompiledSchema("xbd_q1")
			if err != nil {
				t.Error(err)
			}
			got[i] = s
		}()
	}
	wg.Wait()
	for _, s := range got[1:] {
		if s != got[0] || s == nil {
			t.Fatalf("CompiledSchema returned different schemas for one type")
		}
	}
	if _, err := CompiledSchema("no_such_type"); !errors.Is(err, ErrNoSchema) {
		t.Fatalf("CompiledSchema(no_such_type) error %v, want ErrNoSchema", err)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(`{"no": "fields"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Validate(inst) == nil {
		t.Errorf("xbd_q1 schema accepts an answer without its required fields")
	}
}

// BenchmarkCompileOneSchema is the schema cost a one-type replay pays.
func BenchmarkCompileOneSchema(b *testing.B) {
	for b.Loop() {
		if _, err := newSchemaCache().compiled("xbd_q1"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileAllSchemas is what every process paid before schemas
// were compiled per type.
func BenchmarkCompileAllSchemas(b *testing.B) {
	for b.Loop() {
		c := newSchemaCache()
		for _, t := range SchemaTypes() {
			if _, err := c.compiled(t); err != nil {
				b.Fatal(err)
			}
		}
	}
}
