package scoring

import (
	"math"
	"testing"
)

// TestGeoKToolsAuditProbes reproduces the release audit's probes.
func TestGeoKToolsAuditProbes(t *testing.T) {
	probes := []struct {
		name       string
		ref, pred  string // JSON literals
		want       float64
		round4Only bool // compare after rounding to 4 decimals, as the audit prints
	}{
		{"boundary: 110 vs 100 is full credit", `100`, `110`, 1.0, false},
		{"just past the boundary", `100`, `110.01`, 0.8999, true},
		{"zero reference, zero prediction", `0`, `0`, 1, false},
		{"zero reference, tiny prediction", `0`, `1e-12`, 0, false},
		{"negative reference within tolerance", `-50`, `-54`, 1, false},
		{"negative reference, 20% off", `-100`, `-120`, 0.8, true},
		{"negative reference, sign error", `-50`, `50`, 0, false},
		{"JSON number 1000", `1000`, `1000`, 1, false},
		{"string 1e3 reads as 1", `1000`, `"1e3"`, 0.001, true},
		{"string 1,000 reads as 1", `1000`, `"1,000"`, 0.001, true},
	}
	for _, p := range probes {
		ref, err := DecodeJSON([]byte(p.ref))
		if err != nil {
			t.Fatal(err)
		}
		pred, err := DecodeJSON([]byte(p.pred))
		if err != nil {
			t.Fatal(err)
		}
		got := GeoKToolsScore(ref, pred)
		if p.round4Only {
			got = math.Round(got*1e4) / 1e4
		}
		if got != p.want {
			t.Errorf("%s: ref %s pred %s scored %v, want %v", p.name, p.ref, p.pred, got, p.want)
		}
	}
	// The discontinuity is real, not a rounding artefact.
	if s := GeoKToolsNumeric(100, 110.01); s >= 0.9 || s < 0.8998 {
		t.Errorf("110.01 scored %v", s)
	}
}

func TestGeoKToolsBranches(t *testing.T) {
	cases := []struct {
		name      string
		ref, pred any
		want      float64
	}{
		{"bool prediction is not a number", 1.0, true, 0},
		{"null prediction", 1.0, nil, 0},
		{"string without digits", 5.0, "five", 0},
		{"string with unit", 5.0, "about 5.2 km", 1},
		{"leading decimal point", 0.5, ".5", 1},
		{"NaN prediction", 1.0, NonFinite("NaN"), 0},
		{"far off clamps at 0", 10.0, 100.0, 0},
		{"bool reference", true, true, 1},
		{"bool reference mismatch", true, 1.0, 0},
		{"null reference", nil, nil, 1},
		{"string identical", "Port of Spain", "port of spain", 1},
		{"string disjoint", "alpha beta", "gamma", 0},
		{"object mean of slots", map[string]any{"a": 1.0, "b": "x y"}, map[string]any{"a": 1.05, "b": "z"}, 0.5},
		{"object missing slot", map[string]any{"a": 1.0, "b": 2.0}, map[string]any{"a": 1.0}, 0.5},
		{"array slots", []any{1.0, 2.0, 3.0, 4.0}, []any{1.0, 2.0}, 0.5},
		{"empty object", map[string]any{}, map[string]any{}, 1},
		{"empty vs nonempty", []any{}, []any{1.0}, 0},
	}
	for _, c := range cases {
		if got := GeoKToolsScore(c.ref, c.pred); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestExtractNumber(t *testing.T) {
	for in, want := range map[string]float64{"1e3": 1, "1,000": 1, "-3.5 m": -3.5, "x=+2": 2, "v1.25": 1.25, "3.": 3} {
		if got, ok := ExtractNumber(in); !ok || got != want {
			t.Errorf("ExtractNumber(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	if _, ok := ExtractNumber("none"); ok {
		t.Error("ExtractNumber found a number in \"none\"")
	}
}

func TestRougeL(t *testing.T) {
	cases := []struct {
		ref, pred string
		want      float64
	}{
		{"the cat sat on the mat", "the cat sat on the mat", 1},
		// LCS "the cat the mat"? ref tokens: the cat sat on the mat (6);
		// pred: the cat on mat (4); LCS = the cat on mat = 4.
		// P = 1, R = 4/6, F = 2*(2/3)/(5/3) = 0.8.
		{"the cat sat on the mat", "the cat on mat", 0.8},
		// Order matters: LCS of "a b c" and "c b a" is 1; P = R = 1/3.
		{"a b c", "c b a", 1.0 / 3},
		{"Hello, World!", "hello world", 1},
		{"", "", 0},
		{"abc", "", 0},
		{"São Paulo", "s o paulo", 1}, // non-ASCII letters separate tokens
	}
	for _, c := range cases {
		if got := RougeL(c.ref, c.pred); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("RougeL(%q, %q) = %v, want %v", c.ref, c.pred, got, c.want)
		}
	}
}
