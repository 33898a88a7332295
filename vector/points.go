package vector

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
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

// RepresentativePoints decodes a GeoJSON FeatureCollection whose features
// are representative points. Every feature must have a Point geometry with
// finite longitude in [-180, 180] and latitude in [-90, 90]; other geometry
// types are an error rather than silently reduced, since the point a cache
// chose to represent a line or polygon cannot be reconstructed from its
// shape.
func RepresentativePoints(data []byte) ([]RepresentativePoint, error) {
	var fc struct {
		Type     string `json:"type"`
		Features []struct {
			Type     string `json:"type"`
			ID       any    `json:"id"`
			Geometry *struct {
				Type        string          `json:"type"`
				Coordinates json.RawMessage `json:"coordinates"`
			} `json:"geometry"`
			Properties map[string]any `json:"properties"`
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
		if f.Geometry == nil {
			return nil, fmt.Errorf("vector: feature %d has no geometry", i)
		}
		if f.Geometry.Type != "Point" {
			return nil, fmt.Errorf("vector: feature %d has a %s geometry; a representative Point is required", i, f.Geometry.Type)
		}
		var c []float64
		if err := json.Unmarshal(f.Geometry.Coordinates, &c); err != nil || len(c) < 2 {
			return nil, fmt.Errorf("vector: feature %d: Point coordinates must be [lon, lat]", i)
		}
		lon, lat := c[0], c[1]
		if math.IsNaN(lon) || math.IsNaN(lat) || math.IsInf(lon, 0) || math.IsInf(lat, 0) || lon < -180 || lon > 180 || lat < -90 || lat > 90 {
			return nil, fmt.Errorf("vector: feature %d has invalid coordinates (%v, %v)", i, lon, lat)
		}
		props := f.Properties
		if props == nil {
			props = map[string]any{}
		}
		out = append(out, RepresentativePoint{ID: featureID(f.ID, props, i), Lon: lon, Lat: lat, Index: i, Properties: props})
	}
	return out, nil
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
