package xbd

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geodisaster/engine/workers"
)

func TestNormalizeXBDSubtype(t *testing.T) {
	for in, want := range map[string]int{
		"no-damage": XBDNoDamage, "Minor-Damage": XBDMinorDamage, "major_damage": XBDMajorDamage,
		" destroyed ": XBDDestroyed, "un-classified": XBDUnclassified, "unclassified": XBDUnclassified, "": XBDUnclassified,
	} {
		got, err := NormalizeXBDSubtype(in)
		if err != nil || got != want {
			t.Errorf("%q -> %d, %v; want %d", in, got, err, want)
		}
	}
	if _, err := NormalizeXBDSubtype("severe"); err == nil {
		t.Error("unknown subtype accepted")
	}
}

func TestAssignCellBoundaries(t *testing.T) {
	for _, c := range []struct {
		x, y             float64
		rows, cols, r, k int
	}{
		{511.999, 0, 2, 2, 0, 0}, {512, 0, 2, 2, 0, 1}, {1024, 1024, 2, 2, 1, 1}, {-3, -3, 2, 2, 0, 0},
		{1030, 511.9999999, 2, 2, 0, 1}, {256, 767.99, 4, 4, 2, 1}, {768, 768, 4, 4, 3, 3}, {255.9999999999, 0, 4, 4, 0, 0},
	} {
		r, k := AssignCell(orb.Point{c.x, c.y}, 1024, 1024, c.rows, c.cols)
		if r != c.r || k != c.k {
			t.Errorf("AssignCell(%v,%v) on %dx%d = (%d,%d), want (%d,%d)", c.x, c.y, c.rows, c.cols, r, k, c.r, c.k)
		}
	}
}

func TestParseXBDLabels(t *testing.T) {
	l, err := ParseXBDLabels("x/ev_00000001/building_damage_xy.geojson", xbdLabelDoc(nil, 2.0))
	if err != nil {
		t.Fatal(err)
	}
	if l.SceneID != "ev_00000001" || len(l.Buildings) != 1 || l.Buildings[0].Class != XBDUnclassified || l.Buildings[0].AreaPx != 100 {
		t.Fatalf("parsed %+v", l)
	}
	if _, err := ParseXBDLabels("p", xbdLabelDoc("bad-class", 2.0)); err == nil || !strings.Contains(err.Error(), "bad-class") {
		t.Errorf("unknown subtype: %v", err)
	}
	if _, err := ParseXBDLabels("p", xbdLabelDoc("destroyed", -1.0)); err == nil || !strings.Contains(err.Error(), "gsd") {
		t.Errorf("negative gsd: %v", err)
	}
	if _, err := ParseXBDLabels("p", map[string]any{"features": []any{}}); err == nil {
		t.Error("document without metadata accepted")
	}
}

func TestParseXBDCacheAndCheck(t *testing.T) {
	c, err := ParseXBDCache("p", xbdCacheDoc(nil))
	if err != nil {
		t.Fatal(err)
	}
	regs := xbdGridRegions(c.Buildings, c.Width, c.Height, c.Rows, c.Cols, c.GSD)
	if err := xbdCheckCacheCells(c, regs); err != nil {
		t.Fatal(err)
	}
	bad, err := ParseXBDCache("p", xbdCacheDoc(func(cells []map[string]any) { cells[1]["severe_area_m2"] = 101.0 }))
	if err != nil {
		t.Fatal(err)
	}
	if err := xbdCheckCacheCells(bad, regs); err == nil || !strings.Contains(err.Error(), "severe_area_m2") {
		t.Errorf("wrong cached area accepted: %v", err)
	}
	if _, err := ParseXBDCache("p", xbdCacheDoc(func(cells []map[string]any) { cells[2]["x_max"] = 500.0 })); err == nil || !strings.Contains(err.Error(), "x_max") {
		t.Errorf("cell off the 0/512/1024 cut accepted: %v", err)
	}
	if _, err := ParseXBDCache("p", xbdCacheDoc(func(cells []map[string]any) { cells[3]["cell_id"] = "Q9" })); err == nil {
		t.Error("wrong cell id accepted")
	}
	if _, err := ParseXBDCache("p", xbdCacheDoc(func(cells []map[string]any) { cells[0]["feature_type"] = "note" })); err == nil {
		t.Error("unknown feature type accepted")
	}
}

func TestDecodeXBDTarget(t *testing.T) {
	enc := func(img image.Image) []byte {
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	g := image.NewGray(image.Rect(0, 0, 4, 2))
	copy(g.Pix, []uint8{0, 1, 2, 3, 4, 4, 0, 0})
	hist, w, h, err := DecodeXBDTarget("m.png", enc(g))
	if err != nil || w != 4 || h != 2 || hist != [5]int64{3, 1, 1, 1, 2} {
		t.Fatalf("hist %v %dx%d %v", hist, w, h, err)
	}
	g.Pix[0] = 5
	if _, _, _, err := DecodeXBDTarget("m.png", enc(g)); err == nil || !strings.Contains(err.Error(), "0-4") {
		t.Fatalf("code 5 accepted: %v", err)
	}
	p := image.NewPaletted(image.Rect(0, 0, 2, 1), color.Palette{color.Black, color.White, color.Gray{9}, color.Gray{200}, color.Gray{50}})
	p.Pix = []uint8{4, 2}
	if hist, _, _, err := DecodeXBDTarget("p.png", enc(p)); err != nil || hist != [5]int64{0, 0, 1, 0, 1} {
		t.Fatalf("paletted %v %v", hist, err)
	}
	if _, _, _, err := DecodeXBDTarget("x.png", []byte("nope")); err == nil {
		t.Fatal("non-PNG accepted")
	}
}

func TestSceneLabelsParsedOnce(t *testing.T) {
	s := &workers.Scene{Handle: "h", Files: []workers.SceneFile{{FileCard: workers.FileCard{Path: "x/ev_00000001/building_damage_xy.geojson"}, JSON: xbdLabelDoc("destroyed", 2.0)}}}
	a, err := xbdSceneLabels(s)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := xbdSceneLabels(s); err != nil || b != a {
		t.Fatalf("second parse %p %v, first %p", b, err, a)
	}
	bad := &workers.Scene{Handle: "h", Files: []workers.SceneFile{{FileCard: workers.FileCard{Path: "p/building_damage_xy.geojson"}, JSON: xbdLabelDoc("bad-class", 2.0)}}}
	_, err1 := xbdSceneLabels(bad)
	_, err2 := xbdSceneLabels(bad)
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
		t.Fatalf("errors %v, %v", err1, err2)
	}
}

func BenchmarkNormalizeXBDSubtype(b *testing.B) {
	for _, in := range []string{"major-damage", "Major_Damage "} {
		b.Run(strings.TrimSpace(in), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := NormalizeXBDSubtype(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
