package routing

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	gojson "github.com/goccy/go-json"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/internal/overlay"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// RenderMap(style=route_overlay), spec type 38 visual_overlay: a fresh
// overlay rendered from the current route_compare handle. "The renderer
// reads the GeoTIFF CRS and affine transform, converts WGS84 vector
// coordinates into that CRS, and applies the inverse raster transform to
// obtain pixels. It does not use a synthetic from_origin(0, ...)
// transform."
//
// The image is 912 x 512: the RGB chip resampled (nearest neighbour) into
// the 512 x 512 panel on the left, scaled to fit with its aspect ratio kept
// and centred (a square chip fills the panel), the legend in a 400 x 512
// panel on the right. Layers are drawn in a fixed order (rgb, flood, roads, blocked
// roads, routes, origin, shelter, labels). A PNG, a world file for the chip
// panel and a JSON manifest are written as run artifacts; all three are
// byte-deterministic.

// RouteOverlayContract names the render contract in receipts and manifests.
const RouteOverlayContract = "route_overlay_v1"

// Overlay canvas geometry (spec type 38: "912×512 dimensions").
const (
	OverlayWidth  = 912
	OverlayHeight = 512
	overlayChip   = 512
)

// overlayLayers are RenderMap(style=route_overlay)'s layer toggles in
// canonical order.
var overlayLayers = [...]string{"rgb", "roads", "flood", "blocked_roads", "origin", "shelter", "routes", "labels"}

// OverlayLayers returns RenderMap(style=route_overlay)'s layer toggles in
// canonical order.
func OverlayLayers() []string {
	l := overlayLayers
	return l[:]
}

// OverlayInputs are the layers PlanRoutes(objective=overlay_routes)
// prepares for rendering.
type OverlayInputs struct {
	RGBPath string
	RGB     workers.RasterInfo
	CRS     crs.CRS
	Flood   *FloodExtent
	Network *RoadNetwork
}

func renderRouteOverlayVariant() workers.Variant {
	return workers.NewVariant("RenderMap", renderRouteOverlay,
		workers.Param{Name: "input", Kind: workers.KindHandle, Doc: "route_compare handle from CompareRoutes"},
		workers.Param{Name: "work", Kind: workers.KindHandle, Doc: "the spec's spelling of input (work=route_compare_1); give one of the two"},
		workers.Choice("style", "route_overlay"),
		workers.Param{Name: "layers", Kind: workers.KindFlags, Enum: OverlayLayers(), Doc: "layer toggles; absent means every layer; labels need routes"})
}

// loadOverlayInputs validates the RGB chip's georeferencing and parses the
// flood extent for an overlay_routes plan.
func loadOverlayInputs(env workers.Env, rs *routeScene) (*OverlayInputs, error) {
	f, err := rs.scene.Require(routeRGBFile)
	if err != nil {
		return nil, err
	}
	info, err := env.RasterInfo(f.Path)
	if err != nil {
		return nil, err
	}
	if err := checkRouteRGB(&workers.SceneFile{FileCard: f.FileCard, Raster: &info}); err != nil {
		return nil, err
	}
	c, err := crs.FromEPSG(info.EPSG)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	if rs.meta.CRS != "" && rs.meta.CRS != c.String() {
		return nil, fmt.Errorf("%s declares CRS %s but the RGB chip %s is in %s", rs.meta.Path, rs.meta.CRS, f.Path, c)
	}
	fl, err := loadFloodExtent(env, rs.scene)
	if err != nil {
		return nil, err
	}
	return &OverlayInputs{RGBPath: f.Path, RGB: info, CRS: c, Flood: fl, Network: rs.network}, nil
}

func loadFloodExtent(env workers.Env, s *workers.Scene) (*FloodExtent, error) {
	return loadDeclared(env, s, routeFloodFile, parseFloodExtent)
}

func parseFloodExtent(p string, b []byte) (*FloodExtent, error) {
	var fc geoFeatureCollection
	if err := unmarshalDeclared(p, b, &fc); err != nil {
		return nil, err
	}
	if fc.Type != "FeatureCollection" {
		return nil, fmt.Errorf("%s: not a GeoJSON FeatureCollection", p)
	}
	fe := &FloodExtent{Path: p}
	for i, f := range fc.Features {
		if f.Geometry == nil {
			return nil, fmt.Errorf("%s: feature %d has no geometry", p, i)
		}
		var polys [][][][]float64
		switch f.Geometry.Type {
		case "Polygon":
			var rings [][][]float64
			if err := gojson.Unmarshal(f.Geometry.Coordinates, &rings); err != nil {
				return nil, fmt.Errorf("%s: feature %d: %w", p, i, err)
			}
			polys = [][][][]float64{rings}
		case "MultiPolygon":
			if err := gojson.Unmarshal(f.Geometry.Coordinates, &polys); err != nil {
				return nil, fmt.Errorf("%s: feature %d: %w", p, i, err)
			}
		default:
			return nil, fmt.Errorf("%s: feature %d: flood extent geometry must be a Polygon or MultiPolygon, got %s", p, i, f.Geometry.Type)
		}
		for _, rings := range polys {
			var poly [][][2]float64
			for _, ring := range rings {
				if len(ring) < 4 {
					return nil, fmt.Errorf("%s: feature %d: a polygon ring needs at least 4 positions", p, i)
				}
				r, bad := lonLatPositions(ring)
				if bad >= 0 {
					return nil, fmt.Errorf("%s: feature %d: invalid WGS84 position %v", p, i, ring[bad])
				}
				poly = append(poly, r)
			}
			if len(poly) > 0 {
				fe.Polygons = append(fe.Polygons, poly)
			}
		}
	}
	return fe, nil
}

// RouteRender is RenderMap(style=route_overlay)'s payload: the receipt of
// one rendered overlay.
type RouteRender struct {
	// CompareHandle is the route_compare handle rendered.
	CompareHandle string
	Contract      string
	PNG, Manifest workers.Artifact
	WorldFile     workers.Artifact
	Width, Height int
	// Layers are the requested layers in canonical order.
	Layers []string
	// Selected maps each strategy to its selected route id.
	Selected map[string]string
	// RenderedRouteIDs are the routes drawn with a vertex inside the chip;
	// RenderedLabelIDs the routes whose label was drawn.
	RenderedRouteIDs, RenderedLabelIDs []string
	OriginRendered, ShelterRendered    bool
	ChangedChipPixels                  int
	// InChip counts the declared features with a vertex inside the chip.
	InChip map[string]int
}

// overlayProjector maps WGS84 positions to canvas pixels through the
// raster's CRS and inverse affine transform. A road vertex is shared by
// the edges that meet at it and by the routes that walk them, so each
// distinct position is projected once per render: memo keeps its canvas
// coordinates (the same function of the same position bits, so the
// pixels do not change).
type overlayProjector struct {
	c      crs.CRS
	inv    crs.Affine
	w, h   float64
	sx, sy float64
	ox, oy float64
	memo   *pointMemo
}

// pointMemo is an open-addressing hash table (linear probing) from a
// position's bits to its projection: a few times cheaper than a Go map
// for the few thousand positions of a scene. Keys and canvas coordinates
// (32 bytes a slot) are apart from the slot states, so that a scene's
// table stays small.
type pointMemo struct {
	keys  [][2]uint64
	xy    [][2]float64
	state []uint8 // memoEmpty, memoOut or memoIn
	n     int
	shift uint // 64 - log2(len(keys))
}

// Slot states: empty, or holding a position outside or inside the chip.
const (
	memoEmpty = iota
	memoOut
	memoIn
)

// reset empties the table and sizes it for about n positions.
func (m *pointMemo) reset(n int) {
	size, shift := 1024, uint(64-10)
	for size < n {
		size, shift = 2*size, shift-1
	}
	if cap(m.keys) >= size {
		m.keys, m.xy, m.state = m.keys[:size], m.xy[:size], m.state[:size]
		clear(m.state)
	} else {
		m.keys, m.xy, m.state = make([][2]uint64, size), make([][2]float64, size), make([]uint8, size)
	}
	m.n, m.shift = 0, shift
}

// slot returns the index of key's slot: the one holding it or the empty
// one where it belongs.
func (m *pointMemo) slot(key [2]uint64) int {
	h := (key[0] ^ bits.RotateLeft64(key[1], 29)) * 0x9e3779b97f4a7c15
	mask := len(m.keys) - 1
	for i := int(h >> m.shift); ; i = (i + 1) & mask {
		if m.state[i] == memoEmpty || m.keys[i] == key {
			return i
		}
	}
}

// get returns the projection held at slot i, if any.
func (m *pointMemo) get(i int) (canvasPoint, bool) {
	st := m.state[i]
	return canvasPoint{m.xy[i][0], m.xy[i][1], st == memoIn}, st != memoEmpty
}

// put stores q for key at slot i (from slot), growing the table when it
// is half full.
func (m *pointMemo) put(i int, key [2]uint64, q canvasPoint) {
	m.keys[i], m.xy[i], m.state[i] = key, [2]float64{q.x, q.y}, memoOut
	if q.in {
		m.state[i] = memoIn
	}
	m.n++
	if 2*m.n <= len(m.keys) {
		return
	}
	keys, xy, state := m.keys, m.xy, m.state
	size := 2 * len(keys)
	m.keys, m.xy, m.state, m.shift = make([][2]uint64, size), make([][2]float64, size), make([]uint8, size), m.shift-1
	for j, st := range state {
		if st != memoEmpty {
			k := m.slot(keys[j])
			m.keys[k], m.xy[k], m.state[k] = keys[j], xy[j], st
		}
	}
}

// canvasPoint is a projected position: canvas coordinates and whether it
// lies inside the chip.
type canvasPoint struct {
	x, y float64
	in   bool
}

// chipRect returns where the RGB chip is drawn in the canvas: scaled to fit
// the 512 x 512 panel with its aspect ratio kept, centred.
func chipRect(r workers.RasterInfo) image.Rectangle {
	s := math.Min(float64(overlayChip)/float64(r.Width), float64(overlayChip)/float64(r.Height))
	cw := max(1, min(overlayChip, int(math.Round(float64(float64(r.Width)*s)))))
	ch := max(1, min(overlayChip, int(math.Round(float64(float64(r.Height)*s)))))
	ox, oy := (overlayChip-cw)/2, (overlayChip-ch)/2
	return image.Rect(ox, oy, ox+cw, oy+ch)
}

// newOverlayProjector returns the projector of the overlay's chip; memo,
// emptied and sized for n positions, holds its projected positions.
func newOverlayProjector(in *OverlayInputs, memo *pointMemo, n int) (*overlayProjector, error) {
	memo.reset(n)
	inv, err := in.RGB.Transform.Invert()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.RGBPath, err)
	}
	w, h := float64(in.RGB.Width), float64(in.RGB.Height)
	cr := chipRect(in.RGB)
	return &overlayProjector{c: in.CRS, inv: inv, w: w, h: h,
		sx: float64(cr.Dx()) / w, sy: float64(cr.Dy()) / h, ox: float64(cr.Min.X), oy: float64(cr.Min.Y),
		memo: memo}, nil
}

// raster returns the raster pixel coordinates (col, row) of a WGS84
// position.
func (p *overlayProjector) raster(lon, lat float64) (float64, float64, error) {
	x, y, err := p.c.FromLonLat(lon, lat)
	if err != nil {
		return 0, 0, err
	}
	col, row := p.inv.Apply(x, y)
	return col, row, nil
}

// canvas returns canvas pixel coordinates and whether the position lies
// inside the chip (raster pixel bounds).
func (p *overlayProjector) canvas(lon, lat float64) (x, y float64, in bool, err error) {
	col, row, err := p.raster(lon, lat)
	if err != nil {
		return 0, 0, false, err
	}
	in = col >= 0 && col < p.w && row >= 0 && row < p.h
	return p.ox + float64(col*p.sx), p.oy + float64(row*p.sy), in, nil
}

// line returns the canvas coordinates of a line's vertices, appended to
// dst, and whether a vertex lies inside the chip.
func (p *overlayProjector) line(dst, coords [][2]float64) ([][2]float64, bool, error) {
	hit := false
	for _, c := range coords {
		// Keyed by the bits: -0 and 0 stay apart.
		k := [2]uint64{math.Float64bits(c[0]), math.Float64bits(c[1])}
		i := p.memo.slot(k)
		q, ok := p.memo.get(i)
		if !ok {
			x, y, in, err := p.canvas(c[0], c[1])
			if err != nil {
				return dst, false, err
			}
			q = canvasPoint{x, y, in}
			p.memo.put(i, k, q)
		}
		dst = append(dst, [2]float64{q.x, q.y})
		hit = hit || q.in
	}
	return dst, hit, nil
}

// Overlay colours.
var (
	colFlood    = color.RGBA{40, 120, 255, 120}
	colRoad     = color.RGBA{235, 235, 235, 255}
	colRisky    = color.RGBA{255, 170, 0, 255}
	colBlocked  = color.RGBA{220, 0, 0, 255}
	colOrigin   = color.RGBA{0, 0, 0, 255}
	colShelter  = color.RGBA{0, 150, 60, 255}
	colWhite    = color.RGBA{255, 255, 255, 255}
	colLegendBG = color.RGBA{36, 36, 36, 255}
	colNoRGB    = color.RGBA{128, 128, 128, 255}
)

// routeColour returns the colour of a strategy's routes.
func routeColour(strategy string) color.RGBA {
	switch strategy {
	case StrategyFastest:
		return color.RGBA{0, 90, 255, 255}
	case StrategySafest:
		return color.RGBA{0, 200, 90, 255}
	}
	return color.RGBA{200, 0, 200, 255}
}

// renderRouteOverlay implements RenderMap(style=route_overlay).
func renderRouteOverlay(env workers.Env, a workers.Args) (*workers.Result, error) {
	arg := "input"
	switch {
	case a.Has("input") && a.Has("work"):
		return nil, a.Errorf("work", "give the route_compare handle once, as input or work")
	case a.Has("work"):
		arg = "work"
	case !a.Has("input"):
		return nil, a.Errorf("input", "required argument missing (the route_compare handle)")
	}
	h, err := env.Open(a.String(arg))
	if err != nil {
		return nil, err
	}
	if h.Result != nil {
		if _, ok := h.Result.Payload.(*RouteRender); ok {
			return nil, a.Errorf(arg, "%s is a prepared overlay; the overlay must be rendered fresh from the current route_compare handle", h.Name)
		}
	}
	rc, h, err := workers.OpenResult[*RouteComparison](env, a, arg, "route_compare (CompareRoutes)")
	if err != nil {
		return nil, err
	}
	plan := rc.Plan
	if plan.Overlay == nil {
		return nil, a.Errorf(arg, "%s compares routes planned with objective %s, which prepares no overlay layers; plan with objective=overlay_routes", h.Name, plan.Objective)
	}
	layers, err := overlayLayerSet(a)
	if err != nil {
		return nil, err
	}
	// Validate the current selections against the plan's metrics.
	sel := map[string]string{}
	for _, st := range routeStrategies {
		m, err := selectRoute(plan.Metrics, st)
		if err != nil {
			return nil, fmt.Errorf("RenderMap: %w", err)
		}
		if got := rc.Selected[st]; got == nil || got.RouteID != m.RouteID {
			return nil, fmt.Errorf("RenderMap: %s's %s selection disagrees with the routes it compares", h.Name, st)
		}
		sel[st] = m.RouteID
	}
	rr, img, err := drawRouteOverlay(env, plan, sel, layers)
	if err != nil {
		return nil, err
	}
	rr.CompareHandle = h.Name
	rr.Selected = sel
	pngBytes, err := overlay.EncodeRGBPNG(img)
	releaseCanvas(img)
	if err != nil {
		return nil, err
	}
	if len(pngBytes) == 0 {
		return nil, fmt.Errorf("RenderMap: empty PNG")
	}
	stem := "route_overlay_" + h.Name
	if rr.PNG, err = env.WriteArtifact(stem+".png", pngBytes, nil); err != nil {
		return nil, err
	}
	in := plan.Overlay
	cr := chipRect(in.RGB)
	chipT := chipTransform(in.RGB, cr)
	if rr.WorldFile, err = env.WriteArtifact(stem+".pgw", worldFile(chipT), nil); err != nil {
		return nil, err
	}
	manifest := map[string]any{
		"render_contract": RouteOverlayContract, "style": "route_overlay",
		"source_handle": h.Name, "routes_handle": rc.PlanHandle, "prepared_overlay_used": false,
		"png": rr.PNG, "world_file": rr.WorldFile,
		"width": rr.Width, "height": rr.Height,
		"chip": map[string]any{"x": cr.Min.X, "y": cr.Min.Y, "width": cr.Dx(), "height": cr.Dy(),
			"canvas_transform": chipT[:], "resampling": "nearest"},
		"raster": map[string]any{"path": in.RGBPath, "crs": in.CRS.String(), "transform": in.RGB.Transform[:], "rgb_bands": rgbBandOrder(in.RGB),
			"width": in.RGB.Width, "height": in.RGB.Height},
		"vector_transform": "WGS84 lon/lat -> " + in.CRS.String() + " -> inverse raster affine -> chip pixels",
		"layers":           rr.Layers, "selected_route_ids": sel,
		"rendered_route_ids": rr.RenderedRouteIDs, "rendered_label_ids": rr.RenderedLabelIDs,
		"origin_rendered": rr.OriginRendered, "shelter_rendered": rr.ShelterRendered,
		"in_chip_counts": rr.InChip, "changed_chip_pixels": rr.ChangedChipPixels,
	}
	mb, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("RenderMap: manifest: %w", err)
	}
	if rr.Manifest, err = env.WriteArtifact(stem+".json", append(mb, '\n'), nil); err != nil {
		return nil, err
	}
	ev := map[string]any{}
	for k, v := range manifest {
		ev[k] = v
	}
	ev["manifest"] = rr.Manifest
	return &workers.Result{Evidence: ev, Payload: rr, Artifacts: []workers.Artifact{rr.PNG, rr.WorldFile, rr.Manifest}}, nil
}

// overlayLayerSet returns the enabled layers, rejecting invalid
// combinations: no layer at all, or labels without routes.
func overlayLayerSet(a workers.Args) (map[string]bool, error) {
	on := map[string]bool{}
	if !a.Has("layers") {
		for _, l := range overlayLayers {
			on[l] = true
		}
		return on, nil
	}
	for k, v := range a.Object("layers") {
		if b, _ := v.(bool); b {
			on[k] = true
		}
	}
	if len(on) == 0 {
		return nil, a.Errorf("layers", "no layer is enabled")
	}
	if on["labels"] && !on["routes"] {
		return nil, a.Errorf("layers", "labels name routes: enabling labels requires routes")
	}
	if len(on) == 1 && on["rgb"] {
		return nil, a.Errorf("layers", "rgb alone is not a route overlay: enable at least one vector layer")
	}
	return on, nil
}

// chipTransform returns the affine transform from canvas pixels to the
// raster's CRS: the raster's transform with its pixel scaled by
// width/chip width and height/chip height and its origin moved to the
// chip's canvas offset.
func chipTransform(r workers.RasterInfo, chip image.Rectangle) crs.Affine {
	fx := float64(r.Width) / float64(chip.Dx())
	fy := float64(r.Height) / float64(chip.Dy())
	t := r.Transform
	a, b, d, e := float64(t[0]*fx), float64(t[1]*fy), float64(t[3]*fx), float64(t[4]*fy)
	ox, oy := float64(chip.Min.X), float64(chip.Min.Y)
	c := t[2] - float64(a*ox) - float64(b*oy)
	f := t[5] - float64(d*ox) - float64(e*oy)
	return crs.Affine{a, b, c, d, e, f}
}

// worldFile returns an ESRI world file for the PNG (centre of the
// upper-left canvas pixel).
func worldFile(t crs.Affine) []byte {
	cx, cy := t.Apply(0.5, 0.5)
	var b strings.Builder
	for _, v := range []float64{t[0], t[3], t[1], t[4], cx, cy} {
		b.WriteString(strconv.FormatFloat(v, 'f', -1, 64))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// overlayCanvases recycles 912 x 512 canvases: drawRouteOverlay takes
// its canvas from it, and renderRouteOverlay returns the canvas once it
// is encoded. Every pixel of a canvas is painted before it is read (the
// chip and legend panels cover it), so a recycled canvas draws the same
// image as a new one.
var overlayCanvases = sync.Pool{New: func() any { return image.NewRGBA(image.Rect(0, 0, OverlayWidth, OverlayHeight)) }}

func newCanvas() *image.RGBA { return overlayCanvases.Get().(*image.RGBA) }

// releaseCanvas returns a canvas from drawRouteOverlay for reuse; the
// caller no longer reads it.
func releaseCanvas(img *image.RGBA) {
	if img != nil && img.Rect == image.Rect(0, 0, OverlayWidth, OverlayHeight) && len(img.Pix) == 4*OverlayWidth*OverlayHeight {
		overlayCanvases.Put(img)
	}
}

// overlayScratch is drawRouteOverlay's reusable working memory: the
// projected positions, the roads' canvas vertices and the painted chip.
type overlayScratch struct {
	memo   pointMemo
	roadPx [][2]float64
	lines  [][][2]float64
	base   []byte
}

var overlayScratchPool = sync.Pool{New: func() any { return new(overlayScratch) }}

// The chip and legend panels cover the canvas (see overlayCanvases).
var _ = [1]struct{}{}[OverlayHeight-overlayChip]

// drawRouteOverlay draws the canvas and returns the receipt fields it
// determines. The canvas may be given back with releaseCanvas.
func drawRouteOverlay(env workers.Env, plan *RoutePlan, sel map[string]string, on map[string]bool) (*RouteRender, *image.RGBA, error) {
	sc := overlayScratchPool.Get().(*overlayScratch)
	defer overlayScratchPool.Put(sc)
	in := plan.Overlay
	nv := 0
	for i := range in.Network.Edges {
		nv += len(in.Network.Edges[i].Coords)
	}
	proj, err := newOverlayProjector(in, &sc.memo, nv)
	if err != nil {
		return nil, nil, err
	}
	rr := &RouteRender{Contract: RouteOverlayContract, Width: OverlayWidth, Height: OverlayHeight,
		RenderedRouteIDs: []string{}, RenderedLabelIDs: []string{}}
	for _, l := range overlayLayers {
		if on[l] {
			rr.Layers = append(rr.Layers, l)
		}
	}
	img := newCanvas()
	ok := false
	defer func() {
		if !ok {
			releaseCanvas(img)
		}
	}()
	chip := chipRect(in.RGB)
	fillAll(img, image.Rect(overlayChip, 0, OverlayWidth, OverlayHeight), colLegendBG)
	if panel := image.Rect(0, 0, overlayChip, overlayChip); chip != panel {
		fillAll(img, panel, colLegendBG) // the letterbox; the chip covers the rest
	}
	if on["rgb"] {
		if err := drawRGBChip(env, img, in, chip); err != nil {
			return nil, nil, err
		}
	} else {
		fillAll(img, chip, colNoRGB)
	}
	// The chip as painted, to count the pixels the layers change: only
	// the chip's rows, in the scratch's memory.
	cw := 4 * chip.Dx()
	sc.base = slices.Grow(sc.base[:0], cw*chip.Dy())[:cw*chip.Dy()]
	base := &image.RGBA{Pix: sc.base, Stride: cw, Rect: chip}
	for y := chip.Min.Y; y < chip.Max.Y; y++ {
		i := img.PixOffset(chip.Min.X, y)
		copy(base.Pix[(y-chip.Min.Y)*cw:], img.Pix[i:i+cw])
	}

	// Flood extent.
	floodOn := on["flood"]
	floodIn := 0
	for _, poly := range in.Flood.Polygons {
		var rings [][][2]float64
		inChip := false
		for _, ring := range poly {
			px, hit, err := proj.line(nil, ring)
			if err != nil {
				return nil, nil, fmt.Errorf("RenderMap: %s: %w", in.Flood.Path, err)
			}
			rings = append(rings, px)
			inChip = inChip || hit
		}
		if inChip {
			floodIn++
		}
		if floodOn {
			overlay.FillPolygon(img, chip, rings, colFlood)
		}
	}
	// Roads, risky roads (flood_risk > 0) and blocked roads.
	// Every edge's canvas vertices share one array.
	blockedLines := sc.lines[:0]
	roadPx := slices.Grow(sc.roadPx[:0], nv)
	roadsOn := on["roads"]
	var roadsIn, riskyIn, blockedIn int
	for i := range in.Network.Edges {
		e := &in.Network.Edges[i]
		start := len(roadPx)
		var inChip bool
		roadPx, inChip, err = proj.line(roadPx, e.Coords)
		if err != nil {
			return nil, nil, fmt.Errorf("RenderMap: %s edge %s: %w", in.Network.Path, e.ID, err)
		}
		px := roadPx[start:len(roadPx):len(roadPx)]
		blocked := plan.Blocked[e.ID]
		if inChip {
			roadsIn++
			if e.FloodRisk > 0 {
				riskyIn++
			}
			if blocked {
				blockedIn++
			}
		}
		if roadsOn {
			c := colRoad
			if e.FloodRisk > 0 {
				c = colRisky
			}
			overlay.DrawPolyline(img, chip, px, 1, c)
		}
		if blocked {
			blockedLines = append(blockedLines, px)
		}
	}
	if on["blocked_roads"] {
		for _, px := range blockedLines {
			overlay.DrawPolyline(img, chip, px, 3, colBlocked)
		}
	}
	clear(blockedLines)
	sc.roadPx, sc.lines = roadPx[:0], blockedLines[:0]
	rr.InChip = map[string]int{"roads": roadsIn, "risky_roads": riskyIn, "blocked_roads": blockedIn, "flood_polygons": floodIn}
	// Routes: candidates first, then the three selections on top.
	type routeLine struct {
		c      *RouteCandidate
		px     [][2]float64
		inChip bool
	}
	var routes []routeLine
	for _, c := range plan.Candidates {
		px, inChip, err := proj.line(nil, c.Coords)
		if err != nil {
			return nil, nil, fmt.Errorf("RenderMap: route %s: %w", c.ID, err)
		}
		routes = append(routes, routeLine{c, px, inChip})
	}
	selected := func(id string) bool {
		for _, s := range sel {
			if s == id {
				return true
			}
		}
		return false
	}
	if on["routes"] {
		for pass := 0; pass < 2; pass++ {
			for _, r := range routes {
				if selected(r.c.ID) != (pass == 1) {
					continue
				}
				w := 1
				if pass == 1 {
					w = 3
				}
				overlay.DrawPolyline(img, chip, r.px, w, routeColour(r.c.Strategy))
			}
		}
		for _, r := range routes {
			if r.inChip {
				rr.RenderedRouteIDs = append(rr.RenderedRouteIDs, r.c.ID)
			}
		}
	}
	// Origin and shelter markers.
	meta := plan.Metadata
	ox, oy, oIn, err := proj.canvas(meta.Origin.Lon, meta.Origin.Lat)
	if err != nil {
		return nil, nil, fmt.Errorf("RenderMap: origin: %w", err)
	}
	sx, sy, sIn, err := proj.canvas(meta.Shelter.Lon, meta.Shelter.Lat)
	if err != nil {
		return nil, nil, fmt.Errorf("RenderMap: shelter: %w", err)
	}
	if on["origin"] && oIn {
		x, y := int(math.Floor(ox)), int(math.Floor(oy))
		overlay.FillRect(img, chip, image.Rect(x-5, y-5, x+6, y+6), colOrigin)
		overlay.FillRect(img, chip, image.Rect(x-2, y-2, x+3, y+3), colWhite)
		rr.OriginRendered = true
	}
	if on["shelter"] && sIn {
		overlay.FillDisc(img, chip, sx, sy, 7, colShelter)
		overlay.FillDisc(img, chip, sx, sy, 3, colWhite)
		rr.ShelterRendered = true
	}
	// Labels: route ids on the chip and the legend.
	if on["labels"] {
		chipImg := img.SubImage(chip).(*image.RGBA)
		for _, r := range routes {
			if !r.inChip {
				continue
			}
			k := len(r.px) / 2
			off := map[string]int{StrategyFastest: -14, StrategySafest: 0, StrategyBalanced: 14}[r.c.Strategy]
			drawText(chipImg, int(math.Floor(r.px[k][0]))+4, int(math.Floor(r.px[k][1]))+off, r.c.ID, colWhite)
			rr.RenderedLabelIDs = append(rr.RenderedLabelIDs, r.c.ID)
		}
	}
	drawLegend(img, plan, sel, on)
	rr.ChangedChipPixels = overlay.ChangedPixels(base, img, chip)
	if rr.ChangedChipPixels == 0 && len(rr.Layers) > 1 {
		return nil, nil, fmt.Errorf("RenderMap: the overlay changed no chip pixel")
	}
	ok = true
	return rr, img, nil
}

// fillAll paints r with an opaque colour.
func fillAll(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
}

// drawRGBChip resamples the 3-band chip into its canvas rectangle (nearest
// neighbour: chip pixel x samples column floor((x+0.5)*W/chip width)).
// 8-bit bands are drawn as they are; other types are taken as Sentinel-2
// reflectance (0..10000) and stretched linearly from 0..3000 to 0..255.
func drawRGBChip(env workers.Env, img *image.RGBA, in *OverlayInputs, chip image.Rectangle) error {
	var bands [3]*raster.Band
	order := rgbBandOrder(in.RGB)
	for i := range bands {
		b, _, err := env.Band(in.RGBPath, order[i])
		if err != nil {
			return err
		}
		if b.Width != in.RGB.Width || b.Height != in.RGB.Height {
			return fmt.Errorf("%s: band %d is %dx%d, the raster %dx%d", in.RGBPath, order[i], b.Width, b.Height, in.RGB.Width, in.RGB.Height)
		}
		bands[i] = b
	}
	w, h := in.RGB.Width, in.RGB.Height
	cw, ch := chip.Dx(), chip.Dy()
	cols := make([]int, cw)
	rows := make([]int, ch)
	for i := range cols {
		cols[i] = (2*i + 1) * w / (2 * cw)
	}
	for i := range rows {
		rows[i] = (2*i + 1) * h / (2 * ch)
	}
	pix, stride := img.Pix, img.Stride
	o0 := img.PixOffset(chip.Min.X, chip.Min.Y)
	r8, rok := bands[0].Data.([]uint8)
	g8, gok := bands[1].Data.([]uint8)
	b8, bok := bands[2].Data.([]uint8)
	if rok && gok && bok {
		// 8-bit chips (the release's): each canvas pixel in one store.
		for y, r := range rows {
			sr, sg, sb := r8[r*w:(r+1)*w], g8[r*w:(r+1)*w], b8[r*w:(r+1)*w]
			dst := pix[o0+y*stride : o0+y*stride+4*cw]
			if cw == w { // column x samples column x; two pixels a store
				sr, sg, sb = sr[:cw], sg[:cw], sb[:cw]
				x := 0
				for ; x+2 <= len(sr); x += 2 {
					p := uint64(sr[x]) | uint64(sg[x])<<8 | uint64(sb[x])<<16 |
						uint64(sr[x+1])<<32 | uint64(sg[x+1])<<40 | uint64(sb[x+1])<<48 | 0xff000000ff000000
					binary.LittleEndian.PutUint64(dst[4*x:], p)
				}
				if x < len(sr) {
					binary.LittleEndian.PutUint32(dst[4*x:], uint32(sr[x])|uint32(sg[x])<<8|uint32(sb[x])<<16|0xff000000)
				}
				continue
			}
			for x, col := range cols {
				binary.LittleEndian.PutUint32(dst[4*x:], uint32(sr[col])|uint32(sg[col])<<8|uint32(sb[col])<<16|0xff000000)
			}
		}
		return nil
	}
	for c, b := range bands {
		// 8-bit chips (the release's) are copied sample by sample; other
		// types go through the stretch.
		if data, ok := b.Data.([]uint8); ok {
			for y, r := range rows {
				src := data[r*w : (r+1)*w]
				dst := pix[o0+y*stride+c:]
				for x, col := range cols {
					dst[4*x] = src[col]
				}
			}
			continue
		}
		for y, r := range rows {
			dst := pix[o0+y*stride+c:]
			for x, col := range cols {
				dst[4*x] = reflectanceLevel(b.At(r*w + col))
			}
		}
	}
	for y := range rows {
		dst := pix[o0+y*stride : o0+y*stride+4*cw]
		for x := 3; x < len(dst); x += 4 {
			dst[x] = 255
		}
	}
	return nil
}

// reflectanceLevel stretches a Sentinel-2 reflectance linearly from
// 0..3000 to 0..255 (NaN and non-positive values are 0).
func reflectanceLevel(v float64) uint8 {
	switch {
	case math.IsNaN(v) || v <= 0:
		return 0
	case v >= 3000:
		return 255
	}
	return uint8(math.Floor(float64(v*255)/3000 + 0.5))
}

// rgbBandOrder returns the 1-based bands holding red, green and blue:
// from the band descriptions when each colour is named once ("red"/"B04",
// "green"/"B03", "blue"/"B02", case-insensitive), otherwise bands 1, 2, 3.
func rgbBandOrder(r workers.RasterInfo) [3]int {
	keys := [3][]string{{"red", "b04", "b4"}, {"green", "b03", "b3"}, {"blue", "b02", "b2"}}
	var out [3]int
	for c, ks := range keys {
		for i, d := range r.Descriptions {
			words := strings.FieldsFunc(strings.ToLower(d), func(r rune) bool {
				return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
			})
			hit := false
			for _, w := range words {
				for _, k := range ks {
					hit = hit || w == k
				}
			}
			if hit {
				if out[c] != 0 {
					return [3]int{1, 2, 3}
				}
				out[c] = i + 1
			}
		}
		if out[c] == 0 {
			return [3]int{1, 2, 3}
		}
	}
	if out[0] == out[1] || out[1] == out[2] || out[0] == out[2] {
		return [3]int{1, 2, 3}
	}
	return out
}

// drawText draws s with the 7x13 bitmap face, baseline at (x, y).
func drawText(dst *image.RGBA, x, y int, s string, c color.RGBA) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// drawLegend fills the right-hand panel: swatches always, text when labels
// are on.
func drawLegend(img *image.RGBA, plan *RoutePlan, sel map[string]string, on map[string]bool) {
	panel := image.Rect(overlayChip, 0, OverlayWidth, OverlayHeight)
	legend := img.SubImage(panel).(*image.RGBA)
	x0 := overlayChip + 12
	y := 22
	text := func(s string, c color.RGBA) {
		if on["labels"] {
			drawText(legend, x0+22, y, s, c)
		}
	}
	swatch := func(c color.RGBA) {
		overlay.FillRect(img, panel, image.Rect(x0, y-9, x0+16, y+1), c)
	}
	text("route_overlay  "+plan.Overlay.CRS.String(), colWhite)
	y += 20
	text("selected  F:"+sel[StrategyFastest]+"  S:"+sel[StrategySafest]+"  B:"+sel[StrategyBalanced], colWhite)
	y += 24
	for _, row := range []struct {
		layer, name string
		c           color.RGBA
	}{
		{"flood", "flood extent", colFlood},
		{"roads", "roads", colRoad},
		{"roads", "roads with flood risk", colRisky},
		{"blocked_roads", "blocked roads", colBlocked},
		{"origin", "origin", colOrigin},
		{"shelter", "shelter: " + plan.Metadata.Shelter.Name, colShelter},
	} {
		if !on[row.layer] {
			continue
		}
		swatch(row.c)
		text(row.name, colWhite)
		y += 18
	}
	if !on["routes"] {
		return
	}
	y += 8
	ids := make([]*RouteMetrics, len(plan.Metrics))
	copy(ids, plan.Metrics)
	sort.Slice(ids, func(i, j int) bool { return ids[i].RouteID < ids[j].RouteID })
	for _, m := range ids {
		swatch(routeColour(m.Strategy))
		mark := " "
		if sel[m.Strategy] == m.RouteID {
			mark = "*"
		}
		if !m.Eligible() {
			mark = "x"
		}
		text(fmt.Sprintf("%s%s %-8s %8.1f m %6.2f min", mark, m.RouteID, m.Strategy, m.DistanceM, m.ETAMin), colWhite)
		y += 18
	}
}
