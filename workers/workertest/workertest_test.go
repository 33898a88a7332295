package workertest

import (
	"strings"
	"testing"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

func TestPutTIFFRoundTripsBandsAndGrid(t *testing.T) {
	env := NewEnv()
	card := workers.FileCard{Path: "scene/a.tif"}
	env.PutTIFF(t, card, 3, 2, raster.Float32, 4326, GeoT, NoData(-9999), []float64{1, 2, 3, 4, 5, -9999})
	b, info, err := env.Band("scene/a.tif", 1)
	if err != nil {
		t.Fatal(err)
	}
	if info.Width != 3 || info.Height != 2 || info.EPSG != 4326 || !info.HasNoData || info.NoData != -9999 || info.Transform != GeoT {
		t.Fatalf("info %+v", info)
	}
	d := b.Data.([]float32)
	if d[4] != 5 || d[5] != -9999 {
		t.Fatalf("band data %v", d)
	}
	if _, err := env.ReadFile("scene/missing.tif"); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := env.Open("work_9"); err == nil {
		t.Fatal("unknown handle opened")
	}
}

func TestArtifactHashesDataUnlessGivenASum(t *testing.T) {
	a := Artifact("x.png", []byte("abc"), nil)
	if a.SHA256 != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" || a.Size != 3 {
		t.Fatalf("artifact %+v", a)
	}
	var s [32]byte
	s[0] = 1
	if b := Artifact("x.png", []byte("abc"), func() [32]byte { return s }); b.SHA256[:2] != "01" {
		t.Fatalf("sum not used: %+v", b)
	}
}
