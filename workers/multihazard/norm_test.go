package multihazard

import (
	"strings"
	"testing"

	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"
)

func TestQuartileBinsCoverage(t *testing.T) {
	n := &Normalization{Path: "n.json", Sources: map[string]NormSource{
		"s": {Q25: -0.1381913721561432, Q50: 0.6701323390007019, Q75: 1.3935534954071045, Classes: []string{"q1", "q2", "q3", "q4"}},
		"x": {Q25: 1, Q50: 2, Q75: 3, Classes: []string{"a", "a", "b", "c"}},
	}}
	bins, err := n.classBins("s")
	if err != nil {
		t.Fatal(err)
	}
	if bins[0].Lower != -1e30 || bins[3].Upper != 1e30 || bins[1].Lower != bins[0].Upper || bins[2].Upper != 1.3935534954071045 {
		t.Errorf("bins %+v do not cover [-1e30, 1e30) contiguously", bins)
	}
	if _, err := n.classBins("x"); err == nil {
		t.Error("duplicate labels accepted")
	}
	if _, err := n.classBins("missing"); err == nil {
		t.Error("missing source accepted")
	}
}

func TestLoadNormalizationGuardsTheContract(t *testing.T) {
	env := workertest.NewEnv()
	const path = "aoi/norm/no2_train_fit.json"
	s := &workers.Scene{Handle: "input_1", Question: map[string]any{"sample_id": "aoi_7"},
		Files: []workers.SceneFile{{FileCard: workers.FileCard{Path: path}}}}
	load := func(doc string) (*Normalization, error) {
		env.Files[path] = []byte(doc)
		return loadNormalization(env, s, "train_fit.json")
	}
	good := `{"contract":"c","fit_split":"train","fit_aois":["aoi_1","aoi_2"],"sources":{"s5p":{"q25":1,"q50":1,"q75":2,"classes":["a","b","c","d"]}}}`
	n, err := load(good)
	if err != nil || n.Sources["s5p"].Q75 != 2 || n.Path != path {
		t.Fatalf("good contract: %+v %v", n, err)
	}
	for _, c := range []struct{ doc, want string }{
		{strings.Replace(good, `"train"`, `"test"`, 1), `split "test"`},
		{strings.Replace(good, `"aoi_2"`, `"aoi_7"`, 1), "leakage"},
		{strings.Replace(good, `"q50":1`, `"q50":3`, 1), "not ordered"},
		{strings.Replace(good, `"fit_aois":["aoi_1","aoi_2"]`, `"fit_aois":[]`, 1), "no fit AOIs"},
		{good[:40], "normalization " + path},
	} {
		if _, err := load(c.doc); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.doc, err, c.want)
		}
	}
	if _, err := loadNormalization(env, s, "other.json"); err == nil {
		t.Error("an undeclared file was read")
	}
}
