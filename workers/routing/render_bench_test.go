package routing

import (
	"fmt"
	"strings"
	"testing"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/internal/overlay"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// latticeRoads is a synth --full shaped road table: a 35 x 36 node
// lattice at 0.001 degrees from (lon0, lat0) with one midpoint per edge
// (2,449 edges of 3 vertices, about 3,700 distinct positions, each node
// shared by up to four edges as in the corpus), every fifth edge risky and
// every eleventh blocked.
func latticeRoads(lon0, lat0 float64) []byte {
	const nx, ny, step = 35, 36, 0.001
	var b strings.Builder
	b.WriteString(`{"features":[`)
	k := 0
	edge := func(i0, j0, i1, j1 int) {
		if k > 0 {
			b.WriteByte(',')
		}
		x0, y0 := lon0+float64(i0)*step, lat0+float64(j0)*step
		x1, y1 := lon0+float64(i1)*step, lat0+float64(j1)*step
		fmt.Fprintf(&b, `{"geometry":{"coordinates":[[%.7f,%.7f],[%.7f,%.7f],[%.7f,%.7f]],"type":"LineString"},`, x0, y0, (x0+x1)/2+3e-5, (y0+y1)/2-2e-5, x1, y1)
		risk := 0.0
		if k%5 == 0 {
			risk = 0.5
		}
		fmt.Fprintf(&b, `"properties":{"blocked":%v,"edge_id":"e%05d","flood_risk":%v,"flooded":%v,"highway":"primary","length_m":%v,"travel_time_min":%v,"u":%d,"v":%d},"type":"Feature"}`,
			k%11 == 0, k, risk, k%11 == 0, 100+float64(k%37), 0.1+float64(k%17)/300, 100000+j0*nx+i0, 100000+j1*nx+i1)
		k++
	}
	for j := range ny {
		for i := range nx {
			if i+1 < nx {
				edge(i, j, i+1, j)
			}
			if j+1 < ny {
				edge(i, j, i, j+1)
			}
		}
	}
	b.WriteString(`],"type":"FeatureCollection"}`)
	return []byte(b.String())
}

// benchOverlayPlan is a corpus-sized overlay plan: a 512 x 512 8-bit chip
// in UTM 32N at 10 m under the 2,449-edge lattice of latticeRoads, every
// layer on.
func benchOverlayPlan(b *testing.B) (*bandEnv, *RoutePlan, map[string]string, map[string]bool) {
	n, err := parseRoadNetwork("roads.geojson", latticeRoads(7.3995, 50.662))
	if err != nil {
		b.Fatal(err)
	}
	blocked, err := blockedSet(n)
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
	plan := &RoutePlan{Objective: ObjectiveOverlay, Blocked: blocked,
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
		_, img, err := drawRouteOverlay(env, plan, sel, on)
		if err != nil {
			b.Fatal(err)
		}
		releaseCanvas(img) // as RenderMap does once the PNG is encoded
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
