package vector

import (
	"testing"

	"github.com/paulmach/orb"
)

func TestSegmentsIntersect(t *testing.T) {
	cases := []struct {
		a, b, c, d orb.Point
		want       bool
	}{
		{orb.Point{0, 0}, orb.Point{2, 2}, orb.Point{0, 2}, orb.Point{2, 0}, true},  // crossing
		{orb.Point{0, 0}, orb.Point{1, 1}, orb.Point{1, 1}, orb.Point{2, 0}, true},  // shared endpoint
		{orb.Point{0, 0}, orb.Point{2, 0}, orb.Point{1, 0}, orb.Point{3, 0}, true},  // collinear overlap
		{orb.Point{0, 0}, orb.Point{1, 0}, orb.Point{2, 0}, orb.Point{3, 0}, false}, // collinear apart
		{orb.Point{0, 0}, orb.Point{1, 1}, orb.Point{0, 1}, orb.Point{0.4, 0.6}, false},
		{orb.Point{0, 0}, orb.Point{2, 0}, orb.Point{1, 0}, orb.Point{1, 5}, true}, // T junction
	}
	for i, c := range cases {
		if got := SegmentsIntersect(c.a, c.b, c.c, c.d); got != c.want {
			t.Errorf("case %d: got %v", i, got)
		}
	}
}

func TestLineIntersectsPolygon(t *testing.T) {
	sq := orb.Polygon{
		{{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 0}},
		{{4, 4}, {6, 4}, {6, 6}, {4, 6}, {4, 4}},
	}
	cases := []struct {
		name string
		l    orb.LineString
		want bool
	}{
		{"inside", orb.LineString{{1, 1}, {2, 2}}, true},
		{"crossing without an inside vertex", orb.LineString{{-1, 5}, {11, 5}}, true},
		{"outside", orb.LineString{{11, 11}, {12, 15}}, false},
		{"within the hole", orb.LineString{{4.5, 4.5}, {5.5, 5.5}}, false},
		{"touching the shell", orb.LineString{{10, 5}, {12, 5}}, true},
	}
	for _, c := range cases {
		if got := LineIntersectsPolygon(c.l, sq); got != c.want {
			t.Errorf("%s: got %v", c.name, got)
		}
	}
}
