package multihazard

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/conformance/synth/internal/synthtest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"
)

// mhTypeIDs are the 20 multi-hazard question types.
var mhTypeIDs = func() []string {
	var out []string
	for _, h := range []string{"wildfire", "hazard_deforestation", "urban_expansion", "drought", "air_pollution"} {
		for _, s := range []string{"a", "b", "c", "d"} {
			out = append(out, h+"_"+s)
		}
	}
	return out
}()

// mhCorpus generates n records of each multi-hazard type in a fresh
// directory (tests that rewrite files get their own copy).
func mhCorpus(t *testing.T, n int, types ...string) (string, map[string]workers.Record, *runtime.Engine) {
	t.Helper()
	if len(types) == 0 {
		types = mhTypeIDs
	}
	dir, recs, eng := synthtest.Generate(t, Types(), core.Options{Types: types, PerType: n, Seed: 3})
	by := map[string]workers.Record{}
	for _, r := range recs {
		if _, ok := by[r.QuestionType]; !ok {
			by[r.QuestionType] = r
		}
	}
	return dir, by, eng
}

// copyArgs deep-copies call arguments through JSON.
func copyArgs(t *testing.T, a map[string]any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(a)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// runMutated replays rec's chain and returns the error of the first call
// of tool, whose arguments mutate alters; earlier calls must succeed.
func runMutated(t *testing.T, eng *runtime.Engine, rec workers.Record, tool string, mutate func(map[string]any)) error {
	t.Helper()
	s, err := eng.NewSession(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, st := range rec.GTChain {
		args := copyArgs(t, st.Args)
		if st.Tool == tool {
			mutate(args)
			_, err := s.Call(context.Background(), st.Tool, args)
			return err
		}
		if _, err := s.Call(context.Background(), st.Tool, args); err != nil {
			t.Fatalf("%s: unmutated step %s failed: %v", rec.ID, st.Tool, err)
		}
	}
	t.Fatalf("%s: no %s step", rec.ID, tool)
	return nil
}

type mhMutation struct {
	name, tool string
	mutate     func(map[string]any)
	want       string
}

func set(k string, v any) func(map[string]any) { return func(a map[string]any) { a[k] = v } }

// otherMetric maps each A type to another hazard's valid metric.
var otherMetric = map[string]string{
	"wildfire_a": "forest_loss", "hazard_deforestation_a": "built_up_gain", "urban_expansion_a": "burned_area",
	"drought_a": "peak_no2_column", "air_pollution_a": "ndvi_z_score",
}

// shapeMutations are the adversarial argument and causal-input mutations
// of a task shape, each with the reason it must be rejected for.
func shapeMutations(qt string) []mhMutation {
	hz := map[string]string{"wildfire": "wildfire", "hazard": "deforestation", "urban": "urban_expansion", "drought": "drought", "air": "air_pollution"}[strings.SplitN(qt, "_", 2)[0]]
	other := map[string]string{"wildfire": "drought", "deforestation": "wildfire", "urban_expansion": "deforestation", "drought": "urban_expansion", "air_pollution": "wildfire"}[hz]
	common := []mhMutation{
		{"question as input handle", "ReadData", set("handle", "question_1"), "opens declared input handles"},
		{"another hazard's role", "ReadData", set("role", other), "is not a " + other + " source"},
		{"exposure role on the hazard handle", "ReadData", func(a map[string]any) { a["role"] = "exposure"; delete(a, "time") }, "role exposure does not apply to handle hazard_stack_1"},
		{"unknown ReadData option", "ReadData", set("window", "2020"), "unknown argument"},
		{"invented time", "ReadData", set("time", "baseline"), "unsupported value"},
	}
	switch qt[len(qt)-1] {
	case 'a':
		return append(common,
			mhMutation{"scene instead of work", "ComputeStats", set("input", "scene_1"), "requires a work"},
			mhMutation{"declared input instead of work", "ComputeStats", set("input", "hazard_stack_1"), "declared input handle"},
			mhMutation{"cross-domain metric", "ComputeStats", set("metrics", map[string]any{otherMetric[qt]: true}), "needs a work context of mode"},
			mhMutation{"invented metric", "ComputeStats", set("metrics", map[string]any{"severity": true}), "unsupported value"},
			mhMutation{"wrong region", "ComputeStats", set("region", "bbox"), "unsupported value"},
			mhMutation{"unknown argument", "ComputeStats", set("threshold", 0.5), "unknown argument"},
			mhMutation{"wrong mode", "PrepareScene", set("mode", "multisource_hazard"), "requires slot"},
		)
	case 'b':
		ms := append(common,
			mhMutation{"scene instead of work", "ScoreHazard", set("input", "scene_1"), "requires a work"},
			mhMutation{"D-task scale", "ScoreHazard", set("scale", "impact_footprint"), "needs a work context of mode"},
			mhMutation{"invented scale", "ScoreHazard", set("scale", "severity_index"), "unsupported value"},
			mhMutation{"unknown argument", "ScoreHazard", set("bins", 4), "unknown argument"},
		)
		if hz != "air_pollution" {
			ms = append(ms, mhMutation{"another hazard", "ScoreHazard", set("hazard", other), "needs a work context of mode"})
		} else {
			ms = append(ms, mhMutation{"another hazard", "ScoreHazard", set("hazard", "drought"), "unsupported value"})
		}
		return ms
	case 'c':
		ms := append(common,
			mhMutation{"scene instead of work", "CompareSources", set("input", "scene_2"), "requires a work"},
			mhMutation{"unknown argument", "CompareSources", set("weights", "equal"), "unknown argument"},
			mhMutation{"same scene in both slots", "PrepareScene", set("inputs", map[string]any{"hazard": "scene_2", "sources": "scene_2"}), "bind the same scene"},
			mhMutation{"missing sources slot", "PrepareScene", set("inputs", map[string]any{"hazard": "scene_1"}), "requires slot"},
		)
		switch hz {
		case "drought":
			ms = append(ms,
				mhMutation{"threshold", "CompareSources", set("minimum_iou", 0.25), "declared limit"},
				mhMutation{"non-train fit", "CompareSources", set("normalization_fit_split", "all"), "unsupported value"},
				mhMutation{"threshold contract", "CompareSources", set("threshold_contract", "per_source_q50"), "unsupported value"})
		case "air_pollution":
			ms = append(ms,
				mhMutation{"threshold", "CompareSources", set("required_agreement_fraction", 0.67), "declared requirement"},
				mhMutation{"non-train fit", "CompareSources", set("normalization_fit_split", "test"), "unsupported value"})
		default:
			key, swap := "criterion", "metric"
			if hz == "deforestation" {
				key, swap = "metric", "criterion"
			}
			ms = append(ms,
				mhMutation{"threshold", "CompareSources", set("maximum_median_pct_delta", 50.0), "declares a"},
				mhMutation{"other key", "CompareSources", func(a map[string]any) { delete(a, key); a[swap] = "area_agreement" }, "declares area_agreement through " + key},
				mhMutation{"iou criterion on area sources", "CompareSources", func(a map[string]any) {
					delete(a, key)
					delete(a, "maximum_median_pct_delta")
					a["criterion"], a["minimum_iou"], a["threshold_contract"], a["normalization_fit_split"] = "iou", 0.3, "per_source_train_pixel_q25_v1", "train"
				}, map[bool]string{true: "needs a work context of mode multisource_hazard", false: "iou agreement is declared for drought sources"}[hz == "deforestation"]})
		}
		return ms
	default:
		exp := map[string]string{"wildfire": "nearest_highway", "deforestation": "schools", "urban_expansion": "high_no2_column_population",
			"drought": "population_in_footprint", "air_pollution": "schools"}[hz]
		return append(common,
			mhMutation{"work instead of score", "EstimateExposure", set("input", "work_1"), "requires a score"},
			mhMutation{"another domain's exposure", "EstimateExposure", func(a map[string]any) { delete(a, "within_km"); a["exposure"] = exp }, "is declared for the"},
			mhMutation{"radius", "EstimateExposure", set("within_km", 4.0), "declared context radius"},
			mhMutation{"invented exposure", "EstimateExposure", set("exposure", "roads_length"), "unsupported value"},
			mhMutation{"hazard mismatch", "ScoreHazard", set("hazard", other), "does not match"},
			mhMutation{"B-task scale", "ScoreHazard", func(a map[string]any) {
				a["hazard"], a["scale"] = hz, "question_defined_class"
				if hz == "air_pollution" {
					a["scale"] = "benchmark_relative_column_quartile"
				}
			}, "needs a work context of mode"},
			mhMutation{"scene instead of work", "ScoreHazard", set("input", "scene_1"), "requires a work"},
			mhMutation{"missing exposure slot", "PrepareScene", set("inputs", map[string]any{"hazard": "scene_1"}), "requires slot"},
		)
	}
}

func TestMultiHazardMutationsRejected(t *testing.T) {
	_, recs, eng := mhCorpus(t, 1)
	total := 0
	perShape := map[string]int{}
	for _, qt := range mhTypeIDs {
		rec, ok := recs[qt]
		if !ok {
			t.Fatalf("no %s record", qt)
		}
		if res := eng.ReplayRecord(context.Background(), rec); res.Status != "ok" || !res.Correct {
			t.Errorf("%s: unmutated replay %s: %v %s", qt, res.Status, res.Error, res.Reason)
		}
		for _, m := range shapeMutations(qt) {
			total++
			perShape[qt[len(qt)-1:]]++
			err := runMutated(t, eng, rec, m.tool, m.mutate)
			if err == nil {
				t.Errorf("%s: %s (%s) accepted", qt, m.name, m.tool)
			} else if !strings.Contains(err.Error(), m.want) {
				t.Errorf("%s: %s (%s) rejected for another reason: %v (want %q)", qt, m.name, m.tool, err, m.want)
			}
		}
	}
	for _, shape := range []string{"a", "b", "c", "d"} {
		// The spec reports 40-43 adversarial probes per task shape.
		if perShape[shape] < 40 {
			t.Errorf("shape %s has only %d mutations", shape, perShape[shape])
		}
	}
	t.Logf("%d mutations rejected (per shape %v)", total, perShape)
}

// rewrite replaces a declared file and updates every file card (and, for a
// raster, its sidecar's sha256 when keepSidecar is false).
func rewrite(t *testing.T, dir string, rec *workers.Record, rel string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, rel), data, 0o644); err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(data)
	for name, h := range rec.Handles {
		for i := range h.Files {
			if h.Files[i].Path == rel {
				h.Files[i].SHA256 = hex.EncodeToString(s[:])
			}
		}
		rec.Handles[name] = h
	}
}

// rewriteRaster edits a declared GeoTIFF's first band (and optionally its
// transform), then refreshes its sidecar's sha256 and the file cards.
func rewriteRaster(t *testing.T, dir string, rec *workers.Record, rel string, edit func(b *raster.Band), shiftX float64) {
	t.Helper()
	ds, err := raster.Open(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ds.ReadBand(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := ds.Transform()
	opts := raster.WriteOptions{EPSG: ds.EPSG(), Transform: tr}
	if nd, ok := ds.NoData(); ok {
		opts.NoData = &nd
	}
	ds.Close()
	edit(b)
	opts.Transform[2] += shiftX
	data := workertest.EncodeTIFF(t, []*raster.Band{b}, opts)
	rewrite(t, dir, rec, rel, data)
	side := strings.TrimSuffix(rel, ".tif") + ".json"
	raw, err := os.ReadFile(filepath.Join(dir, side))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	s := sha256.Sum256(data)
	m["sha256"] = hex.EncodeToString(s[:])
	nb, _ := json.Marshal(m)
	rewrite(t, dir, rec, side, nb)
}

// editJSON rewrites a declared JSON file through edit.
func editJSON(t *testing.T, dir string, rec *workers.Record, rel string, edit func(m map[string]any)) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	nb, _ := json.Marshal(m)
	rewrite(t, dir, rec, rel, nb)
}

// declared returns the path of rec's declared file ending with suffix.
func declared(t *testing.T, rec workers.Record, suffix string) string {
	t.Helper()
	for _, h := range rec.Handles {
		for _, f := range h.Files {
			if strings.HasSuffix(f.Path, suffix) {
				return f.Path
			}
		}
	}
	t.Fatalf("%s declares no %s", rec.ID, suffix)
	return ""
}

func TestMultiHazardFileMutationsRejected(t *testing.T) {
	cases := []struct {
		name, qt string
		apply    func(t *testing.T, dir string, rec *workers.Record)
		want     string
	}{
		{"missing declared file", "drought_d", func(t *testing.T, dir string, rec *workers.Record) {
			if err := os.Remove(filepath.Join(dir, declared(t, *rec, "worldpop__2020.tif"))); err != nil {
				t.Fatal(err)
			}
		}, "worldpop__2020.tif"},
		{"sidecar checksum mismatch", "wildfire_a", func(t *testing.T, dir string, rec *workers.Record) {
			editJSON(t, dir, rec, declared(t, *rec, "mcd64a1__event.json"), func(m map[string]any) { m["sha256"] = strings.Repeat("0", 64) })
		}, "does not match its sidecar"},
		{"sidecar shape mismatch", "urban_expansion_b", func(t *testing.T, dir string, rec *workers.Record) {
			editJSON(t, dir, rec, declared(t, *rec, "ndbi_change.json"), func(m map[string]any) { m["shape"] = []int{3, 3} })
		}, "declares shape"},
		{"non-binary mask", "hazard_deforestation_a", func(t *testing.T, dir string, rec *workers.Record) {
			rewriteRaster(t, dir, rec, declared(t, *rec, "hansen_loss__event.tif"), func(b *raster.Band) { b.Set(0, 3) }, 0)
		}, "binary mask holds only 0 and 1"},
		{"RADD code out of range", "hazard_deforestation_c", func(t *testing.T, dir string, rec *workers.Record) {
			rewriteRaster(t, dir, rec, declared(t, *rec, "radd_alerts__event.tif"), func(b *raster.Band) { b.Set(0, 3) }, 0)
		}, "allowed codes are 0..2"},
		{"grid mismatch", "urban_expansion_c", func(t *testing.T, dir string, rec *workers.Record) {
			rewriteRaster(t, dir, rec, declared(t, *rec, "ghsl_built_gain.tif"), func(*raster.Band) {}, 0.0045)
		}, "grid mismatch"},
		{"co-registration of the class mask", "wildfire_b", func(t *testing.T, dir string, rec *workers.Record) {
			rewriteRaster(t, dir, rec, declared(t, *rec, "dnbr.tif"), func(*raster.Band) {}, -0.0045)
		}, "grid mismatch"},
		{"WorldPop off-grid", "urban_expansion_d", func(t *testing.T, dir string, rec *workers.Record) {
			rewriteRaster(t, dir, rec, declared(t, *rec, "worldpop__2020.tif"), func(*raster.Band) {}, 0.0045)
		}, "grid mismatch"},
		{"negative population", "air_pollution_d", func(t *testing.T, dir string, rec *workers.Record) {
			rewriteRaster(t, dir, rec, declared(t, *rec, "worldpop__2020.tif"), func(b *raster.Band) { b.Set(5, -1) }, 0)
		}, "negative population"},
		{"all-invalid raster", "air_pollution_a", func(t *testing.T, dir string, rec *workers.Record) {
			rewriteRaster(t, dir, rec, declared(t, *rec, "s5p_no2__peak.tif"), func(b *raster.Band) {
				for i := 0; i < b.Len(); i++ {
					b.Set(i, nan())
				}
			}, 0)
		}, "no finite valid pixels"},
		{"NDVI out of range", "drought_a", func(t *testing.T, dir string, rec *workers.Record) {
			rewriteRaster(t, dir, rec, declared(t, *rec, "modis_ndvi__target.tif"), func(b *raster.Band) { b.Set(1, 1.5) }, 0)
		}, "outside [-1, 1]"},
		{"baseline without target row", "drought_a", func(t *testing.T, dir string, rec *workers.Record) {
			rewrite(t, dir, rec, declared(t, *rec, "modis_ndvi_anomaly.csv"), []byte("date,role,mean_ndvi\n2015-07-15,baseline,0.5\n2016-07-15,baseline,0.6\n"))
		}, "exactly one dated target marker"},
		{"constant baseline", "drought_a", func(t *testing.T, dir string, rec *workers.Record) {
			rewrite(t, dir, rec, declared(t, *rec, "modis_ndvi_anomaly.csv"), []byte("date,role,mean_ndvi\n2015-07-15,baseline,0.5\n2016-07-15,baseline,0.5\n2022-07-15,target,0.4\n"))
		}, "not finite and positive"},
		{"normalization fitted on all splits", "drought_b", func(t *testing.T, dir string, rec *workers.Record) {
			editJSON(t, dir, rec, declared(t, *rec, "drought_normalization.json"), func(m map[string]any) { m["fit_split"] = "all" })
		}, "train-only"},
		{"normalization leakage", "air_pollution_c", func(t *testing.T, dir string, rec *workers.Record) {
			editJSON(t, dir, rec, declared(t, *rec, "normalization.json"), func(m map[string]any) {
				m["fit_aois"] = append(m["fit_aois"].([]any), rec.SampleID)
			})
		}, "leakage"},
		{"footprint without threshold provenance", "air_pollution_d", func(t *testing.T, dir string, rec *workers.Record) {
			editJSON(t, dir, rec, declared(t, *rec, "high_no2_column.json"), func(m map[string]any) { delete(m, "threshold_contract") })
		}, "threshold_contract"},
		{"empty wildfire footprint", "wildfire_d", func(t *testing.T, dir string, rec *workers.Record) {
			rewriteRaster(t, dir, rec, declared(t, *rec, "mcd64a1__event.tif"), func(b *raster.Band) {
				for i := 0; i < b.Len(); i++ {
					if b.At(i) == 1 {
						b.Set(i, 0)
					}
				}
			}, 0)
		}, "footprint is empty"},
		{"OSM feature without geometry", "wildfire_d", func(t *testing.T, dir string, rec *workers.Record) {
			editJSON(t, dir, rec, declared(t, *rec, "pois.geojson"), func(m map[string]any) {
				m["features"].([]any)[0].(map[string]any)["geometry"] = nil
			})
		}, "has no geometry"},
		{"OSM polygon with a two-point ring", "wildfire_d", func(t *testing.T, dir string, rec *workers.Record) {
			editJSON(t, dir, rec, declared(t, *rec, "pois.geojson"), func(m map[string]any) {
				f := m["features"].([]any)[0].(map[string]any)
				f["geometry"] = map[string]any{"type": "Polygon", "coordinates": [][][]float64{{{0, 0}, {1, 1}, {0, 0}}}}
			})
		}, "a polygon ring has 3 positions"},
		{"hazard handle without inventory", "urban_expansion_a", func(t *testing.T, dir string, rec *workers.Record) {
			workertest.DropFiles(rec, "hazard_stack_1", func(f workers.FileCard) bool { return strings.HasSuffix(f.Path, "available_handles.json") })
		}, "declares no available_handles.json"},
		{"raster missing from inventory", "air_pollution_b", func(t *testing.T, dir string, rec *workers.Record) {
			editJSON(t, dir, rec, declared(t, *rec, "available_handles.json"), func(m map[string]any) { m["handles"] = []string{"cams_no2__peak"} })
		}, "is not in the handle inventory"},
		{"WorldPop missing from inventory", "drought_d", func(t *testing.T, dir string, rec *workers.Record) {
			editJSON(t, dir, rec, declared(t, *rec, "available_handles.json"), func(m map[string]any) { m["handles"] = []string{"low_chirps_spi"} })
		}, "not in the hazard handle inventory"},
	}
	for _, c := range cases {
		dir, recs, eng := mhCorpus(t, 1, c.qt) // a fresh copy: cases rewrite files
		cp := recs[c.qt]
		c.apply(t, dir, &cp)
		res := eng.ReplayRecord(context.Background(), cp)
		if res.Status == "ok" {
			t.Errorf("%s (%s): accepted", c.name, c.qt)
		} else if res.Error == nil || !strings.Contains(*res.Error, c.want) {
			t.Errorf("%s (%s): rejected for another reason: %v (want %q)", c.name, c.qt, deref(res.Error), c.want)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func nan() float64 { var z float64; return z / z }

// TestMultiHazardPublishesOnlyAfterTaskComplete checks that every type's
// answer is published by TaskComplete, not earlier, and that Terminate
// resolves it to the gold answer.
func TestMultiHazardPublishesOnlyAfterTaskComplete(t *testing.T) {
	_, recs, eng := mhCorpus(t, 1)
	for _, qt := range mhTypeIDs {
		rec := recs[qt]
		s, err := eng.NewSession(rec)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range rec.GTChain {
			res, err := s.Call(context.Background(), st.Tool, copyArgs(t, st.Args))
			if err != nil {
				t.Fatalf("%s: %s: %v", qt, st.Tool, err)
			}
			if st.Tool != "TaskComplete" && res.Published != "" {
				t.Errorf("%s: %s published %s before TaskComplete", qt, st.Tool, res.Published)
			}
			if st.Tool == "TaskComplete" && res.Published != runtime.AnswerRef {
				t.Errorf("%s: TaskComplete did not publish the answer", qt)
			}
		}
		res, err := s.Call(context.Background(), "Terminate", map[string]any{"answer_ref": runtime.AnswerRef})
		if err != nil {
			t.Fatalf("%s: Terminate: %v", qt, err)
		}
		var got, want any
		_ = json.Unmarshal(res.Answer, &got)
		_ = json.Unmarshal(rec.Answer, &want)
		gb, _ := json.Marshal(got)
		wb, _ := json.Marshal(want)
		if !bytes.Equal(gb, wb) {
			t.Errorf("%s: resolved answer differs from gold\n got  %s\n want %s", qt, gb, wb)
		}
		s.Close()
	}
}
