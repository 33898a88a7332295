package xbd

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"

	"github.com/paulmach/orb"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/vector"
	"github.com/geodisaster/engine/workers"
	worker "github.com/geodisaster/engine/workers/xbd"
)

// Synthetic xBD scenes (spec types 29-35): 1024 x 1024 frames of labelled
// building polygons in pixel coordinates, written as the xView2-style
// label JSON, the prepared quadrants/grid caches, the post-disaster image
// and the post_target.png damage mask.

const xbdFrame = 1024

// xbdSubtypes are the label files' subtype strings of the worker's
// class indices (worker.XBDNoDamage ... worker.XBDUnclassified).
var xbdSubtypes = [5]string{"no-damage", "minor-damage", "major-damage", "destroyed", "un-classified"}

type xbdBuilding struct {
	uid   string
	class int
	poly  orb.Polygon
}

type xbdScene struct {
	id, disaster, dtype string
	gsd                 float64
	bs                  []xbdBuilding
}

var xbdEvents = []struct{ disaster, dtype string }{
	{"hurricane-michael", "wind"}, {"hurricane-harvey", "flooding"}, {"santa-rosa-wildfire", "fire"},
	{"palu-tsunami", "tsunami"}, {"mexico-earthquake", "earthquake"}, {"joplin-tornado", "tornado"},
	{"guatemala-volcano", "volcano"}, {"midwest-flooding", "flooding"},
}

// xbdSceneVariants: the edge cases each scene exercises.
const (
	xbdMixed           = iota // realistic mixed scene
	xbdZeroSevere             // no major/destroyed building
	xbdTies                   // integer rectangles repeated across quadrants and cells: exact ties
	xbdBoundary               // severe polygons crossing 512; centroid and clipped area disagree
	xbdUnclassAndEdges        // unclassified-only cells, frame-crossing, non-convex and holed polygons
	xbdNoClassified           // only unclassified buildings (or none): null branches
	xbdVariants
)

func xbdRound4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// xbdUID returns a deterministic UUID-shaped id.
func xbdUID(g *core.Gen) string {
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", g.Rng.Uint32(), g.Rng.Uint32()&0xffff, g.Rng.Uint32()&0xffff, g.Rng.Uint32()&0xffff, g.Rng.Uint64()&0xffffffffffff)
}

func xbdRect(x0, y0, x1, y1 float64) orb.Polygon {
	return orb.Polygon{orb.Ring{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}}}
}

// rotRect is a rotated rectangle with vertices rounded to 1e-4 pixel.
func xbdRotRect(cx, cy, w, h, theta float64) orb.Polygon {
	c, s := math.Cos(theta), math.Sin(theta)
	var r orb.Ring
	for _, d := range [][2]float64{{-w / 2, -h / 2}, {w / 2, -h / 2}, {w / 2, h / 2}, {-w / 2, h / 2}} {
		r = append(r, orb.Point{xbdRound4(cx + float64(d[0]*c) - float64(d[1]*s)), xbdRound4(cy + float64(d[0]*s) + float64(d[1]*c))})
	}
	return orb.Polygon{append(r, r[0])}
}

// lShape is an axis-aligned non-convex L.
func xbdLShape(x, y, w, h float64) orb.Polygon {
	return orb.Polygon{orb.Ring{{x, y}, {x + w, y}, {x + w, y + float64(h/2)}, {x + float64(w/2), y + float64(h/2)}, {x + float64(w/2), y + h}, {x, y + h}, {x, y}}}
}

// holed is a rectangle with a rectangular courtyard.
func xbdHoled(x, y, w, h float64) orb.Polygon {
	p := xbdRect(x, y, x+w, y+h)
	hole := orb.Ring{{x + float64(w/4), y + float64(h/4)}, {x + float64(w/4), y + float64(3*h/4)}, {x + float64(3*w/4), y + float64(3*h/4)}, {x + float64(3*w/4), y + float64(h/4)}, {x + float64(w/4), y + float64(h/4)}}
	return append(p, hole)
}

type xbdBBox struct{ x0, y0, x1, y1 float64 }

func xbdBox(p orb.Polygon) xbdBBox {
	b := p[0].Bound()
	return xbdBBox{b.Min[0], b.Min[1], b.Max[0], b.Max[1]}
}

func (a xbdBBox) overlaps(b xbdBBox, margin float64) bool {
	return a.x0 < b.x1+margin && b.x0 < a.x1+margin && a.y0 < b.y1+margin && b.y0 < a.y1+margin
}

// place adds a building unless its box overlaps one already placed.
func (s *xbdScene) place(g *core.Gen, class int, p orb.Polygon, boxes *[]xbdBBox) bool {
	b := xbdBox(p)
	for _, o := range *boxes {
		if b.overlaps(o, 2) {
			return false
		}
	}
	*boxes = append(*boxes, b)
	s.bs = append(s.bs, xbdBuilding{uid: xbdUID(g), class: class, poly: p})
	return true
}

// xbdPickClass draws a class from weights.
func xbdPickClass(g *core.Gen, w [5]int) int {
	t := 0
	for _, x := range w {
		t += x
	}
	k := g.Rng.IntN(t)
	for i, x := range w {
		if k < x {
			return i
		}
		k -= x
	}
	return worker.XBDUnclassified
}

// xbdScene builds one scene of the given variant.
func newScene(g *core.Gen, id string, ev int, variant int) *xbdScene {
	e := xbdEvents[ev%len(xbdEvents)]
	s := &xbdScene{id: id, disaster: e.disaster, dtype: e.dtype, gsd: float64(1200000+g.Rng.IntN(1600000)) / 1e6}
	var boxes []xbdBBox
	weights := [5]int{50, 15, 12, 10, 8}
	n := 20 + g.Rng.IntN(280)
	edge := false
	reserved := func(orb.Point) bool { return false }
	switch variant {
	case xbdZeroSevere:
		weights = [5]int{60, 25, 0, 0, 10}
		n = 10 + g.Rng.IntN(150)
	case xbdTies:
		// The same integer rectangles in every quadrant (translated by 512),
		// and identical compositions in several 4x4 cells.
		nq := 1 + g.Rng.IntN(3)
		quads := [][2]float64{{0, 0}, {512, 0}, {0, 512}, {512, 512}}
		k := 2 + g.Rng.IntN(3) // how many quadrants share the maximum
		for j := 0; j < nq; j++ {
			x, y := float64(30+g.Rng.IntN(180)), float64(30+g.Rng.IntN(180))
			w, h := float64(10+g.Rng.IntN(30)), float64(10+g.Rng.IntN(30))
			class := worker.XBDMajorDamage + g.Rng.IntN(2)
			for q := 0; q < k; q++ {
				s.place(g, class, xbdRect(quads[q][0]+x, quads[q][1]+y, quads[q][0]+x+w, quads[q][1]+y+h), &boxes)
			}
		}
		// A straddling rectangle mirrored across both axes adds equal
		// clipped area to all four quadrants.
		if g.Rng.IntN(2) == 0 {
			s.place(g, worker.XBDDestroyed, xbdRect(496, 300, 528, 330), &boxes)
			s.place(g, worker.XBDDestroyed, xbdRect(496, 812, 528, 842), &boxes)
		}
		// Two reserved 4x4 cells hold one destroyed building each: an
		// exact top tie at severity 1.
		for _, x := range []float64{300, 850} {
			s.place(g, worker.XBDDestroyed, xbdRect(x, 900, x+20+float64(g.Rng.IntN(10)), 925), &boxes)
		}
		reserved = func(c orb.Point) bool { return c[1] >= 768 && (c[0] >= 256 && c[0] < 512 || c[0] >= 768) }
		weights = [5]int{60, 20, 0, 0, 10}
		n = 10 + g.Rng.IntN(60)
	case xbdBoundary:
		// Q0 gets one wide destroyed polygon whose centroid is in Q0 but
		// whose area spills into Q1; Q2 gets several small major
		// buildings (the count winner); Q3 one large destroyed building
		// (the area winner).
		s.place(g, worker.XBDDestroyed, xbdRotRect(480+float64(g.Rng.Float64()*20), 150, 120, 40, 0.05), &boxes)
		for j := 0; j < 3+g.Rng.IntN(3); j++ {
			s.place(g, worker.XBDMajorDamage, xbdRotRect(float64(60+70*j), 700, 12, 10, g.Rng.Float64()), &boxes)
		}
		s.place(g, worker.XBDDestroyed, xbdRotRect(800, 800, 90+float64(g.Rng.Float64()*30), 70, 0.3), &boxes)
		// A rectangle whose centroid is exactly x = 512: the right quadrant.
		s.place(g, worker.XBDMajorDamage, xbdRect(500, 600, 524, 620), &boxes)
		// y = 512 exactly: the lower quadrant.
		s.place(g, worker.XBDMajorDamage, xbdRect(300, 500, 330, 524), &boxes)
		weights = [5]int{60, 20, 3, 3, 8}
		n = 30 + g.Rng.IntN(150)
	case xbdUnclassAndEdges:
		// The upper-left 256-pixel cell holds only unclassified buildings.
		for j := 0; j < 3; j++ {
			s.place(g, worker.XBDUnclassified, xbdRotRect(float64(40+70*j), 60+float64(g.Rng.Float64()*100), 20, 16, g.Rng.Float64()), &boxes)
		}
		s.place(g, worker.XBDDestroyed, xbdLShape(600, 300, 40, 30), &boxes)
		s.place(g, worker.XBDMajorDamage, xbdHoled(700, 420, 48, 40), &boxes)
		// Frame-crossing polygons: full area at scene level, clipped in
		// quadrants.
		s.place(g, worker.XBDMajorDamage, xbdRotRect(1020, 400+float64(g.Rng.Float64()*100), 30, 20, 0.2), &boxes)
		s.place(g, worker.XBDDestroyed, xbdRotRect(700, 1018, 26, 24, 0.4), &boxes)
		edge = true
	case xbdNoClassified:
		weights = [5]int{0, 0, 0, 0, 1}
		n = g.Rng.IntN(12)
		if g.Rng.IntN(3) == 0 {
			n = 0
		}
	}
	// Mixed scenes cluster severe damage around a hotspot (a fire front,
	// a surge zone) of random radius, so concentration ranges from
	// dispersed to highly concentrated.
	hot, radius := orb.Point{}, 0.0
	if variant == xbdMixed {
		hot = orb.Point{100 + float64(824*g.Rng.Float64()), 100 + float64(824*g.Rng.Float64())}
		radius = 60 + float64(340*g.Rng.Float64())
	}
	outside := [5]int{150, 24, 1, 1, 18}
	if g.Rng.IntN(2) == 0 {
		outside = [5]int{150, 24, 0, 0, 18} // every severe building in the hotspot
	}
	for tries := 0; len(s.bs) < n && tries < 20*n+100; tries++ {
		w, h := 8+float64(g.Rng.Float64()*34), 8+float64(g.Rng.Float64()*30)
		lo, hi := 10.0, 1014.0
		if edge {
			lo, hi = 0, 1024
		}
		cx, cy := lo+float64(g.Rng.Float64()*(hi-lo)), lo+float64(g.Rng.Float64()*(hi-lo))
		class := xbdPickClass(g, weights)
		if radius > 0 {
			if float64((cx-hot[0])*(cx-hot[0]))+float64((cy-hot[1])*(cy-hot[1])) < radius*radius {
				class = xbdPickClass(g, [5]int{25, 20, 25, 25, 5})
			} else {
				class = xbdPickClass(g, outside)
			}
		}
		if variant == xbdUnclassAndEdges && cx < 256 && cy < 256 {
			continue // keep the unclassified-only cell
		}
		var p orb.Polygon
		switch g.Rng.IntN(10) {
		case 0:
			p = xbdLShape(math.Round(cx), math.Round(cy), math.Round(w)+4, math.Round(h)+4)
		case 1:
			p = xbdRect(math.Round(cx), math.Round(cy), math.Round(cx+w), math.Round(cy+h))
		default:
			p = xbdRotRect(cx, cy, w, h, g.Rng.Float64()*math.Pi)
		}
		if ct, _ := vector.Centroid(orb.MultiPolygon{p}); reserved(ct) {
			continue
		}
		s.place(g, class, p, &boxes)
	}
	return s
}

// --- files ---------------------------------------------------------------

func (s *xbdScene) dir() string { return "source_assets/xbd/" + s.id + "/" }

// labelsDoc returns building_damage_xy.geojson: xView2's label document,
// or with featureCollection the same labels as a GeoJSON FeatureCollection
// (Polygon geometries in pixel space, the metadata beside features), as
// users convert them.
func (s *xbdScene) labelsDoc(featureCollection bool) map[string]any {
	meta := map[string]any{
		"gsd": s.gsd, "width": xbdFrame, "height": xbdFrame, "disaster": s.disaster, "disaster_type": s.dtype,
		"img_name": s.id + "_post_disaster.png", "sensor": "WORLDVIEW03_VNIR", "capture_date": "2018-10-13T16:30:00.000Z",
	}
	feats := make([]any, 0, len(s.bs))
	for _, b := range s.bs {
		props := map[string]any{"feature_type": "building", "subtype": xbdSubtypes[b.class], "uid": b.uid}
		if !featureCollection {
			feats = append(feats, map[string]any{"properties": props, "wkt": vector.PolygonWKT(b.poly)})
			continue
		}
		var rings [][][]float64
		for _, r := range b.poly {
			ring := make([][]float64, 0, len(r)+1)
			for _, p := range r {
				ring = append(ring, []float64{p[0], p[1]})
			}
			if r[0] != r[len(r)-1] {
				ring = append(ring, []float64{r[0][0], r[0][1]})
			}
			rings = append(rings, ring)
		}
		feats = append(feats, map[string]any{"type": "Feature", "properties": props,
			"geometry": map[string]any{"type": "Polygon", "coordinates": rings}})
	}
	if !featureCollection {
		return map[string]any{"features": map[string]any{"xy": feats}, "metadata": meta}
	}
	meta["coordinate_space"] = "pixel"
	return map[string]any{"type": "FeatureCollection", "features": feats, "metadata": meta}
}

// xbdCell is the gold per-cell summary.
type xbdCell struct {
	id         string
	counts     [5]int
	classified int
	severe     int
	severeArea float64 // unrounded m2, clipped
}

// severityPoints is a cell's damage-weighted count: minor 1, major 2,
// destroyed 3 (spec type 31).
func (c xbdCell) severityPoints() int {
	return c.counts[worker.XBDMinorDamage] + 2*c.counts[worker.XBDMajorDamage] + 3*c.counts[worker.XBDDestroyed]
}

// severityScore is a cell's normalized damage severity, points over three
// times its classified buildings, six decimals.
func severityScore(c xbdCell) float64 {
	return workers.RoundHalfEven(float64(c.severityPoints())/float64(3*c.classified), 6)
}

// cells computes the n x n gold cell statistics: centroid counts, clipped
// severe areas.
func (s *xbdScene) cells(n int) []xbdCell {
	out := make([]xbdCell, n*n)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			out[r*n+c].id = worker.XBDCellID(n, n, r, c)
		}
	}
	g2 := s.gsd * s.gsd
	for _, b := range s.bs {
		ct, _ := vector.Centroid(orb.MultiPolygon{b.poly})
		row, col := worker.AssignCell(ct, xbdFrame, xbdFrame, n, n)
		k := row*n + col
		out[k].counts[b.class]++
		if b.class != worker.XBDUnclassified {
			out[k].classified++
		}
		if b.class == worker.XBDMajorDamage || b.class == worker.XBDDestroyed {
			out[k].severe++
		}
	}
	step := float64(xbdFrame / n)
	for _, b := range s.bs {
		if b.class != worker.XBDMajorDamage && b.class != worker.XBDDestroyed {
			continue
		}
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				box := orb.Bound{Min: orb.Point{float64(c) * step, float64(r) * step}, Max: orb.Point{float64(c+1) * step, float64(r+1) * step}}
				out[r*n+c].severeArea += float64(vector.ClippedArea(orb.MultiPolygon{b.poly}, box) * g2)
			}
		}
	}
	return out
}

func (s *xbdScene) cacheDoc(n int) map[string]any {
	grid := fmt.Sprintf("%dx%d", n, n)
	feats := []any{}
	step := xbdFrame / n
	for i, cs := range s.cells(n) {
		r, c := i/n, i%n
		x0, y0, x1, y1 := float64(c*step), float64(r*step), float64((c+1)*step), float64((r+1)*step)
		cc := map[string]any{}
		total := 0
		for k, name := range worker.XBDClassNames {
			cc[name] = cs.counts[k]
			total += cs.counts[k]
		}
		props := map[string]any{
			"feature_type": "cell", "cell_id": cs.id, "row": r, "col": c,
			"x_min": x0, "y_min": y0, "x_max": x1, "y_max": y1,
			"building_count": total, "class_counts": cc, "severe_count": cs.severe, "severe_area_m2": cs.severeArea,
		}
		if n == 4 {
			// The cached display score is 0 for a cell without classified
			// buildings: a trap the worker must not rank.
			score := 0.0
			if cs.classified > 0 {
				score = severityScore(cs)
			}
			props["severity_score"] = score
		}
		feats = append(feats, map[string]any{
			"type": "Feature", "properties": props,
			"geometry": map[string]any{"type": "Polygon", "coordinates": worker.PolygonCoordinates(xbdRect(x0, y0, x1, y1))},
		})
	}
	for _, b := range s.bs {
		feats = append(feats, map[string]any{
			"type":       "Feature",
			"properties": map[string]any{"feature_type": "building", "subtype": xbdSubtypes[b.class], "uid": b.uid},
			"geometry":   map[string]any{"type": "Polygon", "coordinates": worker.PolygonCoordinates(b.poly)},
		})
	}
	return map[string]any{
		"type": "FeatureCollection",
		"metadata": map[string]any{
			"scene_id": s.id, "grid": grid, "width": xbdFrame, "height": xbdFrame, "gsd": s.gsd,
			"coordinate_space": "pixel", "source": "building_damage_xy.geojson",
			"count_rule": "centroid", "area_rule": "clipped_to_cell",
		},
		"features": feats,
	}
}

// mask rasterizes the classified polygons (pixel centres inside, later
// polygons on top): 1 no-damage .. 4 destroyed, 0 elsewhere.
func (s *xbdScene) mask(extra bool) []uint8 {
	m := make([]uint8, xbdFrame*xbdFrame)
	for _, b := range s.bs {
		if b.class == worker.XBDUnclassified {
			continue
		}
		bx := xbdBox(b.poly)
		for y := max(0, int(math.Floor(bx.y0))); y <= min(xbdFrame-1, int(math.Ceil(bx.y1))); y++ {
			for x := max(0, int(math.Floor(bx.x0))); x <= min(xbdFrame-1, int(math.Ceil(bx.x1))); x++ {
				if vector.PolygonContains(b.poly, orb.Point{float64(x) + 0.5, float64(y) + 0.5}) {
					m[y*xbdFrame+x] = uint8(b.class + 1)
				}
			}
		}
	}
	if extra {
		// An unlabelled no-damage footprint: the class-presence check
		// must report the disagreement.
		for y := 900; y < 910; y++ {
			for x := 40; x < 52; x++ {
				m[y*xbdFrame+x] = 1
			}
		}
	}
	return m
}

// xbdGrayPNG encodes the damage mask as post_target.png.
func xbdGrayPNG(px []uint8) ([]byte, error) {
	img := image.NewGray(image.Rect(0, 0, xbdFrame, xbdFrame))
	copy(img.Pix, px)
	return fastPNG(img)
}

// fastPNG encodes a frame at PNG's fastest compression level.
func fastPNG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// imagePNG renders a paletted post-disaster picture from the mask.
func (s *xbdScene) imagePNG(mask []uint8) ([]byte, error) {
	pal := color.Palette{
		color.RGBA{96, 110, 84, 255}, color.RGBA{200, 200, 190, 255}, color.RGBA{190, 170, 120, 255},
		color.RGBA{150, 90, 60, 255}, color.RGBA{70, 40, 30, 255},
	}
	img := image.NewPaletted(image.Rect(0, 0, xbdFrame, xbdFrame), pal)
	copy(img.Pix, mask)
	return fastPNG(img)
}
