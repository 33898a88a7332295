package xbd

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"path"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geodisaster/engine/vector"
)

// xBD inputs (spec question types 29-35).
//
// building_damage_xy.geojson is an xView2-style label document:
//
//	{"features": {"xy": [{"properties": {"feature_type": "building",
//	   "subtype": "major-damage", "uid": "..."}, "wkt": "POLYGON ((x y, ...))"}]},
//	 "metadata": {"gsd": 1.8, "width": 1024, "height": 1024,
//	   "disaster": "...", "disaster_type": "...", "img_name": "<scene>_post_disaster.png"}}
//
// or, as users convert it, a GeoJSON FeatureCollection of the same
// buildings ({"type": "FeatureCollection", "features": [{"type": "Feature",
// "properties": {...}, "geometry": {"type": "Polygon", ...}}], "metadata":
// {...}}),
// with polygons in pixel coordinates (x right, y down, frame 0..width,
// 0..height). quadrants.geojson and grid_4x4.geojson are source-derived
// caches: a GeoJSON FeatureCollection in the same pixel space whose
// "metadata" names the scene, grid ("2x2" or "4x4"), frame and GSD, with one
// feature per cell (properties.feature_type "cell": cell_id, row, col,
// x_min/y_min/x_max/y_max and cached summaries) and one per building
// (feature_type "building": uid, subtype, polygon geometry). Workers
// recompute every summary from the cached building polygons and reject a
// cache whose cell summaries disagree with them.

// The five normalized xBD classes, in the order used for counts.
const (
	XBDNoDamage = iota
	XBDMinorDamage
	XBDMajorDamage
	XBDDestroyed
	XBDUnclassified
	xbdClasses
)

// XBDClassNames are the normalized class names (spec type 29).
var XBDClassNames = [xbdClasses]string{"no-damage", "minor-damage", "major-damage", "destroyed", "unclassified"}

// NormalizeXBDSubtype maps an xView2 subtype to a normalized class index:
// case, surrounding space and "_"/" " separators are ignored, "un-classified"
// and a missing or empty subtype are unclassified; anything else is an
// error.
func NormalizeXBDSubtype(s string) (int, error) {
	// The spellings xView2 writes need no normalizing.
	c, ok := xbdSubtypeClass(s)
	if !ok {
		c, ok = xbdSubtypeClass(xbdSubtypeSeparators.Replace(strings.ToLower(strings.TrimSpace(s))))
	}
	if !ok {
		return 0, fmt.Errorf("unknown damage subtype %q (allowed: no-damage, minor-damage, major-damage, destroyed, un-classified)", s)
	}
	return c, nil
}

// xbdSubtypeSeparators turns "_" and " " into "-" (read-only, safe for
// concurrent use).
var xbdSubtypeSeparators = strings.NewReplacer("_", "-", " ", "-")

// xbdSubtypeClass returns the class of a normalized subtype.
func xbdSubtypeClass(k string) (int, bool) {
	switch k {
	case "no-damage":
		return XBDNoDamage, true
	case "minor-damage":
		return XBDMinorDamage, true
	case "major-damage":
		return XBDMajorDamage, true
	case "destroyed":
		return XBDDestroyed, true
	case "un-classified", "unclassified", "":
		return XBDUnclassified, true
	}
	return 0, false
}

// xbdSevere reports whether a class is severe (major-damage or destroyed).
func xbdSevere(c int) bool { return c == XBDMajorDamage || c == XBDDestroyed }

// XBDBuilding is one labelled building polygon in pixel coordinates.
type XBDBuilding struct {
	UID   string
	Class int
	Geom  orb.MultiPolygon
	// AreaPx is the polygon's area in square pixels (Shapely's area).
	AreaPx float64
	// Centroid is Shapely's centroid of the polygon.
	Centroid orb.Point
}

func newXBDBuilding(uid string, class int, g orb.MultiPolygon) XBDBuilding {
	c, ok := vector.Centroid(g)
	if !ok {
		c = xbdDegenerateCentroid(g)
	}
	return XBDBuilding{UID: uid, Class: class, Geom: g, AreaPx: vector.MultiPolygonArea(g), Centroid: c}
}

// xbdDegenerateCentroid is GEOS's fallback for a zero-area polygon: the
// length-weighted centroid of its edges, or the mean of its points.
func xbdDegenerateCentroid(g orb.MultiPolygon) orb.Point {
	var sx, sy, sl, px, py float64
	n := 0
	for _, p := range g {
		for _, r := range p {
			for i := 0; i+1 < len(r); i++ {
				l := math.Hypot(r[i+1][0]-r[i][0], r[i+1][1]-r[i][1])
				sx += float64(l * (r[i][0] + r[i+1][0]) / 2)
				sy += float64(l * (r[i][1] + r[i+1][1]) / 2)
				sl += l
			}
			for _, q := range r {
				px += q[0]
				py += q[1]
				n++
			}
		}
	}
	if sl > 0 {
		return orb.Point{sx / sl, sy / sl}
	}
	if n > 0 {
		return orb.Point{px / float64(n), py / float64(n)}
	}
	return orb.Point{}
}

// XBDLabels is a parsed building_damage_xy.geojson.
type XBDLabels struct {
	Path         string
	SceneID      string
	Disaster     string
	DisasterType string
	GSD          float64
	Width        int
	Height       int
	Buildings    []XBDBuilding
}

func xbdJSONInt(v any) (int, bool) {
	f, ok := v.(float64)
	if !ok || f != math.Trunc(f) || f < 0 || f > 1<<30 {
		return 0, false
	}
	return int(f), true
}

// xbdSceneDir returns the scene directory name of a declared file.
func xbdSceneDir(p string) string { return path.Base(path.Dir(p)) }

// ParseXBDLabels parses building labels: an xView2-style label document
// (features.xy with WKT polygons) or the same labels as a GeoJSON
// FeatureCollection (Polygon or MultiPolygon geometries in pixel
// coordinates, the metadata object beside features). The scene id is the
// metadata's img_name without "_post_disaster.png" (or the file's directory
// name when img_name is absent); gsd must be finite and positive and
// width/height positive integers. Features whose feature_type is present
// and not "building" are skipped.
func ParseXBDLabels(p string, doc any) (*XBDLabels, error) {
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: not a JSON object", p)
	}
	meta, ok := m["metadata"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: no metadata object", p)
	}
	l := &XBDLabels{Path: p, SceneID: xbdSceneDir(p)}
	if name, ok := meta["img_name"].(string); ok && name != "" {
		l.SceneID = strings.TrimSuffix(strings.TrimSuffix(name, ".png"), "_post_disaster")
	}
	l.Disaster, _ = meta["disaster"].(string)
	l.DisasterType, _ = meta["disaster_type"].(string)
	gsd, ok := meta["gsd"].(float64)
	if !ok || !(gsd > 0) || math.IsInf(gsd, 0) {
		return nil, fmt.Errorf("%s: metadata.gsd must be a positive number, got %v", p, meta["gsd"])
	}
	l.GSD = gsd
	if l.Width, ok = xbdJSONInt(meta["width"]); !ok || l.Width == 0 {
		return nil, fmt.Errorf("%s: metadata.width must be a positive integer, got %v", p, meta["width"])
	}
	if l.Height, ok = xbdJSONInt(meta["height"]); !ok || l.Height == 0 {
		return nil, fmt.Errorf("%s: metadata.height must be a positive integer, got %v", p, meta["height"])
	}
	// add appends one feature's building, unless its feature_type says
	// it is something else.
	add := func(where string, props map[string]any, geom func() (orb.MultiPolygon, error)) error {
		if ft, ok := props["feature_type"].(string); ok && ft != "building" {
			return nil
		}
		sub, _ := props["subtype"].(string)
		class, err := NormalizeXBDSubtype(sub)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", p, where, err)
		}
		g, err := geom()
		if err != nil {
			return fmt.Errorf("%s: %s: %w", p, where, err)
		}
		uid, _ := props["uid"].(string)
		l.Buildings = append(l.Buildings, newXBDBuilding(uid, class, g))
		return nil
	}
	switch feats := m["features"].(type) {
	case []any:
		// A GeoJSON FeatureCollection in the same pixel space, each
		// building a Polygon or MultiPolygon feature with the same
		// properties, the metadata a foreign member beside features.
		if m["type"] != "FeatureCollection" {
			return nil, fmt.Errorf("%s: features is a list but type is %v, not FeatureCollection", p, m["type"])
		}
		if cs, ok := meta["coordinate_space"].(string); ok && cs != "pixel" {
			return nil, fmt.Errorf("%s: coordinate_space %q; building labels must be in pixel coordinates", p, cs)
		}
		for i, f := range feats {
			fm, ok := f.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: features[%d] is not an object", p, i)
			}
			props, _ := fm["properties"].(map[string]any)
			if err := add(fmt.Sprintf("features[%d]", i), props, func() (orb.MultiPolygon, error) { return xbdGeoJSONPolygonal(fm["geometry"]) }); err != nil {
				return nil, err
			}
		}
	case map[string]any:
		xy, ok := feats["xy"].([]any)
		if !ok {
			return nil, fmt.Errorf("%s: features.xy must be a list", p)
		}
		for i, f := range xy {
			fm, ok := f.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: features.xy[%d] is not an object", p, i)
			}
			props, _ := fm["properties"].(map[string]any)
			err := add(fmt.Sprintf("features.xy[%d]", i), props, func() (orb.MultiPolygon, error) {
				wkt, ok := fm["wkt"].(string)
				if !ok {
					return nil, fmt.Errorf("no wkt")
				}
				return vector.ParsePolygonalWKT(wkt)
			})
			if err != nil {
				return nil, err
			}
		}
	default:
		return nil, fmt.Errorf("%s: features must be an object with an xy list (xView2) or a GeoJSON feature list", p)
	}
	return l, nil
}

// XBDCell is one cell of a prepared grid cache.
type XBDCell struct {
	ID       string
	Row, Col int
	Bound    orb.Bound
	// Props are the cell's cached properties.
	Props map[string]any
}

// XBDCache is a parsed quadrants.geojson or grid_4x4.geojson.
type XBDCache struct {
	Path       string
	SceneID    string
	Grid       string
	Rows, Cols int
	Width      int
	Height     int
	GSD        float64
	// Cells are in row-major order; their IDs ascend in that order.
	Cells     []XBDCell
	Buildings []XBDBuilding
}

// XBDCellID returns the id of a grid cell: "Q0".."Q3" (row-major: Q0
// upper-left, Q1 upper-right, Q2 lower-left, Q3 lower-right) on the 2x2
// grid and "R<row>C<col>" on larger grids.
func XBDCellID(rows, cols, row, col int) string {
	if rows == 2 && cols == 2 {
		return fmt.Sprintf("Q%d", row*2+col)
	}
	return fmt.Sprintf("R%dC%d", row, col)
}

// CellBound returns the pixel rectangle of a cell: the frame cut at
// multiples of width/cols and height/rows (0, 512, 1024 on a 1024-pixel
// 2x2 frame).
func (c *XBDCache) CellBound(row, col int) orb.Bound {
	return xbdCellBound(c.Width, c.Height, c.Rows, c.Cols, row, col)
}

func xbdCellBound(w, h, rows, cols, row, col int) orb.Bound {
	return orb.Bound{
		Min: orb.Point{float64(col * w / cols), float64(row * h / rows)},
		Max: orb.Point{float64((col + 1) * w / cols), float64((row + 1) * h / rows)},
	}
}

// AssignCell returns the row and column of the cell holding a point under
// the centroid rule: a cell is half-open [min, max) on each axis, and a
// point outside the frame goes to the nearest edge cell (so x = 512 belongs
// to the right-hand quadrant and x = 1024 to the last column).
func AssignCell(pt orb.Point, w, h, rows, cols int) (row, col int) {
	idx := func(v float64, size, n int) int {
		k := int(math.Floor(v * float64(n) / float64(size)))
		// Exact check against the integer cell edges.
		for k > 0 && v < float64(k*size/n) {
			k--
		}
		for k < n-1 && v >= float64((k+1)*size/n) {
			k++
		}
		if k < 0 {
			k = 0
		}
		if k > n-1 {
			k = n - 1
		}
		return k
	}
	return idx(pt[1], h, rows), idx(pt[0], w, cols)
}

// ParseXBDCache parses a prepared grid cache and checks its declared grid,
// frame and cell rectangles.
func ParseXBDCache(p string, doc any) (*XBDCache, error) {
	m, ok := doc.(map[string]any)
	if !ok || m["type"] != "FeatureCollection" {
		return nil, fmt.Errorf("%s: not a GeoJSON FeatureCollection", p)
	}
	meta, ok := m["metadata"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: no metadata object", p)
	}
	c := &XBDCache{Path: p, SceneID: xbdSceneDir(p)}
	if s, ok := meta["scene_id"].(string); ok && s != "" {
		c.SceneID = s
	}
	c.Grid, _ = meta["grid"].(string)
	switch c.Grid {
	case "2x2":
		c.Rows, c.Cols = 2, 2
	case "4x4":
		c.Rows, c.Cols = 4, 4
	default:
		return nil, fmt.Errorf("%s: metadata.grid %q is not 2x2 or 4x4", p, c.Grid)
	}
	if cs, ok := meta["coordinate_space"].(string); ok && cs != "pixel" {
		return nil, fmt.Errorf("%s: coordinate_space %q; the cache must be in pixel coordinates", p, cs)
	}
	if c.Width, ok = xbdJSONInt(meta["width"]); !ok || c.Width == 0 {
		return nil, fmt.Errorf("%s: metadata.width must be a positive integer", p)
	}
	if c.Height, ok = xbdJSONInt(meta["height"]); !ok || c.Height == 0 {
		return nil, fmt.Errorf("%s: metadata.height must be a positive integer", p)
	}
	gsd, ok := meta["gsd"].(float64)
	if !ok || !(gsd > 0) || math.IsInf(gsd, 0) {
		return nil, fmt.Errorf("%s: metadata.gsd must be a positive number", p)
	}
	c.GSD = gsd
	feats, ok := m["features"].([]any)
	if !ok {
		return nil, fmt.Errorf("%s: features must be a list", p)
	}
	cells := map[string]XBDCell{}
	for i, f := range feats {
		fm, _ := f.(map[string]any)
		props, _ := fm["properties"].(map[string]any)
		switch ft, _ := props["feature_type"].(string); ft {
		case "cell":
			id, _ := props["cell_id"].(string)
			row, ok1 := xbdJSONInt(props["row"])
			col, ok2 := xbdJSONInt(props["col"])
			if !ok1 || !ok2 || row >= c.Rows || col >= c.Cols || id != XBDCellID(c.Rows, c.Cols, row, col) {
				return nil, fmt.Errorf("%s: features[%d]: cell %q at row %v col %v does not belong to a %s grid", p, i, id, props["row"], props["col"], c.Grid)
			}
			b := c.CellBound(row, col)
			for k, want := range map[string]float64{"x_min": b.Min[0], "y_min": b.Min[1], "x_max": b.Max[0], "y_max": b.Max[1]} {
				if got, ok := props[k].(float64); !ok || got != want {
					return nil, fmt.Errorf("%s: cell %s: %s is %v, the %s frame cut gives %v", p, id, k, props[k], c.Grid, want)
				}
			}
			if _, dup := cells[id]; dup {
				return nil, fmt.Errorf("%s: duplicate cell %s", p, id)
			}
			cells[id] = XBDCell{ID: id, Row: row, Col: col, Bound: b, Props: props}
		case "building":
			sub, _ := props["subtype"].(string)
			class, err := NormalizeXBDSubtype(sub)
			if err != nil {
				return nil, fmt.Errorf("%s: features[%d]: %w", p, i, err)
			}
			g, err := xbdGeoJSONPolygonal(fm["geometry"])
			if err != nil {
				return nil, fmt.Errorf("%s: features[%d]: %w", p, i, err)
			}
			uid, _ := props["uid"].(string)
			c.Buildings = append(c.Buildings, newXBDBuilding(uid, class, g))
		default:
			return nil, fmt.Errorf("%s: features[%d]: feature_type %q is neither cell nor building", p, i, ft)
		}
	}
	for r := 0; r < c.Rows; r++ {
		for col := 0; col < c.Cols; col++ {
			id := XBDCellID(c.Rows, c.Cols, r, col)
			cell, ok := cells[id]
			if !ok {
				return nil, fmt.Errorf("%s: the %s grid has no cell %s", p, c.Grid, id)
			}
			c.Cells = append(c.Cells, cell)
		}
	}
	return c, nil
}

// xbdGeoJSONPolygonal decodes a GeoJSON Polygon or MultiPolygon geometry.
func xbdGeoJSONPolygonal(v any) (orb.MultiPolygon, error) {
	g, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("building has no geometry")
	}
	ring := func(v any) (orb.Ring, error) {
		pts, ok := v.([]any)
		if !ok || len(pts) < 4 {
			return nil, fmt.Errorf("a ring needs at least 4 positions")
		}
		r := make(orb.Ring, len(pts))
		for i, p := range pts {
			xy, ok := p.([]any)
			if !ok || len(xy) < 2 {
				return nil, fmt.Errorf("bad position %v", p)
			}
			x, ok1 := xy[0].(float64)
			y, ok2 := xy[1].(float64)
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("bad position %v", p)
			}
			r[i] = orb.Point{x, y}
		}
		if r[0] != r[len(r)-1] {
			return nil, fmt.Errorf("ring is not closed")
		}
		return r, nil
	}
	poly := func(v any) (orb.Polygon, error) {
		rs, ok := v.([]any)
		if !ok || len(rs) == 0 {
			return nil, fmt.Errorf("polygon has no rings")
		}
		return decodeEach[orb.Polygon](rs, ring)
	}
	switch g["type"] {
	case "Polygon":
		p, err := poly(g["coordinates"])
		if err != nil {
			return nil, err
		}
		return orb.MultiPolygon{p}, nil
	case "MultiPolygon":
		ps, ok := g["coordinates"].([]any)
		if !ok {
			return nil, fmt.Errorf("bad MultiPolygon coordinates")
		}
		return decodeEach[orb.MultiPolygon](ps, poly)
	}
	return nil, fmt.Errorf("geometry type %v is not Polygon or MultiPolygon", g["type"])
}

// decodeEach decodes each member of a GeoJSON array with decode, stopping
// at the first error (a nil result for an empty array).
func decodeEach[S ~[]T, T any](vs []any, decode func(any) (T, error)) (S, error) {
	var out S
	for _, v := range vs {
		x, err := decode(v)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// xbdPNGSize returns a PNG's dimensions without decoding its pixels.
func xbdPNGSize(p string, b []byte) (int, int, error) {
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return 0, 0, fmt.Errorf("%s: not a PNG: %w", p, err)
	}
	return cfg.Width, cfg.Height, nil
}
