package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/families"
)

// Projector builds a question type's final answer from worker evidence in a
// session (see workers.Projector; each family package declares its own).
type Projector = workers.Projector

// answerContracts pairs each question type's projection with its schema.
// A type's schema is compiled when its first answer projects
// (families.CompiledSchema), so a replay of one family never pays for the
// other families' schemas.
type answerContracts struct {
	projectors map[string]Projector
}

func newAnswerContracts() (*answerContracts, error) {
	ac := &answerContracts{projectors: map[string]Projector{}}
	for _, fam := range families.All() {
		for t, p := range fam.Projectors {
			if _, ok := workers.LookupQuestionType(t); !ok {
				return nil, fmt.Errorf("projector for unknown question type %q", t)
			}
			ac.projectors[t] = p
		}
	}
	return ac, nil
}

// project runs the type's projection and returns the canonical JSON of a
// complete, schema-valid answer, or nil when none is available yet.
func (ac *answerContracts) project(questionType string, v *View) (json.RawMessage, error) {
	p, ok := ac.projectors[questionType]
	if !ok {
		return nil, fmt.Errorf("no answer projection for question type %q", questionType)
	}
	ans, err := p(v)
	if err != nil || ans == nil {
		return nil, err
	}
	if err := checkFinite(ans, "$"); err != nil {
		return nil, err
	}
	b, err := json.Marshal(ans)
	if err != nil {
		return nil, fmt.Errorf("answer projection: %w", err)
	}
	if err := ac.validate(questionType, b); err != nil {
		return nil, err
	}
	return b, nil
}

// validate checks an answer against its type's schema.
func (ac *answerContracts) validate(questionType string, ans []byte) error {
	sch, err := families.CompiledSchema(questionType)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(ans))
	if err != nil {
		return fmt.Errorf("answer is not JSON: %w", err)
	}
	if err := sch.Validate(inst); err != nil {
		return fmt.Errorf("answer fails its %s schema: %w", questionType, err)
	}
	return nil
}

// checkFinite rejects NaN and infinities anywhere in an answer.
func checkFinite(v any, path string) error {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("answer field %s is not finite", path)
		}
	case float32:
		return checkFinite(float64(x), path)
	case map[string]any:
		for k, e := range x {
			if err := checkFinite(e, path+"."+k); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range x {
			if err := checkFinite(e, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}
