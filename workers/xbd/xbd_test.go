package xbd

import (
	"strings"
	"testing"

	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"

	"github.com/paulmach/orb"
)

func TestPctClassifiedOnly(t *testing.T) {
	for _, c := range []struct {
		n, d int
		want float64
	}{{1, 3, 33.33}, {2, 3, 66.67}, {0, 0, 0}, {5, 0, 0}, {1, 8, 12.5}, {7, 7, 100}, {1, 400, 0.25}} {
		if got := xbdPct(c.n, c.d); got != c.want {
			t.Errorf("pct(%d,%d) = %v, want %v", c.n, c.d, got, c.want)
		}
	}
}

func TestSummarizeXBDDenominators(t *testing.T) {
	sq := func(x, y, s float64) orb.MultiPolygon {
		return orb.MultiPolygon{{{{x, y}, {x + s, y}, {x + s, y + s}, {x, y + s}, {x, y}}}}
	}
	l := &XBDLabels{GSD: 0.5, Width: 1024, Height: 1024}
	for i, c := range []int{XBDNoDamage, XBDMinorDamage, XBDMajorDamage, XBDDestroyed, XBDUnclassified, XBDUnclassified} {
		l.Buildings = append(l.Buildings, newXBDBuilding("b", c, sq(float64(100*i), 10, 10)))
	}
	d := summarizeXBD(l)
	if d.Total != 6 || d.Classified != 4 || d.Damaged != 3 || d.Severe != 2 {
		t.Fatalf("counts %+v", d)
	}
	if d.DamagedPct != 75 || d.SeverePct != 50 || d.Status != "ok" {
		t.Fatalf("pcts %v %v %s", d.DamagedPct, d.SeverePct, d.Status)
	}
	if d.SevereAreaM2 != 50 || d.MajorAreaM2 != 25 || d.DestroyedAreaM2 != 25 || d.TotalAreaM2 != 150 {
		t.Fatalf("areas %v %v %v %v", d.SevereAreaM2, d.MajorAreaM2, d.DestroyedAreaM2, d.TotalAreaM2)
	}
	only := summarizeXBD(&XBDLabels{GSD: 1, Buildings: l.Buildings[4:]})
	if only.Classified != 0 || only.SeverePct != 0 || only.DamagedPct != 0 || only.Status != "no_classified_buildings" {
		t.Fatalf("unclassified-only scene %+v", only)
	}
}

func TestGridRegionsCentroidVersusClippedArea(t *testing.T) {
	// A severe rectangle 400..560 x 100..140: centroid x = 480 (Q0), area
	// 112*40 in Q0 and 48*40 in Q1.
	rect := orb.MultiPolygon{{{{400, 100}, {560, 100}, {560, 140}, {400, 140}, {400, 100}}}}
	small := orb.MultiPolygon{{{{600, 600}, {610, 600}, {610, 610}, {600, 610}, {600, 600}}}}
	bs := []XBDBuilding{newXBDBuilding("a", XBDDestroyed, rect), newXBDBuilding("b", XBDMajorDamage, small), newXBDBuilding("c", XBDUnclassified, small)}
	regs := xbdGridRegions(bs, 1024, 1024, 2, 2, 2)
	if regs[0].Severe != 1 || regs[1].Severe != 0 || regs[3].Severe != 1 {
		t.Fatalf("severe counts %d %d %d %d", regs[0].Severe, regs[1].Severe, regs[2].Severe, regs[3].Severe)
	}
	if regs[0].SevereAreaM2 != 112*40*4 || regs[1].SevereAreaM2 != 48*40*4 || regs[3].SevereAreaM2 != 400 {
		t.Fatalf("areas %v %v %v", regs[0].SevereAreaM2, regs[1].SevereAreaM2, regs[3].SevereAreaM2)
	}
	if regs[3].Classified != 1 || regs[3].Counts[XBDUnclassified] != 1 {
		t.Fatalf("Q3 counts %+v", regs[3])
	}
}

func TestSeverityRankingExactRationals(t *testing.T) {
	reg := func(id string, no, minor, major, destroyed int) XBDRegion {
		r := XBDRegion{ID: id}
		r.Counts = [xbdClasses]int{no, minor, major, destroyed, 0}
		r.Classified = no + minor + major + destroyed
		return r
	}
	a := reg("R0C1", 1, 0, 0, 2)           // 6/9 = 2/3
	b := reg("R0C0", 0, 0, 1, 0)           // 2/3: exact tie with a
	c := reg("R2C2", 333333, 0, 0, 666667) // 2000001/3000000: above 2/3, same display
	if cmpXBD("normalized_damage_severity", &a, &b) != 0 {
		t.Fatal("2/3 and 6/9 must tie exactly")
	}
	if cmpXBD("normalized_damage_severity", &c, &a) >= 0 {
		t.Fatal("2000001/3000000 must rank above 2/3")
	}
	sa, _ := a.SeverityScore()
	sc, _ := c.SeverityScore()
	if sa != sc || sa != 0.666667 {
		t.Fatalf("display scores %v %v", sa, sc)
	}
	empty := reg("R3C3", 0, 0, 0, 0)
	if _, ok := empty.SeverityScore(); ok {
		t.Fatal("a cell without classified buildings has no score")
	}
}

func TestConcentrationThresholds(t *testing.T) {
	for _, c := range []struct {
		counts  [4]int
		pattern string
		worst   string
		tied    int
	}{
		{[4]int{7, 1, 1, 1}, "highly_concentrated", "Q0", 1},
		{[4]int{1, 69, 20, 10}, "moderately_concentrated", "Q1", 1},
		{[4]int{3, 3, 9, 5}, "moderately_concentrated", "Q2", 1},
		{[4]int{44, 20, 20, 16}, "spatially_dispersed", "Q0", 1},
		{[4]int{0, 4, 0, 4}, "moderately_concentrated", "Q1", 2},
		{[4]int{2, 2, 2, 2}, "spatially_dispersed", "Q0", 4},
		{[4]int{0, 0, 0, 0}, "no_severe_damage", "", 0},
	} {
		got := Concentrate(c.counts)
		if got.Pattern != c.pattern || got.Worst != c.worst || len(got.Tied) != c.tied {
			t.Errorf("%v: %s %s %v, want %s %s %d", c.counts, got.Pattern, got.Worst, got.Tied, c.pattern, c.worst, c.tied)
		}
		if got.HasScore != (c.pattern != "no_severe_damage") {
			t.Errorf("%v: HasScore %v", c.counts, got.HasScore)
		}
	}
}

func TestCompareMetric(t *testing.T) {
	ids := []string{"b_scene", "a_scene"}
	if m := xbdCompareMetric(ids, []float64{12.5, 3}, []bool{true, true}); m.Winner != "b_scene" || m.Status != "unique_winner" || len(m.Tied) != 0 {
		t.Errorf("unique: %+v", m)
	}
	if m := xbdCompareMetric(ids, []float64{0, 0}, []bool{true, true}); m.Winner != "" || m.Status != "tie" || strings.Join(m.Tied, ",") != "a_scene,b_scene" {
		t.Errorf("tie: %+v", m)
	}
	if m := xbdCompareMetric(ids, []float64{0, 7}, []bool{false, true}); m.Winner != "a_scene" || m.Status != "unique_winner" {
		t.Errorf("ineligible excluded: %+v", m)
	}
	if m := xbdCompareMetric(ids, []float64{0, 0}, []bool{false, false}); m.Winner != "" || m.Status != "no_eligible_scene" || len(m.Tied) != 0 {
		t.Errorf("none eligible: %+v", m)
	}
}

func xbdLabelDoc(sub any, gsd any) map[string]any {
	props := map[string]any{"feature_type": "building", "uid": "u1"}
	if sub != nil {
		props["subtype"] = sub
	}
	return map[string]any{
		"features": map[string]any{"xy": []any{
			map[string]any{"properties": props, "wkt": "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))"},
			map[string]any{"properties": map[string]any{"feature_type": "tree"}, "wkt": "POLYGON ((0 0, 1 0, 1 1, 0 0))"},
		}},
		"metadata": map[string]any{"gsd": gsd, "width": 1024.0, "height": 1024.0, "img_name": "ev_00000001_post_disaster.png"},
	}
}

func xbdCacheDoc(mutate func(cells []map[string]any)) map[string]any {
	var feats []any
	var cells []map[string]any
	for r := 0; r < 2; r++ {
		for c := 0; c < 2; c++ {
			p := map[string]any{"feature_type": "cell", "cell_id": XBDCellID(2, 2, r, c), "row": float64(r), "col": float64(c),
				"x_min": float64(512 * c), "y_min": float64(512 * r), "x_max": float64(512 * (c + 1)), "y_max": float64(512 * (r + 1)),
				"severe_count": 0.0}
			cells = append(cells, p)
		}
	}
	cells[1]["severe_count"] = 1.0
	cells[1]["severe_area_m2"] = 100.0
	if mutate != nil {
		mutate(cells)
	}
	for _, p := range cells {
		feats = append(feats, map[string]any{"type": "Feature", "properties": p})
	}
	feats = append(feats, map[string]any{"type": "Feature",
		"properties": map[string]any{"feature_type": "building", "subtype": "destroyed", "uid": "b"},
		"geometry":   map[string]any{"type": "Polygon", "coordinates": []any{[]any{[]any{600.0, 10.0}, []any{610.0, 10.0}, []any{610.0, 20.0}, []any{600.0, 20.0}, []any{600.0, 10.0}}}}})
	return map[string]any{"type": "FeatureCollection", "features": feats,
		"metadata": map[string]any{"scene_id": "s", "grid": "2x2", "width": 1024.0, "height": 1024.0, "gsd": 1.0, "coordinate_space": "pixel"}}
}

func TestXBDSafeName(t *testing.T) {
	for in, want := range map[string]string{"ev_0001": "ev_0001", "a/b c": "a_b_c", "": "scene", "..": "scene..", "x\\y": "x_y"} {
		if got := xbdSafeName(in); got != want {
			t.Errorf("xbdSafeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDefMatchesKernelTables(t *testing.T) {
	workertest.CheckFamily(t, Def(), workers.XBD)
}
