package routing

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"

	gojson "github.com/goccy/go-json"
	"github.com/paulmach/orb"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/vector"
	"github.com/geodisaster/engine/workers"
)

// Flood-safe routing family (spec question types 36 nearest_shelter, 37
// fastest_safest and 38 visual_overlay).
//
// Spec section 9: "Routing validates and renders packaged candidates. It is
// not a fresh road-graph search, a proof of globally nearest shelter, or
// evacuation advice." The workers therefore never search the road graph:
// they decompose each packaged candidate route into its declared road
// edges, recompute every metric from the edges' declared attributes,
// screen blocked edges and select among the eligible candidates.
//
// One routing input handle (route_inputs_N) declares the seven files of a
// scene; the suffixes below are the engine's record format for them:
//
//	s2_rgb.tif                Sentinel-2 RGB chip, 3 bands, UTM (or EPSG:4326)
//	s2_rgb_preview.png        its preview
//	metadata.json             origin, shelter and confidence label
//	flood_extent.geojson      Copernicus EMS observed flood extent (WGS84 polygons)
//	roads.geojson             OSM-derived road edges (WGS84 LineStrings)
//	candidate_routes.geojson  the nine packaged candidates (F1-F3, S1-S3, B1-B3)
//	route_scores.json         the packaged (cached) route scores
//
// Road edge properties: edge_id (string or integer), u and v (integer
// node ids), length_m, travel_time_min (both > 0), flood_risk (0..1),
// flooded and blocked (booleans; a blocked edge must be flooded); other
// properties (highway, name) are ignored. Candidate properties: route_id
// (F<n>, S<n> or B<n>), strategy (fastest, safest or balanced), optional
// rank, edge_ids (in travel order from the origin node; an edge may be
// walked v to u) and shelter_id; the geometry must be the concatenation of
// the edges' vertices (within 1e-7 degrees). metadata.json holds
// origin {name, node_id, lon, lat}, shelter {shelter_id, name, node_id,
// lon, lat}, confidence (copied verbatim into answers) and optionally crs
// ("EPSG:n", checked against the chip). route_scores.json holds
// routes [{route_id, distance_m, eta_min, blocked_edge_count,
// length_weighted_flood_risk, objective_cost}]: it is validated against
// the recomputation and reported, never used as an answer.
//
// Metric and selection contract (spec types 36 and 37): distance is
// sum(length_m), ETA sum(travel_time_min), node count edges+1, risk
// sum(length_m*flood_risk)/sum(length_m); costs fastest sum(tt), safest
// sum(tt*(1+10*risk)), balanced sum(tt*(1+4*risk)); every sum is a float64
// sum in route order, left to right, like Python's sum(). A candidate is
// eligible only with zero blocked edges; the winner has the least cost,
// then ETA, distance and route id.

// Declared file suffixes of a routing scene.
const (
	routeRGBFile        = "s2_rgb.tif"
	routePreviewFile    = "s2_rgb_preview.png"
	routeMetadataFile   = "metadata.json"
	routeFloodFile      = "flood_extent.geojson"
	routeRoadsFile      = "roads.geojson"
	routeCandidatesFile = "candidate_routes.geojson"
	routeScoresFile     = "route_scores.json"
)

var routeSceneFiles = [...]string{routeRGBFile, routePreviewFile, routeMetadataFile, routeFloodFile, routeRoadsFile, routeCandidatesFile, routeScoresFile}

// The three candidate strategies (groups F, S and B) in report order.
const (
	StrategyFastest  = "fastest"
	StrategySafest   = "safest"
	StrategyBalanced = "balanced"
)

// routeStrategies lists the strategies in report order.
var routeStrategies = [...]string{StrategyFastest, StrategySafest, StrategyBalanced}

// RouteStrategies returns the three strategies in report order.
func RouteStrategies() []string {
	s := routeStrategies
	return s[:]
}

// strategyPrefix returns the route-id letter of a strategy's group.
func strategyPrefix(strategy string) (string, bool) {
	switch strategy {
	case StrategyFastest:
		return "F", true
	case StrategySafest:
		return "S", true
	case StrategyBalanced:
		return "B", true
	}
	return "", false
}

// The PlanRoutes objectives (spec types 36, 37 and 38).
const (
	ObjectiveNearestShelter = "nearest_reachable_shelter"
	ObjectiveCandidates     = "candidate_routes"
	ObjectiveOverlay        = "overlay_routes"
)

// avoidFloodArg is PlanRoutes' screening argument, spelled as the spec
// writes it: the literal key "avoid.flood_affected_roads" of the call's
// argument object (not a nested {"avoid": {...}} object).
const avoidFloodArg = "avoid.flood_affected_roads"

func routingVariants() []workers.Variant {
	planParams := func(objective string, avoidRequired bool) []workers.Param {
		return []workers.Param{
			workers.Input(planInputDoc(objective)),
			workers.Choice("objective", objective),
			{Name: avoidFloodArg, Kind: workers.KindBool, Required: avoidRequired, Doc: "must be true: candidates crossing a blocked road edge are ineligible"},
		}
	}
	return []workers.Variant{
		workers.ReadDataVariant(workers.ReadSpec{
			Role:        "routing",
			HandleStems: []string{"route_inputs"},
			Check:       checkRoutingScene,
			TypedJSON:   true,
		}),
		workers.PrepareSceneVariant(workers.PrepareSpec{
			Mode:     "flood_safe_routing",
			Slots:    map[string][]string{"routing": {"routing"}},
			Required: []string{"routing"},
		}),
		workers.NewVariant("EstimateExposure", estimateBlockedRoads, workers.Input("work handle from PrepareScene(mode=flood_safe_routing)"), workers.Choice("exposure", "blocked_roads")),
		{Tool: "PlanRoutes", Value: ObjectiveNearestShelter, Params: planParams(ObjectiveNearestShelter, true), Run: planRoutes(ObjectiveNearestShelter)},
		{Tool: "PlanRoutes", Value: ObjectiveCandidates, Params: planParams(ObjectiveCandidates, true), Run: planRoutes(ObjectiveCandidates)},
		{Tool: "PlanRoutes", Value: ObjectiveOverlay, Params: planParams(ObjectiveOverlay, false), Run: planRoutes(ObjectiveOverlay)},
		{
			Tool: "CompareRoutes", Value: "balanced+fastest+safest",
			Params: []workers.Param{
				workers.Input("routes handle from PlanRoutes(objective=candidate_routes or overlay_routes)"),
				{Name: "objectives", Kind: workers.KindFlags, Required: true, Enum: RouteStrategies(), Doc: "{fastest: true, safest: true, balanced: true}; partial preference contracts are rejected"},
			},
			Run: compareRoutes,
		},
		renderRouteOverlayVariant(),
	}
}

func planInputDoc(objective string) string {
	if objective == ObjectiveNearestShelter {
		return "exposure handle from EstimateExposure(exposure=blocked_roads)"
	}
	return "work handle from PrepareScene(mode=flood_safe_routing)"
}

// checkRoutingScene verifies a routing input handle: the seven declared
// files are present, the RGB chip is a 3-band georeferenced GeoTIFF in a
// supported CRS, and no prepared overlay image is declared (spec type 38:
// "no prepared overlay PNG is on the input card").
func checkRoutingScene(env workers.Env, s *workers.Scene) error {
	for _, f := range s.Files {
		b := strings.ToLower(f.Base())
		if strings.Contains(b, "overlay") {
			return fmt.Errorf("declared file %s is a prepared overlay; routing inputs must not include one", f.Path)
		}
	}
	for _, suf := range routeSceneFiles {
		if _, err := s.Require(suf); err != nil {
			return err
		}
	}
	rgb, _ := s.File(routeRGBFile)
	if err := checkRouteRGB(rgb); err != nil {
		return err
	}
	prev, _ := s.File(routePreviewFile)
	b, err := env.ReadFile(prev.Path)
	if err != nil {
		return err
	}
	if _, err := png.DecodeConfig(bytes.NewReader(b)); err != nil {
		return fmt.Errorf("preview %s is not a PNG: %w", prev.Path, err)
	}
	return nil
}

func checkRouteRGB(f *workers.SceneFile) error {
	r := f.Raster
	if r == nil {
		return fmt.Errorf("%s is not a GeoTIFF", f.Path)
	}
	if r.Count < 3 {
		return fmt.Errorf("%s has %d bands; the RGB chip needs 3", f.Path, r.Count)
	}
	if !r.HasTransform {
		return fmt.Errorf("%s has no geotransform", f.Path)
	}
	if err := r.Transform.Validate(); err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	// Projected (the release's UTM chips) or geographic (EPSG:4326, as
	// users export chips): the renderer "reads the GeoTIFF CRS and affine
	// transform" (spec type 38) and maps WGS84 vectors through them.
	if _, err := crs.FromEPSG(r.EPSG); err != nil {
		return fmt.Errorf("%s: CRS: %w", f.Path, err)
	}
	return nil
}

// RoadEdge is one declared OSM-derived road edge.
type RoadEdge struct {
	ID            string
	U, V          int64
	LengthM       float64
	TravelTimeMin float64
	FloodRisk     float64
	Flooded       bool
	Blocked       bool
	// Coords are the WGS84 (lon, lat) vertices from U to V.
	Coords [][2]float64
}

// RoadNetwork is the declared road-edge table of a scene.
type RoadNetwork struct {
	Path  string
	Edges []RoadEdge
	byID  map[string]int
}

// Edge returns the edge with the given id.
func (n *RoadNetwork) Edge(id string) (*RoadEdge, bool) {
	i, ok := n.byID[id]
	if !ok {
		return nil, false
	}
	return &n.Edges[i], true
}

// RoutePoint is a declared origin or shelter.
type RoutePoint struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	NodeID int64   `json:"node_id"`
	Lon    float64 `json:"lon"`
	Lat    float64 `json:"lat"`
}

// RouteMetadata is the declared scene metadata: origin, shelter and the
// confidence label (spec type 36: "Confidence is copied from declared
// metadata").
type RouteMetadata struct {
	Path       string
	Origin     RoutePoint
	Shelter    RoutePoint
	Confidence string
	// CRS is the chip CRS the metadata declares ("EPSG:n"), if any.
	CRS string
}

// RouteCandidate is one packaged candidate route.
type RouteCandidate struct {
	ID        string
	Strategy  string
	Rank      int
	EdgeIDs   []string
	ShelterID string
	// Coords are the route geometry's WGS84 (lon, lat) vertices.
	Coords [][2]float64
}

// FloodExtent is the declared Copernicus flood extent: WGS84 polygons as
// rings of (lon, lat) vertices, the first ring of each polygon its exterior.
type FloodExtent struct {
	Path     string
	Polygons [][][][2]float64
}

// RouteMetrics are the metrics recomputed for one candidate from its
// declared edges, in route order, with float64 left-to-right sums (like
// Python's sum()).
type RouteMetrics struct {
	RouteID  string
	Strategy string
	Rank     int
	// DistanceM is sum(length_m); ETAMin is sum(travel_time_min).
	DistanceM, ETAMin float64
	// NodeCount is the number of nodes walked: edges + 1.
	NodeCount int
	EdgeCount int
	// BlockedEdges counts the route's edges in the blocked set.
	BlockedEdges int
	// LengthWeightedRisk is sum(length_m*flood_risk)/sum(length_m).
	LengthWeightedRisk float64
	// Costs by strategy: fastest sum(tt), safest sum(tt*(1+10*risk)),
	// balanced sum(tt*(1+4*risk)).
	Costs map[string]float64
	// EdgeKey is the route's edge sequence joined by ",", equal for
	// identical geometries.
	EdgeKey string
	// CachedMatch reports whether the packaged route_scores.json entry
	// agrees with the recomputation (within 1e-6); CachedErr says why not.
	CachedMatch bool
	CachedErr   string
}

// Eligible reports whether the candidate crosses no blocked edge.
func (m *RouteMetrics) Eligible() bool { return m.BlockedEdges == 0 }

// Cost returns the candidate's objective cost under a strategy.
func (m *RouteMetrics) Cost(strategy string) float64 { return m.Costs[strategy] }

// routeCosts returns the three objective costs of a route's edges, summed
// left to right in route order. Each product is rounded on its own (no
// fused multiply-add), as CPython evaluates tt * (1 + k * risk).
func routeCosts(edges []*RoadEdge) map[string]float64 {
	var f, s, b float64
	for _, e := range edges {
		f += e.TravelTimeMin
		s += float64(e.TravelTimeMin * float64(1+float64(10*e.FloodRisk)))
		b += float64(e.TravelTimeMin * float64(1+float64(4*e.FloodRisk)))
	}
	return map[string]float64{StrategyFastest: f, StrategySafest: s, StrategyBalanced: b}
}

// computeRouteMetrics recomputes a candidate's metrics from its edges.
func computeRouteMetrics(c *RouteCandidate, edges []*RoadEdge, blocked map[string]bool) *RouteMetrics {
	m := &RouteMetrics{RouteID: c.ID, Strategy: c.Strategy, Rank: c.Rank, EdgeCount: len(edges), NodeCount: len(edges) + 1}
	var num float64
	for _, e := range edges {
		m.DistanceM += e.LengthM
		m.ETAMin += e.TravelTimeMin
		num += float64(e.LengthM * e.FloodRisk)
		if blocked[e.ID] {
			m.BlockedEdges++
		}
	}
	if m.DistanceM > 0 {
		m.LengthWeightedRisk = num / m.DistanceM
	}
	m.Costs = routeCosts(edges)
	m.EdgeKey = strings.Join(c.EdgeIDs, ",")
	return m
}

// selectRoute returns the eligible candidate of a strategy with the least
// objective cost, ties broken by ETA, distance and route id (spec types 36
// and 37), or an error when the group has no eligible candidate.
func selectRoute(ms []*RouteMetrics, strategy string) (*RouteMetrics, error) {
	var best *RouteMetrics
	n := 0
	for _, m := range ms {
		if m.Strategy != strategy {
			continue
		}
		n++
		if !m.Eligible() {
			continue
		}
		if best == nil || routeLess(m, best, strategy) {
			best = m
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("no %s candidate route is declared", strategy)
	}
	if best == nil {
		return nil, fmt.Errorf("all %d %s candidate routes cross a blocked road edge; none is eligible", n, strategy)
	}
	return best, nil
}

// routeLess orders candidates by objective cost, ETA, distance, route id.
func routeLess(a, b *RouteMetrics, strategy string) bool {
	if ca, cb := a.Cost(strategy), b.Cost(strategy); ca != cb {
		return ca < cb
	}
	if a.ETAMin != b.ETAMin {
		return a.ETAMin < b.ETAMin
	}
	if a.DistanceM != b.DistanceM {
		return a.DistanceM < b.DistanceM
	}
	return a.RouteID < b.RouteID
}

// routeScene is the parsed content of a routing work context.
type routeScene struct {
	work       *workers.Work
	scene      *workers.Scene
	meta       *RouteMetadata
	network    *RoadNetwork
	candidates []*RouteCandidate
}

// loadRouteScene parses the metadata, roads and candidates of a
// flood_safe_routing work context through the read gate.
func loadRouteScene(env workers.Env, w *workers.Work) (*routeScene, error) {
	sc := w.Scenes["routing"]
	if sc == nil {
		return nil, fmt.Errorf("work context has no routing scene")
	}
	rs := &routeScene{work: w, scene: sc}
	var err error
	if rs.meta, err = loadRouteMetadata(env, sc); err != nil {
		return nil, err
	}
	if rs.network, err = loadRoadNetwork(env, sc); err != nil {
		return nil, err
	}
	if rs.candidates, err = loadCandidates(env, sc); err != nil {
		return nil, err
	}
	return rs, nil
}

// readDeclared reads the scene's declared file ending in suffix through the
// read gate and returns its path and bytes.
func readDeclared(env workers.Env, s *workers.Scene, suffix string) (string, []byte, error) {
	f, err := s.Require(suffix)
	if err != nil {
		return "", nil, err
	}
	b, err := env.ReadFile(f.Path)
	if err != nil {
		return "", nil, err
	}
	return f.Path, b, nil
}

// loadDeclared reads a declared file through the gate on every call (the
// call's read trace names it) and parses it once per session: routing
// workers chained over one scene (EstimateExposure, PlanRoutes, RenderMap)
// share the parsed, read-only value.
func loadDeclared[T any](env workers.Env, s *workers.Scene, suffix string, parse func(path string, b []byte) (T, error)) (T, error) {
	p, b, err := readDeclared(env, s, suffix)
	if err != nil {
		var zero T
		return zero, err
	}
	v, err := s.Memo("routing:"+p, b, func() (any, error) { return parse(p, b) })
	if err != nil {
		var zero T
		return zero, err
	}
	return v.(T), nil
}

// unmarshalDeclared decodes a declared routing file with goccy/go-json,
// which decodes to the same values as encoding/json (numbers through
// strconv.ParseFloat) several times faster: the road tables are the
// largest JSON a routing chain reads.
func unmarshalDeclared(p string, b []byte, v any) error {
	if err := gojson.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return nil
}

func loadRouteMetadata(env workers.Env, s *workers.Scene) (*RouteMetadata, error) {
	return loadDeclared(env, s, routeMetadataFile, parseRouteMetadata)
}

func parseRouteMetadata(p string, b []byte) (*RouteMetadata, error) {
	var doc struct {
		Origin *struct {
			Name   string   `json:"name"`
			NodeID *int64   `json:"node_id"`
			Lon    *float64 `json:"lon"`
			Lat    *float64 `json:"lat"`
		} `json:"origin"`
		Shelter *struct {
			ShelterID string   `json:"shelter_id"`
			Name      string   `json:"name"`
			NodeID    *int64   `json:"node_id"`
			Lon       *float64 `json:"lon"`
			Lat       *float64 `json:"lat"`
		} `json:"shelter"`
		Confidence *string `json:"confidence"`
		CRS        string  `json:"crs"`
	}
	if err := unmarshalDeclared(p, b, &doc); err != nil {
		return nil, err
	}
	m := &RouteMetadata{Path: p}
	if doc.Origin == nil || doc.Origin.NodeID == nil || doc.Origin.Lon == nil || doc.Origin.Lat == nil {
		return nil, fmt.Errorf("%s: origin must declare node_id, lon and lat", p)
	}
	if doc.Shelter == nil || doc.Shelter.NodeID == nil || doc.Shelter.Lon == nil || doc.Shelter.Lat == nil || doc.Shelter.ShelterID == "" || doc.Shelter.Name == "" {
		return nil, fmt.Errorf("%s: shelter must declare shelter_id, name, node_id, lon and lat", p)
	}
	if doc.Confidence == nil || *doc.Confidence == "" {
		return nil, fmt.Errorf("%s: no confidence label declared", p)
	}
	m.Origin = RoutePoint{ID: "origin", Name: doc.Origin.Name, NodeID: *doc.Origin.NodeID, Lon: *doc.Origin.Lon, Lat: *doc.Origin.Lat}
	m.Shelter = RoutePoint{ID: doc.Shelter.ShelterID, Name: doc.Shelter.Name, NodeID: *doc.Shelter.NodeID, Lon: *doc.Shelter.Lon, Lat: *doc.Shelter.Lat}
	m.Confidence = *doc.Confidence
	m.CRS = doc.CRS
	for _, pt := range []RoutePoint{m.Origin, m.Shelter} {
		if !finiteLonLat(pt.Lon, pt.Lat) {
			return nil, fmt.Errorf("%s: %s coordinates (%v, %v) are not valid WGS84", p, pt.ID, pt.Lon, pt.Lat)
		}
	}
	return m, nil
}

func finiteLonLat(lon, lat float64) bool {
	return !math.IsNaN(lon) && !math.IsNaN(lat) && lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90
}

// edgeID is an edge id given as a JSON string or integer (OSM-derived
// tables use either); integers become their decimal string.
type edgeID string

// UnmarshalJSON accepts a string or an integral number.
func (id *edgeID) UnmarshalJSON(b []byte) error {
	if s, ok := plainJSONString(b); ok {
		*id = edgeID(s)
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*id = edgeID(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("edge id %s is neither a string nor a number", b)
	}
	if _, err := n.Int64(); err != nil {
		return fmt.Errorf("edge id %s is not an integer", b)
	}
	*id = edgeID(n.String())
	return nil
}

// plainJSONString returns the content of a JSON string literal made of
// printable ASCII without escapes (such as "e00042"), which decodes to
// itself; ok is false for anything else.
func plainJSONString(b []byte) (string, bool) {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return "", false
	}
	for _, c := range b[1 : len(b)-1] {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return "", false
		}
	}
	return string(b[1 : len(b)-1]), true
}

// geoFeatureCollection is the subset of GeoJSON the routing files use.
type geoFeatureCollection struct {
	Type     string `json:"type"`
	Features []struct {
		Type     string `json:"type"`
		Geometry *struct {
			Type        string          `json:"type"`
			Coordinates json.RawMessage `json:"coordinates"`
		} `json:"geometry"`
		Properties json.RawMessage `json:"properties"`
	} `json:"features"`
}

func parseLineString(path string, i int, g *struct {
	Type        string          `json:"type"`
	Coordinates json.RawMessage `json:"coordinates"`
}) ([][2]float64, error) {
	if g == nil || g.Type != "LineString" {
		return nil, fmt.Errorf("%s: feature %d: geometry must be a LineString", path, i)
	}
	var pts [][]float64
	if err := gojson.Unmarshal(g.Coordinates, &pts); err != nil {
		return nil, fmt.Errorf("%s: feature %d: coordinates: %w", path, i, err)
	}
	if len(pts) < 2 {
		return nil, fmt.Errorf("%s: feature %d: a LineString needs at least 2 vertices", path, i)
	}
	out, bad := lonLatPositions(pts)
	if bad >= 0 {
		return nil, fmt.Errorf("%s: feature %d: vertex %d is not a valid WGS84 position", path, i, bad)
	}
	return out, nil
}

// lonLatPositions converts decoded GeoJSON positions to (lon, lat) pairs;
// bad is the index of the first position that is not a valid WGS84
// position (fewer than two numbers or out of range), -1 when all are.
func lonLatPositions(pts [][]float64) (out [][2]float64, bad int) {
	out = make([][2]float64, len(pts))
	for k, p := range pts {
		if len(p) < 2 || !finiteLonLat(p[0], p[1]) {
			return nil, k
		}
		out[k] = [2]float64{p[0], p[1]}
	}
	return out, -1
}

func loadRoadNetwork(env workers.Env, s *workers.Scene) (*RoadNetwork, error) {
	return loadDeclared(env, s, routeRoadsFile, parseRoadNetwork)
}

// Road edge properties, as bits of roadProps.have.
const (
	roadEdgeID = 1 << iota
	roadU
	roadV
	roadLength
	roadTravelTime
	roadFloodRisk
	roadFlooded
	roadBlocked
	roadAllProps = 1<<iota - 1
)

// roadRecord is one edge's properties as parseRoadNetwork collects them:
// no pointers (the id is a part of the id arena), so that the table grows
// without write barriers and is built once at its final size.
type roadRecord struct {
	idOff, idLen     int
	u, v             int64
	length, tt, risk float64
	flooded, blocked bool
}

// roadScratch is parseRoadNetwork's reusable working memory.
type roadScratch struct {
	recs []roadRecord
	ids  []byte
}

var roadScratchPool = sync.Pool{New: func() any { return new(roadScratch) }}

// roadProps collects one feature's edge properties; a null value counts as
// absent, as it does for encoding/json's pointer fields, and a repeated
// member's last value wins.
type roadProps struct {
	r    roadRecord
	have int
}

// set decodes one properties member into the edge; an edge id is appended
// to ids.
func (r *roadProps) set(key string, v vector.JSONValue, ids *[]byte) error {
	var bit int
	switch key {
	case "edge_id":
		bit = roadEdgeID
	case "u":
		bit = roadU
	case "v":
		bit = roadV
	case "length_m":
		bit = roadLength
	case "travel_time_min":
		bit = roadTravelTime
	case "flood_risk":
		bit = roadFloodRisk
	case "flooded":
		bit = roadFlooded
	case "blocked":
		bit = roadBlocked
	default:
		return nil
	}
	if v.IsNull() {
		r.have &^= bit
		return nil
	}
	var err error
	switch bit {
	case roadEdgeID:
		var id string
		if id, err = roadEdgeIDValue(v); err == nil {
			r.r.idOff, r.r.idLen = len(*ids), len(id)
			*ids = append(*ids, id...)
		}
	case roadU:
		r.r.u, err = v.Int64()
	case roadV:
		r.r.v, err = v.Int64()
	case roadLength:
		r.r.length, err = v.Float64()
	case roadTravelTime:
		r.r.tt, err = v.Float64()
	case roadFloodRisk:
		r.r.risk, err = v.Float64()
	case roadFlooded:
		r.r.flooded, err = v.Bool()
	case roadBlocked:
		r.r.blocked, err = v.Bool()
	}
	if err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	r.have |= bit
	return nil
}

// roadEdgeIDValue decodes an edge id given as a string or an integer (the
// integer's decimal text), as edgeID's UnmarshalJSON does.
func roadEdgeIDValue(v vector.JSONValue) (string, error) {
	if v.IsString() {
		return v.String()
	}
	if _, err := v.Int64(); err != nil {
		return "", fmt.Errorf("edge id %s is neither a string nor an integer", v.Raw())
	}
	return v.Raw(), nil
}

// parseRoadNetwork decodes the road table in one typed pass
// (vector.DecodeLineFeatures) over the declared bytes themselves: nothing
// decoded refers to them (the edges' ids are parts of one arena, their
// vertices share one array), so they are read in place, not copied.
func parseRoadNetwork(p string, b []byte) (*RoadNetwork, error) {
	// The records and the id arena are working memory, recycled across
	// tables: the edges are built from them at their final size. A
	// feature of an OSM-derived table takes about 300 bytes; the hint
	// only saves the growth of recs.
	sc := roadScratchPool.Get().(*roadScratch)
	defer roadScratchPool.Put(sc)
	recs := slices.Grow(sc.recs[:0], len(b)/320+16)
	ids := slices.Grow(sc.ids[:0], len(b)/40+16)
	defer func() { sc.recs, sc.ids = recs[:0], ids[:0] }()
	var cur roadProps
	curFeature := -1
	missing := func(i int) error {
		return fmt.Errorf("%s: feature %d: edge_id, u, v, length_m, travel_time_min, flood_risk, flooded and blocked are required", p, i)
	}
	finish := func() error {
		if curFeature < 0 {
			return nil
		}
		e := &cur.r
		if cur.have != roadAllProps || e.idLen == 0 {
			return missing(curFeature)
		}
		if !(e.length > 0) || math.IsInf(e.length, 0) || !(e.tt > 0) || math.IsInf(e.tt, 0) {
			return fmt.Errorf("%s: edge %s: length_m and travel_time_min must be positive and finite", p, ids[e.idOff:e.idOff+e.idLen])
		}
		if !(e.risk >= 0 && e.risk <= 1) {
			return fmt.Errorf("%s: edge %s: flood_risk %v is outside 0..1", p, ids[e.idOff:e.idOff+e.idLen], e.risk)
		}
		recs = append(recs, *e)
		return nil
	}
	// Properties arrive feature by feature, in order; a feature that has
	// none shows as a gap in the indices.
	lf, err := vector.DecodeLineFeatures(unsafe.String(unsafe.SliceData(b), len(b)), func(i int, key string, v vector.JSONValue) error {
		if i != curFeature {
			if err := finish(); err != nil {
				return err
			}
			if i != curFeature+1 {
				return missing(curFeature + 1)
			}
			cur, curFeature = roadProps{}, i
		}
		if err := cur.set(key, v, &ids); err != nil {
			return fmt.Errorf("%s: feature %d: properties: %w", p, i, err)
		}
		return nil
	})
	if err == nil {
		err = finish()
	}
	if err != nil {
		var ge *vector.GeoJSONError
		if errors.As(err, &ge) {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		return nil, err
	}
	if len(recs) != len(lf.Lines) {
		return nil, missing(len(recs))
	}
	idText := string(ids)
	n := &RoadNetwork{Path: p, Edges: make([]RoadEdge, len(recs)), byID: make(map[string]int, len(recs))}
	for i := range n.Edges {
		r := &recs[i]
		e := &n.Edges[i]
		*e = RoadEdge{ID: idText[r.idOff : r.idOff+r.idLen], U: r.u, V: r.v, LengthM: r.length, TravelTimeMin: r.tt,
			FloodRisk: r.risk, Flooded: r.flooded, Blocked: r.blocked, Coords: lf.Lines[i]}
		for k, c := range e.Coords {
			if !finiteLonLat(c[0], c[1]) {
				return nil, fmt.Errorf("%s: feature %d: vertex %d is not a valid WGS84 position", p, i, k)
			}
		}
		if _, dup := n.byID[e.ID]; dup {
			return nil, fmt.Errorf("%s: duplicate edge_id %s", p, e.ID)
		}
		n.byID[e.ID] = i
	}
	if len(n.Edges) == 0 {
		return nil, fmt.Errorf("%s: no road edges", p)
	}
	return n, nil
}

func loadCandidates(env workers.Env, s *workers.Scene) ([]*RouteCandidate, error) {
	return loadDeclared(env, s, routeCandidatesFile, parseCandidates)
}

func parseCandidates(p string, b []byte) ([]*RouteCandidate, error) {
	var fc geoFeatureCollection
	if err := unmarshalDeclared(p, b, &fc); err != nil {
		return nil, err
	}
	if fc.Type != "FeatureCollection" {
		return nil, fmt.Errorf("%s: not a GeoJSON FeatureCollection", p)
	}
	var out []*RouteCandidate
	seen := map[string]bool{}
	for i, f := range fc.Features {
		var pr struct {
			RouteID   string   `json:"route_id"`
			Strategy  string   `json:"strategy"`
			Rank      *int     `json:"rank"`
			EdgeIDs   []edgeID `json:"edge_ids"`
			ShelterID string   `json:"shelter_id"`
		}
		if err := gojson.Unmarshal(f.Properties, &pr); err != nil {
			return nil, fmt.Errorf("%s: feature %d: properties: %w", p, i, err)
		}
		pre, ok := strategyPrefix(pr.Strategy)
		if !ok {
			return nil, fmt.Errorf("%s: feature %d: strategy %q is not fastest, safest or balanced", p, i, pr.Strategy)
		}
		if !strings.HasPrefix(pr.RouteID, pre) || len(pr.RouteID) < 2 {
			return nil, fmt.Errorf("%s: feature %d: route_id %q does not name a %s candidate (%s<n>)", p, i, pr.RouteID, pr.Strategy, pre)
		}
		if seen[pr.RouteID] {
			return nil, fmt.Errorf("%s: duplicate route_id %s", p, pr.RouteID)
		}
		seen[pr.RouteID] = true
		if len(pr.EdgeIDs) == 0 {
			return nil, fmt.Errorf("%s: route %s declares no edge_ids", p, pr.RouteID)
		}
		c := &RouteCandidate{ID: pr.RouteID, Strategy: pr.Strategy, ShelterID: pr.ShelterID}
		if pr.Rank != nil {
			if *pr.Rank < 1 {
				return nil, fmt.Errorf("%s: route %s: rank must be a positive integer", p, pr.RouteID)
			}
			c.Rank = *pr.Rank
		}
		for _, id := range pr.EdgeIDs {
			c.EdgeIDs = append(c.EdgeIDs, string(id))
		}
		var err error
		if c.Coords, err = parseLineString(p, i, f.Geometry); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	for _, st := range routeStrategies {
		found := false
		for _, c := range out {
			found = found || c.Strategy == st
		}
		if !found {
			return nil, fmt.Errorf("%s: no %s candidate route", p, st)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// coordTolDeg is the tolerance, in degrees (about 1 cm), within which a
// route geometry vertex must equal its edges' vertices.
const coordTolDeg = 1e-7

// decomposeRoute walks a candidate's declared edges from the origin node to
// the shelter node and checks that the route geometry is the concatenation
// of the edge geometries (each edge traversed in either direction).
func decomposeRoute(c *RouteCandidate, net *RoadNetwork, meta *RouteMetadata) ([]*RoadEdge, error) {
	if c.ShelterID != meta.Shelter.ID {
		return nil, fmt.Errorf("route %s is attached to shelter %q, the metadata declares %q", c.ID, c.ShelterID, meta.Shelter.ID)
	}
	edges := make([]*RoadEdge, 0, len(c.EdgeIDs))
	node := meta.Origin.NodeID
	// The walk has as many vertices as a matching geometry: sized once,
	// an edge walked v to u appended in reverse in place.
	walk := make([][2]float64, 0, len(c.Coords))
	for k, id := range c.EdgeIDs {
		e, ok := net.Edge(id)
		if !ok {
			return nil, fmt.Errorf("route %s: edge %s is not a declared road edge of %s", c.ID, id, net.Path)
		}
		skip := 0
		if len(walk) > 0 {
			skip = 1
		}
		switch node {
		case e.U:
			node = e.V
			walk = append(walk, e.Coords[skip:]...)
		case e.V:
			node = e.U
			for i := len(e.Coords) - 1 - skip; i >= 0; i-- {
				walk = append(walk, e.Coords[i])
			}
		default:
			return nil, fmt.Errorf("route %s: edge %d (%s, %d-%d) does not continue from node %d", c.ID, k, id, e.U, e.V, node)
		}
		edges = append(edges, e)
	}
	if node != meta.Shelter.NodeID {
		return nil, fmt.Errorf("route %s ends at node %d, not at the shelter's node %d", c.ID, node, meta.Shelter.NodeID)
	}
	if len(walk) != len(c.Coords) {
		return nil, fmt.Errorf("route %s: geometry has %d vertices, its edges %d", c.ID, len(c.Coords), len(walk))
	}
	for k := range walk {
		if math.Abs(walk[k][0]-c.Coords[k][0]) > coordTolDeg || math.Abs(walk[k][1]-c.Coords[k][1]) > coordTolDeg {
			return nil, fmt.Errorf("route %s: geometry vertex %d (%v) is not on its declared edges (%v)", c.ID, k, c.Coords[k], walk[k])
		}
	}
	return edges, nil
}

// BlockedRoads is the payload of EstimateExposure(exposure=blocked_roads):
// the scene's road edges screened against the declared flood flags.
type BlockedRoads struct {
	scene *routeScene
	// Blocked is the set of blocked edge ids.
	Blocked map[string]bool
	// Counts of edges: all, blocked, flooded, risky (flood_risk > 0).
	Edges, BlockedCount, FloodedCount, RiskyCount int
	// Cross-check of the flood flags against the declared Copernicus
	// extent (planar in WGS84): edges whose geometry meets an extent
	// polygon, flooded-flagged edges that do not, and blocked edges that
	// do not.
	ExtentEdges, FloodedOutsideExtent, BlockedOutsideExtent int
}

// floodPolygons are the flood extent's polygons with their bounds, for
// screening road edges against the extent.
type floodPolygons struct {
	polys  []orb.Polygon
	bounds []orb.Bound
}

func newFloodPolygons(fl *FloodExtent) floodPolygons {
	f := floodPolygons{polys: make([]orb.Polygon, 0, len(fl.Polygons)), bounds: make([]orb.Bound, 0, len(fl.Polygons))}
	for _, p := range fl.Polygons {
		op := make(orb.Polygon, len(p))
		for k, r := range p {
			op[k] = make(orb.Ring, len(r))
			for j, pt := range r {
				op[k][j] = orb.Point(pt)
			}
		}
		f.polys = append(f.polys, op)
		f.bounds = append(f.bounds, op.Bound())
	}
	return f
}

// meets reports whether a road's geometry meets an extent polygon. A road
// is tested only against polygons its own bound meets
// (LineIntersectsPolygon makes the same check first). The extent has a
// polygon or two (the synth --full corpus: 1 to 2 polygons of 41 to 82
// vertices against about 2,450 edges; the bounds are computed once, not
// per edge and polygon), where this scan of the bounds and
// an r-tree of them cost the same (BenchmarkExtentJoin; the tree pays
// from tens of polygons on).
func (f floodPolygons) meets(line orb.LineString) bool {
	lb := line.Bound()
	for k, p := range f.polys {
		if len(line) > 0 && !lb.Intersects(f.bounds[k]) {
			continue
		}
		if vector.LineIntersectsPolygonBounds(line, lb, p, f.bounds[k]) {
			return true
		}
	}
	return false
}

// blockedSet returns the ids of the edges whose declared blocked flag is
// set; a blocked edge must also be flagged as flooded.
func blockedSet(n *RoadNetwork) (map[string]bool, error) {
	out := map[string]bool{}
	for i := range n.Edges {
		e := &n.Edges[i]
		if e.Blocked {
			if !e.Flooded {
				return nil, fmt.Errorf("%s: edge %s is blocked but not flagged as flooded", n.Path, e.ID)
			}
			out[e.ID] = true
		}
	}
	return out, nil
}

// estimateBlockedRoads implements EstimateExposure(exposure=blocked_roads)
// of type 36: it screens the declared road edges and records which are
// blocked by the flood, the evidence PlanRoutes consumes.
func estimateBlockedRoads(env workers.Env, a workers.Args) (*workers.Result, error) {
	rs, err := openRouteWork(env, a)
	if err != nil {
		return nil, err
	}
	blocked, err := blockedSet(rs.network)
	if err != nil {
		return nil, err
	}
	fl, err := loadFloodExtent(env, rs.scene)
	if err != nil {
		return nil, err
	}
	extent := newFloodPolygons(fl)
	var line orb.LineString
	br := &BlockedRoads{scene: rs, Blocked: blocked, Edges: len(rs.network.Edges), BlockedCount: len(blocked)}
	for i := range rs.network.Edges {
		e := &rs.network.Edges[i]
		if e.Flooded {
			br.FloodedCount++
		}
		if e.FloodRisk > 0 {
			br.RiskyCount++
		}
		line = line[:0]
		for _, pt := range e.Coords {
			line = append(line, orb.Point(pt))
		}
		meets := extent.meets(line)
		switch {
		case meets:
			br.ExtentEdges++
		case e.Blocked:
			br.BlockedOutsideExtent++
			br.FloodedOutsideExtent++
		case e.Flooded:
			br.FloodedOutsideExtent++
		}
	}
	ids := make([]string, 0, len(blocked))
	for id := range blocked {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return &workers.Result{
		Evidence: map[string]any{
			"exposure": "blocked_roads", "source": rs.network.Path,
			"edge_count": br.Edges, "blocked_edge_count": br.BlockedCount,
			"flooded_edge_count": br.FloodedCount, "risky_edge_count": br.RiskyCount,
			"blocked_edge_ids": ids,
			"rule":             "an edge is blocked when its declared blocked flag is true (blocked edges are flooded)",
			"flood_extent": map[string]any{
				"source": fl.Path, "polygons": len(fl.Polygons), "edges_meeting_extent": br.ExtentEdges,
				"flooded_edges_outside_extent": br.FloodedOutsideExtent, "blocked_edges_outside_extent": br.BlockedOutsideExtent,
			},
		},
		Payload: br,
	}, nil
}

func openRouteWork(env workers.Env, a workers.Args) (*routeScene, error) {
	w, _, err := workers.OpenResult[*workers.Work](env, a, "input", "work (PrepareScene mode=flood_safe_routing)")
	if err != nil {
		return nil, err
	}
	if w.Mode != "flood_safe_routing" {
		return nil, a.Errorf("input", "routing needs a flood_safe_routing work context, got mode %s", w.Mode)
	}
	return loadRouteScene(env, w)
}

// RoutePlan is PlanRoutes' payload: every candidate decomposed and
// recomputed, screened against the blocked edges.
type RoutePlan struct {
	Objective string
	Metadata  *RouteMetadata
	// Metrics are the candidates' recomputed metrics sorted by route id.
	Metrics []*RouteMetrics
	// Candidates are the parsed candidates sorted by route id.
	Candidates []*RouteCandidate
	Blocked    map[string]bool
	// Selected is the fastest-objective winner (nearest_reachable_shelter
	// only).
	Selected *RouteMetrics
	// CachedMismatches counts candidates whose packaged scores disagree.
	CachedMismatches int
	// Overlay holds the layers RenderMap draws (overlay_routes only).
	Overlay *OverlayInputs
	scene   *routeScene
}

// Metric returns a candidate's metrics by route id.
func (p *RoutePlan) Metric(id string) *RouteMetrics {
	for _, m := range p.Metrics {
		if m.RouteID == id {
			return m
		}
	}
	return nil
}

// planRoutes builds a PlanRoutes variant. nearest_reachable_shelter (type
// 36) consumes the blocked-road exposure; candidate_routes (type 37) and
// overlay_routes (type 38) consume the work context and screen the edges
// themselves.
func planRoutes(objective string) func(env workers.Env, a workers.Args) (*workers.Result, error) {
	return func(env workers.Env, a workers.Args) (*workers.Result, error) {
		if a.Has(avoidFloodArg) && !a.Bool(avoidFloodArg) {
			return nil, a.Errorf(avoidFloodArg, "unscreened routing is not supported: flood-affected roads must be avoided (true)")
		}
		var rs *routeScene
		var blocked map[string]bool
		if objective == ObjectiveNearestShelter {
			if h, err := env.Open(a.String("input")); err == nil && h.Result != nil {
				if _, ok := h.Result.Payload.(*workers.Work); ok {
					return nil, a.Errorf("input", "%s is an unscreened work context; %s consumes the blocked-road exposure from EstimateExposure(exposure=blocked_roads)", h.Name, objective)
				}
			}
			br, _, err := workers.OpenResult[*BlockedRoads](env, a, "input", "exposure (EstimateExposure exposure=blocked_roads)")
			if err != nil {
				return nil, err
			}
			rs, blocked = br.scene, br.Blocked
		} else {
			var err error
			if rs, err = openRouteWork(env, a); err != nil {
				return nil, err
			}
			if blocked, err = blockedSet(rs.network); err != nil {
				return nil, err
			}
		}
		plan := &RoutePlan{Objective: objective, Metadata: rs.meta, Candidates: rs.candidates, Blocked: blocked, scene: rs}
		for _, c := range rs.candidates {
			edges, err := decomposeRoute(c, rs.network, rs.meta)
			if err != nil {
				return nil, fmt.Errorf("PlanRoutes: %s: %w", rs.network.Path, err)
			}
			m := computeRouteMetrics(c, edges, blocked)
			for _, v := range []float64{m.DistanceM, m.ETAMin, m.LengthWeightedRisk, m.Costs[StrategyFastest], m.Costs[StrategySafest], m.Costs[StrategyBalanced]} {
				if !workers.Finite(v) {
					return nil, fmt.Errorf("PlanRoutes: route %s: a recomputed metric is not finite", c.ID)
				}
			}
			plan.Metrics = append(plan.Metrics, m)
		}
		cached, err := loadCachedScores(env, rs.scene)
		if err != nil {
			return nil, err
		}
		for _, m := range plan.Metrics {
			checkCached(m, cached)
			if !m.CachedMatch {
				plan.CachedMismatches++
			}
		}
		if objective == ObjectiveNearestShelter {
			if plan.Selected, err = selectRoute(plan.Metrics, StrategyFastest); err != nil {
				return nil, fmt.Errorf("PlanRoutes(objective=%s): %w", objective, err)
			}
		}
		if objective == ObjectiveOverlay {
			if plan.Overlay, err = loadOverlayInputs(env, rs); err != nil {
				return nil, err
			}
		}
		ev := map[string]any{
			"objective": objective, "screening": avoidFloodArg + "=true",
			"candidate_count": len(plan.Metrics), "blocked_edge_count": len(blocked),
			"candidates": metricsEvidence(plan.Metrics), "cached_score_mismatches": plan.CachedMismatches,
			"origin_node": rs.meta.Origin.NodeID, "shelter_id": rs.meta.Shelter.ID, "shelter_node": rs.meta.Shelter.NodeID,
			"confidence": rs.meta.Confidence,
			"scope":      "validation of packaged candidates against declared road-edge costs; no graph search, no evacuation advice",
		}
		if plan.Selected != nil {
			ev["selected_route_id"] = plan.Selected.RouteID
			ev["selection_rule"] = "eligible (0 blocked edges) F candidate with least sum(travel_time_min); ties by ETA, distance, route id"
		}
		return &workers.Result{Evidence: ev, Payload: plan}, nil
	}
}

func metricsEvidence(ms []*RouteMetrics) []any {
	out := make([]any, 0, len(ms))
	for _, m := range ms {
		out = append(out, routeMetricsJSON(m, ""))
	}
	return out
}

// routeMetricsJSON returns a candidate's metrics as evidence; with a
// strategy, objective_cost is that strategy's cost.
func routeMetricsJSON(m *RouteMetrics, strategy string) map[string]any {
	out := map[string]any{
		"route_id": m.RouteID, "strategy": m.Strategy, "rank": m.Rank,
		"distance_m": m.DistanceM, "eta_min": m.ETAMin, "node_count": m.NodeCount,
		"edge_count": m.EdgeCount, "blocked_edge_count": m.BlockedEdges,
		"length_weighted_flood_risk": m.LengthWeightedRisk, "eligible": m.Eligible(),
		"costs":         map[string]any{"fastest": m.Costs[StrategyFastest], "safest": m.Costs[StrategySafest], "balanced": m.Costs[StrategyBalanced]},
		"cached_scores": map[string]any{"match": m.CachedMatch, "detail": m.CachedErr},
	}
	if strategy != "" {
		out["objective_cost"] = m.Cost(strategy)
	}
	return out
}

// cachedScore is one packaged route_scores.json entry.
type cachedScore struct {
	RouteID      string   `json:"route_id"`
	DistanceM    *float64 `json:"distance_m"`
	ETAMin       *float64 `json:"eta_min"`
	Blocked      *int     `json:"blocked_edge_count"`
	Risk         *float64 `json:"length_weighted_flood_risk"`
	ObjectiveCst *float64 `json:"objective_cost"`
}

func loadCachedScores(env workers.Env, s *workers.Scene) (map[string]cachedScore, error) {
	return loadDeclared(env, s, routeScoresFile, parseCachedScores)
}

func parseCachedScores(p string, b []byte) (map[string]cachedScore, error) {
	var doc struct {
		Routes []cachedScore `json:"routes"`
	}
	if err := unmarshalDeclared(p, b, &doc); err != nil {
		return nil, err
	}
	out := map[string]cachedScore{}
	for _, r := range doc.Routes {
		if r.RouteID == "" {
			return nil, fmt.Errorf("%s: a route score has no route_id", p)
		}
		out[r.RouteID] = r
	}
	return out, nil
}

// checkCached compares a recomputed candidate with its packaged score; the
// packaged product is validated, never trusted.
func checkCached(m *RouteMetrics, cached map[string]cachedScore) {
	c, ok := cached[m.RouteID]
	if !ok {
		m.CachedErr = "no packaged score"
		return
	}
	var bad []string
	near := func(name string, p *float64, v float64) {
		if p == nil || math.Abs(*p-v) > 1e-6 {
			bad = append(bad, name)
		}
	}
	near("distance_m", c.DistanceM, m.DistanceM)
	near("eta_min", c.ETAMin, m.ETAMin)
	near("length_weighted_flood_risk", c.Risk, m.LengthWeightedRisk)
	near("objective_cost", c.ObjectiveCst, m.Cost(m.Strategy))
	if c.Blocked == nil || *c.Blocked != m.BlockedEdges {
		bad = append(bad, "blocked_edge_count")
	}
	if len(bad) > 0 {
		m.CachedErr = "packaged " + strings.Join(bad, ", ") + " disagree with the declared edges"
		return
	}
	m.CachedMatch = true
}

// RouteComparison is CompareRoutes' payload: the winners of the three
// objectives and the safest-versus-fastest trade-off.
type RouteComparison struct {
	Plan *RoutePlan
	// Selected maps each strategy to its winner.
	Selected map[string]*RouteMetrics
	// Deltas: S1 minus F1 for distance and ETA, F1 minus S1 for the
	// length-weighted (displayed mean) risk.
	DistanceDeltaM, ETADeltaMin, RiskReduction float64
	// SameGeometry reports whether S1 and F1 walk the same edges.
	SameGeometry bool
	// PlanHandle is the routes handle compared.
	PlanHandle string
}

// compareRoutes implements CompareRoutes over the fastest, safest-weighted
// and balanced objectives (spec type 37): it consumes the routes handle and
// reads no file.
func compareRoutes(env workers.Env, a workers.Args) (*workers.Result, error) {
	plan, h, err := workers.OpenResult[*RoutePlan](env, a, "input", "routes (PlanRoutes objective=candidate_routes or overlay_routes)")
	if err != nil {
		return nil, err
	}
	if plan.Objective == ObjectiveNearestShelter {
		return nil, a.Errorf("input", "%s was planned for %s (fastest group only); CompareRoutes needs candidate_routes or overlay_routes", h.Name, plan.Objective)
	}
	rc := &RouteComparison{Plan: plan, Selected: map[string]*RouteMetrics{}, PlanHandle: h.Name}
	sel := map[string]any{}
	for _, st := range routeStrategies {
		m, err := selectRoute(plan.Metrics, st)
		if err != nil {
			return nil, fmt.Errorf("CompareRoutes: %w", err)
		}
		rc.Selected[st] = m
		sel[st] = routeMetricsJSON(m, st)
	}
	f, s := rc.Selected[StrategyFastest], rc.Selected[StrategySafest]
	rc.DistanceDeltaM = s.DistanceM - f.DistanceM
	rc.ETADeltaMin = s.ETAMin - f.ETAMin
	rc.RiskReduction = f.LengthWeightedRisk - s.LengthWeightedRisk
	rc.SameGeometry = s.EdgeKey == f.EdgeKey
	return &workers.Result{
		Evidence: map[string]any{
			"objectives": RouteStrategies(), "input": h.Name, "selected": sel,
			"cost_formulas": map[string]any{
				"fastest":  "sum(travel_time_min)",
				"safest":   "sum(travel_time_min * (1 + 10*flood_risk))",
				"balanced": "sum(travel_time_min * (1 + 4*flood_risk))",
			},
			"eligibility": "zero blocked edges", "tie_breakers": []any{"objective_cost", "eta_min", "distance_m", "route_id"},
			"tradeoff": map[string]any{
				"distance_delta_m_s1_minus_f1": rc.DistanceDeltaM, "eta_delta_min_s1_minus_f1": rc.ETADeltaMin,
				"mean_risk_delta_f1_minus_s1": rc.RiskReduction, "same_geometry": rc.SameGeometry,
			},
			"recommendation": nil,
		},
		Payload: rc,
	}, nil
}

// schemaFiles holds schemas/<question_type>.json, the answer schemas.
//
//go:embed schemas/*.json
var schemaFiles embed.FS

// Def declares the routing family (question types 36-38).
func Def() workers.FamilyDef {
	return workers.NewFamilyDef(workers.Routing, routingVariants, routingProjectors(), schemaFiles)
}
