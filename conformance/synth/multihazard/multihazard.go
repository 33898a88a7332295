package multihazard

import (
	"fmt"
	"math"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/geodesy"
	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// hazards are the family's five hazards: the spec's record count of each
// of their four types and how many of those are public-reference test
// records.
var hazards = []struct {
	name        string
	full, tests int
	gens        [4]func(g *core.Gen, i int) (workers.Record, error)
}{
	{"wildfire", 15, 2, [4]func(*core.Gen, int) (workers.Record, error){genWildfireA, genWildfireB, genWildfireC, genWildfireD}},
	{"hazard_deforestation", 23, 2, [4]func(*core.Gen, int) (workers.Record, error){genDeforestationA, genDeforestationB, genDeforestationC, genDeforestationD}},
	{"urban_expansion", 29, 2, [4]func(*core.Gen, int) (workers.Record, error){genUrbanA, genUrbanB, genUrbanC, genUrbanD}},
	{"drought", 21, 3, [4]func(*core.Gen, int) (workers.Record, error){genDroughtA, genDroughtB, genDroughtC, genDroughtD}},
	{"air_pollution", 20, 2, [4]func(*core.Gen, int) (workers.Record, error){genAirA, genAirB, genAirC, genAirD}},
}

// Types returns the family's generators: types <hazard>_a to _d.
func Types() core.Types {
	out := core.Types{}
	for _, h := range hazards {
		for k, shape := range []string{"a", "b", "c", "d"} {
			out[h.name+"_"+shape] = core.Type{Full: h.full, Tests: h.tests, Gen: h.gens[k]}
		}
	}
	return out
}

// genWildfireA builds a type-9 record: a binary MCD64A1 event mask on an
// EPSG:4326 AOI grid (uint8 with nodata 255, or float32 with NaN), its JSON
// sidecar with the raster's SHA-256 and the handle inventory. Variants
// cover nodata blocks, several burn blobs and a valid zero-burn mask.
func genWildfireA(g *core.Gen, i int) (workers.Record, error) {
	sample := fmt.Sprintf("synth_fire_%03d", i)
	w, h := 40+g.Rng.IntN(20), 32+g.Rng.IntN(16)
	if g.Full {
		w, h = 160+g.Rng.IntN(80), 140+g.Rng.IntN(60)
	}
	grid := g.AOIGrid(w, h, 0.0045, -124, -104, 31, 48)
	variant := i % 4
	float := variant == 3
	dt := raster.Uint8
	if float {
		dt = raster.Float32
	}
	b, err := raster.NewBand(w, h, dt)
	if err != nil {
		return workers.Record{}, err
	}
	type ell struct{ cx, cy, rx, ry float64 }
	var blobs []ell
	if variant != 2 { // variant 2: valid mask with no burned pixel
		for k := 0; k < 1+g.Rng.IntN(3); k++ {
			blobs = append(blobs, ell{
				cx: float64(float64(w) * (0.2 + float64(0.6*g.Rng.Float64()))), cy: float64(float64(h) * (0.2 + float64(0.6*g.Rng.Float64()))),
				rx: 2 + float64(float64(w)*0.25*g.Rng.Float64()), ry: 2 + float64(float64(h)*0.25*g.Rng.Float64()),
			})
		}
	}
	nodataW := 0
	if variant != 0 {
		nodataW = 1 + g.Rng.IntN(w/4)
	}
	var burned []int
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			i := r*w + c
			if c >= w-nodataW {
				if float {
					b.Set(i, math.NaN())
				} else {
					b.Set(i, 255)
				}
				continue
			}
			v := 0.0
			for _, e := range blobs {
				if core.Blob(c, r, e.cx, e.cy, e.rx, e.ry) {
					v = 1
				}
			}
			b.Set(i, v)
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
	ha := workers.RoundHalfEven(numpy.SumFloat64(areas)/10000, 3)

	base := "source_assets/multi_hazard/" + sample + "/"
	opts := raster.WriteOptions{Compression: "deflate", TileSize: 256, EPSG: 4326, Transform: grid.T}
	if float {
		opts.NoData = core.F64(math.NaN())
	} else {
		opts.NoData = core.F64(255)
	}
	tif, err := g.WriteTIFF(base+"rasters/mcd64a1__event.tif", opts, b)
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
	sc, err := g.WriteJSON(base+"rasters/mcd64a1__event.json", side)
	if err != nil {
		return workers.Record{}, err
	}
	inv, err := g.WriteJSON(base+"available_handles.json", map[string]any{"handles": []string{"mcd64a1__event"}})
	if err != nil {
		return workers.Record{}, err
	}
	return g.Record("wildfire_a", sample, "How many hectares burned in this AOI during the event window according to MODIS MCD64A1?", nil,
		map[string]workers.HandleDecl{"hazard_stack_1": core.Input(inv, tif, sc)},
		[]workers.Step{
			readHazard("wildfire"),
			core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"hazard": "scene_1"}, "mode": "wildfire_burn"}, "work_1"),
			core.Step("ComputeStats", map[string]any{"input": "work_1", "metrics": map[string]any{"burned_area": true}, "region": "aoi"}, "stats_1"),
			core.TaskComplete(),
		},
		map[string]any{
			"status":   "TASK_COMPLETE",
			"answer":   map[string]any{"value": ha, "units": "ha"},
			"evidence": map[string]any{"primary_area_ha": ha, "primary_handle": "mcd64a1__event"},
		})
}
