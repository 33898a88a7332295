package vector

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/paulmach/orb"
)

// ParseGeoJSONGeometry decodes a GeoJSON geometry object (RFC 7946
// section 3.1: Point, MultiPoint, LineString, MultiLineString, Polygon,
// MultiPolygon, GeometryCollection) into orb types. Every position must
// have at least two finite coordinates (a third and further ones are
// dropped); nothing else is checked, so a ring need not be closed.
func ParseGeoJSONGeometry(data []byte) (orb.Geometry, error) {
	var g struct {
		Type        string            `json:"type"`
		Coordinates json.RawMessage   `json:"coordinates"`
		Geometries  []json.RawMessage `json:"geometries"`
	}
	if err := json.Unmarshal(data, &g); err != nil {
		return nil, fmt.Errorf("vector: GeoJSON geometry: %w", err)
	}
	bad := func(err error) (orb.Geometry, error) {
		return nil, fmt.Errorf("vector: GeoJSON %s coordinates: %w", g.Type, err)
	}
	switch g.Type {
	case "Point":
		var c []float64
		if err := json.Unmarshal(g.Coordinates, &c); err != nil {
			return bad(err)
		}
		p, err := position(c)
		if err != nil {
			return bad(err)
		}
		return p, nil
	case "MultiPoint", "LineString":
		var c [][]float64
		if err := json.Unmarshal(g.Coordinates, &c); err != nil {
			return bad(err)
		}
		ps, err := positions(c)
		if err != nil {
			return bad(err)
		}
		if g.Type == "MultiPoint" {
			return orb.MultiPoint(ps), nil
		}
		return orb.LineString(ps), nil
	case "MultiLineString", "Polygon":
		var c [][][]float64
		if err := json.Unmarshal(g.Coordinates, &c); err != nil {
			return bad(err)
		}
		ls, err := lineList(c)
		if err != nil {
			return bad(err)
		}
		if g.Type == "MultiLineString" {
			out := make(orb.MultiLineString, len(ls))
			for i, l := range ls {
				out[i] = orb.LineString(l)
			}
			return out, nil
		}
		return polygonOf(ls), nil
	case "MultiPolygon":
		var c [][][][]float64
		if err := json.Unmarshal(g.Coordinates, &c); err != nil {
			return bad(err)
		}
		out := make(orb.MultiPolygon, len(c))
		for i, pc := range c {
			ls, err := lineList(pc)
			if err != nil {
				return bad(err)
			}
			out[i] = polygonOf(ls)
		}
		return out, nil
	case "GeometryCollection":
		out := make(orb.Collection, len(g.Geometries))
		for i, raw := range g.Geometries {
			c, err := ParseGeoJSONGeometry(raw)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	return nil, fmt.Errorf("vector: GeoJSON geometry type %q", g.Type)
}

func position(c []float64) (orb.Point, error) {
	if len(c) < 2 {
		return orb.Point{}, fmt.Errorf("a position needs two coordinates, has %d", len(c))
	}
	for _, v := range c[:2] {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return orb.Point{}, fmt.Errorf("non-finite coordinate %v", v)
		}
	}
	return orb.Point{c[0], c[1]}, nil
}

func positions(c [][]float64) ([]orb.Point, error) {
	out := make([]orb.Point, len(c))
	for i, p := range c {
		var err error
		if out[i], err = position(p); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func lineList(c [][][]float64) ([][]orb.Point, error) {
	out := make([][]orb.Point, len(c))
	for i, l := range c {
		var err error
		if out[i], err = positions(l); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func polygonOf(rings [][]orb.Point) orb.Polygon {
	out := make(orb.Polygon, len(rings))
	for i, r := range rings {
		out[i] = orb.Ring(r)
	}
	return out
}

// eachPoint calls fn with every position of g.
func eachPoint(g orb.Geometry, fn func(orb.Point)) {
	components(g, func(c orb.Geometry) {
		switch c := c.(type) {
		case orb.Point:
			fn(c)
		case orb.LineString:
			for _, p := range c {
				fn(p)
			}
		case orb.Ring:
			for _, p := range c {
				fn(p)
			}
		case orb.Polygon:
			for _, r := range c {
				for _, p := range r {
					fn(p)
				}
			}
		}
	})
}
