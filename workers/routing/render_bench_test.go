package routing

import (
	"testing"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/internal/overlay"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// benchOverlayPlan is a corpus-sized overlay plan: a 512 x 512 8-bit chip
// in UTM 32N at 10 m under the 2,500-edge road table of
// BenchmarkParseRoadNetwork, every layer on.
func benchOverlayPlan(b *testing.B) (*bandEnv, *RoutePlan, map[string]string, map[string]bool) {
	n, err := parseRoadNetwork("roads.geojson", syntheticRoads(2500))
	if err != nil {
		b.Fatal(err)
	}
	c, err := crs.FromEPSG(32632)
	if err != nil {
		b.Fatal(err)
	}
	x0, y0, err := c.FromLonLat(7.395, 50.70)
	if err != nil {
		b.Fatal(err)
	}
	info := workers.RasterInfo{Width: 512, Height: 512, Count: 3, DataType: raster.Uint8, EPSG: 32632,
		Transform: crs.Affine{10, 0, x0, 0, -10, y0}, HasTransform: true}
	env := &bandEnv{bands: map[int]*raster.Band{}, info: info}
	for k := 1; k <= 3; k++ {
		band, _ := raster.NewBand(512, 512, raster.Uint8)
		for i := range band.Data.([]uint8) {
			band.Data.([]uint8)[i] = uint8(i*k + i/512)
		}
		env.bands[k] = band
	}
	plan := &RoutePlan{Objective: ObjectiveOverlay, Blocked: map[string]bool{"e11": true, "e22": true},
		Metadata: &RouteMetadata{Origin: RoutePoint{Lon: 7.40, Lat: 50.684}, Shelter: RoutePoint{ID: "SH", Name: "Hall", Lon: 7.42, Lat: 50.683}},
		Overlay:  &OverlayInputs{RGBPath: "rgb.tif", RGB: info, CRS: c, Flood: &FloodExtent{}, Network: n}}
	on := map[string]bool{}
	for _, l := range overlayLayers {
		on[l] = true
	}
	return env, plan, map[string]string{StrategyFastest: "F1", StrategySafest: "S1", StrategyBalanced: "B1"}, on
}

// BenchmarkDrawRouteOverlay draws a corpus-sized overlay (chip, roads,
// markers, legend), the canvas RenderMap encodes.
func BenchmarkDrawRouteOverlay(b *testing.B) {
	env, plan, sel, on := benchOverlayPlan(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := drawRouteOverlay(env, plan, sel, on); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodeRouteOverlay encodes that canvas as the overlay PNG.
func BenchmarkEncodeRouteOverlay(b *testing.B) {
	env, plan, sel, on := benchOverlayPlan(b)
	_, img, err := drawRouteOverlay(env, plan, sel, on)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var size int
	for b.Loop() {
		png, err := overlay.EncodeRGBPNG(img)
		if err != nil {
			b.Fatal(err)
		}
		size = len(png)
	}
	b.ReportMetric(float64(size), "png-bytes")
}
