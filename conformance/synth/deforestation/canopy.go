package deforestation

import (
	"fmt"
	"math"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// genBaselineCanopy builds a type-5 record: a Hansen treecover2000 raster
// (uint8 with nodata 255, or float32 with NaN and 255) whose valid-pixel
// mean covers each class and the exact 30/60 boundaries.
func genBaselineCanopy(g *core.Gen, i int) (workers.Record, error) {
	sample := fmt.Sprintf("synth_forest_%03d", i)
	w, h := 48+g.Rng.IntN(24), 40+g.Rng.IntN(16)
	if g.Full {
		w, h = 360+g.Rng.IntN(80), 320+g.Rng.IntN(60)
	}
	grid := g.AOIGrid(w, h, 0.00025, -70, -48, -15, 2)
	variant := i % 8
	float := variant >= 5
	dt := raster.Uint8
	if float {
		dt = raster.Float32
	}
	b, err := raster.NewBand(w, h, dt)
	if err != nil {
		return workers.Record{}, err
	}
	// A nodata block in the upper-left corner.
	ndw, ndh := w/5+g.Rng.IntN(w/5), h/6+g.Rng.IntN(h/6)
	var valid []float32
	n := 0
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			var v float64
			nodata := c < ndw && r < ndh
			switch variant {
			case 0: // dense
				v = float64(55 + g.Rng.IntN(46))
			case 1: // open canopy
				v = float64(15 + g.Rng.IntN(61))
			case 2: // sparse, with valid zeros
				v = float64(g.Rng.IntN(40))
				if g.Rng.IntN(3) == 0 {
					v = 0
				}
			case 3: // mean exactly 30: alternating 20 and 40
				v = 20
				if n%2 == 1 {
					v = 40
				}
			case 4: // mean exactly 60: alternating 50 and 70
				v = 50
				if n%2 == 1 {
					v = 70
				}
			case 5: // float32 just above 60
				v = float64(float32(60.0001 + float64(0.01*g.Rng.Float64())))
			case 6: // float32 just below 30
				v = float64(float32(29.99 + float64(0.0099*g.Rng.Float64())))
			default: // float32 spread
				v = float64(float32(100 * g.Rng.Float64()))
			}
			i := r*w + c
			if nodata {
				if float && (r+c)%2 == 0 {
					b.Set(i, math.NaN())
				} else {
					b.Set(i, 255)
				}
				continue
			}
			b.Set(i, v)
			valid = append(valid, float32(v))
			n++
		}
	}
	if (variant == 3 || variant == 4) && n%2 == 1 {
		// Keep the boundary mean exact: the unpaired last pixel takes it.
		m := float64(30 * (variant - 2))
		b.Set((h-1)*w+w-1, m)
		valid[len(valid)-1] = float32(m)
	}
	if float {
		// A stray 255 inside the valid area is nodata too.
		b.Set((h-1)*w+w-1, 255)
		valid = valid[:len(valid)-1]
	}
	mean := numpy.MeanFloat32(valid)
	class := "sparse"
	switch m := float64(mean); {
	case m > 60:
		class = "dense_forest"
	case m >= 30:
		class = "open_canopy"
	}
	opts := raster.WriteOptions{Compression: "deflate", TileSize: 256, EPSG: 4326, Transform: grid.T, NoData: core.F64(255)}
	if float {
		opts.Predictor = 3
	} else {
		opts.Predictor = 2
	}
	card, err := g.WriteTIFF("source_assets/deforestation/"+sample+"/masks/treecover2000.tif", opts, b)
	if err != nil {
		return workers.Record{}, err
	}
	rec, err := g.Record("baseline_canopy_assessment", sample,
		"What is the mean baseline (year 2000) tree-cover percentage of this AOI, and is it dense forest, open canopy or sparse?", nil,
		map[string]workers.HandleDecl{"forest_mask_1": core.Input(card)},
		[]workers.Step{
			core.Read("forest_mask_1", "hansen", "scene_1"),
			core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"forest": "scene_1"}, "mode": "baseline_canopy"}, "work_1"),
			core.Step("ComputeStats", map[string]any{"input": "work_1", "metrics": map[string]any{"treecover_mean_pct": true}, "region": "aoi"}, "stats_1"),
			core.Step("ClassifyChange", map[string]any{"input": "stats_1", "rule": "canopy_density", "labels": []any{"dense_forest", "open_canopy", "sparse"}}, "class_1"),
			core.TaskComplete(),
		},
		map[string]any{"baseline_class": class, "treecover2000_mean_pct": float64(mean)})
	// The record states the question more briefly than its sidecar.
	rec.Question = "What is the mean baseline tree-cover percentage of this AOI and its density class?"
	return rec, err
}
