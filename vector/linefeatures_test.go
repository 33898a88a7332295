package vector

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

const twoLines = `{"type":"FeatureCollection","features":[
 {"type":"Feature","id":7,"bbox":[0,0,1,1],"geometry":{"type":"LineString","coordinates":[[1.5,-2.25],[3e-7,4E+2,9]]},"properties":{"name":"a\u00e9","n":-0,"x":[{"y":null}],"ok":true}},
 {"properties":{},"geometry":{"coordinates":[[0.1,0.2],[0.30000000000000004,1e308],[5,6]],"type":"LineString"},"type":"Feature"}
]}`

func TestDecodeLineFeatures(t *testing.T) {
	var got []string
	lf, err := DecodeLineFeatures(twoLines, func(i int, key string, v JSONValue) error {
		got = append(got, fmt.Sprintf("%d %s %s", i, key, v.Raw()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`0 name "a\u00e9"`, `0 n -0`, `0 x [{"y":null}]`, `0 ok true`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("properties %q, want %q", got, want)
	}
	var ref struct {
		Features []struct {
			Geometry struct {
				Coordinates [][]float64 `json:"coordinates"`
			} `json:"geometry"`
		} `json:"features"`
	}
	if err := json.Unmarshal([]byte(twoLines), &ref); err != nil {
		t.Fatal(err)
	}
	if len(lf.Lines) != len(ref.Features) {
		t.Fatalf("%d lines, want %d", len(lf.Lines), len(ref.Features))
	}
	for i, f := range ref.Features {
		if len(lf.Lines[i]) != len(f.Geometry.Coordinates) || cap(lf.Lines[i]) != len(lf.Lines[i]) {
			t.Fatalf("line %d: %v (cap %d), want %v", i, lf.Lines[i], cap(lf.Lines[i]), f.Geometry.Coordinates)
		}
		for k, c := range f.Geometry.Coordinates {
			p := lf.Lines[i][k]
			if math.Float64bits(p[0]) != math.Float64bits(c[0]) || math.Float64bits(p[1]) != math.Float64bits(c[1]) {
				t.Errorf("line %d position %d: %v, want %v", i, k, p, c)
			}
		}
	}
}

func TestJSONValue(t *testing.T) {
	if s, err := (JSONValue{raw: `"a\u00e9\n"`}).String(); err != nil || s != "aé\n" {
		t.Errorf("String: %q %v", s, err)
	}
	if s, err := (JSONValue{raw: `"e00042"`}).String(); err != nil || s != "e00042" {
		t.Errorf("String: %q %v", s, err)
	}
	if n, err := (JSONValue{raw: `-12`}).Int64(); err != nil || n != -12 {
		t.Errorf("Int64: %d %v", n, err)
	}
	for _, bad := range []string{`1.0`, `1e3`, `99999999999999999999`, `"1"`, `true`} {
		if _, err := (JSONValue{raw: bad}).Int64(); err == nil {
			t.Errorf("Int64 accepted %s", bad)
		}
	}
	if _, err := (JSONValue{raw: `1e400`}).Float64(); err == nil {
		t.Error("Float64 accepted 1e400")
	}
	if b, err := (JSONValue{raw: `false`}).Bool(); err != nil || b {
		t.Errorf("Bool: %v %v", b, err)
	}
	if _, err := (JSONValue{raw: `null`}).Bool(); err == nil || !(JSONValue{raw: `null`}).IsNull() {
		t.Error("null")
	}
}

// TestDecodeLineFeaturesRejects checks that what RFC 7946 (or JSON)
// rejects is an error, never a zero value.
func TestDecodeLineFeaturesRejects(t *testing.T) {
	line := func(coords string) string {
		return `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":` + coords + `},"properties":null}]}`
	}
	for name, doc := range map[string]string{
		"one-element position": line(`[[1,2],[3]]`),
		"null coordinate":      line(`[[1,2],[null,4]]`),
		"string coordinate":    line(`[[1,2],["3",4]]`),
		"one position":         line(`[[1,2]]`),
		"null coordinates":     line(`null`),
		"array coordinate":     line(`[[[1,2]],[[3,4]]]`),
		"leading zero":         line(`[[01,2],[3,4]]`),
		"bare dot":             line(`[[1.,2],[3,4]]`),
		"NaN":                  line(`[[NaN,2],[3,4]]`),
		"overflow":             line(`[[1e999,2],[3,4]]`),
		"trailing comma":       line(`[[1,2],[3,4],]`),
		"point":                `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}}]}`,
		"null geometry":        `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null}]}`,
		"not a Feature":        `{"type":"FeatureCollection","features":[{"geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]}}]}`,
		"not a collection":     `{"type":"Feature","features":[]}`,
		"no features":          `{"type":"FeatureCollection"}`,
		"two features members": `{"type":"FeatureCollection","features":[],"features":[]}`,
		"trailing data":        `{"type":"FeatureCollection","features":[]} {}`,
		"bad escape":           `{"type":"FeatureCollection\x","features":[]}`,
		"control character":    "{\"type\":\"Feature\nCollection\",\"features\":[]}",
		"unterminated":         `{"type":"FeatureCollection","features":[`,
		"array":                `[]`,
		"empty":                ``,
		"bad property value":   `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"a":tru},"geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]}}]}`,
	} {
		_, err := DecodeLineFeatures(doc, func(int, string, JSONValue) error { return nil })
		var ge *GeoJSONError
		if !errors.As(err, &ge) {
			t.Errorf("%s: err %v, want a *GeoJSONError", name, err)
		}
	}
	stop := errors.New("stop")
	if _, err := DecodeLineFeatures(twoLines, func(int, string, JSONValue) error { return stop }); err != stop {
		t.Errorf("property error %v, want it returned as is", err)
	}
}

// FuzzDecodeLineFeatures checks that the decoder never panics, accepts
// only JSON that encoding/json accepts, and passes property values whose
// accessors agree with those of their bare text.
func FuzzDecodeLineFeatures(f *testing.F) {
	f.Add(twoLines)
	f.Add(`{"type":"FeatureCollection","features":[]}`)
	f.Add(`{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]},"properties":{"u":100000,"v":-7,"w":1.5,"x":9007199254740992,"y":9007199254740993,"z":"e1"}}]}`)
	f.Fuzz(func(t *testing.T, doc string) {
		_, err := DecodeLineFeatures(doc, func(_ int, key string, v JSONValue) error {
			checkValueAsRaw(t, key, v)
			return nil
		})
		if err == nil && !json.Valid([]byte(doc)) {
			t.Fatalf("accepted invalid JSON %q", doc)
		}
	})
}

// checkValueAsRaw checks that a value the decoder passes (with what it
// learnt reading it) decodes as its bare text does.
func checkValueAsRaw(t *testing.T, key string, v JSONValue) {
	t.Helper()
	bare := JSONValue{raw: v.Raw()}
	f, ferr := v.Float64()
	g, gerr := bare.Float64()
	if math.Float64bits(f) != math.Float64bits(g) || (ferr == nil) != (gerr == nil) {
		t.Errorf("%s: Float64 %v %v, bare %v %v", key, f, ferr, g, gerr)
	}
	s, serr := v.String()
	r, rerr := bare.String()
	if s != r || (serr == nil) != (rerr == nil) {
		t.Errorf("%s: String %q %v, bare %q %v", key, s, serr, r, rerr)
	}
	i, ierr := v.Int64()
	j, jerr := bare.Int64()
	if i != j || (ierr == nil) != (jerr == nil) {
		t.Errorf("%s: Int64 %v %v, bare %v %v", key, i, ierr, j, jerr)
	}
	// The bare text's integer is strconv.ParseInt's.
	if n, err := strconv.ParseInt(v.Raw(), 10, 64); (err == nil) != (ierr == nil) || err == nil && n != i {
		t.Errorf("%s: Int64 %v %v, strconv %v %v", key, i, ierr, n, err)
	}
}

func BenchmarkDecodeLineFeatures(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"type":"FeatureCollection","features":[`)
	for i := 0; i < 2500; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		x, y := 7.3993787+float64(i)*1.1e-5, 50.6839863-float64(i%97)*3.3e-6
		fmt.Fprintf(&sb, `{"type":"Feature","geometry":{"type":"LineString","coordinates":[[%v,%v],[%v,%v],[%v,%v]]},"properties":{"edge_id":"e%05d","length_m":%v}}`,
			x, y, x+0.0011718, y-7.15e-5, x+0.0023375, y-0.97e-5, i, 100+float64(i)*0.37)
	}
	sb.WriteString(`]}`)
	doc := sb.String()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeLineFeatures(doc, func(int, string, JSONValue) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDecodeLineFeaturesValuesAsRaw checks that the values the decoder
// passes (with what it learnt reading them) decode as their bare text
// does.
func TestDecodeLineFeaturesValuesAsRaw(t *testing.T) {
	doc := `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]},"properties":
{"a":-0,"b":0.1,"c":123456789012345678901,"d":1e400,"e":"e0042","f":"a\u00e9","g":"é","h":-17,"i":2.5e-3,"j":true,"k":null,"l":[1],"m":9007199254740993,
"n":9007199254740992,"o":-9007199254740992,"p":100000,"q":1.0,"r":1e3,"s":-0.0,"t":12345678901234567}}]}`
	n := 0
	_, err := DecodeLineFeatures(doc, func(_ int, key string, v JSONValue) error {
		n++
		checkValueAsRaw(t, key, v)
		return nil
	})
	if err != nil || n != 20 {
		t.Fatalf("%d values, %v", n, err)
	}
}
