package htmlreport

import (
	"strings"
	"testing"

	"github.com/geodisaster/engine/scoring"
)

func TestValueAt(t *testing.T) {
	doc := []byte(`{"a":{"b":[1,{"c":"x"}],"a key":2.50},"n":null}`)
	for _, c := range []struct{ path, want string }{
		{"$", `{"a":{"a key":2.50,"b":[1,{"c":"x"}]},"n":null}`},
		{"$.a.b[0]", "1"},
		{"$.a.b[1].c", `"x"`},
		{`$.a["a key"]`, "2.50"},
		{"$.n", "null"},
		{"$.a.b[2]", "(absent)"},
		{"$.zz", "(absent)"},
		{"$.a.b.c", "(absent)"},
		{"$[", "(absent)"},
	} {
		if got := valueAt(doc, c.path); got != c.want {
			t.Errorf("valueAt(%s) = %s, want %s", c.path, got, c.want)
		}
	}
	if got := valueAt([]byte("{"), "$"); got != "(not JSON)" {
		t.Errorf("malformed: %s", got)
	}
	long := `{"s":"` + strings.Repeat("y", 1000) + `"}`
	if got := []rune(valueAt([]byte(long), "$.s")); len(got) != MaxValueChars || got[len(got)-1] != '…' {
		t.Errorf("long value not shortened: %d runes", len(got))
	}
}

// The paths the scorer reports are the paths valueAt follows.
func TestValueAtScorerPaths(t *testing.T) {
	gold := []byte(`{"x-y":{"list":[{"v":1},{"v":2}]},"z":3}`)
	pred := []byte(`{"x-y":{"list":[{"v":1},{"v":5}]},"z":3}`)
	v := scoring.ScoreV2(gold, pred, 0)
	if v.Correct || v.Path != `$["x-y"].list[1].v` {
		t.Fatalf("scorer verdict %+v", v)
	}
	if e, g := valueAt(gold, v.Path), valueAt(pred, v.Path); e != "2" || g != "5" {
		t.Errorf("expected %s got %s", e, g)
	}
}

func TestKindKeyAndFit(t *testing.T) {
	if a, b := kindKey("flood_diagnostic_962f0a02999e.png"), kindKey("flood_diagnostic_8db3e68fd124.png"); a != b {
		t.Errorf("kind keys differ: %s %s", a, b)
	}
	if a, b := kindKey("flood_mask_932a321b0b08.tif"), kindKey("flood_diagnostic_8db3e68fd124.png"); a == b {
		t.Errorf("kind keys equal: %s", a)
	}
	for _, c := range [][4]int{{912, 512, 160, 90}, {512, 512, 160, 160}, {40, 32, 40, 32}, {10, 4000, 1, 160}} {
		if w, h := fit(c[0], c[1], 160); w != c[2] || h != c[3] {
			t.Errorf("fit(%d,%d) = %d,%d want %d,%d", c[0], c[1], w, h, c[2], c[3])
		}
	}
}
