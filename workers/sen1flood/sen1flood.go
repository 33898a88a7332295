package sen1flood

import (
	"embed"
	"fmt"
	"strings"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// Sen1Floods11 family (spec question types 39-43, sen1_flood_a..e, and
// sections 8 and 10): a deterministic Otsu flood-candidate prediction from
// the portable Sentinel-1 VV/VH chip (S1Portable.tif), its 8-neighbour
// components and polygons, exact-grid areas, the 4x4 inventory and
// ranking, the JRC known-water comparison and the diagnostic render.
//
// The chains (spec types 39-43):
//
//	A: ReadData(sar) PrepareScene(sar_flood) MapFlood ExtractObjects(flood_components) DescribeFlood
//	B: ... MapFlood ExtractObjects(flood_polygons) DescribeFlood RankRegions
//	C: ReadData(sar) PrepareScene(sar_flood, grid=4x4) MapFlood DescribeFlood RankRegions
//	D: ReadData(sar) ReadData(known_water) PrepareScene(sar_flood_reference) MapFlood CompareSources DescribeFlood
//	E: ReadData x2 PrepareScene(sar_flood_diagnostic) MapFlood ExtractObjects(flood_polygons)
//	   DescribeFlood RankRegions CompareSources RenderMap(flood_diagnostic)

// Sen1FloodMethod is the only flood-mapping method of the family.
const Sen1FloodMethod = "s1_min_backscatter_otsu_v1"

// Mask values of the run-scoped prediction (spec type 39).
const (
	MaskDry    uint8 = 0
	MaskFlood  uint8 = 1
	MaskNoData uint8 = 255
)

// sen1OtsuBins is the histogram size of the method (spec type 39: "a 256-bin
// Otsu threshold").
const sen1OtsuBins = 256

// DescribeFlood metric names (flags of its "metrics" argument).
const (
	MetricFloodPercentage  = "flood_percentage"
	MetricFloodArea        = "flood_area"
	MetricComponents       = "components"
	MetricGrid             = "grid_4x4"
	MetricConcentration    = "concentration"
	MetricPattern          = "pattern"
	MetricPrediction       = "prediction"
	MetricOverlap          = "overlap"
	MetricOutsideReference = "outside_reference"
)

// sen1MetricSets are the metric combinations the family's chains
// request: A and B (percentage/area/components/4x4), C (grid,
// concentration, pattern), D (prediction, components, overlap,
// outside-reference) and E (every prediction metric).
var sen1MetricSets = [][]string{
	{MetricComponents, MetricFloodArea, MetricFloodPercentage, MetricGrid},
	{MetricConcentration, MetricGrid, MetricPattern},
	{MetricComponents, MetricOutsideReference, MetricOverlap, MetricPrediction},
	{MetricComponents, MetricConcentration, MetricFloodArea, MetricFloodPercentage, MetricGrid, MetricPattern},
}

var sen1AllMetrics = []string{
	MetricFloodPercentage, MetricFloodArea, MetricComponents, MetricGrid, MetricConcentration,
	MetricPattern, MetricPrediction, MetricOverlap, MetricOutsideReference,
}

// Render layers of RenderMap(style=flood_diagnostic).
var sen1RenderLayers = []string{"sar", "prediction", "component_boundaries", "grid", "known_water"}

func sen1FloodVariants() []workers.Variant {
	vs := []workers.Variant{
		workers.ReadDataVariant(workers.ReadSpec{Role: "sar", HandleStems: []string{"s1_image", "s1_portable", "sar_image"}, Check: sen1CheckSARScene, Bands: []int{1, 2}}),
		workers.ReadDataVariant(workers.ReadSpec{Role: "known_water", HandleStems: []string{"jrc_water", "known_water", "jrc_reference"}, Check: sen1CheckKnownWater, Bands: []int{1}}),
		sen1PrepareVariant(workers.PrepareSpec{
			Mode: "sar_flood", Slots: map[string][]string{"sar": {"sar"}}, Required: []string{"sar"},
		}, false),
		sen1PrepareVariant(workers.PrepareSpec{
			Mode:     "sar_flood_reference",
			Slots:    map[string][]string{"sar": {"sar"}, "reference": {"known_water"}},
			Required: []string{"sar", "reference"},
		}, false),
		sen1PrepareVariant(workers.PrepareSpec{
			Mode:     "sar_flood_diagnostic",
			Slots:    map[string][]string{"sar": {"sar"}, "reference": {"known_water"}},
			Required: []string{"sar", "reference"},
		}, true),
		workers.NewVariant("MapFlood", mapFloodOtsu, workers.Input("work handle from PrepareScene(mode=sar_flood*)"), workers.Choice("method", Sen1FloodMethod)),
	}
	for _, target := range []string{"flood_components", "flood_polygons"} {
		vs = append(vs, workers.NewVariant("ExtractObjects", extractFloodObjects, workers.Input("flood handle from MapFlood"), workers.Choice("target", target)))
	}
	for _, set := range sen1MetricSets {
		vs = append(vs, workers.Variant{
			Tool: "DescribeFlood", Value: strings.Join(set, "+"),
			Params: []workers.Param{
				workers.Input("flood_n, objects_n or compare_n of the Sen1Floods11 chain"),
				workers.Flags("metrics", sen1AllMetrics...),
			},
			Run: describeFlood,
		})
	}
	vs = append(vs,
		workers.NewVariant("RankRegions", rankFloodCells,
			workers.Input("flood_report handle with the 4x4 grid"),
			workers.Choice("by", "flood_percentage"),
			workers.Choice("candidates", "grid_4x4"),
			workers.Param{Name: "top_k", Kind: workers.KindInteger, Required: true, Doc: "number of cells to rank (the family's contract is 3)"}),
		workers.NewVariant("CompareSources", compareKnownWater, workers.Input("flood_n (type D) or rank_n (type E)"), workers.Choice("reference", "known_water"), workers.Choice("criterion", "overlap_vs_outside_reference")),
		workers.NewVariant("RenderMap", renderFloodDiagnostic,
			workers.Input("compare handle of the type-E chain"),
			workers.Choice("style", "flood_diagnostic"),
			workers.Param{Name: "layers", Kind: workers.KindFlags, Required: true, Enum: sen1RenderLayers, Doc: "layers to draw"}),
	)
	return vs
}

// sen1Raster returns the scene's single declared GeoTIFF.
func sen1Raster(s *workers.Scene) (*workers.SceneFile, error) {
	var found *workers.SceneFile
	for i := range s.Files {
		if s.Files[i].Raster != nil {
			if found != nil {
				return nil, fmt.Errorf("input handle %s declares several rasters (%s, %s)", s.Handle, found.Path, s.Files[i].Path)
			}
			found = &s.Files[i]
		}
	}
	if found == nil {
		return nil, fmt.Errorf("input handle %s declares no GeoTIFF", s.Handle)
	}
	return found, nil
}

// sen1CheckSARScene validates the Sentinel-1 chip: one two-band float32
// GeoTIFF (VV, VH when the bands are named) on a north-up geographic grid
// (spec type 39: 512x512, two-band VV/VH, EPSG:4326, float32).
func sen1CheckSARScene(env workers.Env, s *workers.Scene) error {
	f, err := sen1Raster(s)
	if err != nil {
		return err
	}
	r := f.Raster
	if r.Count != 2 {
		return fmt.Errorf("%s has %d bands; the Sentinel-1 chip has two (VV, VH)", f.Path, r.Count)
	}
	if r.DataType != raster.Float32 {
		return fmt.Errorf("%s is %s; the Sentinel-1 chip is float32 dB", f.Path, r.DataType)
	}
	for i, want := range []string{"VV", "VH"} {
		if i < len(r.Descriptions) && r.Descriptions[i] != "" && !strings.EqualFold(r.Descriptions[i], want) {
			return fmt.Errorf("%s band %d is named %q, expected %s", f.Path, i+1, r.Descriptions[i], want)
		}
	}
	return sen1CheckGeoGrid(f)
}

// sen1CheckGeoGrid requires a north-up geotransform and EPSG:4326.
func sen1CheckGeoGrid(f *workers.SceneFile) error {
	r := f.Raster
	if !r.HasTransform {
		return fmt.Errorf("%s has no geotransform", f.Path)
	}
	if r.EPSG != 4326 {
		return fmt.Errorf("%s has CRS EPSG:%d; the Sen1Floods11 chips are EPSG:4326", f.Path, r.EPSG)
	}
	t := r.Transform
	if t[1] != 0 || t[3] != 0 || t[0] <= 0 || t[4] >= 0 {
		return fmt.Errorf("%s is not a north-up grid (transform %v)", f.Path, t)
	}
	if r.Width < 1 || r.Height < 1 {
		return fmt.Errorf("%s is empty (%dx%d)", f.Path, r.Width, r.Height)
	}
	return nil
}

// sen1CheckKnownWater validates the JRC known-water raster: one
// single-band GeoTIFF on a north-up EPSG:4326 grid. Its values are checked
// by CompareSources.
func sen1CheckKnownWater(env workers.Env, s *workers.Scene) error {
	f, err := sen1Raster(s)
	if err != nil {
		return err
	}
	if f.Raster.Count != 1 {
		return fmt.Errorf("%s has %d bands; the known-water raster has one", f.Path, f.Raster.Count)
	}
	return sen1CheckGeoGrid(f)
}

// sen1PrepareVariant wraps PrepareSceneVariant with the family's checks:
// the reference grid must equal the SAR grid (shape, CRS, transform), and
// the 4x4 grid check runs when grid="4x4" is passed or the mode always
// requires it (sar_flood_diagnostic).
func sen1PrepareVariant(spec workers.PrepareSpec, alwaysGrid bool) workers.Variant {
	spec.Check = func(env workers.Env, w *workers.Work) error {
		sar, err := sen1Raster(w.Scenes["sar"])
		if err != nil {
			return err
		}
		if ref, ok := w.Scenes["reference"]; ok {
			rf, err := sen1Raster(ref)
			if err != nil {
				return err
			}
			if err := workers.CheckSameGrid(sar.Path, *sar.Raster, rf.Path, *rf.Raster); err != nil {
				return fmt.Errorf("the known-water raster does not match the SAR grid: %w", err)
			}
		}
		return nil
	}
	v := workers.PrepareSceneVariant(spec)
	v.Params = append(v.Params, workers.Param{Name: "grid", Kind: workers.KindString, Enum: []string{"4x4"}, Doc: "check that the chip partitions into the 4x4 analysis grid"})
	return v.Then(func(_ workers.Env, a workers.Args, res *workers.Result) (*workers.Result, error) {
		if alwaysGrid || a.Has("grid") {
			w := res.Payload.(*workers.Work)
			sar, err := sen1Raster(w.Scenes["sar"])
			if err != nil {
				return nil, err
			}
			if err := sen1CheckGrid4x4(sar.Raster.Width, sar.Raster.Height); err != nil {
				return nil, fmt.Errorf("PrepareScene(mode=%s) %s: %w", spec.Mode, sar.Path, err)
			}
			res.Evidence["grid"] = map[string]any{"layout": "4x4", "cell_width": sar.Raster.Width / 4, "cell_height": sar.Raster.Height / 4}
		}
		return res, nil
	})
}

// sen1CheckGrid4x4 is the 4x4 grid check: the chip must split into 16 equal
// cells.
func sen1CheckGrid4x4(w, h int) error {
	if w < 4 || h < 4 || w%4 != 0 || h%4 != 0 {
		return fmt.Errorf("a %dx%d chip does not split into a 4x4 grid of equal cells", w, h)
	}
	return nil
}

// schemaFiles holds schemas/<question_type>.json, the answer schemas.
//
//go:embed schemas/*.json
var schemaFiles embed.FS

// Def declares the Sen1Floods11 family (question types 39-43).
func Def() workers.FamilyDef {
	return workers.NewFamilyDef(workers.Sen1Flood, sen1FloodVariants, sen1FloodProjectors(), schemaFiles)
}
