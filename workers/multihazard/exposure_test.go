package multihazard

import (
	"math"
	"testing"

	"github.com/geodisaster/engine/geodesy"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"
)

// TestFootprintGeometryContainsAndNearest: a 4x4 geographic footprint with
// one positive cell; a point in that cell is inside and 0 m from its
// centre, the next cell's centre is outside and about one cell width
// (0.00025 degrees of longitude at 5 S) away, a point off the grid is
// outside.
func TestFootprintGeometryContainsAndNearest(t *testing.T) {
	const w, h, on = 4, 4, 5
	m := &HazardMask{Path: "f.tif", Info: workers.RasterInfo{Width: w, Height: h, EPSG: 4326, Transform: workertest.GeoT, HasTransform: true},
		Ones: []int{on}, IsSet: make([]bool, w*h)}
	m.IsSet[on] = true
	g, err := newFootprintGeometry(m)
	if err != nil {
		t.Fatal(err)
	}
	centre := func(i int) (lon, lat float64) { return workertest.GeoT.Apply(float64(i%w)+0.5, float64(i/w)+0.5) }
	lon, lat := centre(on)
	if in, err := g.contains(lon, lat); err != nil || !in {
		t.Errorf("positive cell centre: in=%v %v", in, err)
	}
	if d, err := g.nearest(lon, lat); err != nil || d > 1e-6 {
		t.Errorf("distance to its own centre %v %v", d, err)
	}
	lon2, lat2 := centre(on + 1)
	if in, _ := g.contains(lon2, lat2); in {
		t.Error("a zero cell is inside the footprint")
	}
	d, err := g.nearest(lon2, lat2)
	want, _, _, gerr := geodesy.WGS84().Inverse(lat, lon, lat2, lon2)
	if err != nil || gerr != nil || math.Abs(d-want) > 0.05 {
		t.Errorf("one cell east: %v m, geodesic %v m (%v)", d, want, err)
	}
	if in, err := g.contains(-61, -5); err != nil || in {
		t.Errorf("off the grid: in=%v %v", in, err)
	}
}

func TestAssetJSONRoundsDistanceAndKeepsNulls(t *testing.T) {
	name, dist := "Escola", 1234.56789
	j := assetJSON(&AssetContext{FeatureCount: 3, InFootprint: 1, WithinContext: 2, NearestName: &name, NearestM: &dist})
	if j["nearest_distance_m"] != 1234.568 || j["nearest_name"] != "Escola" || j["within_5km_count"] != 2 {
		t.Errorf("asset %v", j)
	}
	j = assetJSON(&AssetContext{})
	if j["nearest_distance_m"] != nil || j["nearest_name"] != nil || j["feature_count"] != 0 {
		t.Errorf("empty category %v", j)
	}
}
