package runtime_test

import (
	"bytes"
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

// sen1Corpus synthesizes the five Sen1Floods11 types (six records each).
func sen1Corpus(t *testing.T) (string, map[string][]workers.Record) {
	t.Helper()
	types := []string{"sen1_flood_a", "sen1_flood_b", "sen1_flood_c", "sen1_flood_d", "sen1_flood_e"}
	dir, recs := synthtest.Corpus(t, synth.Options{Types: types, Seed: 3})
	return dir, synthtest.ByType(recs)
}

// runSen1 executes a record's chain in a session and returns the index of
// the first failing step (-1 when all succeed) with its error.
func runSen1(t *testing.T, eng *runtime.Engine, rec workers.Record) (*runtime.Session, int, error) {
	t.Helper()
	s, err := eng.NewSession(rec)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range rec.GTChain {
		if _, err := s.Call(context.Background(), st.Tool, st.Args); err != nil {
			return s, i, err
		}
	}
	return s, -1, nil
}

func stepIndex(rec workers.Record, tool string) int {
	for i, s := range rec.GTChain {
		if s.Tool == tool {
			return i
		}
	}
	return -1
}

func TestSen1FloodChainsReplayCorrect(t *testing.T) {
	dir, byType := sen1Corpus(t)
	eng := newEngine(t, runtime.Config{DatasetRoot: dir})
	for typ, recs := range byType {
		for _, rec := range recs {
			res := eng.ReplayRecord(context.Background(), rec)
			if res.Status != "ok" || !res.Correct || len(res.Denials) != 0 {
				t.Errorf("%s %s: status %s correct %v error %v reason %s denials %d", typ, rec.ID, res.Status, res.Correct, res.Error, res.Reason, len(res.Denials))
			}
		}
	}
}

// TestSen1FloodNoAnswerBeforeTaskComplete checks that the projection waits
// for the complete chain.
func TestSen1FloodNoAnswerBeforeTaskComplete(t *testing.T) {
	dir, byType := sen1Corpus(t)
	eng := newEngine(t, runtime.Config{DatasetRoot: dir})
	rec := workertest.CloneRecord(t, byType["sen1_flood_e"][0])
	rec.GTChain = rec.GTChain[:len(rec.GTChain)-1]
	s, fail, err := runSen1(t, eng, rec)
	if fail >= 0 {
		t.Fatalf("step %d: %v", fail, err)
	}
	if _, err := s.Resolve(runtime.AnswerRef); err == nil {
		t.Error("answer published before TaskComplete")
	}
}

func TestSen1FloodMutationsRejected(t *testing.T) {
	dir, byType := sen1Corpus(t)
	eng := newEngine(t, runtime.Config{DatasetRoot: dir})
	type mutation struct {
		name  string
		typ   string
		k     int // record index within the type
		tool  string
		apply func(args map[string]any)
		want  string
	}
	set := func(k string, v any) func(map[string]any) { return func(a map[string]any) { a[k] = v } }
	muts := []mutation{
		{"components from the bare mask", "sen1_flood_a", 0, "DescribeFlood", set("input", "flood_1"), "needs objects_n"},
		{"objects from the work handle", "sen1_flood_a", 0, "ExtractObjects", set("input", "work_1"), "requires a flood"},
		{"unknown method", "sen1_flood_a", 0, "MapFlood", set("method", "otsu_vv_only"), "unsupported value"},
		{"unknown argument", "sen1_flood_a", 0, "MapFlood", set("threshold", -18.0), "unknown argument"},
		{"unknown target", "sen1_flood_b", 0, "ExtractObjects", set("target", "flood_blobs"), "unsupported value"},
		{"unsupported metric set", "sen1_flood_a", 0, "DescribeFlood", set("metrics", map[string]any{"flood_percentage": true}), "unsupported value"},
		{"top_k 5", "sen1_flood_c", 0, "RankRegions", set("top_k", 5.0), "allowed: 3"},
		{"ranking the bare mask", "sen1_flood_c", 0, "RankRegions", set("input", "flood_1"), "requires a flood_report"},
		{"unknown candidates", "sen1_flood_c", 0, "RankRegions", set("candidates", "grid_8x8"), "unsupported value"},
		{"ranking without the grid metric", "sen1_flood_d", 0, "DescribeFlood", set("metrics", map[string]any{"prediction": true, "components": true, "overlap": true}), "unsupported value"},
		{"comparison from the report", "sen1_flood_e", 0, "CompareSources", set("input", "flood_report_1"), "takes flood_n"},
		{"render from the ranking", "sen1_flood_e", 0, "RenderMap", set("input", "rank_1"), "requires a compare"},
		{"render with no layer", "sen1_flood_e", 0, "RenderMap", set("layers", map[string]any{"sar": false}), "no layer is enabled"},
		{"unknown render layer", "sen1_flood_e", 0, "RenderMap", set("layers", map[string]any{"labels": true}), "unsupported flag"},
		{"reference mode without a reference", "sen1_flood_d", 0, "PrepareScene", set("inputs", map[string]any{"sar": "scene_1"}), "requires slot"},
		{"SAR role on the JRC handle", "sen1_flood_d", 0, "ReadData", set("handle", "jrc_water_1"), "does not apply"},
		{"grid check on an odd chip", "sen1_flood_a", 5, "PrepareScene", set("grid", "4x4"), "does not split into a 4x4 grid"},
		{"unknown grid", "sen1_flood_c", 0, "PrepareScene", set("grid", "8x8"), "unsupported value"},
	}
	for _, m := range muts {
		t.Run(m.name, func(t *testing.T) {
			rec := workertest.CloneRecord(t, byType[m.typ][m.k])
			i := stepIndex(rec, m.tool)
			if i < 0 {
				t.Fatalf("%s has no %s step", m.typ, m.tool)
			}
			m.apply(rec.GTChain[i].Args)
			_, fail, err := runSen1(t, eng, rec)
			if fail != i || err == nil || !strings.Contains(err.Error(), m.want) {
				t.Errorf("failed at step %d (want %d) with %v; want an error containing %q", fail, i, err, m.want)
			}
		})
	}
}

// replaceFile replaces the first file of a declared handle, under _mut/,
// and its card's SHA-256.
func replaceFile(t *testing.T, dir string, rec *workers.Record, handle string, data []byte) {
	t.Helper()
	f := &rec.Handles[handle].Files[0]
	workertest.WriteFile(t, dir, f, "_mut/"+f.Path, data)
}

func readInfo(t *testing.T, path string) *raster.Dataset {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := raster.OpenReaderAt(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func TestSen1FloodBadInputsRejected(t *testing.T) {
	dir, byType := sen1Corpus(t)
	eng := newEngine(t, runtime.Config{DatasetRoot: dir})
	rec := byType["sen1_flood_d"][0]
	ds := readInfo(t, filepath.Join(dir, rec.Handles["s1_image_1"].Files[0].Path))
	tr, _ := ds.Transform()
	w, h := ds.Width(), ds.Height()
	nd := -9999.0
	t.Run("all-nodata chip", func(t *testing.T) {
		r := workertest.CloneRecord(t, rec)
		vv, _ := raster.NewBand(w, h, raster.Float32)
		vh, _ := raster.NewBand(w, h, raster.Float32)
		for i := range vv.Data.([]float32) {
			vv.Data.([]float32)[i], vh.Data.([]float32)[i] = -9999, -9999
		}
		replaceFile(t, dir, &r, "s1_image_1", workertest.EncodeTIFF(t, []*raster.Band{vv, vh}, raster.WriteOptions{NoData: &nd, EPSG: 4326, Transform: tr, BandDescriptions: []string{"VV", "VH"}}))
		_, fail, err := runSen1(t, eng, r)
		if fail != stepIndex(r, "MapFlood") || err == nil || !strings.Contains(err.Error(), "all-nodata") {
			t.Errorf("step %d: %v", fail, err)
		}
	})
	jrc := func(t *testing.T, mutateT bool, value uint8) workers.Record {
		r := workertest.CloneRecord(t, rec)
		b, _ := raster.NewBand(w, h, raster.Uint8)
		b.Data.([]uint8)[w+3] = value
		tt := tr
		if mutateT {
			tt[2] += tr[0]
		}
		replaceFile(t, dir, &r, "jrc_water_1", workertest.EncodeTIFF(t, []*raster.Band{b}, raster.WriteOptions{EPSG: 4326, Transform: tt}))
		return r
	}
	t.Run("JRC off the SAR grid", func(t *testing.T) {
		r := jrc(t, true, 1)
		_, fail, err := runSen1(t, eng, r)
		if fail != stepIndex(r, "PrepareScene") || err == nil || !strings.Contains(err.Error(), "does not match the SAR grid") {
			t.Errorf("step %d: %v", fail, err)
		}
	})
	t.Run("JRC value 2", func(t *testing.T) {
		r := jrc(t, false, 2)
		_, fail, err := runSen1(t, eng, r)
		if fail != stepIndex(r, "CompareSources") || err == nil || !strings.Contains(err.Error(), "only 0, 1") {
			t.Errorf("step %d: %v", fail, err)
		}
	})
	t.Run("all-zero JRC is a valid zero overlap", func(t *testing.T) {
		r := jrc(t, false, 0)
		s, fail, err := runSen1(t, eng, r)
		if fail >= 0 {
			t.Fatalf("step %d: %v", fail, err)
		}
		ans, err := s.Resolve(runtime.AnswerRef)
		if err != nil || !strings.Contains(string(ans), `"overlap_pixels":0,`) || !strings.Contains(string(ans), `"outside_reference_percentage":100,`) {
			t.Errorf("answer %s %v", ans, err)
		}
	})
	t.Run("missing file", func(t *testing.T) {
		r := workertest.CloneRecord(t, rec)
		h := r.Handles["s1_image_1"]
		h.Files[0].Path = "source_assets/sen1_flood/absent/S1Portable.tif"
		r.Handles["s1_image_1"] = h
		_, fail, err := runSen1(t, eng, r)
		if fail != 0 || err == nil {
			t.Errorf("step %d: %v", fail, err)
		}
	})
}

// TestSen1FloodArtifactsDeterministic replays a type-E record twice and
// requires identical mask, GeoJSON and PNG bytes.
func TestSen1FloodArtifactsDeterministic(t *testing.T) {
	dir, byType := sen1Corpus(t)
	sums := make([]map[string]string, 2)
	for k := range sums {
		eng := newEngine(t, runtime.Config{DatasetRoot: dir, ArtifactDir: filepath.Join(t.TempDir(), "a")})
		res := eng.ReplayRecord(context.Background(), byType["sen1_flood_e"][0])
		if res.Status != "ok" {
			t.Fatal(*res.Error)
		}
		sums[k] = map[string]string{}
		for _, c := range res.Calls {
			for _, a := range c.Artifacts {
				sums[k][filepath.Ext(a.Name)] = a.SHA256
			}
		}
	}
	for _, ext := range []string{".tif", ".geojson", ".png", ".json"} {
		if sums[0][ext] == "" || sums[0][ext] != sums[1][ext] {
			t.Errorf("%s artifact: %q then %q", ext, sums[0][ext], sums[1][ext])
		}
	}
}

// TestResolveRevalidatesChangedAnswer checks that Resolve returns the
// published answer and refuses one whose bytes changed since publication
// into something its schema rejects.
func TestResolveRevalidatesChangedAnswer(t *testing.T) {
	dir, byType := sen1Corpus(t)
	eng := newEngine(t, runtime.Config{DatasetRoot: dir})
	s, fail, err := runSen1(t, eng, byType["sen1_flood_e"][0])
	if fail >= 0 {
		t.Fatalf("step %d: %v", fail, err)
	}
	ans, err := s.Resolve(runtime.AnswerRef)
	if err != nil {
		t.Fatal(err)
	}
	stored := s.PublishedAnswer("answer_1")
	i := bytes.Index(stored, []byte(`"pattern":"`))
	if i < 0 {
		t.Fatalf("no pattern field in %s", ans)
	}
	copy(stored[i+len(`"pattern":"`):], "zzzzz") // not an allowed pattern
	if _, err := s.Resolve(runtime.AnswerRef); err == nil || !strings.Contains(err.Error(), "fails revalidation") {
		t.Errorf("changed answer resolved: %v", err)
	}
}
