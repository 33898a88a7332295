package scoring

import (
	"errors"
	"strings"
	"testing"
)

// specTypes is the 43 question type ids in spec order with their families,
// written out independently of the policy file so that the file is checked
// against the specification rather than against itself.
var specTypes = func() [][2]string {
	var out [][2]string
	for _, t := range []string{"forest_loss_detection", "area_estimation", "change_window_estimation",
		"false_positive_rejection", "baseline_canopy_assessment", "multi_year_loss_attribution",
		"cross_modal_concordance", "severity_proxy_numeric"} {
		out = append(out, [2]string{t, "deforestation"})
	}
	for _, h := range []string{"wildfire", "hazard_deforestation", "urban_expansion", "drought", "air_pollution"} {
		for _, s := range "abcd" {
			out = append(out, [2]string{h + "_" + string(s), "multi_hazard"})
		}
	}
	for _, q := range "1234578" {
		out = append(out, [2]string{"xbd_q" + string(q), "xbd"})
	}
	for _, t := range []string{"nearest_shelter", "fastest_safest", "visual_overlay"} {
		out = append(out, [2]string{t, "routing"})
	}
	for _, s := range "abcde" {
		out = append(out, [2]string{"sen1_flood_" + string(s), "sen1_flood"})
	}
	return out
}()

func TestDefaultPolicyLists43Types(t *testing.T) {
	p, err := DefaultPolicy()
	if err != nil {
		t.Fatal(err)
	}
	if len(specTypes) != 43 || len(p.Types) != 43 {
		t.Fatalf("spec list %d, policy %d types; want 43", len(specTypes), len(p.Types))
	}
	if p.Scorer != StructuredV2 || p.AbsTolerance != DefaultAbsTol || p.RelTolerance != 0 {
		t.Errorf("policy header: scorer %q abs %v rel %v", p.Scorer, p.AbsTolerance, p.RelTolerance)
	}
	for i, want := range specTypes {
		tp := p.Types[i]
		if tp.QuestionType != want[0] || tp.Family != want[1] || tp.Ordinal != i+1 {
			t.Errorf("types[%d] = %s/%s #%d, want %s/%s #%d", i, tp.QuestionType, tp.Family, tp.Ordinal, want[0], want[1], i+1)
		}
		if tp.Schema != "conformance/schemas/"+want[0]+".json" {
			t.Errorf("%s: schema %q", want[0], tp.Schema)
		}
		if tp.Scorer != StructuredV2 || tp.AbsTolerance != 1e-6 || tp.RelTolerance != 0 {
			t.Errorf("%s: scorer %q abs %v rel %v", want[0], tp.Scorer, tp.AbsTolerance, tp.RelTolerance)
		}
		got, err := p.ForType(want[0])
		if err != nil || got != tp {
			t.Errorf("ForType(%s) = %+v, %v", want[0], got, err)
		}
	}
	if fams := strings.Join(p.Families(), ","); fams != "deforestation,multi_hazard,xbd,routing,sen1_flood" {
		t.Errorf("Families = %s", fams)
	}
	if _, err := p.ForType("xbd_q6"); !errors.Is(err, ErrUnknownType) {
		t.Errorf("ForType(xbd_q6) error = %v, want ErrUnknownType", err)
	}
}

func TestLoadPolicyRejects(t *testing.T) {
	good := `{"policy":"p","scorer":"geodisaster_structured_answer_v2","abs_tolerance":1e-6,"rel_tolerance":0,"types":[` +
		`{"ordinal":1,"question_type":"a","family":"f","schema":"s","scorer":"geodisaster_structured_answer_v2","abs_tolerance":1e-6,"rel_tolerance":0}]}`
	if _, err := LoadPolicy(strings.NewReader(good)); err != nil {
		t.Fatalf("valid subset policy rejected: %v", err)
	}
	bad := map[string]string{
		"unknown field":     strings.Replace(good, `"policy":"p"`, `"policy":"p","x":1`, 1),
		"relative tol":      strings.Replace(good, `"rel_tolerance":0}`, `"rel_tolerance":0.1}`, 1),
		"negative abs tol":  strings.Replace(good, `"abs_tolerance":1e-6,"rel_tolerance":0}`, `"abs_tolerance":-1,"rel_tolerance":0}`, 1),
		"other scorer":      strings.Replace(good, `"scorer":"geodisaster_structured_answer_v2","abs`, `"scorer":"exact","abs`, 1),
		"duplicate type":    strings.Replace(good, `]}`, `,{"ordinal":2,"question_type":"a","family":"f","schema":"s","scorer":"geodisaster_structured_answer_v2","abs_tolerance":1e-6,"rel_tolerance":0}]}`, 1),
		"no types":          `{"policy":"p","scorer":"geodisaster_structured_answer_v2","abs_tolerance":1e-6,"rel_tolerance":0,"types":[]}`,
		"missing family":    strings.Replace(good, `"family":"f"`, `"family":""`, 1),
		"not json":          `{`,
		"trailing document": good + good,
	}
	for name, doc := range bad {
		if _, err := LoadPolicy(strings.NewReader(doc)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestPolicyScore(t *testing.T) {
	p, err := DefaultPolicy()
	if err != nil {
		t.Fatal(err)
	}
	v, err := p.Score("sen1_flood_a", map[string]any{"x": 1.0}, map[string]any{"x": 1.0000005})
	if err != nil || !v.Correct {
		t.Errorf("Score = %+v, %v", v, err)
	}
	if _, err := p.Score("nope", nil, nil); !errors.Is(err, ErrUnknownType) {
		t.Errorf("unknown type error = %v", err)
	}
}
