package runtime_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/internal/synthtest"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"
)

var forestTypes = []string{
	"forest_loss_detection", "area_estimation", "change_window_estimation", "false_positive_rejection",
	"multi_year_loss_attribution", "cross_modal_concordance", "severity_proxy_numeric",
}

// forestCorpus synthesizes the deforestation types once per test.
func forestCorpus(t *testing.T) (string, map[string]workers.Record) {
	t.Helper()
	dir, recs := synthtest.Corpus(t, synth.Options{Types: forestTypes, PerType: 4, Seed: 11})
	return dir, synthtest.ByID(recs)
}

// rewriteRaster replaces a declared single-band raster with one of the same
// grid whose every sample is v, updating the file card.
func rewriteRaster(t *testing.T, dir string, r *workers.Record, handle, suffix string, v float64) {
	t.Helper()
	files := r.Handles[handle].Files
	for k := range files {
		if !strings.HasSuffix(files[k].Path, suffix) {
			continue
		}
		ds, err := raster.Open(filepath.Join(dir, files[k].Path))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := raster.NewBand(ds.Width(), ds.Height(), raster.Uint8)
		for i := range b.Data.([]uint8) {
			b.Data.([]uint8)[i] = uint8(v)
		}
		tr, _ := ds.Transform()
		nd, _ := ds.NoData()
		data := workertest.EncodeTIFF(t, []*raster.Band{b}, raster.WriteOptions{EPSG: ds.EPSG(), Transform: tr, NoData: &nd})
		ds.Close()
		workertest.WriteFile(t, dir, &files[k], "mutated/"+r.ID+"/"+files[k].Path, data)
		return
	}
	t.Fatalf("%s declares no %s", handle, suffix)
}

// TestDeforestationMutationsRejected mutates the family's chains and files
// and requires each named error for its intended reason.
func TestDeforestationMutationsRejected(t *testing.T) {
	dir, recs := forestCorpus(t)
	eng := newEngine(t, runtime.Config{DatasetRoot: dir})
	setArg := func(step int, k string, v any) func(r *workers.Record) {
		return func(r *workers.Record) { r.GTChain[step].Args[k] = v }
	}
	type mutation struct {
		name, id string
		mutate   func(r *workers.Record)
		want     string
	}
	fld, area, cwe, fpr := "forest_loss_detection__synth_fld_000", "area_estimation__synth_area_000", "change_window_estimation__synth_cwe_003", "false_positive_rejection__synth_fpr_000"
	myl, cmc, spn := "multi_year_loss_attribution__synth_myl_000", "cross_modal_concordance__synth_cmc_000", "severity_proxy_numeric__synth_spn_000"
	muts := []mutation{
		// Causal inputs: each analytical step rejects work_1 or a scene.
		{"type 1 classify work_1", fld, setArg(5, "input", "work_1"), "requires a compare"},
		{"type 3 classify work_1", cwe, setArg(5, "input", "work_1"), "requires a change"},
		{"type 4 classify work_1", fpr, setArg(5, "input", "work_1"), "requires a compare"},
		{"type 7 classify work_1", cmc, setArg(4, "input", "work_1"), "requires a compare"},
		{"type 6 detect on work_1", myl, setArg(3, "input", "work_1"), "requires a stats"},
		{"type 8 score work_1", spn, setArg(3, "input", "work_1"), "requires a stats"},
		{"type 2 measure work_1", area, setArg(4, "input", "work_1"), "requires a objects"},
		{"type 2 extract from scene", area, setArg(3, "input", "scene_1"), "requires a work"},
		{"type 1 compare on a cross-modal work", cmc, func(r *workers.Record) {
			r.GTChain[3].Args["criterion"], r.GTChain[3].Args["signals"] = "forest_loss_support", "optical_sar_hansen"
		}, "needs a work context of mode forest_change"},
		// Unknown arguments and values.
		{"unknown criterion", fld, setArg(4, "criterion", "agreement"), `unsupported value "agreement"`},
		{"wrong signals", fpr, setArg(4, "signals", "ndvi_nbr_vs_vh"), `unsupported value "ndvi_nbr_vs_vh"`},
		{"unknown argument", cmc, setArg(3, "threshold", 0.2), "unknown argument"},
		{"wrong window", myl, setArg(3, "window", "2001_2024"), `unsupported value "2001_2024"`},
		{"wrong scale", spn, setArg(3, "scale", "vh_severity"), `unsupported value "vh_severity"`},
		{"wrong hazard", spn, setArg(3, "hazard", "wildfire"), `unsupported value "wildfire"`},
		{"wrong unit", area, setArg(4, "unit", "acres"), `unsupported value "acres"`},
		{"wrong binary labels", fld, setArg(5, "labels", map[string]any{"positive": "loss", "negative": "no_loss"}), "must be exactly"},
		{"wrong window labels", cwe, setArg(5, "labels", map[string]any{"none": "none", "changed": "start_epoch_to_end_epoch"}), "must be exactly"},
		{"conflicting event year", area, setArg(3, "filters", map[string]any{"event_year": 1999.0}), "conflicting event year"},
		{"extra filter", area, setArg(3, "filters", map[string]any{"event_year": 2019.0, "min_pixels": 3.0}), "must be exactly"},
		{"pre_post time missing", cmc, func(r *workers.Record) { delete(r.GTChain[0].Args, "time") }, "time must be event_window"},
		{"history read without its window", myl, func(r *workers.Record) { delete(r.GTChain[0].Args, "time") }, "time=2001_2023"},
		{"time on the forest mask", fpr, setArg(2, "time", "2001_2023"), "does not apply to forest_mask_1"},
		{"SAR in the optical slot", cmc, setArg(2, "inputs", map[string]any{"optical": "scene_2", "sar": "scene_1"}), `slot "optical" needs a optical scene`},
		{"optical role on the Hansen handle", fpr, setArg(2, "role", "pre_post"), "does not apply to handle"},
		// Source errors.
		{"missing SAR role", spn, func(r *workers.Record) { r.Handles["sar_stack_1"].Files[1].TemporalRole = "" }, "declares no temporal_role"},
		{"empty post SAR group", cmc, func(r *workers.Record) {
			for k := range r.Handles["sar_stack_1"].Files {
				r.Handles["sar_stack_1"].Files[k].TemporalRole = "pre"
			}
		}, "0 post"},
		{"missing NBR band", cmc, func(r *workers.Record) {
			r.Handles["optical_stack_1"].Files[0].BandNames = []string{"B2", "B3", "B4", "B8", "B11", "SWIR2"}
		}, "missing NBR input"},
		{"confirmed loss with one eligible epoch", cwe, func(r *workers.Record) {
			workertest.DropFiles(r, "optical_timeseries_1", func(f workers.FileCard) bool {
				return !strings.HasSuffix(f.Path, "/pre_1.tif") && !strings.HasSuffix(f.Path, "/post_1.tif")
			})
		}, "two are needed"},
		{"missing annual mask file", fld, func(r *workers.Record) {
			f := &r.Handles["forest_mask_1"].Files[0]
			f.Path, f.SHA256 = strings.Replace(f.Path, "masks/", "masks/gone/", 1), ""
		}, "is missing"},
		{"annual mask of another year", fpr, func(r *workers.Record) {
			f := &r.Handles["forest_mask_1"].Files[0]
			b, err := os.ReadFile(filepath.Join(dir, f.Path))
			if err != nil {
				t.Fatal(err)
			}
			f.Path = strings.Replace(f.Path, "loss_year_2019", "loss_year_2018", 1)
			if err := os.WriteFile(filepath.Join(dir, f.Path), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "conflicting event year"},
		{"file checksum drift", spn, func(r *workers.Record) { r.Handles["sar_stack_1"].Files[0].SHA256 = strings.Repeat("1", 64) }, "does not match its file card"},
	}
	var batch []workers.Record
	want := map[string]string{}
	for _, m := range muts {
		r := workertest.CloneRecord(t, recs[m.id])
		if r.ID == "" {
			t.Fatalf("%s: no record %s", m.name, m.id)
		}
		m.mutate(&r)
		r.ID += "__mut__" + strings.ReplaceAll(m.name, " ", "_")
		batch = append(batch, r)
		want[r.ID] = m.want
	}
	// File-content mutations.
	canopy := workertest.CloneRecord(t, recs[fpr])
	rewriteRaster(t, dir, &canopy, "forest_mask_1", "treecover2000.tif", 120)
	canopy.ID += "__mut__canopy_above_100"
	want[canopy.ID] = "outside 0..100"
	history := workertest.CloneRecord(t, recs[myl])
	rewriteRaster(t, dir, &history, "forest_loss_history_1", "lossyear.tif", 255)
	history.ID += "__mut__all_nodata_history"
	want[history.ID] = "all nodata"
	noFallback := workertest.CloneRecord(t, recs[fld])
	rewriteRaster(t, dir, &noFallback, "forest_mask_1", "loss_year_2019.tif", 255)
	h := noFallback.Handles["forest_mask_1"]
	h.Files = append(h.Files[:1], h.Files[2:]...) // drop lossyear.tif
	noFallback.Handles["forest_mask_1"] = h
	noFallback.ID += "__mut__fallback_not_declared"
	want[noFallback.ID] = "fallback is not declared"
	batch = append(batch, canopy, history, noFallback)
	for _, id := range []string{fld, area, cwe, fpr, myl, cmc, spn} {
		batch = append(batch, recs[id])
	}
	results := eng.Replay(context.Background(), batch, runtime.ReplayOptions{Workers: 2})
	checkRejected(t, results, want)
}

// TestDeforestationProjectionTiming checks that each type's answer is
// published only once its final evidence exists, and that type 2 needs
// both parallel branches.
func TestDeforestationProjectionTiming(t *testing.T) {
	dir, recs := forestCorpus(t)
	eng := newEngine(t, runtime.Config{DatasetRoot: dir})
	ctx := context.Background()
	for _, id := range []string{"area_estimation__synth_area_003", "change_window_estimation__synth_cwe_001", "severity_proxy_numeric__synth_spn_002"} {
		rec := recs[id]
		s, err := eng.NewSession(rec)
		if err != nil {
			t.Fatal(err)
		}
		last := len(rec.GTChain) - 2 // the final analytical step
		for k, st := range rec.GTChain {
			out, err := s.Call(ctx, st.Tool, st.Args)
			if err != nil {
				t.Fatalf("%s step %d: %v", id, k, err)
			}
			if k < last && out.Published != "" {
				t.Errorf("%s: published after step %d (%s), before the final evidence", id, k+1, st.Tool)
			}
			if k == last && out.Published != runtime.AnswerRef {
				t.Errorf("%s: not published after %s", id, st.Tool)
			}
		}
		s.Close()
	}
}

// TestOpticalReadReportsMissingEpochs checks that a five-epoch stack is
// read as declared and its missing epoch reported, never probed for.
func TestOpticalReadReportsMissingEpochs(t *testing.T) {
	dir, recs := forestCorpus(t)
	eng := newEngine(t, runtime.Config{DatasetRoot: dir})
	rec := recs["area_estimation__synth_area_002"]
	s, err := eng.NewSession(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out, err := s.Call(context.Background(), "ReadData", rec.GTChain[1].Args)
	if err != nil {
		t.Fatal(err)
	}
	missing, _ := out.Evidence["epochs_missing"].([]any)
	if len(missing) != 1 || missing[0] != "post_2" {
		t.Fatalf("epochs_missing = %v, want [post_2]", out.Evidence["epochs_missing"])
	}
	for _, c := range s.Trace() {
		for _, r := range c.Reads {
			if strings.Contains(r.Path, "post_2") {
				t.Errorf("read undeclared epoch file %s", r.Path)
			}
		}
	}
}
