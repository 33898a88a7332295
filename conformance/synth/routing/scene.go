package routing

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"sort"
	"strings"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// Synthetic flood-safe routing scenes (types 36-38): a Sentinel-2-like RGB
// chip in a UTM zone, a jittered street grid of about 2,300-2,500
// OSM-like road edges around it, one or two Copernicus-like flood
// ellipses that set the edges' flood_risk/flooded/blocked attributes, and
// nine packaged candidate routes (three per strategy) chosen from a pool of
// monotone lattice paths between the origin and the shelter. The gold is
// computed here from these structures, never by the workers.

// Scene variants (i % rtVariants) and the edge cases they carry.
const (
	rtStandard   = iota // distinct F1/S1 winners, blocked edges off the candidates
	rtIdentical         // S1 and B1 share F1's geometry (zero trade-off); no blocked road in the scene
	rtTies              // dyadic values: F1 (cheapest) is blocked and its cached score claims otherwise, F2/F3 tie on cost and ETA (distance decides), S2/S3 are identical (route id decides)
	rtZeroRisk          // flood extent in a road gap: every edge has flood_risk 0, zero risky/blocked roads
	rtStaleRanks        // packaged F ranks swapped (the label F1 is not the cheapest) and its cached score stale; shelter outside the chip
	rtOriginOut         // origin outside the chip; a larger blocked core
	rtVariants
)

const (
	rtGridN    = 37    // nodes per axis
	rtSpacing  = 160.0 // metres between grid nodes
	rtMargin   = 240.0 // network extent beyond the chip's upper-left corner
	rtPixel    = 10.0  // RGB pixel size in metres
	rtChipSize = 512   // RGB chip width and height in pixels
)

type rtNode struct {
	id     int64
	e, n   float64 // UTM
	lon    float64
	lat    float64
	hasPos bool
}

type rtEdge struct {
	id            string
	u, v          int64
	a, b          [2]int // grid (row, col) of u and v
	coords        [][2]float64
	utm           [][2]float64
	length, tt    float64
	risk          float64
	flooded, blkd bool
	highway       string
	removed       bool
}

type rtEllipse struct{ e, n, rx, ry, core float64 }

type rtCand struct {
	id, strategy string
	rank         int
	path         []*rtEdge
}

type rtScene struct {
	sample  string
	variant int
	epsg    int
	c       crs.CRS
	t       crs.Affine
	e0, n0  float64
	nodes   [rtGridN][rtGridN]rtNode
	edges   []*rtEdge
	edgeAt  map[[4]int]*rtEdge
	origin  [2]int
	shelter [2]int
	floods  []rtEllipse
	cands   []*rtCand
	dyadic  bool
	// staleF1 marks the F1 entry of route_scores.json as stale.
	staleF1 bool
	// geo, when set, writes the RGB chip in EPSG:4326 on geoT (the
	// north-up grid over the UTM chip's footprint), as a user exports it.
	geo  bool
	geoT crs.Affine
}

// rtSites are UTM-zone AOI centres in flood-prone regions (lon, lat).
var rtSites = [][2]float64{{16.02, 45.31}, {7.48, 50.71}, {90.41, 23.79}, {-90.08, 29.96}, {106.83, -6.21}, {121.02, 14.58}, {-48.52, -27.6}, {30.06, -1.95}}

var rtShelterNames = []string{"Public School No. 12", "Community Hall", "Sports Centre", "Municipal Library", "Health Post", "Parish Hall", "Primary School", "Civic Centre"}

// rtUnit draws a uniform [0, 1) value, rounded on its own so that no
// platform fuses it into a following multiply-add.
func rtUnit(g *core.Gen) float64 { return float64(g.Rng.Float64()) }

// genRouteScene builds one scene.
func genRouteScene(g *core.Gen, sample string, variant int) (*rtScene, error) {
	site := rtSites[g.Rng.IntN(len(rtSites))]
	lon := site[0] + float64((rtUnit(g)-0.5)*0.2)
	lat := site[1] + float64((rtUnit(g)-0.5)*0.2)
	zone := int(math.Floor((lon+180)/6)) + 1
	epsg := 32600 + zone
	if lat < 0 {
		epsg = 32700 + zone
	}
	c, err := crs.FromEPSG(epsg)
	if err != nil {
		return nil, err
	}
	ce, cn, err := c.FromLonLat(lon, lat)
	if err != nil {
		return nil, err
	}
	s := &rtScene{sample: sample, variant: variant, epsg: epsg, c: c, edgeAt: map[[4]int]*rtEdge{}, dyadic: variant == rtTies}
	s.e0 = math.Round((ce-2560)/rtPixel) * rtPixel
	s.n0 = math.Round((cn+2560)/rtPixel) * rtPixel
	s.t = crs.Affine{rtPixel, 0, s.e0, 0, -rtPixel, s.n0}
	for r := 0; r < rtGridN; r++ {
		for k := 0; k < rtGridN; k++ {
			nd := &s.nodes[r][k]
			nd.id = int64(100000 + r*rtGridN + k)
			nd.e = s.e0 - rtMargin + float64(float64(k)*rtSpacing) + float64((rtUnit(g)-0.5)*60)
			nd.n = s.n0 + rtMargin - float64(float64(r)*rtSpacing) + float64((rtUnit(g)-0.5)*60)
			if nd.lon, nd.lat, err = s.lonlat(nd.e, nd.n); err != nil {
				return nil, err
			}
		}
	}
	// Origin and shelter grid positions (rows grow southwards).
	s.origin = [2]int{4 + g.Rng.IntN(6), 4 + g.Rng.IntN(6)}
	s.shelter = [2]int{22 + g.Rng.IntN(8), 22 + g.Rng.IntN(8)}
	switch variant {
	case rtStaleRanks:
		s.shelter[1] = rtGridN - 1 // east of the chip
	case rtOriginOut:
		s.origin[0] = 0 // north of the chip
	}
	// Flood ellipses.
	or, oc := float64(s.origin[0]), float64(s.origin[1])
	sr, sc := float64(s.shelter[0]), float64(s.shelter[1])
	switch variant {
	case rtZeroRisk:
		e, n := s.gridPos(30, 2)
		s.floods = []rtEllipse{{e: e, n: n, rx: 300, ry: 300, core: 0}}
	default:
		fr := or + float64((sr-or)*(0.35+float64(0.3*g.Rng.Float64())))
		fc := oc + float64((sc-oc)*(0.35+float64(0.3*g.Rng.Float64())))
		e, n := s.gridPos(fr, fc)
		core := 0.5
		if variant == rtOriginOut {
			core = 0.75
		}
		s.floods = append(s.floods, rtEllipse{e: e, n: n, rx: 450 + float64(400*g.Rng.Float64()), ry: 450 + float64(400*g.Rng.Float64()), core: core})
		if g.Rng.IntN(2) == 0 {
			e2, n2 := s.gridPos(3+float64(g.Rng.Float64()*30), 3+float64(g.Rng.Float64()*30))
			s.floods = append(s.floods, rtEllipse{e: e2, n: n2, rx: 250 + float64(250*g.Rng.Float64()), ry: 250 + float64(250*g.Rng.Float64()), core: 0.4})
		}
	}
	if err := s.buildEdges(g); err != nil {
		return nil, err
	}
	if err := s.chooseCandidates(g); err != nil {
		return nil, err
	}
	// Drop about 8% of the edges no candidate uses (a less regular network).
	used := map[*rtEdge]bool{}
	for _, c := range s.cands {
		for _, e := range c.path {
			used[e] = true
		}
	}
	for _, e := range s.edges {
		if !used[e] && g.Rng.IntN(100) < 8 {
			e.removed = true
		}
	}
	return s, nil
}

// useGeographicChip puts the RGB chip on the north-up EPSG:4326 grid over
// the UTM chip's footprint: its corners' extreme longitudes and latitudes,
// rounded outwards to 1e-7 degrees, cut into the same 512 x 512 pixels.
func (s *rtScene) useGeographicChip() error {
	west, east, south, north := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	size := float64(rtChipSize * rtPixel)
	for _, c := range [][2]float64{{0, 0}, {size, 0}, {0, size}, {size, size}} {
		lon, lat, err := s.c.ToLonLat(s.e0+c[0], s.n0-c[1])
		if err != nil {
			return err
		}
		west, east = math.Min(west, lon), math.Max(east, lon)
		south, north = math.Min(south, lat), math.Max(north, lat)
	}
	west, north = math.Floor(west*1e7)/1e7, math.Ceil(north*1e7)/1e7
	east, south = math.Ceil(east*1e7)/1e7, math.Floor(south*1e7)/1e7
	s.geo = true
	s.geoT = crs.Affine{(east - west) / rtChipSize, 0, west, 0, -(north - south) / rtChipSize, north}
	return nil
}

// gridPos returns the nominal UTM position of fractional grid (row, col).
func (s *rtScene) gridPos(r, c float64) (float64, float64) {
	return s.e0 - rtMargin + float64(c*rtSpacing), s.n0 + rtMargin - float64(r*rtSpacing)
}

// lonlat converts UTM to WGS84, rounded to 7 decimals (OSM precision).
func (s *rtScene) lonlat(e, n float64) (float64, float64, error) {
	lon, lat, err := s.c.ToLonLat(e, n)
	if err != nil {
		return 0, 0, err
	}
	return workers.RoundHalfEven(lon, 7), workers.RoundHalfEven(lat, 7), nil
}

// floodQ returns the smallest normalized ellipse distance of a UTM point
// and its ellipse.
func (s *rtScene) floodQ(e, n float64) (float64, *rtEllipse) {
	best, bi := math.Inf(1), -1
	for i, f := range s.floods {
		dx, dy := (e-f.e)/f.rx, (n-f.n)/f.ry
		if q := math.Sqrt(float64(dx*dx) + float64(dy*dy)); q < best {
			best, bi = q, i
		}
	}
	if bi < 0 {
		return best, nil
	}
	return best, &s.floods[bi]
}

func highwayOf(idx int) (string, float64) {
	switch {
	case idx%6 == 0:
		return "primary", 50
	case idx%3 == 0:
		return "secondary", 40
	}
	return "residential", 25
}

// buildEdges creates the horizontal and vertical grid edges with a
// jittered middle vertex and their declared attributes.
func (s *rtScene) buildEdges(g *core.Gen) error {
	id := 0
	add := func(a, b [2]int, hw string, speed float64) error {
		na, nb := &s.nodes[a[0]][a[1]], &s.nodes[b[0]][b[1]]
		me := float64((na.e+nb.e)/2) + float64((rtUnit(g)-0.5)*30)
		mn := float64((na.n+nb.n)/2) + float64((rtUnit(g)-0.5)*30)
		mlon, mlat, err := s.lonlat(me, mn)
		if err != nil {
			return err
		}
		e := &rtEdge{id: fmt.Sprintf("e%05d", id), u: na.id, v: nb.id, a: a, b: b, highway: hw}
		id++
		e.utm = [][2]float64{{na.e, na.n}, {me, mn}, {nb.e, nb.n}}
		e.coords = [][2]float64{{na.lon, na.lat}, {mlon, mlat}, {nb.lon, nb.lat}}
		l := 0.0
		for k := 1; k < 3; k++ {
			dx, dy := e.utm[k][0]-e.utm[k-1][0], e.utm[k][1]-e.utm[k-1][1]
			l += math.Sqrt(float64(dx*dx) + float64(dy*dy))
		}
		l *= 1 + float64(0.02*g.Rng.Float64())
		tt := l / (speed * 1000 / 60)
		q, f := s.floodQ(me, mn)
		risk := math.Max(0, math.Min(1, (1.8-q)/1.2))
		if s.dyadic {
			e.length = math.Round(l*4) / 4
			e.tt = math.Max(1, math.Round(tt*64)) / 64
			e.risk = math.Round(risk*128) / 128
		} else {
			e.length = workers.RoundHalfEven(l, 2)
			e.tt = workers.RoundHalfEven(tt, 4)
			e.risk = workers.RoundHalfEven(risk, 3)
		}
		e.flooded = q <= 1
		e.blkd = f != nil && q <= f.core
		switch s.variant {
		case rtIdentical:
			e.blkd = false
		case rtZeroRisk:
			e.risk, e.flooded, e.blkd = 0, false, false
			if q <= 1 {
				e.removed = true // the flood lies in a gap of the network
			}
		}
		s.edges = append(s.edges, e)
		s.edgeAt[[4]int{a[0], a[1], b[0], b[1]}] = e
		return nil
	}
	for r := 0; r < rtGridN; r++ {
		hw, sp := highwayOf(r)
		for k := 0; k+1 < rtGridN; k++ {
			if err := add([2]int{r, k}, [2]int{r, k + 1}, hw, sp); err != nil {
				return err
			}
		}
	}
	for k := 0; k < rtGridN; k++ {
		hw, sp := highwayOf(k)
		for r := 0; r+1 < rtGridN; r++ {
			if err := add([2]int{r, k}, [2]int{r + 1, k}, hw, sp); err != nil {
				return err
			}
		}
	}
	return nil
}

// pathEdges returns the edges of a monotone path given as moves ('D' one
// row south, 'R' one column east) from the origin.
func (s *rtScene) pathEdges(moves []byte) []*rtEdge {
	r, c := s.origin[0], s.origin[1]
	out := make([]*rtEdge, 0, len(moves))
	for _, m := range moves {
		nr, nc := r, c
		if m == 'D' {
			nr++
		} else {
			nc++
		}
		out = append(out, s.edgeAt[[4]int{r, c, nr, nc}])
		r, c = nr, nc
	}
	return out
}

type rtMetrics struct {
	dist, eta, risk float64
	cost            map[string]float64
	blocked, nodes  int
}

// rtMeasure computes a path's metrics the way the specification states
// them: float64 sums in route order.
func rtMeasure(p []*rtEdge) rtMetrics {
	m := rtMetrics{cost: map[string]float64{}, nodes: len(p) + 1}
	num, f, sf, b := 0.0, 0.0, 0.0, 0.0
	for _, e := range p {
		m.dist += e.length
		m.eta += e.tt
		num += float64(e.length * e.risk)
		f += e.tt
		sf += float64(e.tt * float64(1+float64(10*e.risk)))
		b += float64(e.tt * float64(1+float64(4*e.risk)))
		if e.blkd {
			m.blocked++
		}
	}
	m.risk = num / m.dist
	m.cost["fastest"], m.cost["safest"], m.cost["balanced"] = f, sf, b
	return m
}

func rtKey(p []*rtEdge) string {
	ids := make([]string, len(p))
	for i, e := range p {
		ids[i] = e.id
	}
	return strings.Join(ids, ",")
}

func rtBlocked(p []*rtEdge) bool {
	for _, e := range p {
		if e.blkd || e.removed {
			return true
		}
	}
	return false
}

// pool generates distinct monotone paths from origin to shelter.
func (s *rtScene) pool(g *core.Gen, n int) [][]*rtEdge {
	dr, dc := s.shelter[0]-s.origin[0], s.shelter[1]-s.origin[1]
	seen := map[string]bool{}
	var out [][]*rtEdge
	addMoves := func(m []byte) {
		p := s.pathEdges(m)
		k := rtKey(p)
		if !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	lshape := func(first byte) []byte {
		m := make([]byte, 0, dr+dc)
		a, b, na, nb := byte('D'), byte('R'), dr, dc
		if first == 'R' {
			a, b, na, nb = 'R', 'D', dc, dr
		}
		for i := 0; i < na; i++ {
			m = append(m, a)
		}
		for i := 0; i < nb; i++ {
			m = append(m, b)
		}
		return m
	}
	addMoves(lshape('D'))
	addMoves(lshape('R'))
	for t := 0; len(out) < n && t < 20*n; t++ {
		// Block-structured random paths: runs of moves along one street.
		m := make([]byte, 0, dr+dc)
		rd, rc := dr, dc
		for rd > 0 || rc > 0 {
			var mv byte = 'R'
			if rc == 0 || (rd > 0 && g.Rng.IntN(2) == 0) {
				mv = 'D'
			}
			run := 1 + g.Rng.IntN(6)
			for k := 0; k < run; k++ {
				if mv == 'D' && rd > 0 {
					m = append(m, 'D')
					rd--
				} else if mv == 'R' && rc > 0 {
					m = append(m, 'R')
					rc--
				}
			}
		}
		addMoves(m)
	}
	return out
}

// rtBest returns the eligible paths sorted by a strategy's cost (ETA,
// distance, key as tie-breakers).
func rtBest(paths [][]*rtEdge, strategy string) [][]*rtEdge {
	var el [][]*rtEdge
	for _, p := range paths {
		if !rtBlocked(p) {
			el = append(el, p)
		}
	}
	sort.SliceStable(el, func(i, j int) bool {
		a, b := rtMeasure(el[i]), rtMeasure(el[j])
		if a.cost[strategy] != b.cost[strategy] {
			return a.cost[strategy] < b.cost[strategy]
		}
		if a.eta != b.eta {
			return a.eta < b.eta
		}
		if a.dist != b.dist {
			return a.dist < b.dist
		}
		return rtKey(el[i]) < rtKey(el[j])
	})
	return el
}

func (s *rtScene) setGroup(strategy string, paths ...[]*rtEdge) {
	pre := map[string]string{"fastest": "F", "safest": "S", "balanced": "B"}[strategy]
	for i, p := range paths {
		s.cands = append(s.cands, &rtCand{id: fmt.Sprintf("%s%d", pre, i+1), strategy: strategy, rank: i + 1, path: p})
	}
}

// chooseCandidates packages three candidates per strategy.
func (s *rtScene) chooseCandidates(g *core.Gen) error {
	pool := s.pool(g, 80)
	if len(rtBest(pool, "fastest")) < 4 {
		return fmt.Errorf("scene %s: only %d eligible candidate paths", s.sample, len(rtBest(pool, "fastest")))
	}
	top3 := func(st string, exclude ...string) [][]*rtEdge {
		var out [][]*rtEdge
		for _, p := range rtBest(pool, st) {
			skip := false
			for _, x := range exclude {
				skip = skip || rtKey(p) == x
			}
			if !skip && len(out) < 3 {
				out = append(out, p)
			}
		}
		return out
	}
	switch s.variant {
	case rtIdentical:
		f := top3("fastest")
		f1 := rtMeasure(f[0])
		rest := func(st string) [][]*rtEdge {
			out := [][]*rtEdge{f[0]}
			for _, p := range rtBest(pool, st) {
				if len(out) < 3 && rtKey(p) != rtKey(f[0]) && rtMeasure(p).cost[st] > f1.cost[st] {
					out = append(out, p)
				}
			}
			return out
		}
		s.setGroup("fastest", f...)
		s.setGroup("safest", rest("safest")...)
		s.setGroup("balanced", rest("balanced")...)
	case rtTies:
		return s.tieCandidates(pool)
	case rtStaleRanks:
		f := top3("fastest")
		f[0], f[1] = f[1], f[0]
		s.staleF1 = true
		s.setGroup("fastest", f...)
		s.setGroup("safest", top3("safest")...)
		s.setGroup("balanced", top3("balanced")...)
	default:
		s.setGroup("fastest", top3("fastest")...)
		s.setGroup("safest", top3("safest")...)
		s.setGroup("balanced", top3("balanced")...)
	}
	for _, st := range []string{"fastest", "safest", "balanced"} {
		n := 0
		for _, c := range s.cands {
			if c.strategy == st {
				n++
			}
		}
		if n != 3 {
			return fmt.Errorf("scene %s: %d %s candidates", s.sample, n, st)
		}
	}
	return nil
}

// tieCandidates builds the dyadic tie scene: F1 is the cheapest F
// candidate but crosses a blocked edge; F2 and F3 tie exactly on cost and
// ETA with F3 shorter; S2 and S3 are the same path (a full tie decided by
// route id) and S1 is F1's blocked path.
func (s *rtScene) tieCandidates(pool [][]*rtEdge) error {
	best := rtBest(pool, "fastest")
	p2, p3 := best[0], best[1]
	on := map[*rtEdge]int{}
	for _, e := range p2 {
		on[e] |= 1
	}
	for _, e := range p3 {
		on[e] |= 2
	}
	var blocked []*rtEdge
	for _, p := range pool {
		if !rtBlocked(p) {
			continue
		}
		ok := true
		for _, e := range p {
			ok = ok && !e.removed
		}
		if ok {
			blocked = p
			break
		}
	}
	if blocked == nil {
		// Block one edge of a third path so F1 crosses the flood.
		p := best[2]
		for _, e := range p {
			if on[e] == 0 {
				e.blkd, e.flooded = true, true
				break
			}
		}
		blocked = p
	}
	for _, e := range blocked {
		if on[e] == 0 {
			on[e] |= 4
			e.tt /= 4
		}
	}
	// Tie F2's cost with F3's by lengthening an F2-only edge, then make F3
	// the shorter route by lengthening another F2-only edge.
	var own2 []*rtEdge
	for _, e := range p2 {
		if on[e] == 1 {
			own2 = append(own2, e)
		}
	}
	if len(own2) == 0 {
		return fmt.Errorf("scene %s: F2 has no edge of its own", s.sample)
	}
	m2, m3 := rtMeasure(p2), rtMeasure(p3)
	own2[0].tt += m3.eta - m2.eta
	if m2 = rtMeasure(p2); m3.dist >= m2.dist {
		own2[len(own2)-1].length += m3.dist - m2.dist + 0.5
	}
	m2 = rtMeasure(p2)
	if m3 = rtMeasure(p3); m3.eta != m2.eta || m3.dist >= m2.dist {
		return fmt.Errorf("scene %s: tie construction failed", s.sample)
	}
	if rtMeasure(blocked).eta >= m2.eta {
		for _, e := range blocked {
			if on[e]&3 == 0 {
				e.tt /= 4
			}
		}
	}
	s.setGroup("fastest", blocked, p2, p3)
	sBest := rtBest(pool, "safest")
	s.setGroup("safest", blocked, sBest[0], sBest[0])
	s.setGroup("balanced", rtBest(pool, "balanced")[:3]...)
	s.staleF1 = true
	return nil
}

// routeAnswer is the generator's own selection of a strategy's winner.
func (s *rtScene) winner(strategy string) (*rtCand, rtMetrics, error) {
	var best *rtCand
	var bm rtMetrics
	for _, c := range s.cands {
		if c.strategy != strategy {
			continue
		}
		m := rtMeasure(c.path)
		if m.blocked > 0 {
			continue
		}
		better := best == nil
		if !better {
			switch {
			case m.cost[strategy] != bm.cost[strategy]:
				better = m.cost[strategy] < bm.cost[strategy]
			case m.eta != bm.eta:
				better = m.eta < bm.eta
			case m.dist != bm.dist:
				better = m.dist < bm.dist
			default:
				better = c.id < best.id
			}
		}
		if better {
			best, bm = c, m
		}
	}
	if best == nil {
		return nil, bm, fmt.Errorf("scene %s: no eligible %s candidate", s.sample, strategy)
	}
	return best, bm, nil
}

// walk returns a candidate's node walk coordinates (lon/lat).
func (s *rtScene) walk(c *rtCand) [][2]float64 {
	var out [][2]float64
	for i, e := range c.path {
		co := e.coords
		if i > 0 {
			co = co[1:]
		}
		out = append(out, co...)
	}
	return out
}

// inChip reports whether a WGS84 position falls inside the RGB chip.
func (s *rtScene) inChip(lon, lat float64) (bool, error) {
	if s.geo {
		inv, err := s.geoT.Invert()
		if err != nil {
			return false, err
		}
		col, row := inv.Apply(lon, lat)
		return col >= 0 && col < rtChipSize && row >= 0 && row < rtChipSize, nil
	}
	e, n, err := s.c.FromLonLat(lon, lat)
	if err != nil {
		return false, err
	}
	col, row := (e-s.e0)/rtPixel, (s.n0-n)/rtPixel
	return col >= 0 && col < rtChipSize && row >= 0 && row < rtChipSize, nil
}

// files writes the seven declared inputs and returns their cards.
func (s *rtScene) files(g *core.Gen) ([]workers.FileCard, error) {
	dir := "source_assets/routing/" + s.sample + "/"
	var cards []workers.FileCard
	rgb, preview, err := s.rgb()
	if err != nil {
		return nil, err
	}
	epsg, t := s.epsg, s.t
	if s.geo {
		epsg, t = 4326, s.geoT
	}
	card, err := g.WriteTIFF(dir+"s2_rgb.tif", raster.WriteOptions{Compression: "deflate", Predictor: 2, TileSize: 256, EPSG: epsg, Transform: t,
		BandDescriptions: []string{"B04 red", "B03 green", "B02 blue"}}, rgb...)
	if err != nil {
		return nil, err
	}
	cards = append(cards, card)
	var pb bytes.Buffer
	if err := png.Encode(&pb, preview); err != nil {
		return nil, err
	}
	if card, err = g.Write(dir+"s2_rgb_preview.png", pb.Bytes()); err != nil {
		return nil, err
	}
	cards = append(cards, card)
	o, sh := s.nodes[s.origin[0]][s.origin[1]], s.nodes[s.shelter[0]][s.shelter[1]]
	conf := "low_fallback_public_facility"
	if s.variant == rtStaleRanks {
		conf = "medium_osm_tagged_shelter"
	}
	meta := map[string]any{
		"sample_id": s.sample, "crs": fmt.Sprintf("EPSG:%d", epsg),
		"origin":       map[string]any{"name": "evacuation origin", "node_id": o.id, "lon": o.lon, "lat": o.lat},
		"shelter":      map[string]any{"shelter_id": fmt.Sprintf("SH-%s", strings.TrimPrefix(s.sample, "synth_")), "name": rtShelterNames[int(sh.id)%len(rtShelterNames)], "node_id": sh.id, "lon": sh.lon, "lat": sh.lat, "facility_type": "public_facility"},
		"confidence":   conf,
		"flood_source": "Copernicus EMS rapid mapping (synthetic)", "roads_source": "OpenStreetMap via OSMnx (synthetic)",
	}
	if card, err = g.WriteJSON(dir+"metadata.json", meta); err != nil {
		return nil, err
	}
	cards = append(cards, card)
	var floodFeats []any
	for i, f := range s.floods {
		ring := make([][]float64, 0, 41)
		for k := 0; k <= 40; k++ {
			a := 2 * math.Pi * float64(k%40) / 40
			lon, lat, err := s.lonlat(f.e+float64(f.rx*math.Cos(a)), f.n+float64(f.ry*math.Sin(a)))
			if err != nil {
				return nil, err
			}
			ring = append(ring, []float64{lon, lat})
		}
		floodFeats = append(floodFeats, map[string]any{"type": "Feature", "properties": map[string]any{"id": i + 1, "event_type": "flood", "obs_type": "observed_flood_extent"},
			"geometry": map[string]any{"type": "Polygon", "coordinates": [][][]float64{ring}}})
	}
	if card, err = g.WriteJSON(dir+"flood_extent.geojson", map[string]any{"type": "FeatureCollection", "features": floodFeats}); err != nil {
		return nil, err
	}
	cards = append(cards, card)
	var roadFeats []any
	for _, e := range s.edges {
		if e.removed {
			continue
		}
		roadFeats = append(roadFeats, map[string]any{"type": "Feature",
			"properties": map[string]any{"edge_id": e.id, "u": e.u, "v": e.v, "highway": e.highway, "length_m": e.length,
				"travel_time_min": e.tt, "flood_risk": e.risk, "flooded": e.flooded, "blocked": e.blkd},
			"geometry": map[string]any{"type": "LineString", "coordinates": e.coords}})
	}
	rb, err := json.Marshal(map[string]any{"type": "FeatureCollection", "features": roadFeats})
	if err != nil {
		return nil, err
	}
	if card, err = g.Write(dir+"roads.geojson", rb); err != nil {
		return nil, err
	}
	cards = append(cards, card)
	var candFeats, scores []any
	for _, c := range s.cands {
		ids := make([]string, len(c.path))
		for i, e := range c.path {
			ids[i] = e.id
		}
		candFeats = append(candFeats, map[string]any{"type": "Feature",
			"properties": map[string]any{"route_id": c.id, "strategy": c.strategy, "rank": c.rank, "edge_ids": ids, "shelter_id": meta["shelter"].(map[string]any)["shelter_id"]},
			"geometry":   map[string]any{"type": "LineString", "coordinates": s.walk(c)}})
		m := rtMeasure(c.path)
		sc := map[string]any{"route_id": c.id, "strategy": c.strategy, "rank": c.rank,
			"distance_m": workers.RoundHalfEven(m.dist, 6), "eta_min": workers.RoundHalfEven(m.eta, 6), "blocked_edge_count": m.blocked,
			"length_weighted_flood_risk": workers.RoundHalfEven(m.risk, 6), "objective_cost": workers.RoundHalfEven(m.cost[c.strategy], 6)}
		if s.staleF1 && c.id == "F1" {
			// A stale packaged score: it claims an unblocked, quicker route.
			sc["blocked_edge_count"] = 0
			sc["eta_min"] = workers.RoundHalfEven(m.eta*0.9, 6)
			sc["objective_cost"] = workers.RoundHalfEven(m.cost[c.strategy]*0.9, 6)
		}
		scores = append(scores, sc)
	}
	if card, err = g.WriteJSON(dir+"candidate_routes.geojson", map[string]any{"type": "FeatureCollection", "features": candFeats}); err != nil {
		return nil, err
	}
	cards = append(cards, card)
	if card, err = g.WriteJSON(dir+"route_scores.json", map[string]any{"sample_id": s.sample, "routes": scores}); err != nil {
		return nil, err
	}
	cards = append(cards, card)
	return cards, nil
}

// rgb synthesizes the Sentinel-2-like true-colour chip: smooth land
// texture, water inside the flood ellipses, and its 128 x 128 preview.
func (s *rtScene) rgb() ([]*raster.Band, *image.RGBA, error) {
	var bands []*raster.Band
	for i := 0; i < 3; i++ {
		b, err := raster.NewBand(rtChipSize, rtChipSize, raster.Uint8)
		if err != nil {
			return nil, nil, err
		}
		bands = append(bands, b)
	}
	ph := float64(s.nodes[0][0].id%97) / 13
	for r := 0; r < rtChipSize; r++ {
		for c := 0; c < rtChipSize; c++ {
			e := s.e0 + float64((float64(c)+0.5)*rtPixel)
			n := s.n0 - float64((float64(r)+0.5)*rtPixel)
			t := float64(math.Sin(e/730+ph)*math.Cos(n/910-ph)) + float64(0.5*math.Sin((e+n)/310))
			red, grn, blu := 96+float64(22*t), 112+float64(28*t), 70+float64(12*t)
			if q, _ := s.floodQ(e, n); q <= 1 {
				red, grn, blu = 52+float64(6*t), 74+float64(6*t), 104+float64(8*t)
			}
			k := r*rtChipSize + c
			bands[0].Set(k, math.Round(red))
			bands[1].Set(k, math.Round(grn))
			bands[2].Set(k, math.Round(blu))
		}
	}
	prev := image.NewRGBA(image.Rect(0, 0, 128, 128))
	for y := 0; y < 128; y++ {
		for x := 0; x < 128; x++ {
			k := (4*y+2)*rtChipSize + 4*x + 2
			prev.Set(x, y, color.RGBA{uint8(bands[0].At(k)), uint8(bands[1].At(k)), uint8(bands[2].At(k)), 255})
		}
	}
	return bands, prev, nil
}
