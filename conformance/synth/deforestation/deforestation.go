// Package deforestation generates the records of the deforestation
// family (spec types 1-8): Hansen, Sentinel-2 and Sentinel-1 AOIs and
// their gold answers, computed from the generated arrays.
//
// Each record's scenario is picked by its index so that the first six
// records of a type (the default corpus) cover its main branches and
// later records its boundaries; every generator checks that the gold it
// computed from the arrays lands in the branch the scenario was built
// for, so coverage cannot silently drift.
package deforestation

import (
	"fmt"
	"math"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/workers"
	worker "github.com/geodisaster/engine/workers/deforestation"
)

// Types returns the family's generators: 48 AOIs per type, 5 of them
// public-reference test records.
func Types() core.Types {
	t := func(gen func(g *core.Gen, i int) (workers.Record, error)) core.Type {
		return core.Type{Full: 48, Tests: 5, Gen: gen}
	}
	return core.Types{
		"forest_loss_detection":       t(genForestLossDetection),
		"area_estimation":             t(genAreaEstimation),
		"change_window_estimation":    t(genChangeWindow),
		"false_positive_rejection":    t(genFalsePositive),
		"baseline_canopy_assessment":  t(genBaselineCanopy),
		"multi_year_loss_attribution": t(genLossAttribution),
		"cross_modal_concordance":     t(genConcordance),
		"severity_proxy_numeric":      t(genSeverity),
	}
}

// forestReadStep is ReadData with an optional time argument.
func forestReadStep(handle, role, time, out string) workers.Step {
	s := core.Read(handle, role, out)
	if time != "" {
		s.Args["time"] = time
	}
	return s
}

// forestRecord assembles a record from an AOI's written cards.
func forestRecord(g *core.Gen, qtype string, a *forestAOI, text string, handles map[string]string, chain []workers.Step, answer any) (workers.Record, error) {
	hs := map[string]workers.HandleDecl{}
	for name, group := range handles {
		if len(a.cards[group]) == 0 {
			return workers.Record{}, fmt.Errorf("%s: no %s files written", a.sample, group)
		}
		hs[name] = core.Input(a.cards[group]...)
	}
	return g.Record(qtype, a.sample, text, map[string]any{"event_year": a.spec.year}, hs, chain, answer)
}

// forestEpochSet returns six epochs, or five without one of them.
func forestEpochSet(missing string) []string {
	var out []string
	for _, e := range forestEpochs {
		if e != missing {
			out = append(out, e)
		}
	}
	return out
}

// forestCauseScenario returns the AOI spec and intended cause of one of the
// ordered-proxy-rule scenarios shared by types 1 and 4.
func forestCauseScenario(k, year int) (forestSpec, string) {
	base := forestSpec{
		year: year, epochs: forestEpochSet(""), canopy: 78,
		ndvi: forestPrePost(dfIdx{0.80, 0.82}, dfIdx{0.78, 0.30}), nbr: forestPrePost(dfIdx{0.55, 0.56}, dfIdx{0.53, 0.05}),
		vhPre: -12, vhPost: -14.4, vvPre: -7, vvPost: -8.2,
	}
	noLoss := func(s forestSpec) forestSpec {
		s.lossBlob, s.lossBlock = false, 0
		return s
	}
	switch k {
	case 0: // rule 1: Hansen-confirmed loss under dense canopy
		base.lossBlob = true
		return base, "deforestation"
	case 1: // rule 7 after the lossyear.tif fallback resolving to code-0 no loss
		s := noLoss(base)
		s.annualNoData, s.epochs = true, forestEpochSet("pre_3")
		s.ndvi, s.nbr = forestPrePost(dfIdx{0.78, 0.78}, dfIdx{0.76, 0.76}), forestPrePost(dfIdx{0.5, 0.5}, dfIdx{0.49, 0.49})
		s.vhPost = -12.3
		return s, "no_change"
	case 2: // rule 3: strong unconfirmed optical and SAR signal
		s := noLoss(base)
		s.floatS2, s.cloudy = true, 0.08
		s.ndvi, s.nbr = forestPrePost(dfIdx{0.80, 0.80}, dfIdx{0.45, 0.45}), forestPrePost(dfIdx{0.5, 0.5}, dfIdx{0.3, 0.3})
		s.vhPost = -14.5
		return s, "deforestation"
	case 3: // rule 2: confirmed loss under open canopy
		base.lossBlob, base.canopy = true, 35
		return base, "plantation_harvest"
	case 4: // rule 1 at both boundaries: exactly 0.5 ha and exactly 50%
		base.projected, base.lossBlock, base.canopy50 = true, 50, true
		return base, "deforestation"
	case 5: // 0.49 ha (unconfirmed, optics restricted to it), VH exactly -1.5: rule 6
		base.projected, base.lossBlock, base.exactS1 = true, 49, true
		base.ndvi, base.nbr = forestPrePost(dfIdx{0.8, 0.8}, dfIdx{0.78, 0.4}), forestPrePost(dfIdx{0.5, 0.5}, dfIdx{0.49, 0.3})
		base.vhPre, base.vhPost = -12, -13.5
		return base, "agriculture"
	case 6: // rule 4: low post-event VV
		s := noLoss(base)
		s.ndvi, s.nbr = forestPrePost(dfIdx{0.6, 0.6}, dfIdx{0.55, 0.55}), forestPrePost(dfIdx{0.4, 0.4}, dfIdx{0.36, 0.36})
		s.vhPost, s.vvPost = -13, -17.5
		return s, "water_flood_edge"
	case 7: // VV exactly -16 is not water: rule 5
		s := noLoss(base)
		s.exactS1 = true
		s.ndvi, s.nbr = forestPrePost(dfIdx{0.7, 0.7}, dfIdx{0.55, 0.55}), forestPrePost(dfIdx{0.5, 0.5}, dfIdx{0.2, 0.2})
		s.vhPre, s.vhPost, s.vvPre, s.vvPost = -12, -12.5, -10, -16
		return s, "burn_bare_soil"
	case 8: // rule 1 from the lossyear.tif fallback with event-year codes
		base.lossBlob, base.annualNoData, base.fallbackLoss = true, true, true
		return base, "deforestation"
	default: // rule 5 with a noisy stack
		s := noLoss(base)
		s.floatS2, s.cloudy, s.epochs = true, 0.05, forestEpochSet("post_3")
		s.ndvi, s.nbr = forestPrePost(dfIdx{0.7, 0.7}, dfIdx{0.58, 0.58}), forestPrePost(dfIdx{0.5, 0.5}, dfIdx{0.22, 0.22})
		s.vhPost = -12.8
		return s, "burn_bare_soil"
	}
}

func forestEventYear(i int) int { return 2019 + i%5 }

// causeAOI builds record i's AOI for the cause scenario order[i%len(order)]
// and measures it as the ordered proxy rules see it (spec type 4, applied
// by the worker's ClassifyCause); the arrays must give the scenario's
// cause.
func causeAOI(g *core.Gen, sample string, order []int, i int) (*forestAOI, worker.CauseInputs, string, []string, error) {
	fail := func(err error) (*forestAOI, worker.CauseInputs, string, []string, error) {
		return nil, worker.CauseInputs{}, "", nil, err
	}
	sp, want := forestCauseScenario(order[i%len(order)], forestEventYear(i))
	a, err := buildForestAOI(g, sample, sp, "optical", "sar", "forest")
	if err != nil {
		return fail(err)
	}
	ha, loss, err := a.goldLossHa()
	if err != nil {
		return fail(err)
	}
	in := worker.CauseInputs{HansenLossHa: ha, CanopyPct: float64(a.goldCanopy())}
	in.NDVIDrop, in.NBRDrop = a.goldDrops(loss)
	in.VHDeltadB, in.VVPostdB = a.goldSAR()
	cause, fired, err := worker.ClassifyCause(in)
	if err != nil {
		return fail(fmt.Errorf("%s: %w", sample, err))
	}
	if cause != want {
		return fail(fmt.Errorf("%s: scenario meant %s, arrays give %s", sample, want, cause))
	}
	return a, in, cause, fired, nil
}

var forestLossOrder = []int{0, 1, 2, 3, 4, 5, 6, 7, 8}
var falsePositiveOrder = []int{0, 3, 2, 6, 9, 5, 1, 4, 7, 8}

func forestThreeSourceChain(mode, criterion, rule string, labels any) []workers.Step {
	return []workers.Step{
		forestReadStep("optical_stack_1", "pre_post", "event_window", "scene_1"),
		forestReadStep("sar_stack_1", "pre_post", "event_window", "scene_2"),
		forestReadStep("forest_mask_1", "hansen", "", "scene_3"),
		core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"optical": "scene_1", "sar": "scene_2", "forest": "scene_3"}, "mode": mode}, "work_1"),
		core.Step("CompareSources", map[string]any{"input": "work_1", "signals": "optical_sar_hansen", "criterion": criterion}, "compare_1"),
		core.Step("ClassifyChange", map[string]any{"input": "compare_1", "rule": rule, "labels": labels}, "class_1"),
		core.TaskComplete(),
	}
}

var forestThreeHandles = map[string]string{"optical_stack_1": "optical", "sar_stack_1": "sar", "forest_mask_1": "forest"}

// genForestLossDetection builds a type-1 record.
func genForestLossDetection(g *core.Gen, i int) (workers.Record, error) {
	a, in, cause, fired, err := causeAOI(g, fmt.Sprintf("synth_fld_%03d", i), forestLossOrder, i)
	if err != nil {
		return workers.Record{}, err
	}
	label, mapping := "no_deforestation", worker.RuleLabelNegative
	if cause == "deforestation" {
		label, mapping = "deforestation", worker.RuleLabelPositive
	}
	ans := map[string]any{"label": label, "evidence": map[string]any{
		"hansen_loss_area_ha": in.HansenLossHa, "ndvi_drop": in.NDVIDrop, "rules_fired": append(fired, mapping), "sar_vh_delta_db": in.VHDeltadB}}
	chain := forestThreeSourceChain("forest_change", "forest_loss_support", "forest_loss", map[string]any{"positive": "deforestation", "negative": "no_deforestation"})
	return forestRecord(g, "forest_loss_detection", a,
		fmt.Sprintf("Did real forest loss occur in this AOI in %d? Combine Sentinel-2, Sentinel-1 and Hansen evidence and report the rules that decided.", a.spec.year),
		forestThreeHandles, chain, ans)
}

// genFalsePositive builds a type-4 record.
func genFalsePositive(g *core.Gen, i int) (workers.Record, error) {
	a, in, cause, fired, err := causeAOI(g, fmt.Sprintf("synth_fpr_%03d", i), falsePositiveOrder, i)
	if err != nil {
		return workers.Record{}, err
	}
	ans := map[string]any{"cause": cause, "evidence": map[string]any{
		"hansen_loss_area_ha": in.HansenLossHa, "nbr_drop": in.NBRDrop, "ndvi_drop": in.NDVIDrop, "rules_fired": fired,
		"sar_vh_delta_db": in.VHDeltadB, "sar_vv_post_mean_db": in.VVPostdB, "treecover2000_mean_pct": in.CanopyPct}}
	chain := forestThreeSourceChain("forest_false_positive", "cause_attribution", "false_positive_type", []any{"deforestation", "plantation_harvest", "water_flood_edge", "burn_bare_soil", "agriculture", "no_change"})
	return forestRecord(g, "false_positive_rejection", a,
		fmt.Sprintf("Which operational pattern explains the apparent change in this AOI around %d under the ordered proxy rules?", a.spec.year),
		forestThreeHandles, chain, ans)
}

// genAreaEstimation builds a type-2 record.
func genAreaEstimation(g *core.Gen, i int) (workers.Record, error) {
	year := forestEventYear(i)
	sp := forestSpec{
		year: year, epochs: forestEpochSet(""), canopy: 70,
		ndvi: forestPrePost(dfIdx{0.8, 0.82}, dfIdx{0.77, 0.35}), nbr: forestPrePost(dfIdx{0.5, 0.52}, dfIdx{0.48, 0.1}),
	}
	wantPositive := true
	switch i % 6 {
	case 0:
		sp.lossBlob = true
	case 1: // all-nodata annual mask, fallback resolves to code-0 no loss
		sp.annualNoData, wantPositive = true, false
	case 2: // valid annual mask without loss, five epochs
		sp.epochs, wantPositive = forestEpochSet("post_2"), false
	case 3: // fallback with event-year codes
		sp.lossBlob, sp.annualNoData, sp.fallbackLoss = true, true, true
	case 4:
		sp.projected, sp.lossBlock = true, 137
	case 5: // regrowth inside the loss region: negative drops
		sp.lossBlob, sp.floatS2, sp.cloudy = true, true, 0.06
		sp.ndvi, sp.nbr = forestPrePost(dfIdx{0.7, 0.5}, dfIdx{0.7, 0.7}), forestPrePost(dfIdx{0.4, 0.3}, dfIdx{0.4, 0.45})
	}
	a, err := buildForestAOI(g, fmt.Sprintf("synth_area_%03d", i), sp, "forest", "optical")
	if err != nil {
		return workers.Record{}, err
	}
	ha, loss, err := a.goldLossHa()
	if err != nil {
		return workers.Record{}, err
	}
	if (ha > 0) != wantPositive {
		return workers.Record{}, fmt.Errorf("%s: area %v ha, scenario wanted positive=%v", a.sample, ha, wantPositive)
	}
	nd, nb := a.goldDrops(loss)
	ans := map[string]any{"loss_area_ha": ha, "evidence": map[string]any{"hansen_loss_area_ha": ha, "ndvi_drop": nd, "nbr_drop": nb}}
	chain := []workers.Step{
		forestReadStep("forest_mask_1", "hansen", "", "scene_1"),
		forestReadStep("optical_stack_1", "pre_post", "event_window", "scene_2"),
		core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"forest": "scene_1", "optical": "scene_2"}, "mode": "forest_change"}, "work_1"),
		core.Step("ExtractObjects", map[string]any{"input": "work_1", "target": "forest_loss_patches", "filters": map[string]any{"event_year": year}}, "objects_1"),
		core.Step("MeasureArea", map[string]any{"input": "objects_1", "target": "forest_loss", "unit": "hectares"}, "area_1"),
		core.Step("CompareSources", map[string]any{"input": "work_1", "signals": "ndvi_nbr_vs_hansen", "criterion": "validation"}, "compare_1"),
		core.TaskComplete(),
	}
	return forestRecord(g, "area_estimation", a,
		fmt.Sprintf("How many hectares of Hansen forest loss occurred in this AOI in %d, and what NDVI/NBR change does Sentinel-2 show over that region?", year),
		map[string]string{"forest_mask_1": "forest", "optical_stack_1": "optical"}, chain, ans)
}

// forestSeq builds per-epoch targets from six background NDVI values (NBR
// follows nbrOff below NDVI); loss-region pixels use lossPost after the
// event.
func forestSeq(bg [6]float64, nbrOff, lossPost float64, sameLoss bool) (map[string]dfIdx, map[string]dfIdx) {
	nd, nb := map[string]dfIdx{}, map[string]dfIdx{}
	for k, e := range forestEpochs {
		l := bg[k]
		if !sameLoss && k >= 3 {
			l = lossPost
		}
		nd[e] = dfIdx{bg[k], l}
		nb[e] = dfIdx{bg[k] - nbrOff, l - nbrOff}
	}
	return nd, nb
}

// genChangeWindow builds a type-3 record.
func genChangeWindow(g *core.Gen, i int) (workers.Record, error) {
	year := forestEventYear(i)
	sp := forestSpec{year: year, epochs: forestEpochSet(""), canopy: 80, vhPre: -12, vhPost: -13.6, vvPre: -7, vvPost: -7.9, lossBlob: true}
	sp.ndvi, sp.nbr = forestSeq([6]float64{0.80, 0.79, 0.78, 0.60, 0.58, 0.59}, 0.25, 0.25, false)
	wantStart, wantEnd := "pre_1", "post_1"
	confirmed := true
	switch i % 8 {
	case 1: // no Hansen loss: null window
		sp.lossBlob, confirmed = false, false
	case 2: // five epochs without pre_1: the window spans the missing epoch
		sp.epochs, wantStart = forestEpochSet("pre_1"), "pre_2"
	case 3: // post_1 is entirely masked: not eligible
		sp.emptyEpoch, sp.floatS2, wantEnd = "post_1", true, "post_2"
		sp.ndvi, sp.nbr = forestSeq([6]float64{0.80, 0.79, 0.78, 0.60, 0.50, 0.52}, 0.25, 0.2, false)
	case 4: // exact tie between pre_1->post_1 and post_1->post_2: earliest
		sp.exactS2, sp.floatS2 = true, true
		sp.ndvi, sp.nbr = forestSeq([6]float64{0.75, 0.75, 0.75, 0.5, 0.25, 0.25}, 0, 0, true)
	case 5: // exactly 0.5 ha confirms
		sp.lossBlob, sp.projected, sp.lossBlock = false, true, 50
	case 6: // 0.49 ha does not confirm a strong interval
		sp.lossBlob, sp.projected, sp.lossBlock, confirmed = false, true, 49, false
	case 7: // the largest drop is late: post_2 -> post_3
		sp.ndvi, sp.nbr = forestSeq([6]float64{0.80, 0.81, 0.79, 0.74, 0.72, 0.40}, 0.25, 0.2, false)
		wantStart, wantEnd = "post_2", "post_3"
	}
	a, err := buildForestAOI(g, fmt.Sprintf("synth_cwe_%03d", i), sp, "optical", "sar", "forest")
	if err != nil {
		return workers.Record{}, err
	}
	ha, loss, err := a.goldLossHa()
	if err != nil {
		return workers.Record{}, err
	}
	if (ha >= 0.5) != confirmed {
		return workers.Record{}, fmt.Errorf("%s: %v ha, scenario wanted confirmed=%v", a.sample, ha, confirmed)
	}
	nd, _ := a.goldDrops(loss)
	vh, _ := a.goldSAR()
	type ep struct {
		name     string
		ndvi, nb float32
	}
	var el []ep
	for _, e := range forestEpochs {
		if _, ok := a.s2[e]; !ok {
			continue
		}
		n, b := a.goldEpoch(e, nil)
		if !math.IsNaN(float64(n)) && !math.IsNaN(float64(b)) {
			el = append(el, ep{e, n, b})
		}
	}
	ev := map[string]any{"hansen_loss_area_ha": ha, "ndvi_drop": nd, "sar_vh_delta_db": vh,
		"selected_window_ndvi_drop": nil, "selected_window_nbr_drop": nil, "composite_drop_score": nil}
	ans := map[string]any{"label": "no_deforestation", "change_window": nil, "evidence": ev}
	if confirmed {
		best := -1
		var bs float64
		var bnd, bnb float64
		for k := 0; k+1 < len(el); k++ {
			dn, db := float64(el[k].ndvi)-float64(el[k+1].ndvi), float64(el[k].nb)-float64(el[k+1].nb)
			s := dn + float64(0.5*db)
			if best < 0 || s > bs {
				best, bs, bnd, bnb = k, s, dn, db
			}
		}
		if best < 0 {
			return workers.Record{}, fmt.Errorf("%s: confirmed loss without two eligible epochs", a.sample)
		}
		if el[best].name != wantStart || el[best+1].name != wantEnd {
			return workers.Record{}, fmt.Errorf("%s: window %s->%s, scenario wanted %s->%s", a.sample, el[best].name, el[best+1].name, wantStart, wantEnd)
		}
		ans["label"] = "deforestation"
		ans["change_window"] = map[string]any{"start_epoch": el[best].name, "end_epoch": el[best+1].name}
		ev["selected_window_ndvi_drop"], ev["selected_window_nbr_drop"], ev["composite_drop_score"] = bnd, bnb, bs
	}
	chain := []workers.Step{
		forestReadStep("optical_timeseries_1", "ndvi_nbr", "pre_post_epochs", "scene_1"),
		forestReadStep("sar_timeseries_1", "vh", "pre_post_epochs", "scene_2"),
		forestReadStep("forest_mask_1", "hansen", "", "scene_3"),
		core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"optical": "scene_1", "sar": "scene_2", "forest": "scene_3"}, "mode": "forest_timeseries"}, "work_1"),
		core.Step("DetectChange", map[string]any{"input": "work_1", "change": "dominant_clearing_interval", "window": "pre_post_epochs"}, "change_1"),
		core.Step("ClassifyChange", map[string]any{"input": "change_1", "rule": "change_window", "labels": map[string]any{"none": nil, "changed": "start_epoch_to_end_epoch"}}, "class_1"),
		core.TaskComplete(),
	}
	return forestRecord(g, "change_window_estimation", a,
		fmt.Sprintf("Between which adjacent available Sentinel-2 epochs did the dominant clearing occur around %d, if Hansen confirms event-year loss? Report the whole-period NDVI and SAR context too.", year),
		map[string]string{"optical_timeseries_1": "optical", "sar_timeseries_1": "sar", "forest_mask_1": "forest"}, chain, ans)
}

// genLossAttribution builds a type-6 record.
func genLossAttribution(g *core.Gen, i int) (workers.Record, error) {
	sp := forestSpec{year: forestEventYear(i), canopy: 70}
	wantNoLoss := false
	switch i % 6 {
	case 0:
		sp.otherYears = []int{2005, 2012, 2019}
	case 1: // only codes 0 and 24: no_loss
		sp.otherYears, wantNoLoss = []int{2024}, true
	case 2: // exact tie between 2010 and 2016: earliest
		sp.tieYears = [2]int{2010, 2016}
	case 3:
		sp.projected, sp.otherYears = true, []int{2003, 2021}
	case 4: // a large 2025 area lies outside the window
		sp.otherYears = []int{2025, 2015}
	default:
		sp.otherYears = []int{2001, 2008, 2013, 2017, 2023}
	}
	a, err := buildForestAOI(g, fmt.Sprintf("synth_myl_%03d", i), sp, "history")
	if err != nil {
		return workers.Record{}, err
	}
	bestYear, bestHa := 0, 0.0
	for c := 1; c <= 23; c++ {
		ha, err := a.areaHa(func(k int) bool { return a.lossyear[k] == float32(c) })
		if err != nil {
			return workers.Record{}, err
		}
		if ha > bestHa {
			bestYear, bestHa = 2000+c, ha
		}
	}
	var ans map[string]any
	if bestYear == 0 {
		ans = map[string]any{"year": "no_loss", "loss_ha": 0.0}
	} else {
		ans = map[string]any{"year": bestYear, "loss_ha": bestHa}
	}
	if (bestYear == 0) != wantNoLoss || (sp.tieYears[0] != 0 && bestYear != sp.tieYears[0]) {
		return workers.Record{}, fmt.Errorf("%s: winner %d does not fit the scenario", a.sample, bestYear)
	}
	chain := []workers.Step{
		forestReadStep("forest_loss_history_1", "hansen", "2001_2023", "scene_1"),
		core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"loss_history": "scene_1"}, "mode": "forest_loss_history"}, "work_1"),
		core.Step("ComputeStats", map[string]any{"input": "work_1", "metrics": map[string]any{"loss_area_ha_by_year": true}, "region": "aoi"}, "stats_1"),
		core.Step("DetectChange", map[string]any{"input": "stats_1", "change": "largest_loss_year", "window": "2001_2023"}, "change_1"),
		core.TaskComplete(),
	}
	return forestRecord(g, "multi_year_loss_attribution", a,
		"In which calendar year 2001-2023 did this AOI lose the most Hansen-mapped tree cover, and how many hectares?",
		map[string]string{"forest_loss_history_1": "history"}, chain, ans)
}

// genConcordance builds a type-7 record.
func genConcordance(g *core.Gen, i int) (workers.Record, error) {
	sp := forestSpec{year: forestEventYear(i), epochs: forestEpochSet(""), canopy: 70, vhPre: -12, vvPre: -7, vvPost: -7.5}
	set := func(pre, post, vhPost float64) {
		sp.ndvi, sp.nbr = forestPrePost(dfIdx{pre, pre}, dfIdx{post, post}), forestPrePost(dfIdx{pre - 0.3, pre - 0.3}, dfIdx{post - 0.35, post - 0.35})
		sp.vhPost = vhPost
	}
	var want string
	switch i % 7 {
	case 0:
		set(0.8, 0.55, -14)
		want = "concordant"
	case 1:
		set(0.8, 0.6, -12.4)
		want = "discordant"
	case 2:
		set(0.8, 0.77, -14.2)
		sp.epochs = forestEpochSet("pre_2")
		want = "discordant"
	case 3:
		set(0.8, 0.78, -12.3)
		want = "no_change"
	case 4: // VH exactly -1.0 is not SAR change
		set(0.8, 0.77, -13)
		sp.exactS1 = true
		want = "no_change"
	case 5: // a drop 2^-13 above 0.10 is optical change; VH exactly -1.0 is not SAR change
		sp.exactS2, sp.exactS1, sp.floatS2 = true, true, true
		pre := 0.6 + 1.0/8192
		sp.ndvi, sp.nbr = forestPrePost(dfIdx{pre, pre}, dfIdx{0.5, 0.5}), forestPrePost(dfIdx{pre, pre}, dfIdx{0.5, 0.5})
		sp.vhPost = -13
		want = "discordant"
	default: // dyadic drop 0.125 and VH exactly -1.25
		sp.exactS2, sp.exactS1, sp.floatS2 = true, true, true
		sp.ndvi, sp.nbr = forestPrePost(dfIdx{0.625, 0.625}, dfIdx{0.5, 0.5}), forestPrePost(dfIdx{0.625, 0.625}, dfIdx{0.5, 0.5})
		sp.vhPost = -13.25
		want = "concordant"
	}
	a, err := buildForestAOI(g, fmt.Sprintf("synth_cmc_%03d", i), sp, "optical", "sar")
	if err != nil {
		return workers.Record{}, err
	}
	nd, nb := a.goldDrops(nil)
	vh, _ := a.goldSAR()
	class, _, _ := worker.ClassifyConcordance(nd, vh)
	if class != want {
		return workers.Record{}, fmt.Errorf("%s: scenario meant %s, arrays give %s (ndvi %v, vh %v)", a.sample, want, class, nd, vh)
	}
	ans := map[string]any{"concordance": class, "evidence": map[string]any{"nbr_drop": nb, "ndvi_drop": nd, "vh_delta_db": vh}}
	chain := []workers.Step{
		forestReadStep("optical_stack_1", "pre_post", "event_window", "scene_1"),
		forestReadStep("sar_stack_1", "pre_post", "event_window", "scene_2"),
		core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"optical": "scene_1", "sar": "scene_2"}, "mode": "forest_cross_modal"}, "work_1"),
		core.Step("CompareSources", map[string]any{"input": "work_1", "signals": "ndvi_nbr_vs_vh", "criterion": "concordance"}, "compare_1"),
		core.Step("ClassifyChange", map[string]any{"input": "compare_1", "rule": "concordance", "labels": []any{"concordant", "discordant", "no_change"}}, "class_1"),
		core.TaskComplete(),
	}
	return forestRecord(g, "cross_modal_concordance", a,
		"Do whole-AOI Sentinel-2 vegetation change and Sentinel-1 VH backscatter change agree for this AOI?",
		map[string]string{"optical_stack_1": "optical", "sar_stack_1": "sar"}, chain, ans)
}

// genSeverity builds a type-8 record.
func genSeverity(g *core.Gen, i int) (workers.Record, error) {
	sp := forestSpec{year: forestEventYear(i), canopy: 70, vhPre: -12.5, vvPre: -7, vvPost: -7.2}
	var want string
	switch i % 7 {
	case 0:
		sp.vhPost, want = -16.6, "severe"
	case 1:
		sp.vhPost, want = -14.5, "moderate"
	case 2:
		sp.vhPost, want = -13.0, "mild"
	case 3:
		sp.vhPost, want = -11.8, "none"
	case 4: // exactly -3: moderate
		sp.vhPost, sp.exactS1, want = -15.5, true, "moderate"
	case 5: // exactly -1: mild
		sp.vhPost, sp.exactS1, want = -13.5, true, "mild"
	default: // exactly 0: none
		sp.vhPost, sp.exactS1, want = -12.5, true, "none"
	}
	a, err := buildForestAOI(g, fmt.Sprintf("synth_spn_%03d", i), sp, "sar")
	if err != nil {
		return workers.Record{}, err
	}
	vh, _ := a.goldSAR()
	d := vh
	sev := worker.VHSeverity(d)
	if sev != want {
		return workers.Record{}, fmt.Errorf("%s: scenario meant %s, arrays give %s (%v dB)", a.sample, want, sev, d)
	}
	chain := []workers.Step{
		forestReadStep("sar_stack_1", "pre_post", "event_window", "scene_1"),
		core.Step("PrepareScene", map[string]any{"inputs": map[string]any{"sar": "scene_1"}, "mode": "sar_change"}, "work_1"),
		core.Step("ComputeStats", map[string]any{"input": "work_1", "metrics": map[string]any{"vh_delta_db": true}, "region": "aoi"}, "stats_1"),
		core.Step("ScoreHazard", map[string]any{"input": "stats_1", "hazard": "forest_disturbance", "scale": "vh_delta_severity"}, "score_1"),
		core.TaskComplete(),
	}
	return forestRecord(g, "severity_proxy_numeric", a,
		"What is the whole-AOI Sentinel-1 VH change (post minus pre, dB) and its severity bucket?",
		map[string]string{"sar_stack_1": "sar"}, chain, map[string]any{"vh_delta_db": d, "severity": sev})
}
