package vector

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/paulmach/orb"
)

// shapelyInterior is vector/testdata/shapely_interior.json, written by
// conformance/vector/gen_interior.py with Shapely.
const shapelyInterior = "testdata/shapely_interior.json"

type interiorGolden struct {
	Shapely string `json:"shapely"`
	GEOS    string `json:"geos"`
	Cases   []struct {
		Geometry json.RawMessage `json:"geometry"`
		Point    [2]string       `json:"point"`
	} `json:"cases"`
}

// TestInteriorPointEqualsShapely requires InteriorPoint to equal
// Shapely's representative_point() bit for bit on every recorded case.
func TestInteriorPointEqualsShapely(t *testing.T) {
	b, err := os.ReadFile(shapelyInterior)
	if err != nil {
		t.Fatal(err)
	}
	var g interiorGolden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) < 300 {
		t.Fatalf("%d cases", len(g.Cases))
	}
	kinds := map[string]int{}
	for i, c := range g.Cases {
		geom, err := ParseGeoJSONGeometry(c.Geometry)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		kinds[geom.GeoJSONType()]++
		p, ok := InteriorPoint(geom)
		if !ok {
			t.Errorf("case %d (%s): no point", i, geom.GeoJSONType())
			continue
		}
		x, _ := strconv.ParseFloat(c.Point[0], 64)
		y, _ := strconv.ParseFloat(c.Point[1], 64)
		if math.Float64bits(p[0]) != math.Float64bits(x) || math.Float64bits(p[1]) != math.Float64bits(y) {
			t.Errorf("case %d (%s): %v, Shapely %v %v", i, geom.GeoJSONType(), p, x, y)
		}
	}
	t.Logf("%d geometries equal Shapely %s (GEOS %s): %v", len(g.Cases), g.Shapely, g.GEOS, kinds)
}

// TestInteriorPointTableIsShapelys regenerates the table with Shapely
// itself (CI installs it; skipped elsewhere without it).
func TestInteriorPointTableIsShapelys(t *testing.T) {
	if err := exec.Command("/usr/bin/python3", "-c", "import shapely").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but python3-shapely is missing: .ci/steps/00-native-stack.sh must install it")
		}
		t.Skip("Shapely absent")
	}
	want, err := os.ReadFile(shapelyInterior)
	if err != nil {
		t.Fatal(err)
	}
	got, err := exec.Command("/usr/bin/python3", "../conformance/vector/gen_interior.py").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Shapely's representative points differ from %s; regenerate it with conformance/vector/gen_interior.py", shapelyInterior)
	}
}

func TestInteriorPointEdgeCases(t *testing.T) {
	if _, ok := InteriorPoint(orb.Polygon{}); ok {
		t.Error("empty polygon")
	}
	if _, ok := InteriorPoint(orb.Collection{}); ok {
		t.Error("empty collection")
	}
	if p, ok := InteriorPoint(orb.Point{1, 2}); !ok || p != (orb.Point{1, 2}) {
		t.Errorf("point: %v", p)
	}
	// A two-point line has no interior vertex: the endpoint nearest the
	// centroid (the first on a tie).
	if p, ok := InteriorPoint(orb.LineString{{0, 0}, {2, 0}}); !ok || p != (orb.Point{0, 0}) {
		t.Errorf("segment: %v", p)
	}
}
