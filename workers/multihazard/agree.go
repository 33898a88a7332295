package multihazard

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/workers"
)

// Multi-hazard task shape C: three co-registered sources compared through
// CompareSources — types 11 wildfire_c, 15 hazard_deforestation_c, 19
// urban_expansion_c (area agreement), 23 drought_c (q25 IoU) and 27
// air_pollution_c (relative intensity states).

// areaAgreementRule is one hazard's declared area-agreement contract.
type areaAgreementRule struct {
	// Key is the discriminating argument the spec's call uses ("criterion"
	// for types 11 and 19, "metric" for type 15).
	Key string
	// MaxMedianPct is the fixed, inclusive median-difference limit.
	MaxMedianPct float64
	// MaxCode is each source's largest valid code (RADD alerts: 2).
	MaxCode []int
}

// areaAgreementRules binds types 11 (20%), 15 (25%) and 19 (30%).
var areaAgreementRules = map[string]areaAgreementRule{
	"wildfire":        {Key: "criterion", MaxMedianPct: 20, MaxCode: []int{1, 1, 1}},
	"deforestation":   {Key: "metric", MaxMedianPct: 25, MaxCode: []int{1, 1, 2}},
	"urban_expansion": {Key: "criterion", MaxMedianPct: 30, MaxCode: []int{1, 1, 1}},
}

// Decision labels of the agreement tasks.
const (
	SourcesAgree    = "sources_agree"
	SourcesDisagree = "sources_disagree"
)

// AreaScoreContract is the bounded score rule of the area-agreement tasks.
const AreaScoreContract = "max(0,100-median_pct_delta)"

func agreementVariants() []workers.Variant {
	sources := workers.Param{Name: "sources", Kind: workers.KindString, Enum: []string{"all"}, Doc: "compare every declared source"}
	return []workers.Variant{
		{
			Tool: "CompareSources", Value: "area_agreement",
			Params: []workers.Param{
				workers.Input("work handle from PrepareScene(mode=multisource_hazard or multisource)"),
				{Name: "criterion", Kind: workers.KindString, Enum: []string{"area_agreement"}},
				{Name: "metric", Kind: workers.KindString, Enum: []string{"area_agreement"}},
				sources,
				{Name: "maximum_median_pct_delta", Kind: workers.KindNumber, Required: true, Doc: "the hazard's declared inclusive limit (20, 25 or 30)"},
			},
			Run: compareAreaAgreement,
		},
		workers.NewVariant("CompareSources", compareIoU,
			workers.Input("work handle from PrepareScene(mode=multisource_hazard)"),
			workers.Choice("criterion", "iou"),
			sources,
			workers.Param{Name: "minimum_iou", Kind: workers.KindNumber, Required: true, Doc: "inclusive median IoU limit (0.3)"},
			workers.Choice("threshold_contract", "per_source_train_pixel_q25_v1"),
			workers.Choice("normalization_fit_split", "train")),
		workers.NewVariant("CompareSources", compareIntensity,
			workers.Input("work handle from PrepareScene(mode=multisource_hazard)"),
			workers.Choice("criterion", "benchmark_relative_intensity_agreement"),
			sources,
			workers.Param{Name: "required_agreement_fraction", Kind: workers.KindNumber, Required: true, Doc: "1.0: all three sources must share a state"},
			workers.Choice("normalization_fit_split", "train")),
	}
}

// PairSupport holds the spatial support statistics of one source pair on
// their common valid cells (six decimals).
type PairSupport struct {
	IoU       float64
	Agreement float64
	// Kappa is Cohen's kappa, nil when chance agreement is 1 (both
	// sources constant and equal), where it is undefined.
	Kappa *float64
}

// AreaAgreement is the payload of CompareSources(area_agreement).
type AreaAgreement struct {
	Hazard       string
	Sources      []string
	AreasHa      []float64 // unrounded
	PairKeys     []string
	PairPct      []float64 // unrounded
	Support      []PairSupport
	MedianPct    float64 // unrounded
	MedianAreaHa float64 // unrounded
	Score        float64 // unrounded
	Decision     string
	MaxMedianPct float64
}

// PairKey names a source pair as "a__vs__b".
func PairKey(a, b string) string { return a + "__vs__" + b }

// SourcePairs are the three source pairs in declared order.
var SourcePairs = [3][2]int{{0, 1}, {0, 2}, {1, 2}}

// SymmetricPctDelta returns abs(A-B)/((A+B)/2)*100, and 0 when both areas
// are zero.
func SymmetricPctDelta(a, b float64) float64 {
	if a == 0 && b == 0 {
		return 0
	}
	return math.Abs(a-b) / ((a + b) / 2) * 100
}

// Median3 returns the middle of three values.
func Median3(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[1]
}

// BinarySupport computes IoU, binary-state agreement and Cohen's kappa of
// two binary states on their common valid cells; it is an error when no
// cell is valid in both.
func BinarySupport(aSet, aOK, bSet, bOK []bool) (PairSupport, error) {
	var n11, n10, n01, n00 int
	for i := range aOK {
		if !aOK[i] || !bOK[i] {
			continue
		}
		switch {
		case aSet[i] && bSet[i]:
			n11++
		case aSet[i]:
			n10++
		case bSet[i]:
			n01++
		default:
			n00++
		}
	}
	n := n11 + n10 + n01 + n00
	if n == 0 {
		return PairSupport{}, fmt.Errorf("empty common valid population")
	}
	var s PairSupport
	if u := n11 + n10 + n01; u == 0 {
		s.IoU = 1
	} else {
		s.IoU = float64(n11) / float64(u)
	}
	N := float64(n)
	po := float64(n11+n00) / N
	pa := float64(n11+n10) / N
	pb := float64(n11+n01) / N
	pe := float64(pa*pb) + float64((1-pa)*(1-pb))
	s.IoU = workers.RoundHalfEven(s.IoU, 6)
	s.Agreement = workers.RoundHalfEven(po, 6)
	if pe != 1 {
		k := workers.RoundHalfEven((po-pe)/(1-pe), 6)
		s.Kappa = &k
	}
	return s, nil
}

// compareAreaAgreement implements types 11, 15 and 19: the grid-cell area
// of each source's positive cells; the three symmetric pairwise
// differences from unrounded areas; the median compared inclusively with
// the hazard's declared limit; the bounded score max(0, 100-median); and
// IoU, binary-state agreement and Cohen's kappa on common valid cells as
// support statistics that never change the verdict.
func compareAreaAgreement(env workers.Env, a workers.Args) (*workers.Result, error) {
	w, err := workers.OpenWork(env, a, "multisource_hazard", "multisource")
	if err != nil {
		return nil, err
	}
	d, err := workHazard(w)
	if err != nil {
		return nil, err
	}
	rule, ok := areaAgreementRules[d.Hazard]
	if !ok {
		return nil, a.Errorf("input", "area_agreement is not the declared agreement criterion of hazard %s", d.Hazard)
	}
	other := map[string]string{"criterion": "metric", "metric": "criterion"}[rule.Key]
	if !a.Has(rule.Key) || a.Has(other) {
		return nil, a.Errorf(rule.Key, "hazard %s declares area_agreement through %s= (and not %s=)", d.Hazard, rule.Key, other)
	}
	if lim, _ := a.Number("maximum_median_pct_delta"); lim != rule.MaxMedianPct {
		return nil, a.Errorf("maximum_median_pct_delta", "hazard %s declares a %v%% limit, got %v", d.Hazard, rule.MaxMedianPct, lim)
	}
	sc := w.Scenes["sources"]
	masks := make([]*HazardMask, 3)
	paths := make([]string, 3)
	infos := make([]workers.RasterInfo, 3)
	for k, src := range d.Sources {
		m, err := loadCodedMask(env, sc, src+".tif", rule.MaxCode[k])
		if err != nil {
			return nil, err
		}
		masks[k], paths[k], infos[k] = m, m.Path, m.Info
	}
	if err := sameGrids(paths, infos); err != nil {
		return nil, err
	}
	ga, err := workers.NewGridAreas(infos[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", paths[0], err)
	}
	ag := &AreaAgreement{Hazard: d.Hazard, Sources: d.Sources, MaxMedianPct: rule.MaxMedianPct}
	areas := map[string]any{}
	for k, m := range masks {
		ha := ga.Sum(m.Ones) / 10000
		if err := workers.CheckFinite(m.Path+" area", ha); err != nil {
			return nil, err
		}
		ag.AreasHa = append(ag.AreasHa, ha)
		areas[d.Sources[k]] = workers.RoundHalfEven(ha, 3)
	}
	pct := map[string]any{}
	support := map[string]any{}
	for _, p := range SourcePairs {
		key := PairKey(d.Sources[p[0]], d.Sources[p[1]])
		v := SymmetricPctDelta(ag.AreasHa[p[0]], ag.AreasHa[p[1]])
		ag.PairKeys = append(ag.PairKeys, key)
		ag.PairPct = append(ag.PairPct, v)
		pct[key] = workers.RoundHalfEven(v, 3)
		s, err := BinarySupport(masks[p[0]].IsSet, masks[p[0]].OK, masks[p[1]].IsSet, masks[p[1]].OK)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		ag.Support = append(ag.Support, s)
		support[key] = supportJSON(s)
	}
	ag.MedianPct = Median3(ag.PairPct)
	ag.MedianAreaHa = Median3(ag.AreasHa)
	ag.Score = math.Max(0, 100-ag.MedianPct)
	ag.Decision = areaVerdict(ag.MedianPct, rule.MaxMedianPct)
	return &workers.Result{
		Evidence: map[string]any{
			"criterion": "area_agreement", "hazard": d.Hazard, "decision": ag.Decision,
			"median_pct_delta": workers.RoundHalfEven(ag.MedianPct, 3), "maximum_median_pct_delta": rule.MaxMedianPct,
			"agreement_score_0_100": workers.RoundHalfEven(ag.Score, 3), "score_contract": AreaScoreContract,
			"median_area_ha": workers.RoundHalfEven(ag.MedianAreaHa, 3), "source_areas_ha": areas,
			"pairwise_pct_delta": pct, "spatial_support": support, "area_method": ga.Method,
		},
		Payload: ag,
	}, nil
}

// areaVerdict applies the inclusive median-difference limit: a median at
// or below the limit means the sources agree (spec type 11 step 4).
func areaVerdict(median, limit float64) string {
	if median <= limit {
		return SourcesAgree
	}
	return SourcesDisagree
}

// iouVerdict applies type 23's inclusive minimum median IoU.
func iouVerdict(median, minimum float64) string {
	if median >= minimum {
		return SourcesAgree
	}
	return SourcesDisagree
}

// intensityState classifies a type-27 z-score: below -0.5, above 0.5,
// and the inclusive middle.
func intensityState(z float64) string {
	switch {
	case z < -0.5:
		return StateBelow
	case z > 0.5:
		return StateAbove
	}
	return StateTypical
}

// supportJSON renders support statistics as answer evidence.
func supportJSON(s PairSupport) map[string]any {
	var k any
	if s.Kappa != nil {
		k = *s.Kappa
	}
	return map[string]any{"iou": s.IoU, "binary_state_agreement": s.Agreement, "cohen_kappa": k}
}

// IoUAgreement is the type-23 payload of CompareSources(criterion=iou).
type IoUAgreement struct {
	Hazard     string
	Sources    []string
	Thresholds []float64
	AreasHa    []float64 // unrounded
	PairKeys   []string
	PairIoU    []float64 // six decimals
	MedianIoU  float64
	MinimumIoU float64
	Decision   string
	Contract   string
	FitSplit   string
}

// droughtIoUMinimum is type 23's inclusive median-IoU limit.
const droughtIoUMinimum = 0.3

// compareIoU implements type 23: each source's low-state mask is its
// valid pixels with value < its training-pixel q25 from the declared
// normalization contract; pairwise IoU on common valid cells (two empty
// masks have IoU 1), rounded to six decimals; the verdict compares the
// median of the three rounded IoUs inclusively with 0.30.
func compareIoU(env workers.Env, a workers.Args) (*workers.Result, error) {
	w, d, err := openSourceWork(env, a, "drought", "iou agreement")
	if err != nil {
		return nil, err
	}
	if v, _ := a.Number("minimum_iou"); v != droughtIoUMinimum {
		return nil, a.Errorf("minimum_iou", "the declared limit is %v, got %v", droughtIoUMinimum, v)
	}
	nz, err := loadNormalization(env, w.Scenes["hazard"], "drought_normalization.json")
	if err != nil {
		return nil, err
	}
	sc := w.Scenes["sources"]
	ag := &IoUAgreement{Hazard: d.Hazard, Sources: d.Sources, MinimumIoU: droughtIoUMinimum, Contract: a.String("threshold_contract"), FitSplit: nz.FitSplit}
	sets := make([][]bool, 3)
	oks := make([][]bool, 3)
	paths := make([]string, 3)
	infos := make([]workers.RasterInfo, 3)
	counts := make([]int, 3)
	thr := map[string]any{}
	for k, src := range d.Sources {
		c, err := loadContinuous(env, sc, src+".tif")
		if err != nil {
			return nil, err
		}
		fit, err := nz.source(src)
		if err != nil {
			return nil, err
		}
		set, n := c.validBelow(c.asDtype(fit.Q25))
		sets[k], oks[k], paths[k], infos[k], counts[k] = set, c.OK, c.Path, c.Info, n
		ag.Thresholds = append(ag.Thresholds, fit.Q25)
		thr[src] = fit.Q25
	}
	if err := sameGrids(paths, infos); err != nil {
		return nil, err
	}
	ga, err := workers.NewGridAreas(infos[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", paths[0], err)
	}
	areas := map[string]any{}
	for k, src := range d.Sources {
		idx := make([]int, 0, counts[k])
		for i, s := range sets[k] {
			if s {
				idx = append(idx, i)
			}
		}
		ha := ga.Sum(idx) / 10000
		ag.AreasHa = append(ag.AreasHa, ha)
		areas[src] = workers.RoundHalfEven(ha, 3)
	}
	ious := map[string]any{}
	for _, p := range SourcePairs {
		key := PairKey(d.Sources[p[0]], d.Sources[p[1]])
		s, err := BinarySupport(sets[p[0]], oks[p[0]], sets[p[1]], oks[p[1]])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		ag.PairKeys = append(ag.PairKeys, key)
		ag.PairIoU = append(ag.PairIoU, s.IoU)
		ious[key] = s.IoU
	}
	ag.MedianIoU = Median3(ag.PairIoU)
	ag.Decision = iouVerdict(ag.MedianIoU, droughtIoUMinimum)
	return &workers.Result{
		Evidence: map[string]any{
			"criterion": "iou", "decision": ag.Decision, "median_iou": ag.MedianIoU, "minimum_iou": droughtIoUMinimum,
			"threshold_contract": ag.Contract, "normalization_fit_split": ag.FitSplit,
			"source_q25_thresholds": thr, "source_mask_areas_ha": areas, "pairwise_iou": ious,
			"mask_rule": "value < training-pixel q25; IoU on common valid cells; two empty masks have IoU 1",
		},
		Payload: ag,
	}, nil
}

// IntensityState is one source's benchmark-relative state (type 27).
type IntensityState struct {
	Source                 string
	AOIMean                float64
	TrainMean, TrainStd, Z float64
	State                  string
}

// IntensityAgreement is the type-27 payload.
type IntensityAgreement struct {
	Hazard   string
	States   []IntensityState
	Fraction float64 // six decimals
	Required float64
	Decision string
	FitSplit string
}

// Relative intensity states of type 27.
const (
	StateBelow   = "below_training_typical"
	StateTypical = "training_typical"
	StateAbove   = "above_training_typical"
)

// compareIntensity implements type 27: per source, the NumPy mean of the
// AOI's finite pixels, standardized against the mean and population
// standard deviation of the 18 training-AOI means declared in the train-
// only normalization; z < -0.5 is below, z > 0.5 above and the inclusive
// middle typical; the agreement fraction is the largest state count over
// three, and the sources agree when it reaches the required 1.0.
func compareIntensity(env workers.Env, a workers.Args) (*workers.Result, error) {
	w, d, err := openSourceWork(env, a, "air_pollution", "benchmark_relative_intensity_agreement")
	if err != nil {
		return nil, err
	}
	if v, _ := a.Number("required_agreement_fraction"); v != 1.0 {
		return nil, a.Errorf("required_agreement_fraction", "the declared requirement is 1.0 (all three sources), got %v", v)
	}
	nz, err := loadNormalization(env, w.Scenes["hazard"], "normalization.json")
	if err != nil {
		return nil, err
	}
	sc := w.Scenes["sources"]
	ag := &IntensityAgreement{Hazard: d.Hazard, Required: 1.0, FitSplit: nz.FitSplit}
	paths := make([]string, 3)
	infos := make([]workers.RasterInfo, 3)
	counts := map[string]int{}
	srcEv := map[string]any{}
	for k, src := range d.Sources {
		c, err := loadContinuous(env, sc, src+".tif")
		if err != nil {
			return nil, err
		}
		paths[k], infos[k] = c.Path, c.Info
		fit, err := nz.source(src)
		if err != nil {
			return nil, err
		}
		if len(fit.TrainAOIMeans) != len(nz.FitAOIs) {
			return nil, fmt.Errorf("normalization %s: source %s has %d training means for %d fit AOIs", nz.Path, src, len(fit.TrainAOIMeans), len(nz.FitAOIs))
		}
		mu, sd := popMeanStd(fit.TrainAOIMeans)
		if math.IsNaN(sd) || sd <= 0 {
			return nil, fmt.Errorf("normalization %s: source %s training means have population std %v", nz.Path, src, sd)
		}
		m := c.validMean()
		z := (m - mu) / sd
		if err := workers.CheckFinite(src+" z-score", z); err != nil {
			return nil, err
		}
		st := intensityState(z)
		counts[st]++
		ag.States = append(ag.States, IntensityState{Source: src, AOIMean: m, TrainMean: mu, TrainStd: sd, Z: z, State: st})
		srcEv[src] = map[string]any{"aoi_mean": workers.RoundHalfEven(m, 6), "training_mean": workers.RoundHalfEven(mu, 6),
			"training_std": workers.RoundHalfEven(sd, 6), "z_score": workers.RoundHalfEven(z, 6), "state": st}
	}
	if err := sameGrids(paths, infos); err != nil {
		return nil, err
	}
	best := 0
	for _, n := range counts {
		if n > best {
			best = n
		}
	}
	frac := float64(best) / 3
	ag.Fraction = workers.RoundHalfEven(frac, 6)
	ag.Decision = SourcesDisagree
	if frac >= ag.Required {
		ag.Decision = SourcesAgree
	}
	return &workers.Result{
		Evidence: map[string]any{
			"criterion": "benchmark_relative_intensity_agreement", "decision": ag.Decision,
			"agreement_fraction": ag.Fraction, "required_agreement_fraction": ag.Required,
			"normalization_fit_split": ag.FitSplit, "sources": srcEv,
			"state_rule": "z < -0.5 below_training_typical; -0.5 <= z <= 0.5 training_typical; z > 0.5 above_training_typical",
		},
		Payload: ag,
	}, nil
}

// popMeanStd returns NumPy's np.mean(x) and np.std(x) (ddof=0) of float64
// values.
func popMeanStd(x []float64) (float64, float64) {
	n := float64(len(x))
	mu := numpy.SumFloat64(x) / n
	sq := make([]float64, len(x))
	for i, v := range x {
		d := v - mu
		sq[i] = d * d
	}
	return mu, math.Sqrt(numpy.SumFloat64(sq) / n)
}

// openSourceWork opens the multisource_hazard work context of a source
// comparison and its hazard, checked to be the one the criterion is
// declared for.
func openSourceWork(env workers.Env, a workers.Args, hazard, criterion string) (*workers.Work, hazardDomain, error) {
	w, err := workers.OpenWork(env, a, "multisource_hazard")
	if err != nil {
		return nil, hazardDomain{}, err
	}
	d, err := workHazard(w)
	if err != nil {
		return nil, hazardDomain{}, err
	}
	if d.Hazard != hazard {
		return nil, hazardDomain{}, a.Errorf("criterion", "%s is declared for %s sources, not %s", criterion, strings.ReplaceAll(hazard, "_", "-"), d.Hazard)
	}
	return w, d, nil
}
