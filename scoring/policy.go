package scoring

import (
	"bytes"
	_ "embed" // for the default policy
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// defaultPolicyJSON is the canonical scoring policy, the one copy in the
// repository (DefaultPolicyJSON hands it out).
//
//go:embed scoring_policy_43.json
var defaultPolicyJSON []byte

// DefaultPolicyJSON returns a copy of the embedded canonical policy file
// (scoring_policy_43.json): all 43 question types in spec order.
func DefaultPolicyJSON() []byte { return bytes.Clone(defaultPolicyJSON) }

// DefaultPolicy parses the embedded canonical policy.
func DefaultPolicy() (*Policy, error) {
	p, err := LoadPolicy(bytes.NewReader(defaultPolicyJSON))
	if err != nil {
		return nil, fmt.Errorf("embedded scoring policy: %w", err)
	}
	return p, nil
}

// TypePolicy is how one question type is scored.
type TypePolicy struct {
	// Ordinal is the type's 1-based position in the specification.
	Ordinal int `json:"ordinal"`
	// QuestionType is the stable type id, e.g. "sen1_flood_a".
	QuestionType string `json:"question_type"`
	// Family is deforestation, multi_hazard, xbd, routing or sen1_flood.
	Family string `json:"family"`
	// Schema is the repository-relative path of the type's answer JSON
	// Schema, conformance/schemas/<type>.json.
	Schema string `json:"schema"`
	// Scorer names the scorer; only StructuredV2 is defined.
	Scorer string `json:"scorer"`
	// AbsTolerance is the absolute tolerance for numeric leaves.
	AbsTolerance float64 `json:"abs_tolerance"`
	// RelTolerance must be 0: relative tolerance is disabled.
	RelTolerance float64 `json:"rel_tolerance"`
}

// Policy is a parsed scoring policy: the executable scoring authority that
// maps each question type to its schema, scorer and tolerance.
type Policy struct {
	// Name identifies the policy, e.g. "geodisaster_scoring_policy_43".
	Name string `json:"policy"`
	// Description is free text.
	Description string `json:"description,omitempty"`
	// Scorer is the policy-wide scorer; every type must use it.
	Scorer string `json:"scorer"`
	// AbsTolerance is the policy-wide default absolute tolerance.
	AbsTolerance float64 `json:"abs_tolerance"`
	// RelTolerance must be 0.
	RelTolerance float64 `json:"rel_tolerance"`
	// Types lists the question types in specification order.
	Types []TypePolicy `json:"types"`

	byType map[string]int
}

// PolicyError reports an invalid policy document.
type PolicyError struct{ Msg string }

func (e *PolicyError) Error() string { return "scoring policy: " + e.Msg }

// ErrUnknownType is returned (wrapped) by ForType for a question type the
// policy does not list.
var ErrUnknownType = errors.New("question type not in scoring policy")

// LoadPolicy reads and validates a policy document. Unknown fields, a
// scorer other than geodisaster_structured_answer_v2, a non-zero relative
// tolerance, a negative or non-finite absolute tolerance, a duplicate or
// empty type id, a missing family or schema, or an empty type list are
// errors. The number of types is not fixed, so a subset policy is valid;
// the canonical policy lists 43.
func LoadPolicy(r io.Reader) (*Policy, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var p Policy
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("scoring policy: decode: %w", err)
	}
	if dec.More() {
		return nil, &PolicyError{"trailing data after the policy object"}
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	return &p, nil
}

func (p *Policy) validate() error {
	if p.Scorer != StructuredV2 {
		return &PolicyError{fmt.Sprintf("policy scorer %q is not %s", p.Scorer, StructuredV2)}
	}
	if err := checkTolerances("policy", p.AbsTolerance, p.RelTolerance); err != nil {
		return err
	}
	if len(p.Types) == 0 {
		return &PolicyError{"no question types"}
	}
	p.byType = make(map[string]int, len(p.Types))
	for i, t := range p.Types {
		where := fmt.Sprintf("types[%d]", i)
		switch {
		case t.QuestionType == "":
			return &PolicyError{where + ": empty question_type"}
		case t.Family == "":
			return &PolicyError{where + " (" + t.QuestionType + "): empty family"}
		case t.Schema == "":
			return &PolicyError{where + " (" + t.QuestionType + "): empty schema"}
		case t.Scorer != StructuredV2:
			return &PolicyError{fmt.Sprintf("%s (%s): scorer %q is not %s", where, t.QuestionType, t.Scorer, StructuredV2)}
		}
		if _, dup := p.byType[t.QuestionType]; dup {
			return &PolicyError{"duplicate question_type " + t.QuestionType}
		}
		if err := checkTolerances(where+" ("+t.QuestionType+")", t.AbsTolerance, t.RelTolerance); err != nil {
			return err
		}
		p.byType[t.QuestionType] = i
	}
	return nil
}

func checkTolerances(where string, abs, rel float64) error {
	if math.IsNaN(abs) || math.IsInf(abs, 0) || abs < 0 {
		return &PolicyError{fmt.Sprintf("%s: abs_tolerance %v is not a finite non-negative number", where, abs)}
	}
	if rel != 0 {
		return &PolicyError{fmt.Sprintf("%s: rel_tolerance %v: relative tolerance is disabled and must be 0", where, rel)}
	}
	return nil
}

// ForType returns the policy of one question type, or an error wrapping
// ErrUnknownType.
func (p *Policy) ForType(questionType string) (TypePolicy, error) {
	i, ok := p.byType[questionType]
	if !ok {
		return TypePolicy{}, fmt.Errorf("%w: %q", ErrUnknownType, questionType)
	}
	return p.Types[i], nil
}

// Families returns the distinct families in order of first appearance.
func (p *Policy) Families() []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range p.Types {
		if !seen[t.Family] {
			seen[t.Family] = true
			out = append(out, t.Family)
		}
	}
	return out
}

// Score scores a decoded prediction for one question type under the
// policy's scorer and that type's tolerance.
func (p *Policy) Score(questionType string, gold, pred any) (Verdict, error) {
	tp, err := p.ForType(questionType)
	if err != nil {
		return Verdict{}, err
	}
	return ScoreV2Values(gold, pred, tp.AbsTolerance), nil
}
