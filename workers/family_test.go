package workers

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

type fakeView struct {
	byKind map[string]*Handle
	done   bool
}

func (v *fakeView) Latest(kind string) *Handle { return v.byKind[kind] }
func (v *fakeView) Completed() bool            { return v.done }

func TestNewFamilyDefServesTheSchemasDirectory(t *testing.T) {
	files := fstest.MapFS{
		"schemas/xbd_q1.json": {Data: []byte(`{"type":"object"}`)},
		"other.json":          {Data: []byte(`{}`)},
	}
	def := NewFamilyDef(XBD, func() []Variant { return nil }, map[string]Projector{}, files)
	if def.Name != XBD || def.Variants == nil || def.Projectors == nil {
		t.Fatalf("def %+v", def)
	}
	b, err := fs.ReadFile(def.Schemas, "xbd_q1.json")
	if err != nil || string(b) != `{"type":"object"}` {
		t.Errorf("schema read %q %v", b, err)
	}
	if _, err := fs.ReadFile(def.Schemas, "other.json"); err == nil {
		t.Error("a file outside schemas/ is visible")
	}
}

func TestLatestAndFinalPayload(t *testing.T) {
	v := &fakeView{byKind: map[string]*Handle{
		"stats": {Name: "stats_2", Kind: "stats", Result: &Result{Payload: 42}},
		"flood": {Name: "flood_1", Kind: "flood", Result: &Result{Payload: "not an int"}},
	}}
	h, p, err := LatestPayload[int](v, "stats", "a count")
	if err != nil || h == nil || h.Name != "stats_2" || p != 42 {
		t.Errorf("stats: %v %v %v", h, p, err)
	}
	if h, p, err := LatestPayload[int](v, "score", "a count"); h != nil || p != 0 || err != nil {
		t.Errorf("no score handle: %v %v %v, want nothing yet", h, p, err)
	}
	h, _, err = LatestPayload[int](v, "flood", "a flood count")
	if h != nil || err == nil || !strings.Contains(err.Error(), "flood_1 is not a flood count") {
		t.Errorf("wrong payload type: %v %v", h, err)
	}
	// Before TaskComplete the final payload is absent even when present.
	if h, p, err := FinalPayload[int](v, "stats", "a count"); h != nil || p != 0 || err != nil {
		t.Errorf("before completion: %v %v %v", h, p, err)
	}
	v.done = true
	if h, p, err := FinalPayload[int](v, "stats", "a count"); h == nil || p != 42 || err != nil {
		t.Errorf("after completion: %v %v %v", h, p, err)
	}
	if _, _, err := FinalPayload[int](v, "flood", "a flood count"); err == nil {
		t.Error("after completion, a wrong payload type is not an error")
	}
}
