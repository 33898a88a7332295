package scoring

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

func TestScoreV2Rules(t *testing.T) {
	tests := []struct {
		name     string
		gold     string
		pred     string
		correct  bool
		path     string
		category string
	}{
		{"identical object", `{"a":1,"b":"x","c":[true,null]}`, `{"c":[true,null],"b":"x","a":1}`, true, "", ""},
		{"whitespace and key order irrelevant", `{"a":{"b":[1,2]}}`, " {\n\"a\" : { \"b\" : [ 1 , 2 ] } } ", true, "", ""},
		{"bool is not a number", `{"v":1}`, `{"v":true}`, false, "$.v", ReasonType},
		{"number is not a bool", `{"v":false}`, `{"v":0}`, false, "$.v", ReasonType},
		{"null is not 0", `{"v":null}`, `{"v":0}`, false, "$.v", ReasonNullState},
		{"0 is not null", `{"v":0}`, `{"v":null}`, false, "$.v", ReasonNullState},
		{"null is not empty string", `{"v":null}`, `{"v":""}`, false, "$.v", ReasonNullState},
		{"null matches null", `{"v":null}`, `{"v":null}`, true, "", ""},
		{"missing key", `{"a":1,"b":2}`, `{"a":1}`, false, "$.b", ReasonMissingKey},
		{"extra key", `{"a":1}`, `{"a":1,"z":2}`, false, "$.z", ReasonExtraKey},
		{"missing reported before extra", `{"a":1,"b":2}`, `{"a":1,"c":2}`, false, "$.b", ReasonMissingKey},
		{"array order matters", `{"classes":[1,2,3]}`, `{"classes":[1,3,2]}`, false, "$.classes[1]", ReasonOrder},
		{"array length", `{"classes":[1,2,3]}`, `{"classes":[1,2]}`, false, "$.classes", ReasonLength},
		{"nested path", `{"classes":[{"label":"a"},{"label":"b"},{"label":"c"}]}`, `{"classes":[{"label":"a"},{"label":"b"},{"label":"C"}]}`, false, "$.classes[2].label", ReasonString},
		{"within abs tolerance", `{"v":100.0}`, `{"v":100.000001}`, true, "", ""},
		{"beyond abs tolerance", `{"v":0.5}`, `{"v":0.5000021}`, false, "$.v", ReasonTolerance},
		{"no relative tolerance at large magnitude", `{"v":1000000000}`, `{"v":1000000000.001}`, false, "$.v", ReasonTolerance},
		{"integer and float spellings equal", `{"v":1}`, `{"v":1.0}`, true, "", ""},
		{"exponent spelling equal", `{"v":1000}`, `{"v":1e3}`, true, "", ""},
		{"number string is not a number", `{"v":1000}`, `{"v":"1000"}`, false, "$.v", ReasonType},
		{"right number in wrong field", `{"area_km2":12.5,"count":3}`, `{"area_km2":3,"count":12.5}`, false, "$.area_km2", ReasonTolerance},
		{"right number under wrong key", `{"area_km2":12.5}`, `{"area_m2":12.5}`, false, "$.area_km2", ReasonMissingKey},
		{"string exact case", `{"s":"Flood"}`, `{"s":"flood"}`, false, "$.s", ReasonString},
		{"string trailing space", `{"s":"a"}`, `{"s":"a "}`, false, "$.s", ReasonString},
		{"unicode escapes equal", `{"s":"é"}`, `{"s":"\u00e9"}`, true, "", ""},
		{"boolean mismatch", `{"b":true}`, `{"b":false}`, false, "$.b", ReasonBoolean},
		{"NaN token", `{"v":1}`, `{"v":NaN}`, false, "$.v", ReasonNonFinite},
		{"Infinity token", `{"v":1}`, `{"v":Infinity}`, false, "$.v", ReasonNonFinite},
		{"-Infinity token", `{"v":[1,2]}`, `{"v":[1,-Infinity]}`, false, "$.v[1]", ReasonNonFinite},
		{"overflowing literal", `{"v":1}`, `{"v":1e400}`, false, "$.v", ReasonNonFinite},
		{"malformed JSON", `{"v":1}`, `{"v":1`, false, "$", ReasonMalformed},
		{"trailing garbage", `{"v":1}`, `{"v":1} x`, false, "$", ReasonMalformed},
		{"duplicate key", `{"v":1}`, `{"v":1,"v":1}`, false, "$", ReasonMalformed},
		{"empty prediction", `{"v":1}`, ``, false, "$", ReasonMalformed},
		{"python True literal", `{"v":true}`, `{"v":True}`, false, "$", ReasonMalformed},
		{"odd key path", `{"a b":1}`, `{"a b":2}`, false, `$["a b"]`, ReasonTolerance},
		{"top-level scalar", `3`, `3.0000001`, true, "", ""},
		{"object vs array", `{}`, `[]`, false, "$", ReasonType},
		{"non-finite gold", `{"v":NaN}`, `{"v":NaN}`, false, "$.v", ReasonInvalidGold},
		{"malformed gold", `{"v":`, `{"v":1}`, false, "$", ReasonInvalidGold},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := ScoreV2([]byte(tc.gold), []byte(tc.pred), DefaultAbsTol)
			if v.Correct != tc.correct {
				t.Fatalf("Correct = %v, want %v (verdict %+v)", v.Correct, tc.correct, v)
			}
			if v.Path != tc.path {
				t.Errorf("Path = %q, want %q (reason %q)", v.Path, tc.path, v.Reason)
			}
			if got := ReasonCategory(v.Reason); got != tc.category {
				t.Errorf("reason category = %q, want %q (reason %q)", got, tc.category, v.Reason)
			}
			if v.Correct && (v.Path != "" || v.Reason != "") {
				t.Errorf("correct verdict carries path/reason: %+v", v)
			}
		})
	}
}

func TestScoreV2ToleranceBoundary(t *testing.T) {
	// 0.25 and 0.25+2^-20 differ by exactly 2^-20 (< 1e-6); 2^-19 > 1e-6.
	if v := ScoreV2Values(0.25, 0.25+math.Ldexp(1, -20), DefaultAbsTol); !v.Correct {
		t.Errorf("difference 2^-20 rejected: %+v", v)
	}
	if v := ScoreV2Values(0.25, 0.25+math.Ldexp(1, -19), DefaultAbsTol); v.Correct {
		t.Error("difference 2^-19 accepted")
	}
	// absTol 0 is exact; negative or NaN falls back to the default.
	if v := ScoreV2Values(1.0, 1.0+1e-9, 0); v.Correct {
		t.Error("absTol 0 accepted a difference")
	}
	if v := ScoreV2Values(1.0, 1.0+1e-9, -1); !v.Correct {
		t.Error("negative absTol did not fall back to the default")
	}
	if v := ScoreV2Values(1.0, 1.0+1e-9, math.NaN()); !v.Correct {
		t.Error("NaN absTol did not fall back to the default")
	}
	// A custom tolerance is honoured.
	if v := ScoreV2Values(1.0, 1.05, 0.1); !v.Correct {
		t.Error("absTol 0.1 rejected a 0.05 difference")
	}
}

func TestScoreV2ValuesGoTypes(t *testing.T) {
	gold := map[string]any{"n": json.Number("2"), "f": 2.5, "a": []any{"x", nil}, "b": true}
	pred := map[string]any{"n": 2, "f": float32(2.5), "a": []any{"x", nil}, "b": true}
	if v := ScoreV2Values(gold, pred, DefaultAbsTol); !v.Correct {
		t.Fatalf("mixed Go numeric types: %+v", v)
	}
	if v := ScoreV2Values(map[string]any{"x": 1.0}, map[string]any{"x": math.NaN()}, DefaultAbsTol); v.Correct || ReasonCategory(v.Reason) != ReasonNonFinite {
		t.Errorf("float64 NaN: %+v", v)
	}
	if v := ScoreV2Values(map[string]any{"x": 1.0}, map[string]any{"x": math.Inf(1)}, DefaultAbsTol); v.Correct || ReasonCategory(v.Reason) != ReasonNonFinite {
		t.Errorf("float64 Inf: %+v", v)
	}
	if v := ScoreV2Values(1.0, make(chan int), DefaultAbsTol); v.Correct || ReasonCategory(v.Reason) != ReasonUnsupportedGo {
		t.Errorf("unsupported Go type: %+v", v)
	}
	// Typed Go values go through their JSON form.
	type answer struct {
		Count int      `json:"count"`
		Tags  []string `json:"tags"`
	}
	if v := ScoreV2Values(map[string]any{"count": 2.0, "tags": []any{"a"}}, answer{2, []string{"a"}}, DefaultAbsTol); !v.Correct {
		t.Errorf("struct prediction: %+v", v)
	}
	if v := ScoreV2Values(map[string]float64{"x": 1}, map[string]any{"x": 1.0000001}, DefaultAbsTol); !v.Correct {
		t.Errorf("typed map gold: %+v", v)
	}
	// Raw JSON values are decoded, NaN tokens included.
	if v := ScoreV2Values(json.RawMessage(`{"x":1}`), json.RawMessage(`{"x":1.0}`), DefaultAbsTol); !v.Correct {
		t.Errorf("raw messages: %+v", v)
	}
	if v := ScoreV2Values(map[string]any{"x": 1.0}, map[string]any{"x": json.RawMessage(`NaN`)}, DefaultAbsTol); v.Path != "$.x" || ReasonCategory(v.Reason) != ReasonNonFinite {
		t.Errorf("raw NaN member: %+v", v)
	}
	if v := ScoreV2Values(map[string]any{"x": 1.0}, []byte(`{"x":`), DefaultAbsTol); v.Path != "$" || ReasonCategory(v.Reason) != ReasonMalformed {
		t.Errorf("malformed raw prediction: %+v", v)
	}
	if v := ScoreV2Values(nil, nil, DefaultAbsTol); !v.Correct {
		t.Errorf("null vs null: %+v", v)
	}
	// Every Go integer type is a finite number of its value.
	for _, n := range []any{int(-7), int8(-7), int16(-7), int32(-7), int64(-7), uint(7), uint8(7), uint16(7), uint32(7), uint64(7)} {
		want := 7.0
		if fmt.Sprint(n)[0] == '-' {
			want = -7
		}
		if v := ScoreV2Values(want, n, 0); !v.Correct {
			t.Errorf("%T %v against %v: %+v", n, n, want, v)
		}
		if v := ScoreV2Values(want+1, n, 0.5); v.Correct {
			t.Errorf("%T %v against %v accepted", n, n, want+1)
		}
	}
	if v := ScoreV2Values(float64(math.MaxUint64), uint64(math.MaxUint64), 0); !v.Correct {
		t.Errorf("uint64 max: %+v", v)
	}
}

func TestScoreV2OrderVersusValue(t *testing.T) {
	// Not a permutation: the reason is the element's own mismatch.
	v := ScoreV2([]byte(`[1,2,3]`), []byte(`[1,5,3]`), DefaultAbsTol)
	if v.Path != "$[1]" || ReasonCategory(v.Reason) != ReasonTolerance {
		t.Errorf("value mismatch reported as %+v", v)
	}
	// Objects swapped inside an array.
	v = ScoreV2([]byte(`[{"a":1},{"a":2}]`), []byte(`[{"a":2},{"a":1}]`), DefaultAbsTol)
	if v.Path != "$[0]" || ReasonCategory(v.Reason) != ReasonOrder {
		t.Errorf("swapped objects reported as %+v", v)
	}
}

func TestDecodeJSON(t *testing.T) {
	v, err := DecodeJSON([]byte(`{"a":[1,-0.5e-3,"s\n\"",true,false,null,NaN,-Infinity,Infinity]}`))
	if err != nil {
		t.Fatal(err)
	}
	a := v.(map[string]any)["a"].([]any)
	want := []any{json.Number("1"), json.Number("-0.5e-3"), "s\n\"", true, false, nil, NonFinite("NaN"), NonFinite("-Infinity"), NonFinite("Infinity")}
	if len(a) != len(want) {
		t.Fatalf("got %d elements", len(a))
	}
	for i := range want {
		if a[i] != want[i] {
			t.Errorf("element %d = %#v, want %#v", i, a[i], want[i])
		}
	}
	for _, bad := range []string{`01`, `1.`, `.5`, `-`, `+1`, `1e`, `"\x"`, "\"a\tb\"", `[1,]`, `{"a":1,}`, `{a:1}`, `-NaN`, `nul`, `"\u12"`, strings.Repeat("[", 600) + strings.Repeat("]", 600)} {
		if _, err := DecodeJSON([]byte(bad)); err == nil {
			t.Errorf("DecodeJSON(%.20q) accepted malformed input", bad)
		}
	}
	// Underflow is a finite zero, as in Python.
	v, err = DecodeJSON([]byte(`1e-400`))
	if err != nil {
		t.Fatal(err)
	}
	if k, f, fin := classify(v); k != kNumber || f != 0 || !fin {
		t.Errorf("1e-400 classified as %v %v %v", k, f, fin)
	}
}

func FuzzScoreV2(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `[1,2,NaN]`, `{"a":{"b":[true,null,"x"]}}`, `-Infinity`, `1e400`, `"\u00e9"`, `{"a":1,"a":2}`, `[`} {
		f.Add([]byte(`{"a":1,"b":[1,2]}`), []byte(s))
	}
	f.Fuzz(func(t *testing.T, gold, pred []byte) {
		v := ScoreV2(gold, pred, DefaultAbsTol)
		if v.Correct && (v.Path != "" || v.Reason != "") {
			t.Fatalf("correct verdict with path/reason: %+v", v)
		}
		if !v.Correct && (v.Path == "" || v.Reason == "") {
			t.Fatalf("incorrect verdict without path/reason: %+v", v)
		}
		// Scoring a valid value against itself is correct.
		if _, err := DecodeJSON(gold); err == nil {
			if self := ScoreV2(gold, gold, DefaultAbsTol); !self.Correct && ReasonCategory(self.Reason) != ReasonInvalidGold {
				t.Fatalf("gold %q does not match itself: %+v", gold, self)
			}
		}
	})
}

// containsNonFinite reports whether a decoded value holds a NonFinite.
func containsNonFinite(v any) bool {
	switch x := v.(type) {
	case NonFinite:
		return true
	case []any:
		for _, e := range x {
			if containsNonFinite(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if containsNonFinite(e) {
				return true
			}
		}
	}
	return false
}

// FuzzDecodeJSON checks DecodeJSON against encoding/json: it accepts every
// valid document except those with duplicate keys or excessive nesting,
// and whatever it accepts without non-finite tokens is valid JSON.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e-3,"x\u00e9",true,null]}`, `NaN`, `[-Infinity]`, `{"a":1,"a":2}`, `"\ud83d\ude00"`, `1e999`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := DecodeJSON(data)
		valid := json.Valid(data)
		if err == nil && !containsNonFinite(v) && !valid {
			t.Fatalf("DecodeJSON accepted invalid JSON %q", data)
		}
		if err != nil && valid {
			msg := err.Error()
			if !strings.Contains(msg, "duplicate object key") && !strings.Contains(msg, "nesting deeper") {
				t.Fatalf("DecodeJSON rejected valid JSON %q: %v", data, err)
			}
		}
	})
}

func TestScoreV2NestedArraysStayFast(t *testing.T) {
	// 200 x 200 nested arrays, reversed at both levels: the order diagnosis
	// must not recurse into inner arrays (that would be ~n^4 comparisons).
	nested := func(at func(i, j int) int) []byte {
		var b strings.Builder
		b.WriteString("[")
		for i := 0; i < 200; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("[")
			for j := 0; j < 200; j++ {
				if j > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, "%d", at(i, j))
			}
			b.WriteString("]")
		}
		b.WriteString("]")
		return []byte(b.String())
	}
	g := nested(func(i, j int) int { return i*1000 + j })
	p := nested(func(i, j int) int { return (199-i)*1000 + 199 - j })
	start := time.Now()
	v := ScoreV2(g, p, DefaultAbsTol)
	if v.Correct || v.Path != "$[0][0]" {
		t.Errorf("verdict %+v", v)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}
