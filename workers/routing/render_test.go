package routing

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

func TestOverlayLayerSet(t *testing.T) {
	args := func(layers map[string]any) workers.Args {
		m := map[string]any{"input": "route_compare_1", "style": "route_overlay"}
		if layers != nil {
			m["layers"] = layers
		}
		return workers.ArgsOf("RenderMap", m)
	}
	on, err := overlayLayerSet(args(nil))
	if err != nil || len(on) != len(overlayLayers) {
		t.Fatalf("default layers %v, %v", on, err)
	}
	for name, l := range map[string]map[string]any{
		"none":              {"rgb": false, "routes": false},
		"labels sans route": {"rgb": true, "labels": true, "roads": true},
		"rgb only":          {"rgb": true},
	} {
		if _, err := overlayLayerSet(args(l)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	on, err = overlayLayerSet(args(map[string]any{"routes": true, "labels": true, "rgb": false}))
	if err != nil || on["rgb"] || !on["labels"] {
		t.Errorf("toggles not honoured: %v, %v", on, err)
	}
}

func TestChipTransformAndWorldFile(t *testing.T) {
	r := workers.RasterInfo{Width: 1024, Height: 256, Transform: crs.Affine{10, 0, 500000, 0, -10, 4000000}}
	cr := chipRect(r)
	if cr != image.Rect(0, 192, 512, 320) {
		t.Fatalf("chip rectangle %v", cr)
	}
	ct := chipTransform(r, cr)
	if ct != (crs.Affine{20, 0, 500000, 0, -20, 4003840}) {
		t.Fatalf("chip transform %v", ct)
	}
	// The chip's upper-left canvas pixel maps to the raster's corner.
	if x, y := ct.Apply(0, 192); x != 500000 || y != 4000000 {
		t.Errorf("chip origin maps to %v %v", x, y)
	}
	if got := string(worldFile(ct)); got != "20\n0\n0\n-20\n500010\n4003830\n" {
		t.Errorf("world file %q", got)
	}
	sq := workers.RasterInfo{Width: 512, Height: 512, Transform: crs.Affine{10, 0, 1, 0, -10, 2}}
	if cr := chipRect(sq); cr != image.Rect(0, 0, 512, 512) || chipTransform(sq, cr) != sq.Transform {
		t.Errorf("square chip %v %v", cr, chipTransform(sq, cr))
	}
}

// TestDrawRouteOverlayGeoreferencing renders a 300 x 200 uint16 chip in
// UTM 33N and checks that WGS84 vectors land where the raster's CRS and
// affine put them, with the aspect ratio kept.
func TestDrawRouteOverlayGeoreferencing(t *testing.T) {
	c, err := crs.FromEPSG(32633)
	if err != nil {
		t.Fatal(err)
	}
	info := workers.RasterInfo{Width: 300, Height: 200, Count: 3, DataType: raster.Uint16, EPSG: 32633,
		Transform: crs.Affine{10, 0, 500000, 0, -10, 5000000}, HasTransform: true}
	env := &bandEnv{bands: map[int]*raster.Band{}, info: info}
	for b := 1; b <= 3; b++ {
		band, _ := raster.NewBand(300, 200, raster.Uint16)
		for i := range band.Data.([]uint16) {
			band.Data.([]uint16)[i] = uint16(1000 * b)
		}
		env.bands[b] = band
	}
	ll := func(col, row float64) [2]float64 {
		lon, lat, err := c.ToLonLat(500000+col*10, 5000000-row*10)
		if err != nil {
			t.Fatal(err)
		}
		return [2]float64{lon, lat}
	}
	o, s := ll(30.5, 40.5), ll(250.5, 150.5)
	mid := ll(250.5, 40.5)
	n := testNetwork(RoadEdge{ID: "a", U: 1, V: 2, LengthM: 2200, TravelTimeMin: 3, Coords: [][2]float64{o, mid}},
		RoadEdge{ID: "b", U: 2, V: 3, LengthM: 1100, TravelTimeMin: 2, Coords: [][2]float64{mid, s}},
		RoadEdge{ID: "far", U: 8, V: 9, LengthM: 10, TravelTimeMin: 1, Coords: [][2]float64{ll(-500, -500), ll(-400, -500)}})
	var cands []*RouteCandidate
	var ms []*RouteMetrics
	for _, st := range routeStrategies {
		pre, _ := strategyPrefix(st)
		cd := &RouteCandidate{ID: pre + "1", Strategy: st, EdgeIDs: []string{"a", "b"}, Coords: [][2]float64{o, mid, s}}
		cands = append(cands, cd)
		ms = append(ms, computeRouteMetrics(cd, ptrs(n, "a", "b"), nil))
	}
	plan := &RoutePlan{Objective: ObjectiveOverlay, Candidates: cands, Metrics: ms, Blocked: map[string]bool{},
		Metadata: &RouteMetadata{Origin: RoutePoint{Lon: o[0], Lat: o[1]}, Shelter: RoutePoint{ID: "SH", Name: "Hall", Lon: s[0], Lat: s[1]}},
		Overlay:  &OverlayInputs{RGBPath: "rgb.tif", RGB: info, CRS: c, Flood: &FloodExtent{}, Network: n}}
	sel := map[string]string{StrategyFastest: "F1", StrategySafest: "S1", StrategyBalanced: "B1"}
	on := map[string]bool{}
	for _, l := range overlayLayers {
		on[l] = l != "labels"
	}
	rr, img, err := drawRouteOverlay(env, plan, sel, on)
	if err != nil {
		t.Fatal(err)
	}
	// 300 x 200 scaled by 512/300 into 512 x 341, centred vertically.
	cr := chipRect(info)
	if cr != image.Rect(0, 85, 512, 426) {
		t.Fatalf("chip rectangle %v", cr)
	}
	s2 := 512.0 / 300
	at := func(col, row float64) (int, int) {
		return int(math.Floor(col * s2)), 85 + int(math.Floor(row*float64(341)/200))
	}
	if x, y := at(30.5, 40.5); img.RGBAAt(x, y) != colWhite || img.RGBAAt(x+4, y+4) != colOrigin {
		t.Errorf("origin marker not at (%d,%d): %v", x, y, img.RGBAAt(x, y))
	}
	if x, y := at(250.5, 150.5); img.RGBAAt(x, y) != colWhite || img.RGBAAt(x+5, y) != colShelter {
		t.Errorf("shelter marker not at (%d,%d): %v", x, y, img.RGBAAt(x, y))
	}
	// 1000/2000/3000 reflectance stretched from 0..3000: 85, 170, 255.
	if got := img.RGBAAt(5, 300); got != (color.RGBA{85, 170, 255, 255}) {
		t.Errorf("stretched RGB %v", got)
	}
	if got := img.RGBAAt(5, 40); got != colLegendBG {
		t.Errorf("letterbox pixel %v", got)
	}
	if !rr.OriginRendered || !rr.ShelterRendered || len(rr.RenderedRouteIDs) != 3 || len(rr.RenderedLabelIDs) != 0 {
		t.Errorf("receipt %+v", rr)
	}
	if rr.InChip["roads"] != 2 || rr.ChangedChipPixels == 0 {
		t.Errorf("in-chip %v, changed %d", rr.InChip, rr.ChangedChipPixels)
	}
	// Toggles are honoured: without origin and shelter no marker is drawn.
	on["origin"], on["shelter"] = false, false
	rr2, img2, err := drawRouteOverlay(env, plan, sel, on)
	if err != nil {
		t.Fatal(err)
	}
	if x, y := at(30.5, 40.5); rr2.OriginRendered || rr2.ShelterRendered || img2.RGBAAt(x, y) == colWhite {
		t.Errorf("disabled markers drawn: %+v", rr2)
	}
}

func TestRGBBandOrder(t *testing.T) {
	cases := []struct {
		desc []string
		want [3]int
	}{
		{nil, [3]int{1, 2, 3}},
		{[]string{"B04 red", "B03 green", "B02 blue"}, [3]int{1, 2, 3}},
		{[]string{"B02", "B03", "B04"}, [3]int{3, 2, 1}},
		{[]string{"Blue", "Green", "Red", "NIR"}, [3]int{3, 2, 1}},
		{[]string{"red", "red", "blue"}, [3]int{1, 2, 3}},
		{[]string{"band1", "band2", "band3"}, [3]int{1, 2, 3}},
	}
	for _, c := range cases {
		if got := rgbBandOrder(workers.RasterInfo{Descriptions: c.desc}); got != c.want {
			t.Errorf("%q: %v, want %v", c.desc, got, c.want)
		}
	}
}

// TestOverlayProjectorMemo checks that the memoised projection of lines
// equals the direct one, for repeated positions, positions differing only
// in the sign of zero, and more positions than the table was sized for.
func TestOverlayProjectorMemo(t *testing.T) {
	c, err := crs.FromEPSG(32632)
	if err != nil {
		t.Fatal(err)
	}
	info := workers.RasterInfo{Width: 512, Height: 512, Transform: crs.Affine{10, 0, 300000, 0, -10, 5000000}}
	in := &OverlayInputs{RGB: info, CRS: c}
	var memo pointMemo
	p, err := newOverlayProjector(in, &memo, 1)
	if err != nil {
		t.Fatal(err)
	}
	var coords [][2]float64
	for i := range 3000 {
		coords = append(coords, [2]float64{7 + float64(i%1500)*1e-4, 45 + float64(i%1500)*7e-5})
	}
	coords = append(coords, [2]float64{9, 0}, [2]float64{9, math.Copysign(0, -1)}, [2]float64{9, 0})
	got, _, err := p.line(nil, coords)
	if err != nil {
		t.Fatal(err)
	}
	for k, pt := range coords {
		x, y, _, err := p.canvas(pt[0], pt[1])
		if err != nil {
			t.Fatal(err)
		}
		if math.Float64bits(x) != math.Float64bits(got[k][0]) || math.Float64bits(y) != math.Float64bits(got[k][1]) {
			t.Fatalf("position %d %v: memoised (%v, %v), direct (%v, %v)", k, pt, got[k][0], got[k][1], x, y)
		}
	}
	if memo.n != 1500+2 {
		t.Errorf("%d positions memoised, want %d", memo.n, 1502)
	}
}
