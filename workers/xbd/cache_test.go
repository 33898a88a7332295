package xbd

import (
	"encoding/json"
	"testing"
)

func TestBuildXBDCacheRoundTrip(t *testing.T) {
	doc := xbdLabelDoc("destroyed", 0.5)
	xy := doc["features"].(map[string]any)["xy"].([]any)
	xy = append(xy, map[string]any{"properties": map[string]any{"feature_type": "building", "subtype": "major-damage", "uid": "u2"},
		"wkt": "POLYGON ((500 600, 540 600, 540 640, 500 640, 500 600))"})
	doc["features"].(map[string]any)["xy"] = xy
	l, err := ParseXBDLabels("s/ev_00000001/building_damage_xy.geojson", doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, grid := range []string{"2x2", "4x4"} {
		m, err := BuildXBDCache(l, grid)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var back any
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		c, err := ParseXBDCache("s/ev_00000001/cache.geojson", back)
		if err != nil {
			t.Fatalf("%s: %v", grid, err)
		}
		regs := xbdGridRegions(c.Buildings, c.Width, c.Height, c.Rows, c.Cols, c.GSD)
		if err := xbdCheckCacheCells(c, regs); err != nil {
			t.Fatalf("%s: %v", grid, err)
		}
		if c.SceneID != "ev_00000001" || len(c.Buildings) != 2 {
			t.Fatalf("%s: %+v", grid, c)
		}
	}
	// The straddling major building: centroid x = 520 (Q3), area 12*40
	// in Q2 and 28*40 in Q3, times 0.25 m² per pixel.
	m, _ := BuildXBDCache(l, "2x2")
	q2 := m["features"].([]any)[2].(map[string]any)["properties"].(map[string]any)
	q3 := m["features"].([]any)[3].(map[string]any)["properties"].(map[string]any)
	if q2["severe_count"] != 0 || q2["severe_area_m2"] != 120.0 || q3["severe_count"] != 1 || q3["severe_area_m2"] != 280.0 {
		t.Fatalf("Q2 %v Q3 %v", q2, q3)
	}
	if _, err := BuildXBDCache(l, "3x3"); err == nil {
		t.Fatal("3x3 grid accepted")
	}
}
