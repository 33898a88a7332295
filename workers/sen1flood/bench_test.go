//go:build unix

package sen1flood

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/geodisaster/engine/conformance/hydrate"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/raster/regions"
	"github.com/geodisaster/engine/workers"
)

// sen1BenchEnv is sen1Env with decoded bands (a session's band cache).
type sen1BenchEnv struct {
	sen1Env
	bands map[string]*raster.Band
	info  map[string]workers.RasterInfo
}

func (e *sen1BenchEnv) Band(path string, band int) (*raster.Band, workers.RasterInfo, error) {
	b, ok := e.bands[fmt.Sprint(path, band)]
	if !ok {
		return nil, workers.RasterInfo{}, fmt.Errorf("no band %s %d", path, band)
	}
	return b, e.info[path], nil
}

var sen1BenchChip = sync.OnceValues(func() ([]byte, error) {
	hand, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "sen1floods11", "Spain_7370579", "S1Hand.tif"))
	if err != nil {
		return nil, err
	}
	return hydrate.Portable(hand)
})

func sen1DecodeChip(b []byte) (vv, vh *raster.Band, info workers.RasterInfo, err error) {
	ds, err := raster.OpenReaderAt(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, nil, info, err
	}
	if vv, err = ds.ReadBand(context.Background(), 1); err != nil {
		return nil, nil, info, err
	}
	if vh, err = ds.ReadBand(context.Background(), 2); err != nil {
		return nil, nil, info, err
	}
	info = workers.RasterInfo{Width: ds.Width(), Height: ds.Height(), Count: 2, DataType: ds.DataType(), EPSG: ds.EPSG()}
	info.Transform, info.HasTransform = ds.Transform()
	info.NoData, info.HasNoData = ds.NoData()
	return vv, vh, info, nil
}

// sen1CPU reports the process CPU time per op as cpu-ms/op (the machine
// may be shared, so wall time alone misleads).
func sen1CPU(b *testing.B, f func()) {
	var before, after syscall.Rusage
	b.ResetTimer()
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	for i := 0; i < b.N; i++ {
		f()
	}
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	b.StopTimer()
	cpu := time.Duration(after.Utime.Nano()+after.Stime.Nano()-before.Utime.Nano()-before.Stime.Nano()) / time.Duration(b.N)
	b.ReportMetric(float64(cpu.Microseconds())/1000, "cpu-ms/op")
}

// BenchmarkSen1FloodStages times the type-E chain's stages on the real
// chip (S1Portable made from ../shared/data's S1Hand.tif), so a profile
// shows which one dominates:
//
//	go test ./workers/sen1flood/ -run '^$' -bench Sen1FloodStages -benchtime 50x
func BenchmarkSen1FloodStages(b *testing.B) {
	chip, err := sen1BenchChip()
	if err != nil {
		b.Skipf("real chip absent: %v", err)
	}
	vvB, vhB, info, err := sen1DecodeChip(chip)
	if err != nil {
		b.Fatal(err)
	}
	vv, vh := vvB.Data.([]float32), vhB.Data.([]float32)
	m, err := PredictFlood(vv, vh, info)
	if err != nil {
		b.Fatal(err)
	}
	m.Areas, _ = workers.NewGridAreas(info)
	m.Source = "s1.tif"
	labels, comps, err := LabelFlood(m)
	if err != nil {
		b.Fatal(err)
	}
	polys, err := regions.Polygonize(labels, info.Width, info.Height, len(comps))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decode", func(b *testing.B) {
		sen1CPU(b, func() {
			if _, _, _, err := sen1DecodeChip(chip); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("predict", func(b *testing.B) {
		sen1CPU(b, func() {
			if _, err := PredictFlood(vv, vh, info); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("mask_tif", func(b *testing.B) {
		sen1CPU(b, func() {
			if _, err := EncodeFloodMask(m.Mask, info); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("label", func(b *testing.B) {
		sen1CPU(b, func() {
			if _, _, err := LabelFlood(m); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("trace", func(b *testing.B) {
		sen1CPU(b, func() {
			if _, err := regions.TraceOutlines(m.Mask, MaskFlood, info.Width, info.Height); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("polygonize", func(b *testing.B) {
		sen1CPU(b, func() {
			if _, err := regions.Polygonize(labels, info.Width, info.Height, len(comps)); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("geojson", func(b *testing.B) {
		sen1CPU(b, func() {
			FloodPolygonsGeoJSON(polys, comps, info)
		})
	})
	b.Run("grid", func(b *testing.B) {
		sen1CPU(b, func() {
			FloodGrid(m.Mask, info.Width, info.Height, m.Flood)
			m.Areas.Sum(m.FloodIndices())
		})
	})
	env := &sen1BenchEnv{bands: map[string]*raster.Band{fmt.Sprint("s1.tif", 1): vvB}, info: map[string]workers.RasterInfo{"s1.tif": info}}
	o := &FloodObjects{Target: "flood_polygons", Mask: m, Labels: labels, Components: comps}
	cmp := &FloodComparison{Mask: m, Ranking: &FloodRanking{Report: &FloodReport{Mask: m, Objects: o}}}
	env.handles = map[string]*workers.Handle{"compare_1": {Name: "compare_1", Kind: "compare", Result: &workers.Result{Payload: cmp}}}
	reg, err := workers.NewRegistry([]workers.FamilyDef{Def()})
	if err != nil {
		b.Fatal(err)
	}
	// A worker stage runs one call through the registry, as a session
	// makes it.
	stage := func(name, tool string, args map[string]any) {
		v, a, err := reg.Resolve(tool, args)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			sen1CPU(b, func() {
				if _, err := v.Run(env, a); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
	// ExtractObjects(flood_polygons) whole: labelling, tracing,
	// polygonizing and the GeoJSON streamed to its hasher.
	env.handles["flood_1"] = &workers.Handle{Name: "flood_1", Kind: "flood", Result: &workers.Result{Payload: m}}
	stage("extract", "ExtractObjects", map[string]any{"input": "flood_1", "target": "flood_polygons"})
	stage("render", "RenderMap", map[string]any{"input": "compare_1", "style": "flood_diagnostic",
		"layers": map[string]any{"component_boundaries": true, "grid": true, "prediction": true, "sar": true}})
}
