package vector

import (
	"math"
	"testing"

	"github.com/paulmach/orb"
)

func TestClippedAreaCases(t *testing.T) {
	q := func(x0, y0, x1, y1 float64) orb.Bound {
		return orb.Bound{Min: orb.Point{x0, y0}, Max: orb.Point{x1, y1}}
	}
	rect := func(x0, y0, x1, y1 float64) orb.MultiPolygon {
		return orb.MultiPolygon{{{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}}}}
	}
	// U shape opening upwards, cut below its arms: the clip has two parts.
	u := orb.MultiPolygon{{{{0, 0}, {30, 0}, {30, 30}, {20, 30}, {20, 10}, {10, 10}, {10, 30}, {0, 30}, {0, 0}}}}
	holedSq := orb.MultiPolygon{{
		{{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 0}},
		{{4, 4}, {4, 6}, {6, 6}, {6, 4}, {4, 4}},
	}}
	for _, c := range []struct {
		name string
		g    orb.MultiPolygon
		b    orb.Bound
		want float64
	}{
		{"inside", rect(10, 10, 20, 30), q(0, 0, 512, 512), 200},
		{"outside", rect(600, 10, 620, 30), q(0, 0, 512, 512), 0},
		{"touching edge", rect(512, 10, 520, 30), q(0, 0, 512, 512), 0},
		{"straddles x=512", rect(500, 10, 524, 30), q(0, 0, 512, 512), 240},
		{"straddles x=512 right", rect(500, 10, 524, 30), q(512, 0, 1024, 512), 240},
		{"straddles corner", rect(500, 500, 524, 530), q(512, 512, 1024, 1024), 12 * 18},
		{"beyond frame", rect(1010, 10, 1040, 20), q(512, 0, 1024, 512), 140},
		{"u two parts", u, q(0, 15, 30, 40), 2 * 10 * 15},
		{"hole straddles", holedSq, q(0, 0, 5, 10), 50 - 2},
		{"hole inside", holedSq, q(0, 0, 10, 10), 96},
	} {
		if got := ClippedArea(c.g, c.b); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: clipped area %v, want %v", c.name, got, c.want)
		}
	}
}

func TestClipRingDiagonal(t *testing.T) {
	tri := orb.Ring{{0, 0}, {10, 0}, {0, 10}, {0, 0}}
	r := ClipRing(tri, orb.Bound{Min: orb.Point{0, 0}, Max: orb.Point{5, 5}})
	if r == nil || r[0] != r[len(r)-1] {
		t.Fatalf("clipped ring not closed: %v", r)
	}
	if a := math.Abs(RingSignedArea(r)); math.Abs(a-25) > 1e-12 {
		t.Fatalf("clipped triangle area %v, want 25", a)
	}
	if ClipRing(tri, orb.Bound{Min: orb.Point{20, 20}, Max: orb.Point{30, 30}}) != nil {
		t.Fatal("disjoint clip should be empty")
	}
	if ClipRing(orb.Ring{{0, 0}, {1, 1}}, orb.Bound{Max: orb.Point{5, 5}}) != nil {
		t.Fatal("an unclosed ring clips to nothing")
	}
}
