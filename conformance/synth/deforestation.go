package synth

import (
	"fmt"
	"math"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

func deforestationGens() map[string]typeGen {
	return map[string]typeGen{
		"forest_loss_detection":       {full: 48, gen: genForestLossDetection},
		"area_estimation":             {full: 48, gen: genAreaEstimation},
		"change_window_estimation":    {full: 48, gen: genChangeWindow},
		"false_positive_rejection":    {full: 48, gen: genFalsePositive},
		"baseline_canopy_assessment":  {full: 48, gen: genBaselineCanopy},
		"multi_year_loss_attribution": {full: 48, gen: genLossAttribution},
		"cross_modal_concordance":     {full: 48, gen: genConcordance},
		"severity_proxy_numeric":      {full: 48, gen: genSeverity},
	}
}

// genBaselineCanopy builds a type-5 record: a Hansen treecover2000 raster
// (uint8 with nodata 255, or float32 with NaN and 255) whose valid-pixel
// mean covers each class and the exact 30/60 boundaries.
func genBaselineCanopy(g *gen, i int) (workers.Record, error) {
	sample := fmt.Sprintf("synth_forest_%03d", i)
	w, h := 48+g.rng.IntN(24), 40+g.rng.IntN(16)
	if g.full {
		w, h = 360+g.rng.IntN(80), 320+g.rng.IntN(60)
	}
	grid := g.aoiGrid(w, h, 0.00025, -70, -48, -15, 2)
	variant := i % 8
	float := variant >= 5
	dt := raster.Uint8
	if float {
		dt = raster.Float32
	}
	b, err := newBand(w, h, dt)
	if err != nil {
		return workers.Record{}, err
	}
	// A nodata block in the upper-left corner.
	ndw, ndh := w/5+g.rng.IntN(w/5), h/6+g.rng.IntN(h/6)
	var valid []float32
	n := 0
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			var v float64
			nodata := c < ndw && r < ndh
			switch variant {
			case 0: // dense
				v = float64(55 + g.rng.IntN(46))
			case 1: // open canopy
				v = float64(15 + g.rng.IntN(61))
			case 2: // sparse, with valid zeros
				v = float64(g.rng.IntN(40))
				if g.rng.IntN(3) == 0 {
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
				v = float64(float32(60.0001 + float64(0.01*g.rng.Float64())))
			case 6: // float32 just below 30
				v = float64(float32(29.99 + float64(0.0099*g.rng.Float64())))
			default: // float32 spread
				v = float64(float32(100 * g.rng.Float64()))
			}
			i := r*w + c
			if nodata {
				if float && (r+c)%2 == 0 {
					setAt(b, i, math.NaN())
				} else {
					setAt(b, i, 255)
				}
				continue
			}
			setAt(b, i, v)
			valid = append(valid, float32(v))
			n++
		}
	}
	if (variant == 3 || variant == 4) && n%2 == 1 {
		// Keep the boundary mean exact: the unpaired last pixel takes it.
		m := float64(30 * (variant - 2))
		setAt(b, (h-1)*w+w-1, m)
		valid[len(valid)-1] = float32(m)
	}
	if float {
		// A stray 255 inside the valid area is nodata too.
		setAt(b, (h-1)*w+w-1, 255)
		valid = valid[:len(valid)-1]
	}
	mean := raster.MeanFloat32(valid)
	class := "sparse"
	switch m := float64(mean); {
	case m > 60:
		class = "dense_forest"
	case m >= 30:
		class = "open_canopy"
	}
	opts := raster.WriteOptions{Compression: "deflate", TileSize: 256, EPSG: 4326, Transform: grid.T, NoData: f64(255)}
	if float {
		opts.Predictor = 3
	} else {
		opts.Predictor = 2
	}
	card, err := g.writeTIFF("source_assets/deforestation/"+sample+"/masks/treecover2000.tif", b, opts)
	if err != nil {
		return workers.Record{}, err
	}
	q, err := g.question("baseline_canopy_assessment", sample,
		"What is the mean baseline (year 2000) tree-cover percentage of this AOI, and is it dense forest, open canopy or sparse?", nil)
	if err != nil {
		return workers.Record{}, err
	}
	ans, err := answerJSON(map[string]any{"baseline_class": class, "treecover2000_mean_pct": float64(mean)})
	if err != nil {
		return workers.Record{}, err
	}
	return workers.Record{
		ID:       "baseline_canopy_assessment__" + sample,
		SampleID: sample,
		Question: "What is the mean baseline tree-cover percentage of this AOI and its density class?",
		Handles: map[string]workers.HandleDecl{
			"question_1":    q,
			"forest_mask_1": {Kind: workers.KindInput, Files: []workers.FileCard{card}},
		},
		GTChain: []workers.Step{
			{Tool: "ReadData", Args: map[string]any{"question": "question_1", "handle": "forest_mask_1", "role": "hansen"}, Output: "scene_1"},
			{Tool: "PrepareScene", Args: map[string]any{"inputs": map[string]any{"forest": "scene_1"}, "mode": "baseline_canopy"}, Output: "work_1"},
			{Tool: "ComputeStats", Args: map[string]any{"input": "work_1", "metrics": map[string]any{"treecover_mean_pct": true}, "region": "aoi"}, Output: "stats_1"},
			{Tool: "ClassifyChange", Args: map[string]any{"input": "stats_1", "rule": "canopy_density", "labels": []any{"dense_forest", "open_canopy", "sparse"}}, Output: "class_1"},
			{Tool: "TaskComplete", Args: map[string]any{"status": "TASK_COMPLETE"}},
		},
		Answer: ans,
	}, nil
}

// setAt stores v at index i of a band of any numeric type.
func setAt(b *raster.Band, i int, v float64) {
	switch d := b.Data.(type) {
	case []uint8:
		d[i] = uint8(v)
	case []int8:
		d[i] = int8(v)
	case []uint16:
		d[i] = uint16(v)
	case []int16:
		d[i] = int16(v)
	case []uint32:
		d[i] = uint32(v)
	case []int32:
		d[i] = int32(v)
	case []float32:
		d[i] = float32(v)
	case []float64:
		d[i] = v
	}
}
