package sen1flood

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/geodisaster/engine/raster/regions"
	"github.com/geodisaster/engine/workers"
)

func TestLabelFloodMeasures(t *testing.T) {
	info := testInfo(4, 3)
	areas, _ := workers.NewGridAreas(info)
	mask := []uint8{
		1, 0, 0, 0,
		0, 1, 0, 1,
		0, 0, 0, 1,
	}
	m := &FloodMask{Info: info, Mask: mask, Areas: areas}
	_, comps, err := LabelFlood(m)
	if err != nil || len(comps) != 2 {
		t.Fatal(comps, err)
	}
	// Pixels 0 and 5 touch diagonally: one component, first in label order.
	c := comps[0]
	if c.Pixels != 2 || c.ID != 1 {
		t.Errorf("component 1: %+v", c)
	}
	if c.BBox != [4]float64{10, 45 - 2*0.0001, 10 + 2*0.0001, 45} {
		t.Errorf("bbox %v", c.BBox)
	}
	wantLon := (10 + 0.5*0.0001 + 10 + 1.5*0.0001) / 2
	if math.Abs(c.Centroid[0]-wantLon) > 1e-12 {
		t.Errorf("centroid %v", c.Centroid)
	}
	if math.Abs(c.AreaM2-(areas.RowArea[0]+areas.RowArea[1])) > 1e-9 {
		t.Errorf("area %v", c.AreaM2)
	}
	o := &FloodObjects{Components: comps}
	if l := o.Largest(); l.ID != 1 {
		t.Errorf("largest tie must pick the first label, got %d", l.ID)
	}
}

func TestFloodPolygonsGeoJSON(t *testing.T) {
	info := testInfo(3, 3)
	labels := []int32{1, 1, 1, 1, 0, 1, 1, 1, 1}
	polys, err := regions.Polygonize(labels, 3, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	doc := FloodPolygonsGeoJSON(polys, []FloodComponent{{ID: 1, Pixels: 8}}, info)
	var fc struct {
		Features []struct {
			Properties map[string]int `json:"properties"`
			Geometry   struct {
				Type        string         `json:"type"`
				Coordinates [][][2]float64 `json:"coordinates"`
			} `json:"geometry"`
		} `json:"features"`
	}
	if err := json.Unmarshal(doc, &fc); err != nil {
		t.Fatal(err)
	}
	if len(fc.Features) != 1 || fc.Features[0].Properties["component_id"] != 1 || fc.Features[0].Properties["pixel_count"] != 8 {
		t.Fatalf("features %+v", fc.Features)
	}
	rings := fc.Features[0].Geometry.Coordinates
	if len(rings) != 2 {
		t.Fatalf("rings %v", rings)
	}
	signed := func(r [][2]float64) float64 {
		s := 0.0
		for i := 0; i+1 < len(r); i++ {
			s += r[i][0]*r[i+1][1] - r[i+1][0]*r[i][1]
		}
		return s
	}
	for k, r := range rings {
		if r[0] != r[len(r)-1] {
			t.Errorf("ring %d not closed", k)
		}
		if (k == 0) != (signed(r) > 0) {
			t.Errorf("ring %d orientation: signed area %v (RFC 7946: exterior CCW, holes CW)", k, signed(r))
		}
	}
}
