package vector

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/paulmach/orb"
)

// RepresentativePoint is one GeoJSON feature reduced to the point that
// stands for it, such as a cached OpenStreetMap way or relation centre.
type RepresentativePoint struct {
	// ID identifies the feature: its GeoJSON id, else "osm_type/osm_id"
	// from its properties, else "#<index>".
	ID string
	// Lon and Lat are the point's WGS84 coordinates in degrees, taken from
	// the geometry (never from cached raster row/column properties).
	Lon, Lat float64
	// Geometry is the feature's GeoJSON geometry type ("Point",
	// "Polygon", ...).
	Geometry string
	// Index is the feature's position in the collection.
	Index int
	// Properties are the feature's properties.
	Properties map[string]any
}

// Name returns the feature's "name" property, or "" and false when it is
// absent, null or not a string.
func (p RepresentativePoint) Name() (string, bool) {
	s, ok := p.Properties["name"].(string)
	return s, ok
}

// RepresentativePoints decodes a GeoJSON FeatureCollection and reduces
// every feature to one representative point: a Point's own position,
// otherwise the geometry's representative point as Shapely's
// representative_point() computes it (InteriorPoint) in longitude and
// latitude, so that a cached OSM road drawn as a LineString or a shelter
// drawn as a Polygon stands for itself like a cached centre does. Every
// position must be finite, with longitude in [-180, 180] and latitude in
// [-90, 90]; a feature without a geometry, or with an empty one, is an
// error.
func RepresentativePoints(data []byte) ([]RepresentativePoint, error) {
	var fc struct {
		Type     string `json:"type"`
		Features []struct {
			Type       string          `json:"type"`
			ID         any             `json:"id"`
			Geometry   json.RawMessage `json:"geometry"`
			Properties map[string]any  `json:"properties"`
		} `json:"features"`
	}
	if err := json.Unmarshal(data, &fc); err != nil {
		return nil, fmt.Errorf("vector: decoding GeoJSON: %w", err)
	}
	if fc.Type != "FeatureCollection" {
		return nil, fmt.Errorf("vector: GeoJSON type %q, want FeatureCollection", fc.Type)
	}
	out := make([]RepresentativePoint, 0, len(fc.Features))
	for i, f := range fc.Features {
		if len(f.Geometry) == 0 || string(f.Geometry) == "null" {
			return nil, fmt.Errorf("vector: feature %d has no geometry", i)
		}
		g, err := ParseGeoJSONGeometry(f.Geometry)
		if err != nil {
			return nil, fmt.Errorf("vector: feature %d: %w", i, err)
		}
		var bad error
		eachPoint(g, func(p orb.Point) {
			if bad == nil && (p[0] < -180 || p[0] > 180 || p[1] < -90 || p[1] > 90) {
				bad = fmt.Errorf("vector: feature %d has invalid coordinates (%v, %v)", i, p[0], p[1])
			}
		})
		if bad != nil {
			return nil, bad
		}
		if err := checkRings(g); err != nil {
			return nil, fmt.Errorf("vector: feature %d: %w", i, err)
		}
		p, ok := InteriorPoint(g)
		if !ok {
			return nil, fmt.Errorf("vector: feature %d has an empty %s geometry", i, g.GeoJSONType())
		}
		props := f.Properties
		if props == nil {
			props = map[string]any{}
		}
		out = append(out, RepresentativePoint{ID: featureID(f.ID, props, i), Lon: p[0], Lat: p[1], Geometry: g.GeoJSONType(), Index: i, Properties: props})
	}
	return out, nil
}

// checkRings requires every polygon ring to have at least three positions
// besides its closing one, as Shapely requires of a LinearRing.
func checkRings(g orb.Geometry) error {
	switch g := g.(type) {
	case orb.Polygon:
		for _, r := range g {
			if len(closed(r)) < 4 {
				return fmt.Errorf("a polygon ring has %d positions (at least 4 with the closing one)", len(r))
			}
		}
	case orb.MultiPolygon:
		for _, p := range g {
			if err := checkRings(p); err != nil {
				return err
			}
		}
	case orb.Collection:
		for _, c := range g {
			if err := checkRings(c); err != nil {
				return err
			}
		}
	}
	return nil
}

// featureID returns a feature's identity for distinct counting.
func featureID(id any, props map[string]any, i int) string {
	switch v := id.(type) {
	case string:
		if v != "" {
			return v
		}
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	if id, ok := props["osm_id"]; ok && id != nil {
		t, _ := props["osm_type"].(string)
		switch x := id.(type) {
		case float64:
			return t + "/" + strconv.FormatFloat(x, 'f', -1, 64)
		case string:
			return t + "/" + x
		}
	}
	return "#" + strconv.Itoa(i)
}

// Distinct returns the points with the first occurrence of each ID, in
// order.
func Distinct(pts []RepresentativePoint) []RepresentativePoint {
	seen := map[string]bool{}
	out := make([]RepresentativePoint, 0, len(pts))
	for _, p := range pts {
		if seen[p.ID] {
			continue
		}
		seen[p.ID] = true
		out = append(out, p)
	}
	return out
}
