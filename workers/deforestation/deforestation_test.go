package deforestation

import (
	"math"
	"strings"
	"testing"

	"github.com/geodisaster/engine/workers/workertest"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

func TestCanopyClassBoundaries(t *testing.T) {
	for _, c := range []struct {
		mean float32
		want string
	}{
		{60, "open_canopy"}, {math.Nextafter32(60, 61), "dense_forest"}, {100, "dense_forest"},
		{30, "open_canopy"}, {math.Nextafter32(30, 0), "sparse"}, {0, "sparse"},
	} {
		if got := canopyClass(c.mean); got != c.want {
			t.Errorf("canopyClass(%v) = %s, want %s", c.mean, got, c.want)
		}
	}
}

func TestValidCanopySkipsNoDataAndRejectsOutOfRange(t *testing.T) {
	b, err := raster.NewBand(4, 1, raster.Uint8)
	if err != nil {
		t.Fatal(err)
	}
	copy(b.Data.([]uint8), []uint8{10, 255, 7, 90})
	info := workers.RasterInfo{HasNoData: true, NoData: 7}
	got, err := validCanopy(nil, b, info, "t.tif")
	if err != nil || len(got) != 2 || got[0] != 10 || got[1] != 90 {
		t.Fatalf("valid %v %v, want [10 90]", got, err)
	}
	b.Data.([]uint8)[3] = 101
	if _, err := validCanopy(nil, b, info, "t.tif"); err == nil || !strings.Contains(err.Error(), "outside 0..100") {
		t.Errorf("101%%: %v", err)
	}
	copy(b.Data.([]uint8), []uint8{255, 255, 7, 255})
	if _, err := validCanopy(nil, b, info, "t.tif"); err == nil || !strings.Contains(err.Error(), "no valid") {
		t.Errorf("all nodata: %v", err)
	}
}

func TestClassifyCanopyDensityChecksItsStats(t *testing.T) {
	m := newMemEnv()
	put := func(st *CanopyStats) {
		m.Handles["stats_1"] = &workers.Handle{Name: "stats_1", Kind: "stats", Result: &workers.Result{Payload: st}}
	}
	put(&CanopyStats{MeanPct: 45, Class: "open_canopy"})
	r, err := classifyCanopyDensity(m, args("ClassifyChange", map[string]any{"input": "stats_1"}))
	if err != nil || r.Payload.(*CanopyClass).Class != "open_canopy" {
		t.Fatalf("45%%: %v %v", r, err)
	}
	put(&CanopyStats{MeanPct: 45, Class: "dense_forest"})
	if _, err := classifyCanopyDensity(m, args("ClassifyChange", map[string]any{"input": "stats_1"})); err == nil || !strings.Contains(err.Error(), "disagrees") {
		t.Errorf("tampered class: %v", err)
	}
	put(&CanopyStats{MeanPct: 45, Class: "open_canopy"})
	dup := []any{"sparse", "sparse", "dense_forest"}
	if _, err := classifyCanopyDensity(m, args("ClassifyChange", map[string]any{"input": "stats_1", "labels": dup})); err == nil || !strings.Contains(err.Error(), "duplicate") {
		t.Errorf("duplicate labels: %v", err)
	}
}

func TestDefMatchesKernelTables(t *testing.T) {
	workertest.CheckFamily(t, Def(), workers.Deforestation)
}
