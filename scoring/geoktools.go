package scoring

import (
	"encoding/json"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// GeoKToolsTolerance is the relative error within which the GeoKTools
// numeric branch awards full credit.
const GeoKToolsTolerance = 0.10

// numberPattern is the numeric extraction regex of the GeoKTools scorer as
// the release audit describes it: the first run of digits, optionally
// signed, with at most one decimal point. Exponents and thousands
// separators are not part of it, so "1e3" and "1,000" both read as 1.
var numberPattern = regexp.MustCompile(`[-+]?\d*\.?\d+`)

// ExtractNumber returns the first number in s by the GeoKTools extraction
// regex, and false when s holds no digits.
func ExtractNumber(s string) (float64, bool) {
	m := numberPattern.FindString(s)
	if m == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(m, 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

// GeoKToolsNumeric scores a numeric prediction against a numeric reference:
// 1 when the relative error |pred-ref|/|ref| is at most 10%, otherwise
// max(1 - relative error, 0). A zero reference credits only an exact zero.
// A non-finite prediction or reference scores 0. The score is
// discontinuous at the tolerance: 110 vs 100 scores 1, 110.01 scores 0.8999.
func GeoKToolsNumeric(ref, pred float64) float64 {
	if math.IsNaN(ref) || math.IsInf(ref, 0) || math.IsNaN(pred) || math.IsInf(pred, 0) {
		return 0
	}
	if ref == 0 {
		if pred == 0 {
			return 1
		}
		return 0
	}
	rel := math.Abs(pred-ref) / math.Abs(ref)
	if rel <= GeoKToolsTolerance {
		return 1
	}
	return math.Max(1-rel, 0)
}

// GeoKToolsScore scores a decoded prediction against a decoded reference
// with the GeoKTools deterministic scorer. The branch follows the
// reference:
//
//   - number: numeric branch (GeoKToolsNumeric). A JSON number prediction
//     is used as is; a string prediction goes through ExtractNumber (so
//     "1e3" and "1,000" read as 1); a string without digits, a boolean
//     (booleans are not numbers here), null, an array or an object scores 0.
//   - string: ROUGE-L F-measure (RougeL) against the prediction's text (a
//     string as is, any other value as its JSON encoding).
//   - boolean or null: 1 for the identical value, else 0.
//   - object or array: the reference is flattened to its leaf slots; the
//     score is the mean of the slot scores, where a slot the prediction
//     lacks (or reaches with a different container type) scores 0. An
//     empty container scores 1 only against an equal empty container.
//     The aggregation is our reading; the audit scores flattened slots.
func GeoKToolsScore(reference, prediction any) float64 {
	switch r := reference.(type) {
	case map[string]any, []any:
		slots := flatten(r, nil)
		if len(slots) == 0 {
			if jsonKind(prediction) == jsonKind(reference) && containerLen(prediction) == 0 {
				return 1
			}
			return 0
		}
		sum := 0.0
		for _, s := range slots {
			p, ok := lookup(prediction, s.steps)
			if ok {
				sum += GeoKToolsScore(s.value, p)
			}
		}
		return sum / float64(len(slots))
	case string:
		return RougeL(r, textOf(prediction))
	case bool:
		if p, ok := prediction.(bool); ok && p == r {
			return 1
		}
		return 0
	case nil:
		if prediction == nil {
			return 1
		}
		return 0
	}
	k, ref, fin := classify(reference)
	if k != kNumber || !fin {
		return 0
	}
	switch p := prediction.(type) {
	case string:
		f, ok := ExtractNumber(p)
		if !ok {
			return 0
		}
		return GeoKToolsNumeric(ref, f)
	case bool, nil:
		return 0
	}
	pk, pf, _ := classify(prediction)
	if pk != kNumber {
		return 0
	}
	return GeoKToolsNumeric(ref, pf)
}

// slot is one leaf of a flattened reference: its path steps (string keys
// or int indices) and value.
type slot struct {
	steps []any
	value any
}

func flatten(v any, prefix []any) []slot {
	switch x := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		var out []slot
		for _, k := range keys {
			out = append(out, flatten(x[k], appendStep(prefix, k))...)
		}
		return out
	case []any:
		var out []slot
		for i, e := range x {
			out = append(out, flatten(e, appendStep(prefix, i))...)
		}
		return out
	}
	return []slot{{steps: prefix, value: v}}
}

func appendStep(prefix []any, step any) []any {
	out := make([]any, len(prefix)+1)
	copy(out, prefix)
	out[len(prefix)] = step
	return out
}

func lookup(v any, steps []any) (any, bool) {
	for _, s := range steps {
		switch k := s.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[k]; !ok {
				return nil, false
			}
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				return nil, false
			}
			v = a[k]
		}
	}
	return v, true
}

func jsonKind(v any) kind {
	k, _, _ := classify(v)
	return k
}

func containerLen(v any) int {
	switch x := v.(type) {
	case map[string]any:
		return len(x)
	case []any:
		return len(x)
	}
	return -1
}

// textOf renders a prediction as text for the string branch.
func textOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case NonFinite:
		return string(x)
	case json.Number:
		return string(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// nonAlnum matches runs of characters outside [a-z0-9] after lowercasing.
var nonAlnum = regexp.MustCompile(`[^a-z0-9]+`)

// RougeTokens tokenizes text for RougeL the way the common ROUGE
// implementation's default tokenizer does without stemming: lowercase,
// every run of characters other than ASCII letters and digits becomes a
// separator, and the remaining runs are the tokens. Non-ASCII letters are
// separators too.
func RougeTokens(text string) []string {
	return strings.Fields(nonAlnum.ReplaceAllString(strings.ToLower(text), " "))
}

// RougeL is the ROUGE-L F-measure of prediction against reference: with L
// the length of the longest common token subsequence, precision L/|pred|,
// recall L/|ref| and F = 2PR/(P+R). It is 0 when either text has no
// tokens (even when both are empty) or when L is 0.
func RougeL(reference, prediction string) float64 {
	ref, pred := RougeTokens(reference), RougeTokens(prediction)
	if len(ref) == 0 || len(pred) == 0 {
		return 0
	}
	l := lcsLen(ref, pred)
	if l == 0 {
		return 0
	}
	p := float64(l) / float64(len(pred))
	r := float64(l) / float64(len(ref))
	return 2 * p * r / (p + r)
}

// lcsLen is the length of the longest common subsequence of a and b, in
// O(len(a)*len(b)) time and O(len(b)) space.
func lcsLen(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
