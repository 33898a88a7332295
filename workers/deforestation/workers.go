package deforestation

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// Analytical workers of deforestation types 1-4 and 6-8 (type 5 is in
// deforestation.go). Each worker consumes the preceding handle named by the
// spec's chain and checks its payload type and provenance; classification
// steps perform no raw read.

// forestWorkVariants returns the ReadData, PrepareScene and analytical
// variants of types 1-4 and 6-8.
func forestWorkVariants() []workers.Variant {
	return []workers.Variant{
		stackReadVariant(workers.ReadSpec{
			Role: "pre_post", Times: []string{"event_window"},
			HandleStems: []string{"optical_stack", "sar_stack"},
			Check:       checkStackScene("event_window"),
		}),
		stackReadVariant(workers.ReadSpec{
			Role: "ndvi_nbr", Times: []string{"pre_post_epochs"},
			HandleStems: []string{"optical_timeseries"},
			Check:       checkStackScene("pre_post_epochs"),
		}),
		stackReadVariant(workers.ReadSpec{
			Role: "vh", Times: []string{"pre_post_epochs"},
			HandleStems: []string{"sar_timeseries"},
			Check:       checkStackScene("pre_post_epochs"),
		}),
		forestPrepare("forest_change", map[string][]string{"optical": {"pre_post"}, "sar": {"pre_post"}, "forest": {"hansen"}}, "optical", "forest"),
		forestPrepare("forest_false_positive", map[string][]string{"optical": {"pre_post"}, "sar": {"pre_post"}, "forest": {"hansen"}}, "optical", "sar", "forest"),
		forestPrepare("forest_timeseries", map[string][]string{"optical": {"ndvi_nbr"}, "sar": {"vh"}, "forest": {"hansen"}}, "optical", "sar", "forest"),
		forestPrepare("forest_cross_modal", map[string][]string{"optical": {"pre_post"}, "sar": {"pre_post"}}, "optical", "sar"),
		forestPrepare("sar_change", map[string][]string{"sar": {"pre_post"}}, "sar"),
		forestPrepare("forest_loss_history", map[string][]string{"loss_history": {"hansen"}}, "loss_history"),
		workers.NewVariant("CompareSources", compareCause("forest_loss_support", "forest_change"),
			workers.Input("work handle from PrepareScene(mode=forest_change) with optical, sar and forest"),
			workers.Choice("signals", "optical_sar_hansen"),
			workers.Choice("criterion", "forest_loss_support")),
		workers.NewVariant("CompareSources", compareCause("cause_attribution", "forest_false_positive"),
			workers.Input("work handle from PrepareScene(mode=forest_false_positive)"),
			workers.Choice("signals", "optical_sar_hansen"),
			workers.Choice("criterion", "cause_attribution")),
		workers.NewVariant("CompareSources", compareValidation, workers.Input("work handle from PrepareScene(mode=forest_change) with forest and optical"), workers.Choice("signals", "ndvi_nbr_vs_hansen"), workers.Choice("criterion", "validation")),
		workers.NewVariant("CompareSources", compareConcordance, workers.Input("work handle from PrepareScene(mode=forest_cross_modal)"), workers.Choice("signals", "ndvi_nbr_vs_vh"), workers.Choice("criterion", "concordance")),
		workers.NewVariant("ClassifyChange", classifyForestLoss, workers.Input("compare handle from CompareSources(criterion=forest_loss_support)"), workers.Choice("rule", "forest_loss"), labelObject("{positive: deforestation, negative: no_deforestation}")),
		workers.NewVariant("ClassifyChange", classifyFalsePositive, workers.Input("compare handle from CompareSources(criterion=cause_attribution)"), workers.Choice("rule", "false_positive_type"), labelSet(forestCauses, "the answer's cause set")),
		workers.NewVariant("ClassifyChange", classifyConcordance, workers.Input("compare handle from CompareSources(criterion=concordance)"), workers.Choice("rule", "concordance"), labelSet(concordanceClasses, "the answer's class set")),
		workers.NewVariant("ClassifyChange", classifyChangeWindow, workers.Input("change handle from DetectChange(change=dominant_clearing_interval)"), workers.Choice("rule", "change_window"), labelObject("{none: null, changed: start_epoch_to_end_epoch}")),
		workers.NewVariant("DetectChange", detectClearingInterval, workers.Input("work handle from PrepareScene(mode=forest_timeseries)"), workers.Choice("change", "dominant_clearing_interval"), workers.Choice("window", "pre_post_epochs")),
		workers.NewVariant("DetectChange", detectLargestLossYear, workers.Input("stats handle from ComputeStats(metrics={loss_area_ha_by_year})"), workers.Choice("change", "largest_loss_year"), workers.Choice("window", "2001_2023")),
		workers.NewVariant("ComputeStats", computeLossByYear, workers.Input("work handle from PrepareScene(mode=forest_loss_history)"), workers.Flags("metrics", "loss_area_ha_by_year"), workers.Choice("region", "aoi")),
		workers.NewVariant("ComputeStats", computeVHDelta, workers.Input("work handle from PrepareScene(mode=sar_change)"), workers.Flags("metrics", "vh_delta_db"), workers.Choice("region", "aoi")),
		workers.NewVariant("ScoreHazard", scoreVHSeverity, workers.Input("stats handle from ComputeStats(metrics={vh_delta_db})"), workers.Choice("hazard", "forest_disturbance"), workers.Choice("scale", "vh_delta_severity")),
		workers.NewVariant("ExtractObjects", extractLossPatches,
			workers.Input("work handle from PrepareScene(mode=forest_change)"),
			workers.Choice("target", "forest_loss_patches"),
			workers.Param{Name: "filters", Kind: workers.KindObject, Required: true, Doc: "{event_year: <the question's event year>}"}),
		workers.NewVariant("MeasureArea", measureLossArea, workers.Input("objects handle from ExtractObjects(target=forest_loss_patches)"), workers.Choice("target", "forest_loss"), workers.Choice("unit", "hectares")),
	}
}

// labelObject declares ClassifyChange's required labels mapping object.
func labelObject(doc string) workers.Param {
	return workers.Param{Name: "labels", Kind: workers.KindObject, Required: true, Doc: doc}
}

// labelSet declares ClassifyChange's optional labels list: the answer's
// classes.
func labelSet(classes []string, doc string) workers.Param {
	return workers.Param{Name: "labels", Kind: workers.KindStringList, Enum: classes, Doc: doc}
}

// stackReadVariant is ReadData for an optical or SAR stack; its evidence
// also reports the declared and missing optical epochs (spec section 7:
// missing optional epochs are reported, not probed for) or the SAR
// acquisitions per declared temporal role.
func stackReadVariant(spec workers.ReadSpec) workers.Variant {
	return workers.ReadDataVariant(spec).Then(func(_ workers.Env, _ workers.Args, r *workers.Result) (*workers.Result, error) {
		s := r.Payload.(*workers.Scene)
		switch forestSceneSource(s) {
		case "optical":
			eps, err := opticalEpochs(s)
			if err != nil {
				return nil, err
			}
			have := map[string]bool{}
			var declared, missing []string
			for _, e := range eps {
				have[e.Epoch] = true
				declared = append(declared, e.Epoch)
			}
			for _, e := range canonicalEpochs {
				if !have[e] {
					missing = append(missing, e)
				}
			}
			r.Evidence["epochs_declared"], r.Evidence["epochs_missing"] = anyStrings(declared), anyStrings(missing)
		case "sar":
			pre, post := 0, 0
			for _, f := range sceneTIFFs(s) {
				if f.TemporalRole == "pre" {
					pre++
				} else {
					post++
				}
			}
			r.Evidence["pre_acquisitions"], r.Evidence["post_acquisitions"] = pre, post
		}
		return r, nil
	})
}

// checkStackScene validates an optical or SAR scene read with the given
// time value, according to the handle's declared source.
func checkStackScene(time string) func(env workers.Env, s *workers.Scene) error {
	return func(env workers.Env, s *workers.Scene) error {
		if s.Time != time {
			return fmt.Errorf("time must be %s, got %q", time, s.Time)
		}
		switch forestSceneSource(s) {
		case "optical":
			return checkOpticalScene(s)
		case "sar":
			return checkSARScene(s)
		}
		return fmt.Errorf("handle %s is neither an optical nor a SAR stack", s.Handle)
	}
}

// forestSlotSource is the source each forest work slot must carry.
var forestSlotSource = map[string]string{"optical": "optical", "sar": "sar", "forest": "hansen", "loss_history": "loss_history"}

// forestPrepare builds a PrepareScene mode of the family: each slot must
// carry its source, the Hansen rasters share a grid with the optical stack,
// and the forest scene declares what the mode's workers read.
func forestPrepare(mode string, slots map[string][]string, required ...string) workers.Variant {
	return workers.PrepareSceneVariant(workers.PrepareSpec{
		Mode: mode, Slots: slots, Required: required,
		Check: func(env workers.Env, w *workers.Work) error {
			// Slots in sorted order, so the first mismatch reported is
			// the same on every run.
			for _, slot := range workers.SortedKeys(w.Scenes) {
				s := w.Scenes[slot]
				if got := forestSceneSource(s); got != forestSlotSource[slot] {
					return fmt.Errorf("slot %q needs a %s scene, %s (%s) is %q", slot, forestSlotSource[slot], w.Handles[slot], s.Handle, got)
				}
			}
			if f := w.Scenes["forest"]; f != nil {
				y, err := questionEventYear(f)
				if err != nil {
					return err
				}
				if _, err := annualMaskFile(f, y); err != nil {
					return err
				}
				if err := checkForestGrids(f, w.Scenes["optical"]); err != nil {
					return err
				}
			}
			if lh := w.Scenes["loss_history"]; lh != nil {
				if lh.Time != "2001_2023" {
					return fmt.Errorf("loss history scene %s was read with time %q, mode %s needs 2001_2023", w.Handles["loss_history"], lh.Time, mode)
				}
				if _, err := lh.Require("lossyear.tif"); err != nil {
					return err
				}
			}
			return nil
		},
	})
}

// CauseComparison is the payload of CompareSources with criterion
// forest_loss_support (type 1) or cause_attribution (type 4).
type CauseComparison struct {
	Criterion  string
	Inputs     CauseInputs
	Cause      string
	RulesFired []string
	// OpticalRegion is "event_year_loss" or "aoi".
	OpticalRegion string
	LossSource    string
}

// compareCause measures every input of the ordered proxy rules and
// applies them (spec type 1 steps 1-6, type 4 "Ordered proxy-rule
// contract").
func compareCause(criterion, mode string) func(env workers.Env, a workers.Args) (*workers.Result, error) {
	return func(env workers.Env, a workers.Args) (*workers.Result, error) {
		w, err := workers.OpenWork(env, a, mode)
		if err != nil {
			return nil, err
		}
		if w.Scenes["sar"] == nil {
			return nil, a.Errorf("input", "criterion %s needs a work context with a sar scene", criterion)
		}
		forest := w.Scenes["forest"]
		year, err := questionEventYear(forest)
		if err != nil {
			return nil, err
		}
		loss, err := eventYearLoss(env, forest, year)
		if err != nil {
			return nil, err
		}
		od, err := opticalDrops(env, w.Scenes["optical"], loss)
		if err != nil {
			return nil, err
		}
		sc, err := sarChange(env, w.Scenes["sar"])
		if err != nil {
			return nil, err
		}
		canopy, err := canopyMean(env, forest)
		if err != nil {
			return nil, err
		}
		in := CauseInputs{
			HansenLossHa: loss.AreaHa, CanopyPct: float64(canopy),
			NDVIDrop: od.NDVIDrop, NBRDrop: od.NBRDrop,
			VHDeltadB: sc.VHDeltadB, VVPostdB: sc.PostVVdB,
		}
		cause, fired, err := ClassifyCause(in)
		if err != nil {
			return nil, fmt.Errorf("CompareSources(criterion=%s): %w", criterion, err)
		}
		cc := &CauseComparison{Criterion: criterion, Inputs: in, Cause: cause, RulesFired: fired, OpticalRegion: od.Region, LossSource: loss.Source}
		return &workers.Result{
			Evidence: map[string]any{
				"criterion": criterion, "cause": cause, "rules_fired": anyStrings(fired),
				"hansen": lossEvidence(loss), "optical": opticalEvidence(od), "sar": sarEvidence(sc),
				"treecover2000_mean_pct": in.CanopyPct,
			},
			Payload: cc,
		}, nil
	}
}

func anyStrings(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func opticalEvidence(od *OpticalDrops) map[string]any {
	eps := make([]any, 0, len(od.Epochs))
	for _, e := range od.Epochs {
		eps = append(eps, map[string]any{"epoch": e.Epoch, "path": e.Path, "ndvi_mean": workers.JSONNumber(float64(e.NDVI)), "nbr_mean": workers.JSONNumber(float64(e.NBR)), "ndvi_pixels": e.NDVIPixels, "nbr_pixels": e.NBRPixels})
	}
	return map[string]any{
		"region": od.Region, "epochs": eps,
		"pre_ndvi_mean": od.PreNDVI, "post_ndvi_mean": od.PostNDVI,
		"pre_nbr_mean": od.PreNBR, "post_nbr_mean": od.PostNBR,
		"ndvi_drop": od.NDVIDrop, "nbr_drop": od.NBRDrop,
		"formula": "NDVI=(B8-B4)/(B8+B4); NBR=(B8-B12)/(B8+B12); drop=mean(pre epoch means)-mean(post epoch means)",
	}
}

func sarEvidence(sc *SARChange) map[string]any {
	acq := make([]any, 0, len(sc.Acquisitions))
	for _, q := range sc.Acquisitions {
		acq = append(acq, map[string]any{"path": q.Path, "date": q.Date, "temporal_role": q.Role, "vh_mean_db": float64(q.VH), "vv_mean_db": float64(q.VV)})
	}
	return map[string]any{
		"acquisitions": acq, "pre_count": sc.PreCount, "post_count": sc.PostCount,
		"pre_vh_mean_db": sc.PreVHdB, "post_vh_mean_db": sc.PostVHdB,
		"sar_vh_delta_db": sc.VHDeltadB, "sar_vv_post_mean_db": sc.PostVVdB,
		"convention": "delta = post_mean_db - pre_mean_db by declared temporal_role",
	}
}

// ValidationComparison is the payload of CompareSources(criterion=
// validation) (spec type 2 step 6).
type ValidationComparison struct {
	HansenLossHa      float64
	NDVIDrop, NBRDrop float64
	OpticalRegion     string
}

// openForestChange opens the forest_change work context named by input
// and reads the question's event year from its forest scene.
func openForestChange(env workers.Env, a workers.Args) (*workers.Work, int, error) {
	w, err := workers.OpenWork(env, a, "forest_change")
	if err != nil {
		return nil, 0, err
	}
	year, err := questionEventYear(w.Scenes["forest"])
	if err != nil {
		return nil, 0, err
	}
	return w, year, nil
}

// compareValidation computes the loss-region NDVI/NBR drops and the
// independently measured Hansen event-year area (spec type 2 step 6).
func compareValidation(env workers.Env, a workers.Args) (*workers.Result, error) {
	w, year, err := openForestChange(env, a)
	if err != nil {
		return nil, err
	}
	forest := w.Scenes["forest"]
	loss, err := eventYearLoss(env, forest, year)
	if err != nil {
		return nil, err
	}
	od, err := opticalDrops(env, w.Scenes["optical"], loss)
	if err != nil {
		return nil, err
	}
	vc := &ValidationComparison{HansenLossHa: loss.AreaHa, NDVIDrop: od.NDVIDrop, NBRDrop: od.NBRDrop, OpticalRegion: od.Region}
	return &workers.Result{
		Evidence: map[string]any{
			"criterion": "validation", "hansen": lossEvidence(loss), "optical": opticalEvidence(od),
			"hansen_loss_area_ha": loss.AreaHa, "ndvi_drop": od.NDVIDrop, "nbr_drop": od.NBRDrop,
		},
		Payload: vc,
	}, nil
}

// ConcordanceComparison is the payload of CompareSources(criterion=
// concordance) (spec type 7 step 4).
type ConcordanceComparison struct {
	NDVIDrop, NBRDrop, VHDeltadB float64
	OpticalChange, SARChange     bool
	Class                        string
}

// compareConcordance computes whole-AOI optical and SAR change and the
// preliminary concordance class (spec type 7 steps 1-5).
func compareConcordance(env workers.Env, a workers.Args) (*workers.Result, error) {
	w, err := workers.OpenWork(env, a, "forest_cross_modal")
	if err != nil {
		return nil, err
	}
	od, err := opticalDrops(env, w.Scenes["optical"], nil)
	if err != nil {
		return nil, err
	}
	sc, err := sarChange(env, w.Scenes["sar"])
	if err != nil {
		return nil, err
	}
	class, opt, sar := ClassifyConcordance(od.NDVIDrop, sc.VHDeltadB)
	cc := &ConcordanceComparison{NDVIDrop: od.NDVIDrop, NBRDrop: od.NBRDrop, VHDeltadB: sc.VHDeltadB, OpticalChange: opt, SARChange: sar, Class: class}
	return &workers.Result{
		Evidence: map[string]any{
			"criterion": "concordance", "optical": opticalEvidence(od), "sar": sarEvidence(sc),
			"optical_change": opt, "sar_change": sar, "concordance": class,
			"thresholds": "optical: ndvi_drop > 0.10; sar: vh_delta_db < -1.0 (both strict)",
		},
		Payload: cc,
	}, nil
}

// ForestLossClass is type 1's ClassifyChange(rule=forest_loss) payload.
type ForestLossClass struct {
	Label        string
	Cause        string
	HansenLossHa float64
	NDVIDrop     float64
	VHDeltadB    float64
	RulesFired   []string
}

// checkForestLabelObject requires an object argument to equal want exactly.
func checkForestLabelObject(a workers.Args, want map[string]any) error {
	got := a.Object("labels")
	if len(got) != len(want) {
		return a.Errorf("labels", "must be exactly %s", workers.JSONText(want))
	}
	for k, v := range want {
		g, ok := got[k]
		if !ok || g != v {
			return a.Errorf("labels", "must be exactly %s", workers.JSONText(want))
		}
	}
	return nil
}

// checkForestLabelList requires a label-list argument, when given, to list
// exactly the type's classes.
func checkForestLabelList(a workers.Args, classes []string) error {
	if !a.Has("labels") {
		return nil
	}
	got := a.Strings("labels")
	seen := map[string]bool{}
	for _, l := range got {
		if seen[l] {
			return a.Errorf("labels", "duplicate label %q", l)
		}
		seen[l] = true
	}
	if len(got) != len(classes) {
		return a.Errorf("labels", "must list exactly %v", classes)
	}
	return nil
}

// openCause opens a CompareSources cause comparison of the given criterion
// and re-applies the ordered rules to its measurements.
func openCause(env workers.Env, a workers.Args, criterion string) (*CauseComparison, error) {
	cc, h, err := workers.OpenResult[*CauseComparison](env, a, "input", "compare (CompareSources criterion="+criterion+")")
	if err != nil {
		return nil, err
	}
	if cc.Criterion != criterion {
		return nil, a.Errorf("input", "%s is a %s comparison; rule %s needs criterion %s", h.Name, cc.Criterion, a.String("rule"), criterion)
	}
	cause, fired, err := ClassifyCause(cc.Inputs)
	if err != nil {
		return nil, fmt.Errorf("ClassifyChange: %s: %w", h.Name, err)
	}
	if cause != cc.Cause || strings.Join(fired, "\n") != strings.Join(cc.RulesFired, "\n") {
		return nil, fmt.Errorf("ClassifyChange: %s embeds cause %s but its measurements give %s", h.Name, cc.Cause, cause)
	}
	return cc, nil
}

// classifyForestLoss maps the generic cause to type 1's binary label:
// deforestation only when the cause is exactly deforestation (step 7).
func classifyForestLoss(env workers.Env, a workers.Args) (*workers.Result, error) {
	if err := checkForestLabelObject(a, map[string]any{"positive": "deforestation", "negative": "no_deforestation"}); err != nil {
		return nil, err
	}
	cc, err := openCause(env, a, "forest_loss_support")
	if err != nil {
		return nil, err
	}
	label, mapping := "no_deforestation", RuleLabelNegative
	if cc.Cause == "deforestation" {
		label, mapping = "deforestation", RuleLabelPositive
	}
	fired := append(append([]string{}, cc.RulesFired...), mapping)
	fc := &ForestLossClass{Label: label, Cause: cc.Cause, HansenLossHa: cc.Inputs.HansenLossHa, NDVIDrop: cc.Inputs.NDVIDrop, VHDeltadB: cc.Inputs.VHDeltadB, RulesFired: fired}
	return &workers.Result{
		Evidence: map[string]any{"rule": "forest_loss", "label": label, "cause": cc.Cause, "rules_fired": anyStrings(fired),
			"hansen_loss_area_ha": fc.HansenLossHa, "ndvi_drop": fc.NDVIDrop, "sar_vh_delta_db": fc.VHDeltadB},
		Payload: fc,
	}, nil
}

// FalsePositiveClass is type 4's ClassifyChange(rule=false_positive_type)
// payload.
type FalsePositiveClass struct {
	Cause      string
	Inputs     CauseInputs
	RulesFired []string
}

// classifyFalsePositive validates and formats the cause_attribution
// comparison (type 4 step 6).
func classifyFalsePositive(env workers.Env, a workers.Args) (*workers.Result, error) {
	if err := checkForestLabelList(a, forestCauses); err != nil {
		return nil, err
	}
	cc, err := openCause(env, a, "cause_attribution")
	if err != nil {
		return nil, err
	}
	fp := &FalsePositiveClass{Cause: cc.Cause, Inputs: cc.Inputs, RulesFired: append([]string{}, cc.RulesFired...)}
	return &workers.Result{
		Evidence: map[string]any{"rule": "false_positive_type", "cause": cc.Cause, "rules_fired": anyStrings(fp.RulesFired)},
		Payload:  fp,
	}, nil
}

// ConcordanceClass is type 7's ClassifyChange(rule=concordance) payload.
type ConcordanceClass struct {
	Class                        string
	NDVIDrop, NBRDrop, VHDeltadB float64
}

// classifyConcordance verifies the concordance comparison's evidence and
// embedded class (type 7 step 5).
func classifyConcordance(env workers.Env, a workers.Args) (*workers.Result, error) {
	if err := checkForestLabelList(a, concordanceClasses); err != nil {
		return nil, err
	}
	cc, h, err := workers.OpenResult[*ConcordanceComparison](env, a, "input", "compare (CompareSources criterion=concordance)")
	if err != nil {
		return nil, err
	}
	nd, nb, vh := cc.NDVIDrop, cc.NBRDrop, cc.VHDeltadB
	for _, x := range []float64{nd, nb, vh} {
		if !workers.Finite(x) {
			return nil, fmt.Errorf("ClassifyChange: %s carries non-finite evidence", h.Name)
		}
	}
	class, opt, sar := ClassifyConcordance(nd, vh)
	if class != cc.Class || opt != cc.OpticalChange || sar != cc.SARChange {
		return nil, fmt.Errorf("ClassifyChange: %s embeds class %s but its evidence gives %s", h.Name, cc.Class, class)
	}
	return &workers.Result{
		Evidence: map[string]any{"rule": "concordance", "concordance": class, "ndvi_drop": nd, "nbr_drop": nb, "vh_delta_db": vh},
		Payload:  &ConcordanceClass{Class: class, NDVIDrop: nd, NBRDrop: nb, VHDeltadB: vh},
	}, nil
}

// WindowPair is one adjacent pair of eligible optical epochs.
type WindowPair struct {
	Start, End string
	// NDVIDrop and NBRDrop are differences of the two epochs' means.
	NDVIDrop, NBRDrop float64
	// Score is NDVI_drop + 0.5*NBR_drop.
	Score float64
}

// ClearingDetection is the payload of DetectChange(change=
// dominant_clearing_interval) (spec type 3).
type ClearingDetection struct {
	// Epochs are the AOI-wide per-epoch means in canonical order.
	Epochs   []EpochIndices
	Eligible []string
	Pairs    []WindowPair
	// Best is the winning pair (nil with fewer than two eligible epochs).
	Best         *WindowPair
	HansenLossHa float64
	Confirmed    bool
	// NDVIDrop is the whole-period drop (loss region when present).
	NDVIDrop  float64
	VHDeltadB float64
}

// dominantPair returns the adjacent eligible pairs and the one with the
// largest score; an exact tie keeps the earliest (type 3 step 3).
func dominantPair(eps []EpochIndices) ([]string, []WindowPair, *WindowPair) {
	var el []EpochIndices
	var names []string
	for _, e := range eps {
		if workers.Finite(float64(e.NDVI)) && workers.Finite(float64(e.NBR)) {
			el = append(el, e)
			names = append(names, e.Epoch)
		}
	}
	var pairs []WindowPair
	var best *WindowPair
	for i := 0; i+1 < len(el); i++ {
		nd := float64(el[i].NDVI) - float64(el[i+1].NDVI)
		nb := float64(el[i].NBR) - float64(el[i+1].NBR)
		p := WindowPair{Start: el[i].Epoch, End: el[i+1].Epoch, NDVIDrop: nd, NBRDrop: nb, Score: nd + float64(0.5*nb)}
		pairs = append(pairs, p)
	}
	for i := range pairs {
		if best == nil || pairs[i].Score > best.Score {
			best = &pairs[i]
		}
	}
	return names, pairs, best
}

// detectClearingInterval implements spec type 3 steps 1-7.
func detectClearingInterval(env workers.Env, a workers.Args) (*workers.Result, error) {
	w, err := workers.OpenWork(env, a, "forest_timeseries")
	if err != nil {
		return nil, err
	}
	forest, optical := w.Scenes["forest"], w.Scenes["optical"]
	year, err := questionEventYear(forest)
	if err != nil {
		return nil, err
	}
	loss, err := eventYearLoss(env, forest, year)
	if err != nil {
		return nil, err
	}
	var names []string
	var pairs []WindowPair
	var best *WindowPair
	confirmed := loss.AreaHa >= 0.5
	aoi, od, err := opticalDropsWithAOI(env, optical, loss, func(aoi []EpochIndices) error {
		names, pairs, best = dominantPair(aoi)
		if confirmed && best == nil {
			return fmt.Errorf("DetectChange: Hansen confirms %v ha of %d loss but only %d optical epoch(s) have finite NDVI and NBR; two are needed", loss.AreaHa, year, len(names))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sc, err := sarChange(env, w.Scenes["sar"])
	if err != nil {
		return nil, err
	}
	cd := &ClearingDetection{Epochs: aoi, Eligible: names, Pairs: pairs, Best: best, HansenLossHa: loss.AreaHa, Confirmed: confirmed, NDVIDrop: od.NDVIDrop, VHDeltadB: sc.VHDeltadB}
	ps := make([]any, 0, len(pairs))
	for _, p := range pairs {
		ps = append(ps, map[string]any{"start_epoch": p.Start, "end_epoch": p.End, "ndvi_drop": p.NDVIDrop, "nbr_drop": p.NBRDrop, "composite_drop_score": p.Score})
	}
	ev := map[string]any{
		"change": "dominant_clearing_interval", "eligible_epochs": anyStrings(names), "pairs": ps,
		"hansen": lossEvidence(loss), "confirmed": cd.Confirmed, "optical": opticalEvidence(od), "sar": sarEvidence(sc),
		"gate": "candidate reported only when hansen_loss_area_ha >= 0.5",
	}
	if best != nil {
		ev["candidate"] = map[string]any{"start_epoch": best.Start, "end_epoch": best.End, "composite_drop_score": best.Score}
	}
	return &workers.Result{Evidence: ev, Payload: cd}, nil
}

// ChangeWindowClass is type 3's ClassifyChange(rule=change_window) payload.
type ChangeWindowClass struct {
	Label string
	// Window is nil for no_deforestation.
	Window       *WindowPair
	HansenLossHa float64
	NDVIDrop     float64
	VHDeltadB    float64
}

// classifyChangeWindow validates and formats the clearing detection
// (type 3 step 6); it performs no raw read.
func classifyChangeWindow(env workers.Env, a workers.Args) (*workers.Result, error) {
	if err := checkForestLabelObject(a, map[string]any{"none": nil, "changed": "start_epoch_to_end_epoch"}); err != nil {
		return nil, err
	}
	cd, h, err := workers.OpenResult[*ClearingDetection](env, a, "input", "change (DetectChange change=dominant_clearing_interval)")
	if err != nil {
		return nil, err
	}
	if cd.Confirmed != (cd.HansenLossHa >= 0.5) {
		return nil, fmt.Errorf("ClassifyChange: %s: confirmation flag disagrees with its %v ha Hansen area", h.Name, cd.HansenLossHa)
	}
	for _, x := range []float64{cd.HansenLossHa, cd.NDVIDrop, cd.VHDeltadB} {
		if !workers.Finite(x) {
			return nil, fmt.Errorf("ClassifyChange: %s carries non-finite evidence", h.Name)
		}
	}
	wc := &ChangeWindowClass{Label: "no_deforestation", HansenLossHa: cd.HansenLossHa, NDVIDrop: cd.NDVIDrop, VHDeltadB: cd.VHDeltadB}
	if cd.Confirmed {
		b := cd.Best
		if b == nil {
			return nil, fmt.Errorf("ClassifyChange: %s confirms loss but has no candidate window", h.Name)
		}
		if b.Score != b.NDVIDrop+float64(0.5*b.NBRDrop) || !workers.Finite(b.Score) {
			return nil, fmt.Errorf("ClassifyChange: %s: composite score %v disagrees with its drops", h.Name, b.Score)
		}
		wc.Label = "deforestation"
		cp := *b
		wc.Window = &cp
	}
	ev := map[string]any{"rule": "change_window", "label": wc.Label, "hansen_loss_area_ha": wc.HansenLossHa}
	if wc.Window != nil {
		ev["change_window"] = map[string]any{"start_epoch": wc.Window.Start, "end_epoch": wc.Window.End}
	} else {
		ev["change_window"] = nil
	}
	return &workers.Result{Evidence: ev, Payload: wc}, nil
}

// LossHistogram is the payload of ComputeStats(metrics=
// {loss_area_ha_by_year}) (spec type 6 steps 1-3).
type LossHistogram struct {
	Path        string
	ValidPixels int
	// AreaHa maps each year 2001..2023 present in the raster to its area in
	// hectares rounded to six decimals; absent years have no entry.
	AreaHa map[int]float64
	Pixels map[int]int
	Method string
}

// computeLossByYear implements type 6 steps 1-3 on lossyear.tif.
func computeLossByYear(env workers.Env, a workers.Args) (*workers.Result, error) {
	w, err := workers.OpenWork(env, a, "forest_loss_history")
	if err != nil {
		return nil, err
	}
	f, b, info, err := w.Scenes["loss_history"].RequireBand(env, "lossyear.tif", 1)
	if err != nil {
		return nil, err
	}
	byCode, valid, err := bandLossYearCells(b, info, f.Path)
	if err != nil {
		return nil, err
	}
	if valid == 0 {
		return nil, fmt.Errorf("%s: no valid loss-year pixel (all nodata); this is an error, not no_loss", f.Path)
	}
	ga, err := workers.NewGridAreas(info)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	lh := &LossHistogram{Path: f.Path, ValidPixels: valid, AreaHa: map[int]float64{}, Pixels: map[int]int{}, Method: ga.Method}
	hist := map[string]any{}
	for c := 1; c <= 23; c++ {
		idx := byCode[c]
		if len(idx) == 0 {
			continue
		}
		ha := workers.RoundHalfEven(ga.Sum(idx)/10000, 6)
		lh.AreaHa[2000+c], lh.Pixels[2000+c] = ha, len(idx)
		hist[fmt.Sprint(2000+c)] = ha
	}
	return &workers.Result{
		Evidence: map[string]any{"metric": "loss_area_ha_by_year", "region": "aoi", "source": f.Path,
			"valid_pixel_count": valid, "loss_area_ha_by_year": hist, "area_method": ga.Method,
			"codes": "1..23 -> 2001..2023; 0 = no loss; 24..25 outside the window; 255 = nodata"},
		Payload: lh,
	}, nil
}

// LargestLossYear is the payload of DetectChange(change=largest_loss_year).
type LargestLossYear struct {
	// Year is 2001..2023, or 0 for no_loss.
	Year   int
	LossHa float64
}

// detectLargestLossYear selects the largest six-decimal annual area, the
// earliest year on ties, or no_loss (spec type 6 steps 4-5). It consumes
// the statistics result and reads no file.
func detectLargestLossYear(env workers.Env, a workers.Args) (*workers.Result, error) {
	lh, h, err := workers.OpenResult[*LossHistogram](env, a, "input", "stats (ComputeStats metrics={loss_area_ha_by_year})")
	if err != nil {
		return nil, err
	}
	out := &LargestLossYear{}
	for y := 2001; y <= 2023; y++ {
		ha, ok := lh.AreaHa[y]
		if !ok {
			continue
		}
		if !(ha > 0) || math.IsInf(ha, 0) {
			return nil, fmt.Errorf("DetectChange: %s: year %d has non-positive or non-finite area %v", h.Name, y, ha)
		}
		if ha > out.LossHa {
			out.Year, out.LossHa = y, ha
		}
	}
	for y := range lh.AreaHa {
		if y < 2001 || y > 2023 {
			return nil, fmt.Errorf("DetectChange: %s: year %d is outside the 2001_2023 window", h.Name, y)
		}
	}
	ev := map[string]any{"change": "largest_loss_year", "window": "2001_2023", "loss_ha": out.LossHa, "tie_rule": "earliest year"}
	if out.Year == 0 {
		ev["year"] = "no_loss"
	} else {
		ev["year"] = out.Year
	}
	return &workers.Result{Evidence: ev, Payload: out}, nil
}

// VHDeltaStats is the payload of ComputeStats(metrics={vh_delta_db}).
type VHDeltaStats struct {
	Metric    string
	VHDeltadB float64
	PreCount  int
	PostCount int
}

// computeVHDelta implements type 8 steps 1-3.
func computeVHDelta(env workers.Env, a workers.Args) (*workers.Result, error) {
	w, err := workers.OpenWork(env, a, "sar_change")
	if err != nil {
		return nil, err
	}
	sc, err := sarChange(env, w.Scenes["sar"])
	if err != nil {
		return nil, err
	}
	ev := sarEvidence(sc)
	ev["metric"], ev["region"], ev["vh_delta_db"] = "vh_delta_db", "aoi", sc.VHDeltadB
	return &workers.Result{Evidence: ev, Payload: &VHDeltaStats{Metric: "vh_delta_db", VHDeltadB: sc.VHDeltadB, PreCount: sc.PreCount, PostCount: sc.PostCount}}, nil
}

// SeverityScore is the payload of ScoreHazard(scale=vh_delta_severity).
type SeverityScore struct {
	VHDeltadB float64
	Severity  string
}

// scoreVHSeverity applies type 8 step 4 to the preceding statistic.
func scoreVHSeverity(env workers.Env, a workers.Args) (*workers.Result, error) {
	st, h, err := workers.OpenResult[*VHDeltaStats](env, a, "input", "stats (ComputeStats metrics={vh_delta_db})")
	if err != nil {
		return nil, err
	}
	d := st.VHDeltadB
	if st.Metric != "vh_delta_db" || !workers.Finite(d) || st.PreCount == 0 || st.PostCount == 0 {
		return nil, fmt.Errorf("ScoreHazard: %s does not carry a finite VH delta over both temporal groups", h.Name)
	}
	sev := VHSeverity(d)
	return &workers.Result{
		Evidence: map[string]any{"hazard": "forest_disturbance", "scale": "vh_delta_severity", "vh_delta_db": d, "severity": sev,
			"buckets": "severe < -3 <= moderate < -1 <= mild < 0 <= none"},
		Payload: &SeverityScore{VHDeltadB: d, Severity: sev},
	}, nil
}

// LossPatches is the payload of ExtractObjects(target=forest_loss_patches).
type LossPatches struct {
	EventYear          int
	Source             string
	PixelCount         int
	Components         int
	LargestPatchPixels int
	AreaM2, AreaHa     float64
	Method             string
}

// extractLossPatches selects the event-year loss mask (with the declared
// fallback) and summarizes its 8-connected patches (spec type 2 steps 1-5).
func extractLossPatches(env workers.Env, a workers.Args) (*workers.Result, error) {
	w, year, err := openForestChange(env, a)
	if err != nil {
		return nil, err
	}
	forest := w.Scenes["forest"]
	filters := a.Object("filters")
	if len(filters) != 1 {
		return nil, a.Errorf("filters", "must be exactly {event_year: %d}", year)
	}
	fy, ok := filters["event_year"].(float64)
	if !ok || fy != math.Trunc(fy) {
		return nil, a.Errorf("filters", "event_year must be an integer year, got %s", workers.JSONText(filters["event_year"]))
	}
	if int(fy) != year {
		return nil, a.Errorf("filters", "conflicting event year: filter %v, question %d", fy, year)
	}
	loss, err := eventYearLoss(env, forest, year)
	if err != nil {
		return nil, err
	}
	n, largest := lossComponents8(loss.Mask, loss.Info.Width, loss.Info.Height)
	lp := &LossPatches{EventYear: year, Source: loss.Source, PixelCount: len(loss.Indices), Components: n, LargestPatchPixels: largest, AreaM2: loss.AreaM2, AreaHa: loss.AreaHa, Method: loss.Method}
	art, err := writeLossMask(env, loss)
	if err != nil {
		return nil, err
	}
	ev := lossEvidence(loss)
	ev["target"], ev["component_count"], ev["largest_patch_pixels"], ev["connectivity"] = "forest_loss_patches", n, largest, 8
	ev["mask_artifact"] = art.Locator
	return &workers.Result{Evidence: ev, Payload: lp, Artifacts: []workers.Artifact{art}}, nil
}

// writeLossMask writes the selected event-year loss cells as a uint8
// GeoTIFF on the source grid (1 = loss, 0 = no loss).
func writeLossMask(env workers.Env, loss *HansenLoss) (workers.Artifact, error) {
	b, err := raster.NewBand(loss.Info.Width, loss.Info.Height, raster.Uint8)
	if err != nil {
		return workers.Artifact{}, err
	}
	px := b.Data.([]uint8)
	for _, i := range loss.Indices {
		px[i] = 1
	}
	var buf bytes.Buffer
	if err := raster.Write(&buf, []*raster.Band{b}, raster.WriteOptions{EPSG: loss.Info.EPSG, Transform: loss.Info.Transform}); err != nil {
		return workers.Artifact{}, fmt.Errorf("loss mask artifact: %w", err)
	}
	return env.WriteArtifact(fmt.Sprintf("forest_loss_patches_%d.tif", loss.EventYear), buf.Bytes(), nil)
}

// lossComponents8 counts the 8-connected components of a mask and the size of
// the largest.
func lossComponents8(mask []bool, w, h int) (int, int) {
	seen := make([]bool, len(mask))
	count, largest := 0, 0
	var stack []int
	for i, m := range mask {
		if !m || seen[i] {
			continue
		}
		count++
		size := 0
		seen[i] = true
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			size++
			r, c := p/w, p%w
			for dr := -1; dr <= 1; dr++ {
				for dc := -1; dc <= 1; dc++ {
					rr, cc := r+dr, c+dc
					if rr < 0 || rr >= h || cc < 0 || cc >= w {
						continue
					}
					q := rr*w + cc
					if mask[q] && !seen[q] {
						seen[q] = true
						stack = append(stack, q)
					}
				}
			}
		}
		largest = max(largest, size)
	}
	return count, largest
}

// ForestLossArea is the payload of MeasureArea(target=forest_loss).
type ForestLossArea struct {
	AreaHa, AreaM2 float64
	EventYear      int
}

// measureLossArea consumes the extracted loss patches (type 2 step 5).
func measureLossArea(env workers.Env, a workers.Args) (*workers.Result, error) {
	lp, h, err := workers.OpenResult[*LossPatches](env, a, "input", "objects (ExtractObjects target=forest_loss_patches)")
	if err != nil {
		return nil, err
	}
	if lp.AreaHa < 0 || !workers.Finite(lp.AreaHa) {
		return nil, fmt.Errorf("MeasureArea: %s: area %v ha is negative or not finite", h.Name, lp.AreaHa)
	}
	return &workers.Result{
		Evidence: map[string]any{"target": "forest_loss", "unit": "hectares", "area_ha": lp.AreaHa, "area_m2": lp.AreaM2, "event_year": lp.EventYear, "area_method": lp.Method},
		Payload:  &ForestLossArea{AreaHa: lp.AreaHa, AreaM2: lp.AreaM2, EventYear: lp.EventYear},
	}, nil
}
