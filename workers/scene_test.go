package workers_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"
)

// sceneEnv holds a question handle, an input handle "roads_1" with a JSON
// file and a GeoTIFF, and a second input handle "dem_1".
func sceneEnv(t *testing.T) *workertest.Env {
	t.Helper()
	env := workertest.NewEnv()
	env.Files["q/question.json"] = []byte(`{"parameters":{"k":3}}`)
	env.Files["r/roads.geojson"] = []byte(`{"type":"FeatureCollection","features":[]}`)
	env.PutTIFF(t, workers.FileCard{Path: "r/chip.tif"}, 2, 2, raster.Uint8, 32633, workertest.UTM10, workertest.NoData(0), workertest.Fill(4, 1))
	env.Handles["question_1"] = &workers.Handle{Name: "question_1", Kind: workers.KindQuestion, Files: []workers.FileCard{{Path: "q/question.json"}}}
	env.Handles["roads_1"] = &workers.Handle{Name: "roads_1", Kind: workers.KindInput, Files: []workers.FileCard{{Path: "r/roads.geojson", Date: "2024-01-02"}, {Path: "r/chip.tif"}}}
	env.Handles["dem_1"] = &workers.Handle{Name: "dem_1", Kind: workers.KindInput, Files: []workers.FileCard{{Path: "r/roads.geojson"}}}
	return env
}

func readData(spec workers.ReadSpec, env workers.Env, args map[string]any) (*workers.Result, error) {
	return workers.ReadDataVariant(spec).Run(env, workers.ArgsOf("ReadData", args))
}

func TestReadDataDescribesTheDeclaredFiles(t *testing.T) {
	env := sceneEnv(t)
	spec := workers.ReadSpec{Role: "roads", HandleStems: []string{"roads"}}
	res, err := readData(spec, env, map[string]any{"question": "question_1", "handle": "roads_1", "role": "roads", "sources": "osm"})
	if err != nil {
		t.Fatal(err)
	}
	sc := res.Payload.(*workers.Scene)
	if sc.Role != "roads" || sc.Handle != "roads_1" || len(sc.Files) != 2 || sc.Options["sources"] != "osm" || len(sc.Options) != 1 {
		t.Fatalf("scene %+v", sc)
	}
	if v, ok := sc.Param("k"); !ok || v != 3.0 {
		t.Errorf("question parameter k: %v %v", v, ok)
	}
	if _, ok := sc.Param("absent"); ok {
		t.Error("an undeclared parameter was found")
	}
	js, tif := sc.Files[0], sc.Files[1]
	if js.JSON == nil || js.Raster != nil || js.Size != int64(len(env.Files["r/roads.geojson"])) || len(js.SHA256) != 64 {
		t.Errorf("GeoJSON file %+v", js)
	}
	if tif.Raster == nil || tif.Raster.Width != 2 || tif.Raster.EPSG != 32633 || tif.JSON != nil {
		t.Errorf("GeoTIFF file %+v", tif)
	}
	files := res.Evidence["files"].([]any)
	if e := files[0].(map[string]any); e["date"] != "2024-01-02" || e["raster"] != nil {
		t.Errorf("evidence of the GeoJSON %v", e)
	}
	if r := files[1].(map[string]any)["raster"].(map[string]any); r["nodata"] != 0.0 || r["dtype"] != "uint8" {
		t.Errorf("evidence of the GeoTIFF %v", r)
	}
	if f, err := sc.Require(".tif"); err != nil || f.Base() != "chip.tif" {
		t.Errorf("Require(.tif): %v %v", f, err)
	}
	if _, err := sc.Require(".png"); err == nil || !strings.Contains(err.Error(), `roads_1 declares no file ending in ".png"`) {
		t.Errorf("Require(.png): %v", err)
	}
}

func TestReadDataRejects(t *testing.T) {
	spec := workers.ReadSpec{Role: "roads", HandleStems: []string{"roads"}}
	checkErr := errors.New("no roads layer")
	for _, c := range []struct {
		name string
		spec workers.ReadSpec
		args map[string]any
		edit func(*workertest.Env)
		want string
	}{
		{"question is an input", spec, map[string]any{"question": "roads_1", "handle": "roads_1"}, nil, "not the question"},
		{"handle is the question", spec, map[string]any{"question": "question_1", "handle": "question_1"}, nil, "opens declared input handles"},
		{"unknown handle", spec, map[string]any{"question": "question_1", "handle": "roads_9"}, nil, "unknown handle"},
		{"wrong stem", spec, map[string]any{"question": "question_1", "handle": "dem_1"}, nil, "does not apply to handle dem_1"},
		{"missing file", spec, map[string]any{"question": "question_1", "handle": "roads_1"}, func(e *workertest.Env) { delete(e.Files, "r/chip.tif") }, "missing"},
		{"invalid JSON", spec, map[string]any{"question": "question_1", "handle": "roads_1"}, func(e *workertest.Env) { e.Files["r/roads.geojson"] = []byte("{") }, "not valid JSON"},
		{"invalid sidecar", spec, map[string]any{"question": "question_1", "handle": "roads_1"}, func(e *workertest.Env) { e.Files["q/question.json"] = []byte("[1]") }, "question sidecar"},
		{"typed JSON still validated", workers.ReadSpec{Role: "roads", HandleStems: []string{"roads"}, TypedJSON: true}, map[string]any{"question": "question_1", "handle": "roads_1"},
			func(e *workertest.Env) { e.Files["r/roads.geojson"] = []byte(`{"a":`) }, "not valid JSON"},
		{"check fails", workers.ReadSpec{Role: "roads", HandleStems: []string{"roads"}, Check: func(workers.Env, *workers.Scene) error { return checkErr }},
			map[string]any{"question": "question_1", "handle": "roads_1"}, nil, "ReadData(role=roads) roads_1: no roads layer"},
	} {
		env := sceneEnv(t)
		if c.edit != nil {
			c.edit(env)
		}
		res, err := readData(c.spec, env, c.args)
		if err == nil || res != nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v %v, want an error containing %q", c.name, res, err, c.want)
		}
	}
}

func TestReadDataTypedJSONLeavesJSONUndecoded(t *testing.T) {
	res, err := readData(workers.ReadSpec{Role: "roads", HandleStems: []string{"roads"}, TypedJSON: true}, sceneEnv(t), map[string]any{"question": "question_1", "handle": "roads_1"})
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Payload.(*workers.Scene).Files[0]; f.JSON != nil || len(f.SHA256) != 64 {
		t.Errorf("typed JSON file %+v", f)
	}
}

func TestSceneMemoParsesOncePerContent(t *testing.T) {
	var sc workers.Scene
	calls := 0
	parse := func() (any, error) { calls++; return calls, nil }
	a := []byte("abc")
	v1, _ := sc.Memo("k", a, parse)
	v2, _ := sc.Memo("k", a, parse)
	if v1 != 1 || v2 != 1 || calls != 1 {
		t.Errorf("same bytes: %v %v after %d parses", v1, v2, calls)
	}
	// Equal content in another array is not the session's cached file.
	if v, _ := sc.Memo("k", []byte("abc"), parse); v != 2 {
		t.Errorf("other bytes: %v", v)
	}
	if v, _ := sc.Memo("k2", a, parse); v != 3 {
		t.Errorf("other key: %v", v)
	}
	boom := errors.New("bad")
	failing := func() (any, error) { calls++; return nil, boom }
	b := []byte("x")
	if _, err := sc.Memo("e", b, failing); err != boom {
		t.Fatal(err)
	}
	n := calls
	if _, err := sc.Memo("e", b, failing); err != boom || calls != n {
		t.Errorf("a parse error is not remembered: %v after %d more parses", err, calls-n)
	}
	if v, _ := sc.Memo("empty", nil, parse); v == nil {
		t.Error("empty content")
	}
	n = calls
	if _, _ = sc.Memo("empty", []byte{}, parse); calls != n {
		t.Error("empty content parsed twice")
	}
}

func TestHandleStem(t *testing.T) {
	for in, want := range map[string]string{"forest_mask_1": "forest_mask", "s1_vv_12": "s1_vv", "roads": "roads", "x_": "x_", "_3": "", "a_1_2": "a_1"} {
		if got := workers.HandleStem(in); got != want {
			t.Errorf("HandleStem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPrepareSceneBindsSceneHandles(t *testing.T) {
	env := sceneEnv(t)
	res, err := readData(workers.ReadSpec{Role: "roads", HandleStems: []string{"roads"}}, env, map[string]any{"question": "question_1", "handle": "roads_1"})
	if err != nil {
		t.Fatal(err)
	}
	env.Handles["scene_1"] = &workers.Handle{Name: "scene_1", Kind: "scene", Result: res}
	env.Handles["stats_1"] = &workers.Handle{Name: "stats_1", Kind: "stats", Result: &workers.Result{Payload: 1}}
	spec := workers.PrepareSpec{Mode: "route", Slots: map[string][]string{"roads": {"roads"}, "dem": {"dem"}}, Required: []string{"roads"}}
	v := workers.PrepareSceneVariant(spec)
	if v.Params[0].Enum[0] != "dem" || v.Params[0].Enum[1] != "roads" {
		t.Errorf("slots %v, want sorted", v.Params[0].Enum)
	}
	run := func(in map[string]any) (*workers.Result, error) {
		return v.Run(env, workers.ArgsOf("PrepareScene", map[string]any{"inputs": in, "mode": "route"}))
	}
	out, err := run(map[string]any{"roads": "scene_1"})
	if err != nil {
		t.Fatal(err)
	}
	w := out.Payload.(*workers.Work)
	if w.Mode != "route" || w.Handles["roads"] != "scene_1" || w.Scenes["roads"].Handle != "roads_1" {
		t.Errorf("work %+v", w)
	}
	for name, c := range map[string]struct {
		in   map[string]any
		want string
	}{
		"missing slot":    {map[string]any{"dem": "scene_1"}, `requires slot "roads"`},
		"declared handle": {map[string]any{"roads": "roads_1"}, "PrepareScene takes scene handles"},
		"other result":    {map[string]any{"roads": "stats_1"}, "PrepareScene takes scene handles"},
		"wrong role":      {map[string]any{"roads": "scene_1", "dem": "scene_1"}, `slot "dem" of mode route accepts roles dem`},
		"unknown handle":  {map[string]any{"roads": "scene_7"}, "unknown handle"},
	} {
		if _, err := run(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	env.Handles["work_1"] = &workers.Handle{Name: "work_1", Kind: "work", Result: out}
	args := func(h string) workers.Args { return workers.ArgsOf("AssessDamage", map[string]any{"input": h}) }
	if got, err := workers.OpenWork(env, args("work_1"), "other", "route"); err != nil || got != w {
		t.Errorf("OpenWork: %v %v", got, err)
	}
	if _, err := workers.OpenWork(env, args("work_1"), "xbd_damage"); err == nil || !strings.Contains(err.Error(), "of mode xbd_damage, got mode route") {
		t.Errorf("wrong mode: %v", err)
	}
	if _, err := workers.OpenWork(env, args("scene_1"), "route"); err == nil || !strings.Contains(err.Error(), "scene_1 is a scene result; AssessDamage requires a work") {
		t.Errorf("scene as work: %v", err)
	}
	if _, _, err := workers.OpenResult[*workers.Work](env, args("roads_1"), "input", "work"); err == nil || !strings.Contains(err.Error(), "declared input handle") {
		t.Errorf("declared handle as result: %v", err)
	}
}

func TestSceneRequireBand(t *testing.T) {
	env := sceneEnv(t)
	res, err := readData(workers.ReadSpec{Role: "roads", HandleStems: []string{"roads"}}, env, map[string]any{"question": "question_1", "handle": "roads_1"})
	if err != nil {
		t.Fatal(err)
	}
	sc := res.Payload.(*workers.Scene)
	f, b, info, err := sc.RequireBand(env, "chip.tif", 1)
	if err != nil || f.Path != "r/chip.tif" || b.Width != 2 || info.EPSG != 32633 {
		t.Fatalf("band 1: %v %v %+v %v", f, b, info, err)
	}
	if _, _, _, err := sc.RequireBand(env, "dem.tif", 1); err == nil || !strings.Contains(err.Error(), `no file ending in "dem.tif"`) {
		t.Errorf("undeclared file: %v", err)
	}
	if f, b, _, err := sc.RequireBand(env, "chip.tif", 2); err == nil || f != nil || b != nil {
		t.Errorf("band 2 of a one-band file: %v %v %v", f, b, err)
	}
}
