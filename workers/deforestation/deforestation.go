package deforestation

import (
	"embed"
	"encoding/json"
	"fmt"
	"math"

	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// Deforestation family (spec question types 1-8).

// hansenNoData is the declared finite nodata of the Hansen rasters.
const hansenNoData = 255

func deforestationVariants() []workers.Variant {
	return append([]workers.Variant{
		hansenReadVariant(),
		workers.PrepareSceneVariant(workers.PrepareSpec{
			Mode:     "baseline_canopy",
			Slots:    map[string][]string{"forest": {"hansen"}},
			Required: []string{"forest"},
			Check: func(env workers.Env, w *workers.Work) error {
				_, err := w.Scenes["forest"].Require("treecover2000.tif")
				return err
			},
		}),
		workers.NewVariant("ComputeStats", computeTreecoverMean, workers.Input("work handle from PrepareScene(mode=baseline_canopy)"), workers.Flags("metrics", "treecover_mean_pct"), workers.Choice("region", "aoi")),
		workers.NewVariant("ClassifyChange", classifyCanopyDensity,
			workers.Input("stats handle from ComputeStats(metrics={treecover_mean_pct})"),
			workers.Choice("rule", "canopy_density"),
			workers.Param{Name: "labels", Kind: workers.KindStringList, Enum: canopyClasses, Doc: "the answer's label set: dense_forest, open_canopy, sparse"}),
	}, forestWorkVariants()...)
}

// canopyClasses is the type-5 label set in the spec's order.
var canopyClasses = []string{"dense_forest", "open_canopy", "sparse"}

// CanopyStats is the payload of ComputeStats(metrics={treecover_mean_pct}).
type CanopyStats struct {
	// MeanPct is NumPy's float32 mean of the valid tree-cover pixels.
	MeanPct float32
	// ValidPixels is the number of valid pixels.
	ValidPixels int
	// Class is the density class of MeanPct.
	Class string
	// Source is the tree-cover raster's path.
	Source string
}

// CanopyClass is the type-5 payload of ClassifyChange(rule=canopy_density).
type CanopyClass struct {
	Class   string
	MeanPct float32
}

// canopyClass applies spec type 5's boundaries. The mean is a float32
// scalar compared with Python floats, which NumPy does in float64.
func canopyClass(mean float32) string {
	m := float64(mean)
	switch {
	case m > 60:
		return "dense_forest"
	case m >= 30:
		return "open_canopy"
	default:
		return "sparse"
	}
}

// computeTreecoverMean implements type 5 step 3: band 1 of the declared
// treecover2000.tif, non-finite pixels and the declared nodata 255
// excluded, every valid value in 0..100, NumPy's float32 mean.
func computeTreecoverMean(env workers.Env, a workers.Args) (*workers.Result, error) {
	w, _, err := workers.OpenResult[*workers.Work](env, a, "input", "work (PrepareScene mode=baseline_canopy)")
	if err != nil {
		return nil, err
	}
	if w.Mode != "baseline_canopy" {
		return nil, a.Errorf("input", "treecover_mean_pct needs a baseline_canopy work context, got mode %s", w.Mode)
	}
	f, band, info, err := w.Scenes["forest"].RequireBand(env, "treecover2000.tif", 1)
	if err != nil {
		return nil, err
	}
	buf := getFloat32Buf()
	defer putFloat32Buf(buf)
	valid, err := validCanopy(*buf, band, info, f.Path)
	if err != nil {
		return nil, err
	}
	*buf = valid
	mean := numpy.MeanFloat32(valid)
	if !workers.Finite(float64(mean)) {
		return nil, fmt.Errorf("%s: tree-cover mean is not finite", f.Path)
	}
	st := &CanopyStats{MeanPct: mean, ValidPixels: len(valid), Class: canopyClass(mean), Source: f.Path}
	return &workers.Result{
		Evidence: map[string]any{
			"metric": "treecover_mean_pct", "region": "aoi",
			"treecover_mean_pct": float64(mean), "valid_pixel_count": len(valid),
			"nodata": hansenNoData, "class": st.Class, "source": f.Path,
		},
		Payload: st,
	}, nil
}

// validCanopy returns the valid tree-cover values as float32, in row-major
// order, in dst's memory (when large enough), rejecting values outside
// 0..100.
func validCanopy(dst []float32, b *raster.Band, info workers.RasterInfo, path string) ([]float32, error) {
	out := dst[:0]
	if n := b.Width * b.Height; cap(out) < n {
		out = make([]float32, 0, n)
	}
	var bad int
	var badV float64
	switch s := b.Data.(type) {
	case []uint8: // Hansen's type
		out, bad, badV = canopyUint8(out, s, info)
	case []float64:
		out, bad, badV = canopyValues(out, s, info)
	default: // exact float64 conversion, as Band.At gives
		out, bad, badV = canopyValues(out, b.Float64s(), info)
	}
	if bad >= 0 {
		return nil, fmt.Errorf("%s: tree-cover value %v at pixel %d is outside 0..100", path, badV, bad)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no valid tree-cover pixels", path)
	}
	return out, nil
}

// classifyCanopyDensity implements type 5 step 4: it consumes the
// preceding stats result, checks its embedded class against its mean and
// classifies; it reads no file.
func classifyCanopyDensity(env workers.Env, a workers.Args) (*workers.Result, error) {
	st, _, err := workers.OpenResult[*CanopyStats](env, a, "input", "stats (ComputeStats metrics={treecover_mean_pct})")
	if err != nil {
		return nil, err
	}
	if a.Has("labels") {
		got := a.Strings("labels")
		if len(got) != len(canopyClasses) {
			return nil, a.Errorf("labels", "must list exactly %v", canopyClasses)
		}
		seen := map[string]bool{}
		for _, l := range got {
			if seen[l] {
				return nil, a.Errorf("labels", "duplicate label %q", l)
			}
			seen[l] = true
		}
	}
	m := float64(st.MeanPct)
	if math.IsNaN(m) || m < 0 || m > 100 {
		return nil, fmt.Errorf("ClassifyChange: canopy mean %v is not a valid percentage", m)
	}
	class := canopyClass(st.MeanPct)
	if class != st.Class {
		return nil, fmt.Errorf("ClassifyChange: stats class %q disagrees with its mean %v (%s)", st.Class, m, class)
	}
	return &workers.Result{
		Evidence: map[string]any{"rule": "canopy_density", "class": class, "treecover_mean_pct": m,
			"boundaries": "dense_forest > 60; 30 <= open_canopy <= 60; sparse < 30"},
		Payload: &CanopyClass{Class: class, MeanPct: st.MeanPct},
	}, nil
}

// hansenReadVariant is ReadData(role=hansen) for the forest_mask handle
// (types 1-5, no time) and the forest_loss_history handle (type 6,
// time=2001_2023). When the handle declares the event-year annual mask it
// adds a fresh raster-quality report of the declared Hansen rasters to the
// evidence (spec type 1 step 3); fetch-time quality reports are never read.
func hansenReadVariant() workers.Variant {
	return workers.ReadDataVariant(workers.ReadSpec{
		Role:        "hansen",
		Times:       []string{"2001_2023"},
		HandleStems: []string{"forest_mask", "forest_loss_history"},
		Check: func(env workers.Env, s *workers.Scene) error {
			switch forestSceneSource(s) {
			case "loss_history":
				if s.Time != "2001_2023" {
					return fmt.Errorf("the loss-year history is read with time=2001_2023, got %q", s.Time)
				}
				if _, err := s.Require("lossyear.tif"); err != nil {
					return err
				}
			default:
				if s.Time != "" {
					return fmt.Errorf("time=%s does not apply to %s", s.Time, s.Handle)
				}
			}
			if len(sceneTIFFs(s)) == 0 {
				return fmt.Errorf("no Hansen raster declared")
			}
			return nil
		},
	}).Then(func(env workers.Env, _ workers.Args, r *workers.Result) (*workers.Result, error) {
		s := r.Payload.(*workers.Scene)
		if forestSceneSource(s) != "hansen" {
			return r, nil
		}
		y, err := questionEventYear(s)
		if err != nil {
			return r, nil // no event year: a baseline-only read (type 5)
		}
		af, err := annualMaskFile(s, y)
		if err != nil {
			return r, nil
		}
		q, err := hansenQuality(env, s, af)
		if err != nil {
			return nil, fmt.Errorf("ReadData(role=hansen) %s: quality report: %w", s.Handle, err)
		}
		doc, err := json.MarshalIndent(map[string]any{"handle": s.Handle, "event_year": y, "rasters": q}, "", "  ")
		if err != nil {
			return nil, err
		}
		art, err := env.WriteArtifact(fmt.Sprintf("hansen_quality_report_%d.json", y), append(doc, '\n'), nil)
		if err != nil {
			return nil, err
		}
		r.Evidence["quality_report"] = q
		r.Evidence["quality_report_artifact"] = art.Locator
		r.Artifacts = append(r.Artifacts, art)
		return r, nil
	})
}

// hansenQuality counts the valid, nodata and loss cells of each declared
// Hansen raster.
func hansenQuality(env workers.Env, s *workers.Scene, annual *workers.SceneFile) (map[string]any, error) {
	out := map[string]any{}
	var scratch []float32
	for _, f := range sceneTIFFs(s) {
		b, info, err := env.Band(f.Path, 1)
		if err != nil {
			return nil, err
		}
		v := viewOf(b, &scratch)
		valid, positive := bandHansenCounts(v, nodataOf(info))
		e := map[string]any{"pixels": v.len(), "valid": valid, "nodata": v.len() - valid, "positive": positive}
		if f == annual {
			e["annual_mask"] = true
			e["fallback_required"] = valid == 0
		}
		out[f.Path] = e
	}
	return out, nil
}

// schemaFiles holds schemas/<question_type>.json, the answer schemas.
//
//go:embed schemas/*.json
var schemaFiles embed.FS

// Def declares the deforestation family (question types 1-8).
func Def() workers.FamilyDef {
	return workers.NewFamilyDef(workers.Deforestation, deforestationVariants, deforestationProjectors(), schemaFiles)
}
