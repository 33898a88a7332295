package vector

import (
	"strings"
	"testing"
)

func TestRepresentativePoints(t *testing.T) {
	doc := `{"type":"FeatureCollection","features":[
	 {"type":"Feature","id":"way/1","geometry":{"type":"Point","coordinates":[10.5,45.25]},"properties":{"name":"A","row":99,"col":99}},
	 {"type":"Feature","geometry":{"type":"Point","coordinates":[11,46]},"properties":{"osm_type":"node","osm_id":7,"name":null}},
	 {"type":"Feature","geometry":{"type":"Point","coordinates":[12,47]},"properties":{}},
	 {"type":"Feature","id":"way/1","geometry":{"type":"Point","coordinates":[0,0]},"properties":{}}]}`
	pts, err := RepresentativePoints([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 4 || pts[0].Lon != 10.5 || pts[0].Lat != 45.25 {
		t.Fatalf("points %+v", pts)
	}
	if pts[0].ID != "way/1" || pts[1].ID != "node/7" || pts[2].ID != "#2" {
		t.Errorf("ids %q %q %q", pts[0].ID, pts[1].ID, pts[2].ID)
	}
	if n, ok := pts[0].Name(); !ok || n != "A" {
		t.Errorf("name %q %v", n, ok)
	}
	if _, ok := pts[1].Name(); ok {
		t.Error("a null name reported as present")
	}
	d := Distinct(pts)
	if len(d) != 3 || d[0].Lon != 10.5 {
		t.Errorf("Distinct kept %d points (first %+v); the repeated id counts once, first occurrence wins", len(d), d[0])
	}
}

func TestRepresentativePointsRejects(t *testing.T) {
	bad := map[string]string{
		"short ring":       `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]},"properties":{}}]}`,
		"empty polygon":    `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[]},"properties":{}}]}`,
		"unknown type":     `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Circle","coordinates":[0,0]},"properties":{}}]}`,
		"line latitude":    `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[0,95]]},"properties":{}}]}`,
		"no geometry":      `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null,"properties":{}}]}`,
		"latitude":         `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,91]},"properties":{}}]}`,
		"not a collection": `{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]}}`,
		"short point":      `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0]},"properties":{}}]}`,
	}
	for name, doc := range bad {
		if _, err := RepresentativePoints([]byte(doc)); err == nil || !strings.HasPrefix(err.Error(), "vector:") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

// TestRepresentativePointsOfShapes: lines and polygons stand for their
// representative point (Shapely's representative_point()), points for
// themselves.
func TestRepresentativePointsOfShapes(t *testing.T) {
	doc := `{"type":"FeatureCollection","features":[
	 {"type":"Feature","id":"way/1","geometry":{"type":"LineString","coordinates":[[10,45],[10.001,45.002],[10.003,45.001],[10.004,45.004]]},"properties":{}},
	 {"type":"Feature","id":"way/2","geometry":{"type":"Polygon","coordinates":[[[10,45],[10.002,45],[10.002,45.001],[10.001,45.001],[10.001,45.002],[10,45.002],[10,45]]]},"properties":{}},
	 {"type":"Feature","id":"node/3","geometry":{"type":"Point","coordinates":[10.5,45.5]},"properties":{}}]}`
	pts, err := RepresentativePoints([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	// Shapely 1.8.5 (GEOS 3.11.1): LineString(...).representative_point()
	// is POINT (10.003 45.001), the L-shaped polygon's
	// POINT (10.000499999999999 45.0015).
	want := [][2]float64{{10.003, 45.001}, {10.000499999999999, 45.0015}, {10.5, 45.5}}
	for i, w := range want {
		if pts[i].Lon != w[0] || pts[i].Lat != w[1] {
			t.Errorf("%s (%s): %v %v, want %v", pts[i].ID, pts[i].Geometry, pts[i].Lon, pts[i].Lat, w)
		}
	}
	if pts[1].Geometry != "Polygon" {
		t.Errorf("geometry %q", pts[1].Geometry)
	}
}
