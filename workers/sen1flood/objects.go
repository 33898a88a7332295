package sen1flood

import (
	"crypto/sha256"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/raster/regions"
	"github.com/geodisaster/engine/workers"
)

// FloodComponent is one 8-neighbour component of the prediction.
type FloodComponent struct {
	// ID is the component's label (scipy.ndimage.label numbering: raster
	// order of the first pixel), 1-based.
	ID int
	// Pixels is the number of its pixels.
	Pixels int
	// AreaM2 is the sum of its WGS84 ellipsoidal cell areas (NumPy order).
	AreaM2 float64
	// BBox is [min lon, min lat, max lon, max lat] over outer pixel edges.
	BBox [4]float64
	// Centroid is the mean of its pixel-centre coordinates (lon, lat).
	Centroid [2]float64
}

// FloodObjects is ExtractObjects' payload over a prediction.
type FloodObjects struct {
	// Target is flood_components or flood_polygons.
	Target string
	// Mask is the prediction the objects were extracted from.
	Mask *FloodMask
	// Labels are the 8-connected labels (0 outside the prediction).
	Labels []int32
	// Components are the components in label order.
	Components []FloodComponent
	// PolygonCount is the number of GeoJSON features (flood_polygons).
	PolygonCount int
	// GeoJSON is the written polygon file (flood_polygons only).
	GeoJSON *workers.Artifact
}

// Largest returns the component with the most pixels (the first such in
// label order), or nil for an empty prediction.
func (o *FloodObjects) Largest() *FloodComponent {
	var best *FloodComponent
	for i := range o.Components {
		if best == nil || o.Components[i].Pixels > best.Pixels {
			best = &o.Components[i]
		}
	}
	return best
}

// LabelFlood labels the predicted-flood pixels with 8-connectivity and
// measures every component: pixel count, exact-grid area (cell areas summed
// in row-major order, as NumPy sums areas[labels == k]), bounding box over
// outer pixel edges and the mean of pixel-centre coordinates.
func LabelFlood(m *FloodMask) ([]int32, []FloodComponent, error) {
	return sen1LabelComponents(m, nil)
}

// sen1LabelComponents labels the flood pixels of m (8-connectivity) and
// measures the components. When labelled is not nil it receives the label
// of each pixel (a lookup safe to call from another goroutine), the
// component count and each component's pixel count (by label-1) as soon
// as the components are known, before the label array is written and the
// components are measured.
func sen1LabelComponents(m *FloodMask, labelled func(at func(pixel int) int32, n int, pixels []int32)) ([]int32, []FloodComponent, error) {
	w, h := m.Info.Width, m.Info.Height
	sc := sen1LabelPool.Get().(*sen1LabelScratch)
	defer sen1LabelPool.Put(sc)
	rl, err := regions.LabelRuns(m.Mask, MaskFlood, w, h)
	if err != nil {
		return nil, nil, err
	}
	n := rl.Count()
	if labelled != nil {
		pixels := make([]int32, n)
		for k := range pixels {
			pixels[k] = int32(rl.Pixels(k + 1))
		}
		labelled(rl.At, n, pixels)
	}
	// Each component's pixels in raster order, as (row, col) pairs.
	labels := rl.Fill(&sc.group)
	g := &sc.group
	largest := 0
	for k := 1; k <= n; k++ {
		largest = max(largest, g.Pixels(k))
	}
	// Pixel-centre coordinates per column and row, as the reference
	// computes them (t.c + (col + 0.5) * t.a, t.f + (row + 0.5) * t.e).
	t := m.Info.Transform
	xc := make([]float64, w)
	for c := range xc {
		xc[c] = t[2] + float64((float64(c)+0.5)*t[0])
	}
	yc := make([]float64, h)
	for r := range yc {
		yc[r] = t[5] + float64((float64(r)+0.5)*t[4])
	}
	comps := make([]FloodComponent, n)
	vals := sen1Floats(&sc.vals, largest)
	for k := 1; k <= n; k++ {
		pr, pc := g.Rows[g.Start[k-1]:g.Start[k]], g.Cols[g.Start[k-1]:g.Start[k]]
		c := FloodComponent{ID: k, Pixels: len(pr)}
		v := vals[:len(pr)]
		if ra := m.Areas.RowArea; ra != nil {
			for j, r := range pr {
				v[j] = ra[r]
			}
			c.AreaM2 = numpy.SumFloat64(v)
		} else {
			c.AreaM2 = float64(len(pr)) * m.Areas.PixelArea
		}
		minC, maxC := int32(w), int32(-1)
		for j, col := range pc {
			minC, maxC = min(minC, col), max(maxC, col)
			v[j] = xc[col]
		}
		cx := numpy.MeanFloat64(v)
		for j, r := range pr {
			v[j] = yc[r]
		}
		cy := numpy.MeanFloat64(v)
		minR, maxR := pr[0], pr[len(pr)-1] // row-major order
		x0 := t[2] + float64(float64(minC)*t[0])
		x1 := t[2] + float64(float64(maxC+1)*t[0])
		y0 := t[5] + float64(float64(minR)*t[4])
		y1 := t[5] + float64(float64(maxR+1)*t[4])
		c.BBox = [4]float64{min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)}
		c.Centroid = [2]float64{cx, cy}
		comps[k-1] = c
	}
	return labels, comps, nil
}

// sen1LabelScratch holds LabelFlood's work arrays (every element is
// written before it is read, except start, which is cleared), reused
// across calls; none is retained.
type sen1LabelScratch struct {
	group regions.Grouping
	vals  []float64
}

var sen1LabelPool = sync.Pool{New: func() any { return new(sen1LabelScratch) }}

func sen1Floats(s *[]float64, n int) []float64 {
	if cap(*s) < n {
		*s = make([]float64, n)
	}
	return (*s)[:n]
}

// extractFloodObjects implements ExtractObjects(target=flood_components)
// (spec type 39) and ExtractObjects(target=flood_polygons) (types 40, 43):
// 8-neighbour components of the current prediction and, for polygons, a
// run-scoped GeoJSON with one feature per component (GDAL 8-connected
// polygonization on the source georeferencing), its feature count checked
// against the component count.
func extractFloodObjects(env workers.Env, a workers.Args) (*workers.Result, error) {
	m, _, err := workers.OpenResult[*FloodMask](env, a, "input", "flood (MapFlood)")
	if err != nil {
		return nil, err
	}
	target := a.String("target")
	o := &FloodObjects{Target: target, Mask: m}
	ev := map[string]any{
		"target": o.Target, "connectivity": 8,
		"source_mask": m.Artifact.Locator, "mask_sha256": m.MaskSHA256,
	}
	if target == "flood_polygons" {
		art, polys, err := sen1ExtractPolygons(env, o)
		if err != nil {
			return nil, err
		}
		o.PolygonCount, o.GeoJSON = polys, &art
		ev["polygon_count"] = polys
		ev["geojson"] = art.Locator
		ev["geojson_sha256"] = art.SHA256
		ev["feature_count_check"] = "features == components"
	} else {
		labels, comps, err := sen1LabelComponents(m, nil)
		if err != nil {
			return nil, fmt.Errorf("ExtractObjects: %w", err)
		}
		o.Labels, o.Components = labels, comps
	}
	ev["component_count"] = len(o.Components)
	if l := o.Largest(); l != nil {
		ev["largest_component"] = map[string]any{"id": l.ID, "pixels": l.Pixels, "area_m2": workers.RoundHalfEven(l.AreaM2, 3)}
	}
	res := &workers.Result{Evidence: ev, Payload: o}
	if o.GeoJSON != nil {
		res.Artifacts = []workers.Artifact{*o.GeoJSON}
	}
	return res, nil
}

// sen1ExtractPolygons labels o.Mask into o.Labels and o.Components and
// writes the components' polygons as a GeoJSON artifact; it returns the
// artifact and the feature count. Three things overlap on two cores:
//
//   - the caller's goroutine labels the mask's runs, writes the label
//     array and groups each component's pixels, and measures the
//     components, then hashes the GeoJSON document as it is being
//     written;
//   - another goroutine traces the outlines from the mask meanwhile,
//     groups them by label once the runs are labelled, and writes the
//     document (whose feature properties are the pixel counts, known with
//     the runs' labels), announcing each written stretch to the hasher;
//     then it writes the artifact's file while the hasher finishes (the
//     digest reaches env.WriteArtifact through its sum function).
func sen1ExtractPolygons(env workers.Env, o *FloodObjects) (workers.Artifact, int, error) {
	m := o.Mask
	w, h := m.Info.Width, m.Info.Height
	tm, release := workers.TeamFor(env)
	defer release()
	var (
		labelAt    func(pixel int) int32
		n          int
		pixels     []int32
		labelledOK bool        // labelAt, n and pixels are set
		labelErr   error       // the caller's alone
		labelled   atomic.Bool // set after labelledOK is set (or the labelling failed)
		polys      []regions.PixelPolygon
		polyErr    error
		doc        atomic.Pointer[[]byte] // the document, before it is written
		written    atomic.Int64           // bytes of doc final so far
		finished   atomic.Bool            // the document is complete, or the tracer has stopped
		sum        [32]byte               // the document's digest, once hashed is closed
		hashed     = make(chan struct{})
		// started is closed once doc is set or the tracer has stopped:
		// the hasher sleeps until then (polygonizing takes milliseconds,
		// long enough for a wake-up) and polls only while the document
		// streams.
		started   = make(chan struct{})
		startOnce sync.Once
	)
	start := func() { startOnce.Do(func() { close(started) }) }
	bp := sen1GeoJSONPool.Get().(*[]byte)
	defer sen1GeoJSONPool.Put(bp)
	name := "flood_polygons_" + m.MaskSHA256[:12] + ".geojson"
	var (
		art    workers.Artifact // written by the tracer
		artErr error
	)
	wait := tm.Go(func() {
		defer start()
		defer finished.Store(true)
		outlines, err := regions.TraceOutlines(m.Mask, MaskFlood, w, h)
		// Tracing usually ends first; waiting awake (as the hasher
		// does) saves waking this goroutine's core up again.
		for !labelled.Load() {
			runtime.Gosched()
		}
		if err != nil || !labelledOK {
			polyErr = err
			return
		}
		if polys, polyErr = outlines.PolygonsAt(labelAt, n); polyErr != nil {
			return
		}
		if len(polys) != n || len(pixels) != n {
			polyErr = fmt.Errorf("%d polygons for %d components", len(polys), n)
			return
		}
		g := newSen1GeoJSONWriter(polys, pixels, m.Info)
		d := g.alloc((*bp)[:0])
		*bp = d[:0]
		doc.Store(&d)
		start()
		g.writeStreaming(d, &written)
		finished.Store(true)
		art, artErr = env.WriteArtifact(name, d, func() [32]byte {
			<-hashed
			return sum
		})
	})
	defer labelled.Store(true) // also when the labelling panics, so that the tracer stops waiting
	var hashOnce sync.Once
	endHash := func() { hashOnce.Do(func() { close(hashed) }) }
	defer endHash() // a panic here must not leave the tracer waiting for the digest
	o.Labels, o.Components, labelErr = sen1LabelComponents(m, func(at func(int) int32, k int, p []int32) {
		labelAt, n, pixels, labelledOK = at, k, p, true
		labelled.Store(true)
	})
	labelled.Store(true)
	// Hash the document as it is written (polling, so that neither side
	// sleeps between stretches).
	<-started
	hash := sha256.New()
	done := 0
	for {
		stopped := finished.Load()
		if d := doc.Load(); d != nil {
			if end := int(written.Load()); end > done {
				hash.Write((*d)[done:end])
				done = end
			}
		}
		if stopped {
			break
		}
		runtime.Gosched()
	}
	hash.Sum(sum[:0])
	endHash()
	wait()
	if labelErr != nil {
		return workers.Artifact{}, 0, fmt.Errorf("ExtractObjects: %w", labelErr)
	}
	d := doc.Load()
	if polyErr != nil || d == nil {
		return workers.Artifact{}, 0, fmt.Errorf("ExtractObjects: polygonizing %s: %w", m.Source, polyErr)
	}
	if done != len(*d) {
		return workers.Artifact{}, 0, fmt.Errorf("ExtractObjects: GeoJSON writer stopped at byte %d of %d", done, len(*d))
	}
	if artErr != nil {
		return workers.Artifact{}, 0, artErr
	}
	return art, len(polys), nil
}

// sen1GeoJSONPool recycles the polygon document's buffer (written as an
// artifact, never retained).
var sen1GeoJSONPool = sync.Pool{New: func() any { return new([]byte) }}

// FloodPolygonsGeoJSON encodes component polygons as a GeoJSON
// FeatureCollection in the grid's CRS: one Polygon feature per component
// with properties component_id and pixel_count. Exterior rings are
// counter-clockwise and holes clockwise on a north-up grid (RFC 7946),
// rings are closed, and coordinates are pixel corners mapped through the
// affine transform and printed with the shortest exact representation.
func FloodPolygonsGeoJSON(polys []regions.PixelPolygon, comps []FloodComponent, info workers.RasterInfo) []byte {
	pixels := make([]int32, len(comps))
	for i, c := range comps {
		pixels[i] = int32(c.Pixels)
	}
	return sen1AppendGeoJSON(nil, polys, pixels, info)
}

const (
	sen1GeoJSONHead    = `{"type":"FeatureCollection","features":[`
	sen1GeoJSONTail    = "]}\n"
	sen1FeatureHead    = `{"type":"Feature","properties":{"component_id":`
	sen1FeaturePixels  = `,"pixel_count":`
	sen1FeatureGeomTag = `},"geometry":{"type":"Polygon","coordinates":[`
	sen1FeatureTail    = `]}}`
)

// sen1GeoJSONWriter formats the features of FloodPolygonsGeoJSON. Corners
// lie on the grid lines, so each distinct coordinate is formatted once.
type sen1GeoJSONWriter struct {
	polys      []regions.PixelPolygon
	pixels     []int32 // pixel count by label-1
	xs, ys     [][]byte
	flip       bool
	featureEnd []int // byte offset after feature i (from the document start)
	size       int   // of the whole document
}

// newSen1GeoJSONWriter formats the grid's coordinates and lays out the
// document of polys: every feature's exact byte range.
func newSen1GeoJSONWriter(polys []regions.PixelPolygon, pixels []int32, info workers.RasterInfo) *sen1GeoJSONWriter {
	t := info.Transform
	g := &sen1GeoJSONWriter{polys: polys, pixels: pixels, flip: t[0]*t[4] < 0}
	coords := make([]byte, 0, 24*(info.Width+info.Height+2))
	g.xs = make([][]byte, info.Width+1)
	for c := range g.xs {
		s := len(coords)
		coords = strconv.AppendFloat(coords, t[2]+float64(float64(c)*t[0]), 'g', -1, 64)
		g.xs[c] = coords[s:len(coords):len(coords)]
	}
	g.ys = make([][]byte, info.Height+1)
	for r := range g.ys {
		s := len(coords)
		coords = strconv.AppendFloat(coords, t[5]+float64(float64(r)*t[4]), 'g', -1, 64)
		g.ys[r] = coords[s:len(coords):len(coords)]
	}
	g.featureEnd = make([]int, len(polys))
	size := len(sen1GeoJSONHead)
	for i := range polys {
		size += g.featureSize(i)
		g.featureEnd[i] = size
	}
	g.size = size + len(sen1GeoJSONTail)
	return g
}

// alloc returns the document's bytes, reusing buf's memory when it is
// large enough, with the head and tail written and the features not.
func (g *sen1GeoJSONWriter) alloc(buf []byte) []byte {
	if cap(buf) < g.size {
		buf = make([]byte, g.size)
	}
	doc := buf[:g.size]
	copy(doc, sen1GeoJSONHead)
	copy(doc[g.size-len(sen1GeoJSONTail):], sen1GeoJSONTail)
	return doc
}

// writeStreaming writes the features of doc (from alloc) in order and
// stores the end offset of each written stretch of about 64 KiB in
// written, the last being len(doc); the bytes before it are final.
func (g *sen1GeoJSONWriter) writeStreaming(doc []byte, written *atomic.Int64) {
	const stretch = 64 << 10
	i0, from := 0, len(sen1GeoJSONHead)
	for i := range g.polys {
		if g.featureEnd[i]-from >= stretch || i == len(g.polys)-1 {
			g.write(doc, i0, i+1)
			written.Store(int64(g.featureEnd[i]))
			i0, from = i+1, g.featureEnd[i]
		}
	}
	written.Store(int64(len(doc)))
}

// sen1AppendGeoJSON appends FloodPolygonsGeoJSON's document to buf. The
// document's exact size is computed first and its two halves of features
// are written concurrently into their own byte ranges.
func sen1AppendGeoJSON(buf []byte, polys []regions.PixelPolygon, pixels []int32, info workers.RasterInfo) []byte {
	g := newSen1GeoJSONWriter(polys, pixels, info)
	base := len(buf)
	if cap(buf)-base < g.size {
		nb := make([]byte, base, base+g.size)
		copy(nb, buf)
		buf = nb
	}
	doc := g.alloc(buf[base:base])
	// Split at the feature where the first half of the bytes ends.
	half := sort.SearchInts(g.featureEnd, g.size/2)
	if half > 0 && half < len(polys) {
		sen1Both(func() { g.write(doc, 0, half) }, func() { g.write(doc, half, len(polys)) })
	} else {
		g.write(doc, 0, len(polys))
	}
	return buf[:base+g.size]
}

// featureSize returns the bytes of feature i including its leading comma.
func (g *sen1GeoJSONWriter) featureSize(i int) int {
	p := &g.polys[i]
	n := len(sen1FeatureHead) + sen1Digits(int64(p.Label)) + len(sen1FeaturePixels) +
		sen1Digits(int64(g.pixels[p.Label-1])) + len(sen1FeatureGeomTag) + len(sen1FeatureTail)
	if i > 0 {
		n++
	}
	n += g.ringSize(p.Exterior)
	for _, h := range p.Holes {
		n += 1 + g.ringSize(h)
	}
	return n
}

// ringSize returns the bytes of a closed ring: [[x,y],...,[x0,y0]].
func (g *sen1GeoJSONWriter) ringSize(r regions.PixelRing) int {
	n := 2 + len(r) + 3*(len(r)+1) // brackets, commas between points, each point's [,]
	for _, p := range r {
		n += len(g.xs[p.X]) + len(g.ys[p.Y])
	}
	return n + len(g.xs[r[0].X]) + len(g.ys[r[0].Y])
}

// write formats features [i0, i1) into their byte range of doc.
func (g *sen1GeoJSONWriter) write(doc []byte, i0, i1 int) {
	off := len(sen1GeoJSONHead)
	if i0 > 0 {
		off = g.featureEnd[i0-1]
	}
	end := off
	if i1 > i0 {
		end = g.featureEnd[i1-1]
	}
	b := doc[off:off:end]
	for i := i0; i < i1; i++ {
		p := &g.polys[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, sen1FeatureHead...)
		b = strconv.AppendInt(b, int64(p.Label), 10)
		b = append(b, sen1FeaturePixels...)
		b = strconv.AppendInt(b, int64(g.pixels[p.Label-1]), 10)
		b = append(b, sen1FeatureGeomTag...)
		b = g.ring(b, p.Exterior)
		for _, hole := range p.Holes {
			b = append(b, ',')
			b = g.ring(b, hole)
		}
		b = append(b, sen1FeatureTail...)
	}
	if len(b) != end-off || (len(b) > 0 && &b[0] != &doc[off]) {
		panic(fmt.Sprintf("workers: GeoJSON features %d..%d took %d bytes, %d computed", i0, i1, len(b), end-off))
	}
}

// ring appends a closed ring. Pixel rings run clockwise on screen (rows
// down), which is clockwise on the map too once rows become decreasing
// latitudes; they are reversed then so exteriors are counter-clockwise.
func (g *sen1GeoJSONWriter) ring(b []byte, r regions.PixelRing) []byte {
	b = append(b, '[')
	n := len(r)
	for k := 0; k <= n; k++ {
		j := k
		if g.flip {
			j = n - k
		}
		if j == n {
			j = 0
		}
		p := r[j]
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = append(b, g.xs[p.X]...)
		b = append(b, ',')
		b = append(b, g.ys[p.Y]...)
		b = append(b, ']')
	}
	return append(b, ']')
}

// sen1Digits returns the length of v in decimal.
func sen1Digits(v int64) int {
	n := 1
	if v < 0 {
		n++
		v = -v
	}
	for v >= 10 {
		v /= 10
		n++
	}
	return n
}
