package runtime_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/conformance/synth"
	"github.com/geodisaster/engine/internal/synthtest"
	"github.com/geodisaster/engine/runtime"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"
)

var routingTypes = []string{"nearest_shelter", "fastest_safest", "visual_overlay"}

// routingCorpus synthesizes one record of each routing type.
func routingCorpus(t *testing.T) (string, map[string]workers.Record) {
	t.Helper()
	dir, recs := synthtest.Corpus(t, synth.Options{Types: routingTypes, PerType: 1, Seed: 1})
	return dir, synthtest.FirstByType(recs)
}

// routingEngine returns an engine, writing artifacts to a temporary
// directory, over the corpus of routingCorpus.
func routingEngine(t *testing.T) (*runtime.Engine, map[string]workers.Record) {
	t.Helper()
	dir, recs := routingCorpus(t)
	return newEngine(t, runtime.Config{DatasetRoot: dir, ArtifactDir: t.TempDir()}), recs
}

// runPrefix opens a session and runs the first n steps of the GT chain.
func runPrefix(t *testing.T, eng *runtime.Engine, rec workers.Record, n int) *runtime.Session {
	t.Helper()
	s := openSession(t, eng, rec)
	for _, st := range rec.GTChain[:n] {
		if _, err := s.Call(context.Background(), st.Tool, st.Args); err != nil {
			t.Fatalf("%s step %s: %v", rec.ID, st.Tool, err)
		}
	}
	return s
}

func TestRoutingReplayAndRenderDeterminism(t *testing.T) {
	dir, recs := routingCorpus(t)
	var pngs []string
	for run := 0; run < 2; run++ {
		art := filepath.Join(t.TempDir(), "art")
		eng := newEngine(t, runtime.Config{DatasetRoot: dir, ArtifactDir: art})
		for _, typ := range routingTypes {
			res := eng.ReplayRecord(context.Background(), recs[typ])
			if res.Status != "ok" || !res.Correct {
				t.Fatalf("%s: status %s correct %v error %v reason %s", typ, res.Status, res.Correct, res.Error, res.Reason)
			}
			if len(res.Denials) != 0 {
				t.Errorf("%s: %d read denials", typ, len(res.Denials))
			}
		}
		rec := recs["visual_overlay"]
		s := runPrefix(t, eng, rec, len(rec.GTChain))
		var png workers.Artifact
		for _, c := range s.Trace() {
			for _, a := range c.Artifacts {
				if strings.HasSuffix(a.Name, ".png") {
					png = a
				}
			}
		}
		if png.Size == 0 {
			t.Fatal("no PNG artifact traced")
		}
		pngs = append(pngs, png.SHA256)
		h, _ := s.Handle("render_1")
		man := filepath.Join(art, strings.ReplaceAll(rec.ID, "/", "_"), "route_overlay_route_compare_1.json")
		b, err := os.ReadFile(man)
		if err != nil {
			t.Fatalf("manifest: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m["prepared_overlay_used"] != false || m["source_handle"] != "route_compare_1" || h == nil {
			t.Errorf("manifest %v", m)
		}
		if cp, _ := m["changed_chip_pixels"].(float64); cp <= 0 {
			t.Errorf("changed chip pixels %v", m["changed_chip_pixels"])
		}
	}
	if pngs[0] != pngs[1] {
		t.Errorf("render differs across runs: %s vs %s", pngs[0], pngs[1])
	}
	// Pinned so a platform or dependency change that alters the bytes is
	// noticed (spec type 38: image hashes reproduce exactly). Re-pinned when
	// overlay.EncodeRGBPNG moved from image/png's default compression to
	// filter None + flate.BestSpeed (same pixels, different bytes; was
	// 3c4f78c2a2dfc0ad246382b6bb680471093a38da07cef52b04941324212a3923), and
	// again for filter Sub + overlay's own zero-run DEFLATE (issue 25; was
	// 252246b281e818a9f46c80d01f97652f262ef01e813129e328db9c67ed3fa3ee).
	const want = "abf61019f046ff04acb0033695161e3303d334d42dace6d9c95fb9bb34e8e80f"
	if pngs[0] != want {
		t.Errorf("render SHA-256 %s, pinned %s", pngs[0], want)
	}
}

func TestRoutingMutationsRejected(t *testing.T) {
	eng, recs := routingEngine(t)
	all := map[string]any{"fastest": true, "safest": true, "balanced": true}
	cases := []struct {
		name, typ string
		prefix    int
		tool      string
		args      map[string]any
		want      string
	}{
		{"invalid objective", "nearest_shelter", 3, "PlanRoutes", map[string]any{"input": "exposure_1", "objective": "shortest_path", "avoid.flood_affected_roads": true}, `unsupported value "shortest_path"`},
		{"unscreened request (false)", "nearest_shelter", 3, "PlanRoutes", map[string]any{"input": "exposure_1", "objective": "nearest_reachable_shelter", "avoid.flood_affected_roads": false}, "unscreened"},
		{"unscreened request (missing)", "nearest_shelter", 3, "PlanRoutes", map[string]any{"input": "exposure_1", "objective": "nearest_reachable_shelter"}, "required argument missing"},
		{"unscreened work context", "nearest_shelter", 3, "PlanRoutes", map[string]any{"input": "work_1", "objective": "nearest_reachable_shelter", "avoid.flood_affected_roads": true}, "unscreened work context"},
		{"nested avoid object", "fastest_safest", 2, "PlanRoutes", map[string]any{"input": "work_1", "objective": "candidate_routes", "avoid": map[string]any{"flood_affected_roads": true}}, "unknown argument"},
		{"scene as work", "fastest_safest", 2, "PlanRoutes", map[string]any{"input": "scene_1", "objective": "candidate_routes", "avoid.flood_affected_roads": true}, "requires a work"},
		{"blocked roads on a scene", "nearest_shelter", 2, "EstimateExposure", map[string]any{"input": "scene_1", "exposure": "blocked_roads"}, "requires a work"},
		{"partial preferences", "fastest_safest", 3, "CompareRoutes", map[string]any{"input": "routes_1", "objectives": map[string]any{"fastest": true, "safest": true}}, `unsupported value "fastest+safest"`},
		{"disabled preference", "fastest_safest", 3, "CompareRoutes", map[string]any{"input": "routes_1", "objectives": map[string]any{"fastest": true, "safest": true, "balanced": false}}, "unsupported value"},
		{"unknown preference", "fastest_safest", 3, "CompareRoutes", map[string]any{"input": "routes_1", "objectives": map[string]any{"fastest": true, "safest": true, "balanced": true, "shortest": true}}, "unsupported"},
		{"compare on work", "fastest_safest", 3, "CompareRoutes", map[string]any{"input": "work_1", "objectives": all}, "requires a routes"},
		{"compare a shelter plan", "nearest_shelter", 4, "CompareRoutes", map[string]any{"input": "routes_1", "objectives": all}, "fastest group only"},
		{"labels without routes", "visual_overlay", 4, "RenderMap", map[string]any{"input": "route_compare_1", "style": "route_overlay", "layers": map[string]any{"rgb": true, "roads": true, "labels": true}}, "requires routes"},
		{"no layer", "visual_overlay", 4, "RenderMap", map[string]any{"input": "route_compare_1", "style": "route_overlay", "layers": map[string]any{"rgb": false}}, "no layer"},
		{"unknown layer", "visual_overlay", 4, "RenderMap", map[string]any{"input": "route_compare_1", "style": "route_overlay", "layers": map[string]any{"routes": true, "buildings": true}}, `unsupported flag "buildings"`},
		{"prepared overlay as input", "visual_overlay", 5, "RenderMap", map[string]any{"input": "render_1", "style": "route_overlay"}, "prepared overlay"},
		{"render routes handle", "visual_overlay", 4, "RenderMap", map[string]any{"input": "routes_1", "style": "route_overlay"}, "requires a route_compare"},
		{"render without overlay plan", "fastest_safest", 4, "RenderMap", map[string]any{"input": "route_compare_1", "style": "route_overlay"}, "objective=overlay_routes"},
		{"input and work", "visual_overlay", 4, "RenderMap", map[string]any{"input": "route_compare_1", "work": "route_compare_1", "style": "route_overlay"}, "once"},
		{"no handle", "visual_overlay", 4, "RenderMap", map[string]any{"style": "route_overlay"}, "required argument missing"},
		{"unknown argument", "fastest_safest", 2, "PlanRoutes", map[string]any{"input": "work_1", "objective": "candidate_routes", "avoid.flood_affected_roads": true, "max_routes": 3.0}, "unknown argument"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := runPrefix(t, eng, recs[c.typ], c.prefix)
			_, err := s.Call(context.Background(), c.tool, c.args)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%s(%v): error %v, want it to mention %q", c.tool, c.args, err, c.want)
			}
		})
	}
}

// TestRoutingInputMutations corrupts the declared inputs.
func TestRoutingInputMutations(t *testing.T) {
	dir, recs := routingCorpus(t)
	eng := newEngine(t, runtime.Config{DatasetRoot: dir, ArtifactDir: t.TempDir()})
	// rewrite stores a modified copy of a declared file under a new path.
	rewrite := func(t *testing.T, r *workers.Record, suffix string, edit func([]byte) []byte) {
		h := r.Handles["route_inputs_1"]
		for i, fc := range h.Files {
			if strings.HasSuffix(fc.Path, suffix) {
				b, err := os.ReadFile(filepath.Join(dir, fc.Path))
				if err != nil {
					t.Fatal(err)
				}
				np := strings.Replace(fc.Path, "source_assets/routing/", "source_assets/routing_mut/"+strings.ReplaceAll(t.Name(), "/", "_")+"/", 1)
				h.Files[i] = workers.FileCard{}
				workertest.WriteFile(t, dir, &h.Files[i], np, edit(b))
			}
		}
		r.Handles["route_inputs_1"] = h
	}
	cases := []struct {
		name string
		edit func(t *testing.T, r *workers.Record)
		step int
		want string
		typ  string
	}{
		{"missing file", func(t *testing.T, r *workers.Record) {
			h := r.Handles["route_inputs_1"]
			h.Files[2] = workers.FileCard{Path: "source_assets/routing/absent/metadata.json"}
			r.Handles["route_inputs_1"] = h
		}, 0, "absent/metadata.json", ""},
		{"undeclared roads", func(t *testing.T, r *workers.Record) {
			workertest.DropFiles(r, "route_inputs_1", func(f workers.FileCard) bool { return strings.HasSuffix(f.Path, "roads.geojson") })
		}, 0, `"roads.geojson"`, ""},
		{"prepared overlay declared", func(t *testing.T, r *workers.Record) {
			h := r.Handles["route_inputs_1"]
			var card workers.FileCard
			workertest.WriteFile(t, dir, &card, "source_assets/routing_mut/overlay/route_overlay.png", []byte("\x89PNG prepared"))
			h.Files = append(h.Files, card)
			r.Handles["route_inputs_1"] = h
		}, 0, "prepared overlay", ""},
		{"route off its edges", func(t *testing.T, r *workers.Record) {
			rewrite(t, r, "candidate_routes.geojson", func(b []byte) []byte {
				var fc map[string]any
				json.Unmarshal(b, &fc)
				f := fc["features"].([]any)[0].(map[string]any)
				ids := f["properties"].(map[string]any)["edge_ids"].([]any)
				f["properties"].(map[string]any)["edge_ids"] = ids[:len(ids)-1]
				out, _ := json.Marshal(fc)
				return out
			})
		}, 2, "ends at node", ""},
		{"risk out of range", func(t *testing.T, r *workers.Record) {
			rewrite(t, r, "roads.geojson", func(b []byte) []byte {
				return []byte(strings.Replace(string(b), `"flood_risk":0,`, `"flood_risk":1.5,`, 1))
			})
		}, 2, "outside 0..1", ""},
		{"duplicate edge id", func(t *testing.T, r *workers.Record) {
			rewrite(t, r, "roads.geojson", func(b []byte) []byte {
				var fc map[string]any
				json.Unmarshal(b, &fc)
				fs := fc["features"].([]any)
				fs[1].(map[string]any)["properties"].(map[string]any)["edge_id"] = fs[0].(map[string]any)["properties"].(map[string]any)["edge_id"]
				out, _ := json.Marshal(fc)
				return out
			})
		}, 2, "duplicate edge_id", ""},
		{"no confidence", func(t *testing.T, r *workers.Record) {
			rewrite(t, r, "metadata.json", func(b []byte) []byte {
				var m map[string]any
				json.Unmarshal(b, &m)
				delete(m, "confidence")
				out, _ := json.Marshal(m)
				return out
			})
		}, 2, "no confidence label", ""},
		{"preview not a PNG", func(t *testing.T, r *workers.Record) {
			rewrite(t, r, "s2_rgb_preview.png", func(b []byte) []byte { return []byte("not a png") })
		}, 0, "is not a PNG", ""},
		{"metadata CRS disagrees with the chip", func(t *testing.T, r *workers.Record) {
			rewrite(t, r, "metadata.json", func(b []byte) []byte {
				var m map[string]any
				json.Unmarshal(b, &m)
				m["crs"] = "EPSG:3857"
				out, _ := json.Marshal(m)
				return out
			})
		}, 2, "declares CRS EPSG:3857", "visual_overlay"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			typ := c.typ
			if typ == "" {
				typ = "fastest_safest"
			}
			rec := workertest.CloneRecord(t, recs[typ])
			c.edit(t, &rec)
			s, err := eng.NewSession(rec)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var last error
			for i, st := range rec.GTChain {
				_, last = s.Call(context.Background(), st.Tool, st.Args)
				if last != nil {
					if i != c.step {
						t.Errorf("failed at step %d (%s), want step %d: %v", i, st.Tool, c.step, last)
					}
					break
				}
			}
			if last == nil || !strings.Contains(last.Error(), c.want) {
				t.Fatalf("error %v, want it to mention %q", last, c.want)
			}
		})
	}
}

// TestRenderMapWorkAlias renders with the spec's spelling work= and gets
// the same receipt as the GT chain's input=.
func TestRenderMapWorkAlias(t *testing.T) {
	eng, recs := routingEngine(t)
	rec := recs["visual_overlay"]
	s := runPrefix(t, eng, rec, 4)
	if _, err := s.Call(context.Background(), "RenderMap", map[string]any{"work": "route_compare_1", "style": "route_overlay"}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Call(context.Background(), "TaskComplete", map[string]any{"status": "TASK_COMPLETE"})
	if err != nil || res.Published != runtime.AnswerRef {
		t.Fatalf("not published: %v %v", res, err)
	}
	got, err := s.Resolve(runtime.AnswerRef)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	json.Unmarshal(got, &a)
	json.Unmarshal(rec.Answer, &b)
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	if string(ab) != string(bb) {
		t.Errorf("work= receipt %s\nwant %s", ab, bb)
	}
}

// TestRoutingAnswerWaitsForTaskComplete checks that no answer is published
// before TaskComplete (the schemas require terminated=true).
func TestRoutingAnswerWaitsForTaskComplete(t *testing.T) {
	eng, recs := routingEngine(t)
	for _, typ := range routingTypes {
		rec := recs[typ]
		s := runPrefix(t, eng, rec, len(rec.GTChain)-1)
		if _, err := s.Resolve(runtime.AnswerRef); err == nil {
			t.Errorf("%s: answer published before TaskComplete", typ)
		}
	}
}

// TestBlockedRoadsExtentCrossCheck checks the exposure's cross-check of
// the declared flood flags against the Copernicus extent.
func TestBlockedRoadsExtentCrossCheck(t *testing.T) {
	eng, recs := routingEngine(t)
	rec := recs["nearest_shelter"]
	s := runPrefix(t, eng, rec, 2)
	res, err := s.Call(context.Background(), "EstimateExposure", rec.GTChain[2].Args)
	if err != nil {
		t.Fatal(err)
	}
	ev := res.Evidence
	fe := ev["flood_extent"].(map[string]any)
	if fe["blocked_edges_outside_extent"] != 0 || fe["flooded_edges_outside_extent"] != 0 {
		t.Errorf("synthetic flood flags disagree with the extent: %v", fe)
	}
	if ev["blocked_edge_count"].(int) == 0 || fe["edges_meeting_extent"].(int) < ev["flooded_edge_count"].(int) {
		t.Errorf("evidence %v / %v", ev, fe)
	}
}
