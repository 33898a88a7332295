package routing

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/geodisaster/engine/workers/workertest"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// edge builds a straight test edge between nodes u and v.
func edge(id string, u, v int64, length, tt, risk float64) RoadEdge {
	return RoadEdge{ID: id, U: u, V: v, LengthM: length, TravelTimeMin: tt, FloodRisk: risk,
		Coords: [][2]float64{{float64(u) / 1000, 0}, {float64(v) / 1000, 0}}}
}

func testNetwork(edges ...RoadEdge) *RoadNetwork {
	n := &RoadNetwork{Path: "roads.geojson", byID: map[string]int{}}
	for i, e := range edges {
		n.byID[e.ID] = i
		n.Edges = append(n.Edges, e)
	}
	return n
}

func ptrs(n *RoadNetwork, ids ...string) []*RoadEdge {
	var out []*RoadEdge
	for _, id := range ids {
		e, _ := n.Edge(id)
		out = append(out, e)
	}
	return out
}

func TestRouteMetricsFormulas(t *testing.T) {
	n := testNetwork(edge("a", 1, 2, 100, 1.5, 0.2), edge("b", 2, 3, 300, 2.5, 0), edge("c", 3, 4, 100, 1, 1))
	c := &RouteCandidate{ID: "S1", Strategy: StrategySafest, EdgeIDs: []string{"a", "b", "c"}}
	m := computeRouteMetrics(c, ptrs(n, "a", "b", "c"), map[string]bool{"b": true})
	if m.DistanceM != 500 || m.ETAMin != 5 || m.NodeCount != 4 || m.EdgeCount != 3 || m.BlockedEdges != 1 || m.Eligible() {
		t.Fatalf("metrics %+v", m)
	}
	// Length-weighted risk: (100*0.2 + 0 + 100*1) / 500.
	if want := (100*0.2 + 0.0 + 100*1.0) / 500; m.LengthWeightedRisk != want {
		t.Errorf("risk %v, want %v", m.LengthWeightedRisk, want)
	}
	// Products and sums in float64, in route order (variables keep the
	// compiler from folding exact constants).
	tt, risk := []float64{1.5, 2.5, 1}, []float64{0.2, 0, 1}
	var f, s, b float64
	for i := range tt {
		f += tt[i]
		s += tt[i] * (1 + 10*risk[i])
		b += tt[i] * (1 + 4*risk[i])
	}
	if got := m.Cost(StrategyFastest); got != f {
		t.Errorf("fastest cost %v, want %v", got, f)
	}
	if got := m.Cost(StrategySafest); got != s {
		t.Errorf("safest cost %v, want %v", got, s)
	}
	if got := m.Cost(StrategyBalanced); got != b {
		t.Errorf("balanced cost %v, want %v", got, b)
	}
}

func TestRouteSumsLeftToRight(t *testing.T) {
	// 0.1 + 0.2 + 0.3 in order is 0.6000000000000001; another order gives 0.6.
	n := testNetwork(edge("a", 1, 2, 0.1, 0.1, 0), edge("b", 2, 3, 0.2, 0.2, 0), edge("c", 3, 4, 0.3, 0.3, 0))
	m := computeRouteMetrics(&RouteCandidate{ID: "F1", Strategy: StrategyFastest}, ptrs(n, "a", "b", "c"), nil)
	if m.ETAMin != 0.6000000000000001 || m.DistanceM != 0.6000000000000001 {
		t.Errorf("sums %v %v are not Python's left-to-right sums", m.ETAMin, m.DistanceM)
	}
	m = computeRouteMetrics(&RouteCandidate{ID: "F1", Strategy: StrategyFastest}, ptrs(n, "c", "b", "a"), nil)
	if m.ETAMin != 0.6 {
		t.Errorf("reverse order sum %v, want 0.6", m.ETAMin)
	}
}

func TestSelectRouteTieBreakers(t *testing.T) {
	mk := func(id string, cost, eta, dist float64, blocked int) *RouteMetrics {
		return &RouteMetrics{RouteID: id, Strategy: StrategyFastest, ETAMin: eta, DistanceM: dist, BlockedEdges: blocked,
			Costs: map[string]float64{StrategyFastest: cost}}
	}
	cases := []struct {
		name string
		ms   []*RouteMetrics
		want string
	}{
		{"cost", []*RouteMetrics{mk("F1", 10, 10, 100, 0), mk("F2", 9, 12, 200, 0)}, "F2"},
		{"blocked cheapest is ineligible", []*RouteMetrics{mk("F1", 5, 5, 50, 1), mk("F2", 9, 9, 200, 0)}, "F2"},
		{"eta", []*RouteMetrics{mk("F1", 9, 10, 100, 0), mk("F2", 9, 9, 200, 0)}, "F2"},
		{"distance", []*RouteMetrics{mk("F1", 9, 9, 100, 0), mk("F3", 9, 9, 90, 0)}, "F3"},
		{"route id", []*RouteMetrics{mk("F3", 9, 9, 90, 0), mk("F2", 9, 9, 90, 0)}, "F2"},
	}
	for _, c := range cases {
		got, err := selectRoute(c.ms, StrategyFastest)
		if err != nil || got.RouteID != c.want {
			t.Errorf("%s: got %v, %v; want %s", c.name, got, err, c.want)
		}
	}
	if _, err := selectRoute([]*RouteMetrics{mk("F1", 5, 5, 5, 2)}, StrategyFastest); err == nil || !strings.Contains(err.Error(), "none is eligible") {
		t.Errorf("all blocked: %v", err)
	}
	if _, err := selectRoute([]*RouteMetrics{mk("F1", 5, 5, 5, 0)}, StrategySafest); err == nil || !strings.Contains(err.Error(), "no safest candidate") {
		t.Errorf("empty group: %v", err)
	}
}

func TestDecomposeRoute(t *testing.T) {
	n := testNetwork(edge("a", 1, 2, 10, 1, 0), edge("b", 3, 2, 10, 1, 0), edge("c", 3, 4, 10, 1, 0))
	meta := &RouteMetadata{Origin: RoutePoint{NodeID: 1}, Shelter: RoutePoint{ID: "SH", NodeID: 4}}
	geom := [][2]float64{{0.001, 0}, {0.002, 0}, {0.003, 0}, {0.004, 0}}
	ok := &RouteCandidate{ID: "F1", EdgeIDs: []string{"a", "b", "c"}, ShelterID: "SH", Coords: geom}
	if es, err := decomposeRoute(ok, n, meta); err != nil || len(es) != 3 {
		t.Fatalf("valid route (edge b traversed backwards): %v", err)
	}
	for name, c := range map[string]*RouteCandidate{
		"unknown edge":   {ID: "F1", EdgeIDs: []string{"a", "zz"}, ShelterID: "SH", Coords: geom},
		"broken walk":    {ID: "F1", EdgeIDs: []string{"a", "c"}, ShelterID: "SH", Coords: geom},
		"wrong endpoint": {ID: "F1", EdgeIDs: []string{"a", "b"}, ShelterID: "SH", Coords: geom[:3]},
		"other shelter":  {ID: "F1", EdgeIDs: []string{"a", "b", "c"}, ShelterID: "SH2", Coords: geom},
		"geometry off":   {ID: "F1", EdgeIDs: []string{"a", "b", "c"}, ShelterID: "SH", Coords: [][2]float64{{0.001, 0}, {0.002, 0}, {0.003, 0.001}, {0.004, 0}}},
		"vertex count":   {ID: "F1", EdgeIDs: []string{"a", "b", "c"}, ShelterID: "SH", Coords: geom[:2]},
	} {
		if _, err := decomposeRoute(c, n, meta); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestBlockedSetRequiresFlooded(t *testing.T) {
	e := edge("a", 1, 2, 10, 1, 0.5)
	e.Blocked = true
	if _, err := blockedSet(testNetwork(e)); err == nil {
		t.Error("blocked but not flooded accepted")
	}
	e.Flooded = true
	b, err := blockedSet(testNetwork(e, edge("b", 2, 3, 1, 1, 0)))
	if err != nil || len(b) != 1 || !b["a"] {
		t.Errorf("blocked set %v, %v", b, err)
	}
}

func TestCheckCachedScores(t *testing.T) {
	m := &RouteMetrics{RouteID: "F1", Strategy: StrategyFastest, DistanceM: 100, ETAMin: 5, LengthWeightedRisk: 0.25,
		Costs: map[string]float64{StrategyFastest: 5}}
	f := func(v float64) *float64 { return &v }
	zero := 0
	good := map[string]cachedScore{"F1": {RouteID: "F1", DistanceM: f(100.0000004), ETAMin: f(5), Blocked: &zero, Risk: f(0.25), ObjectiveCst: f(5)}}
	checkCached(m, good)
	if !m.CachedMatch {
		t.Errorf("matching cache rejected: %s", m.CachedErr)
	}
	stale := map[string]cachedScore{"F1": {RouteID: "F1", DistanceM: f(100), ETAMin: f(4.5), Blocked: &zero, Risk: f(0.25), ObjectiveCst: f(5)}}
	m.CachedMatch = false
	checkCached(m, stale)
	if m.CachedMatch || !strings.Contains(m.CachedErr, "eta_min") {
		t.Errorf("stale cache accepted: %v %q", m.CachedMatch, m.CachedErr)
	}
	m.CachedMatch = false
	checkCached(m, map[string]cachedScore{})
	if m.CachedMatch {
		t.Error("missing cache entry accepted")
	}
}

// bandEnv is a minimal Env serving in-memory bands.
type bandEnv struct {
	workers.Env
	bands map[int]*raster.Band
	info  workers.RasterInfo
}

func (e *bandEnv) Band(path string, b int) (*raster.Band, workers.RasterInfo, error) {
	return e.bands[b], e.info, nil
}

func TestEdgeIDAcceptsStringsAndIntegers(t *testing.T) {
	var ids []edgeID
	if err := json.Unmarshal([]byte(`["e1", 42, 9007199254740993]`), &ids); err != nil {
		t.Fatal(err)
	}
	if ids[0] != "e1" || ids[1] != "42" || ids[2] != "9007199254740993" {
		t.Errorf("ids %q", ids)
	}
	for _, bad := range []string{`[1.5]`, `[true]`, `[{}]`} {
		var x []edgeID
		if err := json.Unmarshal([]byte(bad), &x); err == nil {
			t.Errorf("%s accepted: %q", bad, x)
		}
	}
}

// syntheticRoads returns a roads.geojson FeatureCollection of n edges shaped
// like the synthetic corpus (three vertices, string and integer edge ids,
// awkward floats).
func syntheticRoads(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"features":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		id := `"e` + strconv.Itoa(i) + `"`
		if i%7 == 3 {
			id = strconv.Itoa(1000000 + i)
		}
		x := 7.3993787 + float64(i)*1.1e-5
		y := 50.6839863 - float64(i%97)*3.3e-6
		// Seven decimals, as OSM stores positions (and the corpus writes them).
		fmt.Fprintf(&b, `{"geometry":{"coordinates":[[%.7f,%.7f],[%.7f,%.7f],[%.7f,%.7f]],"type":"LineString"},`, x, y, x+0.0011718, y-7.15e-5, x+0.0023375, y-0.97e-5)
		fmt.Fprintf(&b, `"properties":{"blocked":%v,"edge_id":%s,"flood_risk":%v,"flooded":%v,"highway":"primary","length_m":%v,"travel_time_min":%v,"u":%d,"v":%d},"type":"Feature"}`,
			i%11 == 0, id, float64(i%13)/13, i%11 == 0 || i%5 == 0, 100+float64(i)*0.37, 0.1+float64(i%17)/300, 100000+i, 100001+i)
	}
	b.WriteString(`],"type":"FeatureCollection"}`)
	return []byte(b.String())
}

// TestParseRoadNetworkMatchesEncodingJSON checks the typed decoding of a
// road table against encoding/json's values, bit for bit.
func TestParseRoadNetworkMatchesEncodingJSON(t *testing.T) {
	raw := syntheticRoads(500)
	n, err := parseRoadNetwork("roads.geojson", raw)
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Features []struct {
			Geometry struct {
				Coordinates [][]float64 `json:"coordinates"`
			} `json:"geometry"`
			Properties struct {
				EdgeID        any `json:"edge_id"`
				U, V          int64
				LengthM       float64 `json:"length_m"`
				TravelTimeMin float64 `json:"travel_time_min"`
				FloodRisk     float64 `json:"flood_risk"`
				Flooded       bool    `json:"flooded"`
				Blocked       bool    `json:"blocked"`
			} `json:"properties"`
		} `json:"features"`
	}
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	if err := d.Decode(&ref); err != nil {
		t.Fatal(err)
	}
	if len(n.Edges) != len(ref.Features) {
		t.Fatalf("%d edges, want %d", len(n.Edges), len(ref.Features))
	}
	for i, f := range ref.Features {
		e, p := n.Edges[i], f.Properties
		id := fmt.Sprint(p.EdgeID)
		if e.ID != id || e.U != p.U || e.V != p.V || math.Float64bits(e.LengthM) != math.Float64bits(p.LengthM) ||
			math.Float64bits(e.TravelTimeMin) != math.Float64bits(p.TravelTimeMin) || math.Float64bits(e.FloodRisk) != math.Float64bits(p.FloodRisk) ||
			e.Flooded != p.Flooded || e.Blocked != p.Blocked || len(e.Coords) != len(f.Geometry.Coordinates) {
			t.Fatalf("edge %d: %+v, want %+v", i, e, p)
		}
		for k, c := range f.Geometry.Coordinates {
			if math.Float64bits(e.Coords[k][0]) != math.Float64bits(c[0]) || math.Float64bits(e.Coords[k][1]) != math.Float64bits(c[1]) {
				t.Fatalf("edge %d vertex %d: %v, want %v", i, k, e.Coords[k], c)
			}
		}
	}
	for _, bad := range []string{`{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"edge_id":"a","u":1,"v":2,"length_m":1,"travel_time_min":1,"flood_risk":0,"flooded":false,"blocked":false}}]}`,
		`{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]},"properties":{"edge_id":"a","u":1,"v":2,"length_m":1,"travel_time_min":1,"flood_risk":0,"flooded":false}}]}`,
		// One-element and null positions: encoding/json read the null as 0.
		`{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[3]]},"properties":{"edge_id":"a","u":1,"v":2,"length_m":1,"travel_time_min":1,"flood_risk":0,"flooded":false,"blocked":false}}]}`,
		`{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[null,4]]},"properties":{"edge_id":"a","u":1,"v":2,"length_m":1,"travel_time_min":1,"flood_risk":0,"flooded":false,"blocked":false}}]}`,
		`{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]},"properties":{"edge_id":"a","u":1.5,"v":2,"length_m":1,"travel_time_min":1,"flood_risk":0,"flooded":false,"blocked":false}}]}`,
		`{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]},"properties":{"edge_id":"a","u":1,"v":2,"length_m":1,"travel_time_min":1,"flood_risk":0,"flooded":false,"blocked":false}},{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]}}]}`,
		`{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]},"properties":{"edge_id":"a","u":1,"v":2,"length_m":1,"travel_time_min":1,"flood_risk":0,"flooded":false,"blocked":null}}]}`,
		`{"type":"FeatureCollection","features":[]}`, `{"type":"Feature"}`, `[`} {
		if _, err := parseRoadNetwork("roads.geojson", []byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

func TestPlainJSONString(t *testing.T) {
	for in, want := range map[string]bool{`"e00042"`: true, `""`: true, `"a\"b"`: false, `"\u0041"`: false, `"é"`: false, `42`: false, `"`: false} {
		s, ok := plainJSONString([]byte(in))
		if ok != want {
			t.Errorf("%s: ok %v", in, ok)
		}
		if ok {
			var ref string
			if err := json.Unmarshal([]byte(in), &ref); err != nil || ref != s {
				t.Errorf("%s: %q, encoding/json %q", in, s, ref)
			}
		}
	}
}

// BenchmarkParseRoadNetwork decodes a corpus-sized road table (2,500
// edges, ~750 kB), the largest file a routing chain parses.
func BenchmarkParseRoadNetwork(b *testing.B) {
	raw := syntheticRoads(2500)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseRoadNetwork("roads.geojson", raw); err != nil {
			b.Fatal(err)
		}
	}
}

func TestDefMatchesKernelTables(t *testing.T) {
	workertest.CheckFamily(t, Def(), workers.Routing)
}
