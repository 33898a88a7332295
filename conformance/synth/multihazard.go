package synth

import (
	"fmt"
	"math"

	"github.com/geodisaster/engine/geodesy"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

func multiHazardGens() map[string]typeGen {
	return map[string]typeGen{
		"wildfire_a":             {full: 15, gen: genWildfireA},
		"hazard_deforestation_a": {full: 23, gen: genDeforestationA},
		"urban_expansion_a":      {full: 29, gen: genUrbanA},
		"drought_a":              {full: 21, gen: genDroughtA},
		"air_pollution_a":        {full: 20, gen: genAirA},
		"wildfire_b":             {full: 15, gen: genWildfireB},
		"hazard_deforestation_b": {full: 23, gen: genDeforestationB},
		"urban_expansion_b":      {full: 29, gen: genUrbanB},
		"drought_b":              {full: 21, gen: genDroughtB},
		"air_pollution_b":        {full: 20, gen: genAirB},
		"wildfire_c":             {full: 15, gen: genWildfireC},
		"hazard_deforestation_c": {full: 23, gen: genDeforestationC},
		"urban_expansion_c":      {full: 29, gen: genUrbanC},
		"drought_c":              {full: 21, gen: genDroughtC},
		"air_pollution_c":        {full: 20, gen: genAirC},
		"wildfire_d":             {full: 15, gen: genWildfireD},
		"hazard_deforestation_d": {full: 23, gen: genDeforestationD},
		"urban_expansion_d":      {full: 29, gen: genUrbanD},
		"drought_d":              {full: 21, gen: genDroughtD},
		"air_pollution_d":        {full: 20, gen: genAirD},
	}
}

// genWildfireA builds a type-9 record: a binary MCD64A1 event mask on an
// EPSG:4326 AOI grid (uint8 with nodata 255, or float32 with NaN), its JSON
// sidecar with the raster's SHA-256 and the handle inventory. Variants
// cover nodata blocks, several burn blobs and a valid zero-burn mask.
func genWildfireA(g *gen, i int) (workers.Record, error) {
	sample := fmt.Sprintf("synth_fire_%03d", i)
	w, h := 40+g.rng.IntN(20), 32+g.rng.IntN(16)
	if g.full {
		w, h = 160+g.rng.IntN(80), 140+g.rng.IntN(60)
	}
	grid := g.aoiGrid(w, h, 0.0045, -124, -104, 31, 48)
	variant := i % 4
	float := variant == 3
	dt := raster.Uint8
	if float {
		dt = raster.Float32
	}
	b, err := newBand(w, h, dt)
	if err != nil {
		return workers.Record{}, err
	}
	type ell struct{ cx, cy, rx, ry float64 }
	var blobs []ell
	if variant != 2 { // variant 2: valid mask with no burned pixel
		for k := 0; k < 1+g.rng.IntN(3); k++ {
			blobs = append(blobs, ell{
				cx: float64(float64(w) * (0.2 + float64(0.6*g.rng.Float64()))), cy: float64(float64(h) * (0.2 + float64(0.6*g.rng.Float64()))),
				rx: 2 + float64(float64(w)*0.25*g.rng.Float64()), ry: 2 + float64(float64(h)*0.25*g.rng.Float64()),
			})
		}
	}
	nodataW := 0
	if variant != 0 {
		nodataW = 1 + g.rng.IntN(w/4)
	}
	var burned []int
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			i := r*w + c
			if c >= w-nodataW {
				if float {
					setAt(b, i, math.NaN())
				} else {
					setAt(b, i, 255)
				}
				continue
			}
			v := 0.0
			for _, e := range blobs {
				if blob(c, r, e.cx, e.cy, e.rx, e.ry) {
					v = 1
				}
			}
			setAt(b, i, v)
			if v == 1 {
				burned = append(burned, i)
			}
		}
	}
	rows, err := geodesy.CellAreas(grid.T, h)
	if err != nil {
		return workers.Record{}, err
	}
	areas := make([]float64, len(burned))
	for k, idx := range burned {
		areas[k] = rows[idx/w]
	}
	ha := workers.RoundHalfEven(raster.SumFloat64(areas)/10000, 3)

	base := "source_assets/multi_hazard/" + sample + "/"
	opts := raster.WriteOptions{Compression: "deflate", TileSize: 256, EPSG: 4326, Transform: grid.T}
	if float {
		opts.NoData = f64(math.NaN())
	} else {
		opts.NoData = f64(255)
	}
	tif, err := g.writeTIFF(base+"rasters/mcd64a1__event.tif", b, opts)
	if err != nil {
		return workers.Record{}, err
	}
	side := map[string]any{
		"handle": "mcd64a1__event", "product": "MODIS/061/MCD64A1", "source_band": "BurnDate",
		"transformation": "event-window BurnDate > 0 as binary mask",
		"units":          "binary_mask", "shape": []int{h, w}, "dtype": dt.String(), "crs": "EPSG:4326",
		"transform": grid.T[:], "event_window": map[string]any{"start": "2021-07-01", "end": "2021-09-30"},
		"sha256": tif.SHA256,
	}
	if !float {
		side["nodata"] = 255
	}
	sc, err := g.writeJSON(base+"rasters/mcd64a1__event.json", side)
	if err != nil {
		return workers.Record{}, err
	}
	inv, err := g.writeJSON(base+"available_handles.json", map[string]any{"handles": []string{"mcd64a1__event"}})
	if err != nil {
		return workers.Record{}, err
	}
	q, err := g.question("wildfire_a", sample, "How many hectares burned in this AOI during the event window according to MODIS MCD64A1?", nil)
	if err != nil {
		return workers.Record{}, err
	}
	ans, err := answerJSON(map[string]any{
		"status":   "TASK_COMPLETE",
		"answer":   map[string]any{"value": ha, "units": "ha"},
		"evidence": map[string]any{"primary_area_ha": ha, "primary_handle": "mcd64a1__event"},
	})
	if err != nil {
		return workers.Record{}, err
	}
	return workers.Record{
		ID:       "wildfire_a__" + sample,
		SampleID: sample,
		Question: "How many hectares burned in this AOI during the event window according to MODIS MCD64A1?",
		Handles: map[string]workers.HandleDecl{
			"question_1":     q,
			"hazard_stack_1": {Kind: workers.KindInput, Files: []workers.FileCard{inv, tif, sc}},
		},
		GTChain: []workers.Step{
			{Tool: "ReadData", Args: map[string]any{"question": "question_1", "handle": "hazard_stack_1", "role": "wildfire", "time": "event"}, Output: "scene_1"},
			{Tool: "PrepareScene", Args: map[string]any{"inputs": map[string]any{"hazard": "scene_1"}, "mode": "wildfire_burn"}, Output: "work_1"},
			{Tool: "ComputeStats", Args: map[string]any{"input": "work_1", "metrics": map[string]any{"burned_area": true}, "region": "aoi"}, Output: "stats_1"},
			{Tool: "TaskComplete", Args: map[string]any{"status": "TASK_COMPLETE"}},
		},
		Answer: ans,
	}, nil
}
