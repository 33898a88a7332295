package scoring

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// StructuredV2 names the benchmark's structured answer scorer
// (spec section 2): exact object keys, JSON types, strings, booleans, null
// states, array lengths and order, and finite numbers compared with an
// absolute tolerance only.
const StructuredV2 = "geodisaster_structured_answer_v2"

// DefaultAbsTol is the published absolute tolerance for numeric leaves.
const DefaultAbsTol = 1e-6

// Reason categories of a Verdict. Verdict.Reason starts with one of these,
// optionally followed by ": " and details.
const (
	ReasonMalformed     = "malformed JSON"
	ReasonMissingKey    = "missing key"
	ReasonExtraKey      = "extra key"
	ReasonType          = "type"
	ReasonNullState     = "null state"
	ReasonLength        = "length"
	ReasonOrder         = "order"
	ReasonTolerance     = "value beyond tolerance"
	ReasonString        = "string mismatch"
	ReasonBoolean       = "boolean mismatch"
	ReasonNonFinite     = "non-finite"
	ReasonInvalidGold   = "invalid gold"
	ReasonUnsupportedGo = "unsupported value"
)

// Verdict is the outcome of scoring one answer.
type Verdict struct {
	// Correct reports whether the whole prediction matches gold.
	Correct bool `json:"correct"`
	// Path is the first failing JSON path, such as "$.answer.value" or
	// "$.classes[2].label"; it is "" when Correct. Keys that are not plain
	// identifiers are written as $["a key"].
	Path string `json:"path,omitempty"`
	// Reason says why the prediction failed at Path: one of the Reason*
	// categories, optionally followed by ": " and details.
	Reason string `json:"reason,omitempty"`
}

// ScoreV2 scores the raw JSON prediction pred against the raw JSON gold
// answer under geodisaster_structured_answer_v2 (see ScoreV2Values). A
// prediction that is not valid JSON (including a duplicate object key) is
// incorrect with reason "malformed JSON"; the bare tokens NaN, Infinity and
// -Infinity and overflowing literals are decoded and reported as
// "non-finite" at their path. ScoreV2 never panics.
func ScoreV2(gold, pred []byte, absTol float64) Verdict {
	g, err := DecodeJSON(gold)
	if err != nil {
		return Verdict{Path: "$", Reason: ReasonInvalidGold + ": " + err.Error()}
	}
	p, err := DecodeJSON(pred)
	if err != nil {
		return Verdict{Path: "$", Reason: ReasonMalformed + ": " + err.Error()}
	}
	return ScoreV2Values(g, p, absTol)
}

// ScoreV2Values scores an already-decoded prediction against decoded gold.
// Values are map[string]any, []any, string, bool, nil, float64 or
// json.Number (other Go integer and float kinds are accepted as numbers,
// NonFinite as a non-finite number). A json.RawMessage or []byte is
// decoded as raw JSON (a malformed prediction is "malformed JSON"), and any
// other Go value (typed maps and slices, structs) is mapped through its
// encoding/json form.
//
// Rules: object keys must be exactly gold's (missing keys are reported
// before extra keys, each in sorted order, then members are compared in
// sorted key order); JSON types must match, and a bool is never a number;
// null matches only null, so null is not 0, "" or false; arrays must have
// gold's length and order; strings compare byte for byte; numbers must be
// finite and within absTol of gold (|gold-pred| <= absTol), with integer
// and fractional spellings of one value equal (1 == 1.0) and no relative
// tolerance. A negative or NaN absTol means DefaultAbsTol; 0 means exact.
// A non-finite or malformed gold value makes every prediction incorrect
// with reason "invalid gold".
func ScoreV2Values(gold, pred any, absTol float64) Verdict {
	if math.IsNaN(absTol) || absTol < 0 {
		absTol = DefaultAbsTol
	}
	c := comparer{tol: absTol}
	if path, reason, bad := c.compare("$", gold, pred); bad {
		return Verdict{Path: path, Reason: reason}
	}
	return Verdict{Correct: true}
}

// comparer carries the tolerance through the recursive comparison.
// plain disables the order diagnosis, so that the diagnosis itself stays
// quadratic instead of recursing into nested arrays.
type comparer struct {
	tol   float64
	plain bool
}

// kind is the JSON type of a decoded value.
type kind int

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
	kUnsupported
)

func (k kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object", "unsupported"}[k]
}

// classify returns a value's JSON kind and, for numbers, its float64 value
// (±Inf or NaN when non-finite) and whether it is finite.
func classify(v any) (k kind, f float64, finite bool) {
	switch x := v.(type) {
	case nil:
		return kNull, 0, false
	case bool:
		return kBool, 0, false
	case string:
		return kString, 0, false
	case []any:
		return kArray, 0, false
	case map[string]any:
		return kObject, 0, false
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil && !math.IsInf(f, 0) {
			return kNumber, math.NaN(), false
		}
		return kNumber, f, !math.IsInf(f, 0) && !math.IsNaN(f)
	case NonFinite:
		return kNumber, math.NaN(), false
	case float64:
		return kNumber, x, !math.IsInf(x, 0) && !math.IsNaN(x)
	case float32:
		f := float64(x)
		return kNumber, f, !math.IsInf(f, 0) && !math.IsNaN(f)
	case int, int8, int16, int32, int64:
		return kNumber, float64(reflect.ValueOf(x).Int()), true
	case uint, uint8, uint16, uint32, uint64:
		return kNumber, float64(reflect.ValueOf(x).Uint()), true
	}
	return kUnsupported, 0, false
}

// normalize maps a Go value outside the JSON data model onto it: raw JSON
// ([]byte as json.RawMessage) is decoded with DecodeJSON, and any other
// type that classify does not know (typed maps, slices, structs) goes
// through encoding/json and back. Values already in the model pass through.
func normalize(v any) (any, error) {
	switch x := v.(type) {
	case json.RawMessage:
		return DecodeJSON(x)
	case []byte:
		return DecodeJSON(x)
	}
	if k, _, _ := classify(v); k != kUnsupported {
		return v, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%T cannot be encoded as JSON: %w", v, err)
	}
	return DecodeJSON(b)
}

// describe renders a leaf value for a reason message, shortened.
func describe(v any) string {
	var s string
	switch x := v.(type) {
	case nil:
		s = "null"
	case NonFinite:
		s = string(x)
	case string:
		s = strconv.Quote(x)
	case json.Number:
		s = string(x)
	case []any:
		s = fmt.Sprintf("array of %d", len(x))
	case map[string]any:
		s = fmt.Sprintf("object with %d keys", len(x))
	default:
		s = fmt.Sprint(x)
	}
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// compare returns the first failing path and reason, with bad set, or
// bad false when pred matches gold.
func (c comparer) compare(path string, gold, pred any) (string, string, bool) {
	gold, gerr := normalize(gold)
	if gerr != nil {
		return path, fmt.Sprintf("%s: %v", ReasonInvalidGold, gerr), true
	}
	pred, perr := normalize(pred)
	if perr != nil {
		var se *SyntaxError
		if errors.As(perr, &se) {
			return path, fmt.Sprintf("%s: %v", ReasonMalformed, perr), true
		}
		return path, fmt.Sprintf("%s: %v", ReasonUnsupportedGo, perr), true
	}
	gk, gf, gfin := classify(gold)
	pk, pf, pfin := classify(pred)
	switch {
	case gk == kUnsupported:
		return path, fmt.Sprintf("%s: gold holds Go type %T", ReasonInvalidGold, gold), true
	case gk == kNumber && !gfin:
		return path, fmt.Sprintf("%s: non-finite gold number %s", ReasonInvalidGold, describe(gold)), true
	case pk == kUnsupported:
		return path, fmt.Sprintf("%s: prediction holds Go type %T", ReasonUnsupportedGo, pred), true
	case pk == kNumber && !pfin:
		return path, fmt.Sprintf("%s: prediction %s", ReasonNonFinite, describe(pred)), true
	case gk == kNull && pk != kNull:
		return path, fmt.Sprintf("%s: gold null, prediction %s %s", ReasonNullState, pk, describe(pred)), true
	case gk != kNull && pk == kNull:
		return path, fmt.Sprintf("%s: gold %s, prediction null", ReasonNullState, gk), true
	case gk != pk:
		return path, fmt.Sprintf("%s: gold %s, prediction %s", ReasonType, gk, pk), true
	}
	switch gk {
	case kNull:
		return "", "", false
	case kBool:
		if gold.(bool) != pred.(bool) {
			return path, fmt.Sprintf("%s: gold %v, prediction %v", ReasonBoolean, gold, pred), true
		}
	case kString:
		if gold.(string) != pred.(string) {
			return path, fmt.Sprintf("%s: gold %s, prediction %s", ReasonString, describe(gold), describe(pred)), true
		}
	case kNumber:
		if d := math.Abs(gf - pf); !(d <= c.tol) {
			return path, fmt.Sprintf("%s: gold %s, prediction %s, |difference| %.3g > %g",
				ReasonTolerance, describe(gold), describe(pred), d, c.tol), true
		}
	case kArray:
		return c.compareArray(path, gold.([]any), pred.([]any))
	case kObject:
		return c.compareObject(path, gold.(map[string]any), pred.(map[string]any))
	}
	return "", "", false
}

func (c comparer) compareArray(path string, gold, pred []any) (string, string, bool) {
	if len(gold) != len(pred) {
		return path, fmt.Sprintf("%s: gold %d elements, prediction %d", ReasonLength, len(gold), len(pred)), true
	}
	for i := range gold {
		ep := path + "[" + strconv.Itoa(i) + "]"
		if p, r, bad := c.compare(ep, gold[i], pred[i]); bad {
			if !c.plain && c.isPermutation(gold[i:], pred[i:]) {
				return ep, fmt.Sprintf("%s: the array holds gold's elements in a different order (first difference at index %d)", ReasonOrder, i), true
			}
			return p, r, true
		}
	}
	return "", "", false
}

// maxPermutationCheck bounds the quadratic order diagnosis.
const maxPermutationCheck = 256

// isPermutation reports whether pred holds exactly gold's elements (each
// matched once, under the tolerance) in some order. It is a diagnosis for
// the reason message only: order always matters for correctness.
func (c comparer) isPermutation(gold, pred []any) bool {
	if len(gold) != len(pred) || len(gold) > maxPermutationCheck {
		return false
	}
	plain := comparer{tol: c.tol, plain: true}
	used := make([]bool, len(pred))
	for _, g := range gold {
		found := false
		for j, p := range pred {
			if used[j] {
				continue
			}
			if _, _, bad := plain.compare("", g, p); !bad {
				used[j] = true
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func (c comparer) compareObject(path string, gold, pred map[string]any) (string, string, bool) {
	keys := slices.Sorted(maps.Keys(gold))
	for _, k := range keys {
		if _, ok := pred[k]; !ok {
			return memberPath(path, k), ReasonMissingKey, true
		}
	}
	if len(pred) != len(gold) {
		extra := make([]string, 0, len(pred)-len(gold))
		for k := range pred {
			if _, ok := gold[k]; !ok {
				extra = append(extra, k)
			}
		}
		sort.Strings(extra)
		return memberPath(path, extra[0]), ReasonExtraKey, true
	}
	for _, k := range keys {
		if p, r, bad := c.compare(memberPath(path, k), gold[k], pred[k]); bad {
			return p, r, true
		}
	}
	return "", "", false
}

// memberPath appends an object key to a JSON path: .key for identifiers,
// ["key"] otherwise.
func memberPath(path, key string) string {
	if isIdentifier(key) {
		return path + "." + key
	}
	return path + "[" + strconv.Quote(key) + "]"
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9') {
			continue
		}
		return false
	}
	return true
}

// ReasonCategory returns the category of a Verdict reason: the text before
// the first ": ", or the whole reason.
func ReasonCategory(reason string) string {
	if i := strings.Index(reason, ": "); i >= 0 {
		return reason[:i]
	}
	return reason
}
