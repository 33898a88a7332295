package multihazard

import (
	"fmt"
	"math"

	"github.com/geodisaster/engine/workers"
)

// Multi-hazard task shape B: a class table of a continuous raster under
// half-open bins, optionally inside a binary footprint, through
// ScoreHazard — types 10 wildfire_b, 14 hazard_deforestation_b, 18
// urban_expansion_b, 22 drought_b and 26 air_pollution_b.

// classBin is one lower-inclusive, upper-exclusive interval.
type classBin struct {
	Label        string
	Lower, Upper float64
}

// classScheme binds a hazard's B-shape classification.
type classScheme struct {
	Hazard, Scale string
	// Value is the classified raster's source handle.
	Value string
	// Mask is the binary footprint handle ("" for the whole AOI).
	Mask string
	// Scope is the emitted analysis_scope.
	Scope string
	// Bins are fixed bins; nil when they come from Normalization.
	Bins []classBin
	// Normalization is the declared train-only normalization file.
	Normalization string
}

// classSchemes are the spec's B-shape contracts (types 10, 14, 18, 22, 26).
var classSchemes = []classScheme{
	{Hazard: "wildfire", Scale: "question_defined_class", Value: "dnbr", Mask: "mcd64a1__event", Scope: "mcd64_burn_footprint",
		Bins: []classBin{{"unburned", math.Inf(-1), 0.10}, {"low", 0.10, 0.27}, {"moderate", 0.27, 0.44}, {"high", 0.44, math.Inf(1)}}},
	{Hazard: "deforestation", Scale: "question_defined_class", Value: "ndvi_change", Mask: "hansen_loss__event", Scope: "hansen_loss_footprint",
		Bins: []classBin{{"none", -10, 0.15}, {"minor", 0.15, 0.30}, {"major", 0.30, 0.50}, {"severe", 0.50, 10}}},
	{Hazard: "urban_expansion", Scale: "question_defined_class", Value: "ndbi_change", Scope: "whole_aoi",
		Bins: []classBin{{"contraction", -10, -0.02}, {"stable", -0.02, 0.02}, {"minor", 0.02, 0.18}, {"major", 0.18, 10}}},
	{Hazard: "drought", Scale: "question_defined_class", Value: "chirps_spi__event", Scope: "whole_aoi", Normalization: "drought_normalization.json"},
	{Hazard: "air_pollution", Scale: "benchmark_relative_column_quartile", Value: "s5p_no2__peak", Scope: "whole_aoi", Normalization: "normalization.json"},
}

func classVariants() []workers.Variant {
	byScale := map[string][]string{}
	var scales []string
	for _, s := range classSchemes {
		if byScale[s.Scale] == nil {
			scales = append(scales, s.Scale)
		}
		byScale[s.Scale] = append(byScale[s.Scale], s.Hazard)
	}
	var vs []workers.Variant
	for _, scale := range scales {
		scale := scale
		vs = append(vs, workers.NewVariant("ScoreHazard", func(env workers.Env, a workers.Args) (*workers.Result, error) { return scoreClassTable(env, a, scale) },
			workers.Input("work handle from the hazard's A/B PrepareScene mode"),
			workers.Choice("hazard", byScale[scale]...),
			workers.Choice("scale", scale)))
	}
	return vs
}

// ClassRow is one class of a class table.
type ClassRow struct {
	Label      string
	PixelCount int
	// Mean is the six-decimal NumPy mean of the class's values, nil for an
	// empty class.
	Mean   *float64
	AreaM2 float64
	AreaHa float64 // three decimals
}

// ClassTable is the B-shape payload of ScoreHazard.
type ClassTable struct {
	Hazard, Scale, Scope string
	ValueHandle          string
	Rows                 []ClassRow
	Dominant             string
	// DominantFraction is dominant count / classified pixels, six decimals.
	DominantFraction float64
	Classified       int
	// MaskPixelCount is the footprint's positive pixel count (-1 for a
	// whole-AOI scope).
	MaskPixelCount int
	// Boundaries are the normalization's interior class boundaries (nil
	// for fixed bins); FitSplit is its fit split.
	Boundaries []float64
	FitSplit   string
	Contract   string
}

// scoreClassTable implements the B shape: every valid value pixel (inside
// the footprint's valid positive cells when the scheme has one) falls in
// exactly one half-open bin; per class it reports the pixel count, the
// NumPy mean (null when empty) and the grid-cell area; the dominant class
// is the largest count with ties resolved in declared order, and its
// fraction is count / all classified pixels rounded to six decimals.
func scoreClassTable(env workers.Env, a workers.Args, scale string) (*workers.Result, error) {
	hz := a.String("hazard")
	var sch classScheme
	for _, s := range classSchemes {
		if s.Hazard == hz && s.Scale == scale {
			sch = s
		}
	}
	d, _ := lookupHazard(hz)
	w, err := workers.OpenWork(env, a, d.Mode)
	if err != nil {
		return nil, err
	}
	sc := w.Scenes["hazard"]
	if sc.Role != hz {
		return nil, a.Errorf("hazard", "hazard %s does not match the work context's %s scene", hz, sc.Role)
	}
	val, err := loadContinuous(env, sc, sch.Value+".tif")
	if err != nil {
		return nil, err
	}
	if err := requireGeoreferenced(val.Path, val.Info); err != nil {
		return nil, err
	}
	tab := &ClassTable{Hazard: hz, Scale: scale, Scope: sch.Scope, ValueHandle: val.Handle, MaskPixelCount: -1}
	bins := sch.Bins
	if sch.Normalization != "" {
		nz, err := loadNormalization(env, sc, sch.Normalization)
		if err != nil {
			return nil, err
		}
		bins, err = nz.classBins(val.Handle)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", nz.Path, err)
		}
		src := nz.Sources[val.Handle]
		tab.Boundaries = []float64{src.Q25, src.Q50, src.Q75}
		tab.FitSplit = nz.FitSplit
		tab.Contract = nz.Contract
	}
	var idx []int // the analysis pixels: the valid ones, or those in the mask
	if sch.Mask != "" {
		m, err := loadBinaryMask(env, sc, sch.Mask+".tif")
		if err != nil {
			return nil, err
		}
		if err := sameGrids([]string{m.Path, val.Path}, []workers.RasterInfo{m.Info, val.Info}); err != nil {
			return nil, err
		}
		tab.MaskPixelCount = len(m.Ones)
		idx = m.Ones
		if idx == nil {
			idx = []int{}
		}
	}
	lower, upper := make([]float64, len(bins)), make([]float64, len(bins))
	for b, bin := range bins {
		lower[b], upper[b] = val.asDtype(bin.Lower), val.asDtype(bin.Upper)
	}
	members, nsel, bad, badV := val.classify(idx, lower, upper)
	if nsel == 0 {
		return nil, fmt.Errorf("%s: empty analysis population (no valid %s pixel in scope %s)", val.Path, val.Handle, sch.Scope)
	}
	if bad >= 0 {
		return nil, fmt.Errorf("%s: value %v at pixel %d falls outside every declared class interval", val.Path, badV, bad)
	}
	ga, err := workers.NewGridAreas(val.Info)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", val.Path, err)
	}
	best := 0
	byClass := map[string]any{}
	var gb gatherBuf
	for k, bin := range bins {
		row := ClassRow{Label: bin.Label, PixelCount: len(members[k])}
		if row.PixelCount > 0 {
			m := workers.RoundHalfEven(val.meanAt(members[k], &gb), 6)
			if err := workers.CheckFinite(bin.Label+" mean", m); err != nil {
				return nil, err
			}
			row.Mean = &m
		}
		row.AreaM2 = ga.Sum(members[k])
		row.AreaHa = workers.RoundHalfEven(row.AreaM2/10000, 3)
		tab.Rows = append(tab.Rows, row)
		if row.PixelCount > tab.Rows[best].PixelCount {
			best = k
		}
		var mean any
		if row.Mean != nil {
			mean = *row.Mean
		}
		byClass[bin.Label] = map[string]any{"pixel_count": row.PixelCount, "mean_value": mean, "area_ha": row.AreaHa}
	}
	tab.Classified = nsel
	tab.Dominant = tab.Rows[best].Label
	tab.DominantFraction = workers.RoundHalfEven(float64(tab.Rows[best].PixelCount)/float64(nsel), 6)
	ev := map[string]any{
		"hazard": hz, "scale": scale, "value_handle": val.Handle, "analysis_scope": sch.Scope,
		"by_class": byClass, "dominant_class": tab.Dominant, "dominant_fraction": tab.DominantFraction,
		"classified_pixel_count": tab.Classified, "interval_rule": "lower-inclusive, upper-exclusive; ties resolved in declared order",
	}
	if tab.MaskPixelCount >= 0 {
		ev["mask_pixel_count"] = tab.MaskPixelCount
	}
	if tab.Boundaries != nil {
		ev["boundaries"] = tab.Boundaries
		ev["normalization_fit_split"] = tab.FitSplit
		ev["normalization_contract"] = tab.Contract
	}
	return &workers.Result{Evidence: ev, Payload: tab}, nil
}
