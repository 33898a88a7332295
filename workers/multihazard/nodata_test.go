package multihazard

import (
	"testing"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// TestSidecarNoDataAsTheBandHoldsIt: a float32 raster whose tag and JSON
// sidecar both declare -3.4e38 agree (GDAL reads the tag as
// float32(-3.4e38)), and the value masks as the band holds it.
func TestSidecarNoDataAsTheBandHoldsIt(t *testing.T) {
	tagged := workers.RasterInfo{DataType: raster.Float32, HasNoData: true, NoData: float64(float32(-3.4e38))}
	s := &workers.Scene{Files: []workers.SceneFile{
		{FileCard: workers.FileCard{Path: "a/x.tif"}, Raster: &tagged},
		{FileCard: workers.FileCard{Path: "a/x.json"}, JSON: map[string]any{"nodata": -3.4e38}},
	}}
	nd, ok, err := declaredNoData(s, &s.Files[0], tagged)
	if err != nil || !ok || nd != float64(float32(-3.4e38)) {
		t.Errorf("declared nodata %v %v %v", nd, ok, err)
	}
	other := tagged
	other.NoData = -9999
	if _, _, err := declaredNoData(s, &s.Files[0], other); err == nil {
		t.Error("a sidecar disagreeing with the tag was accepted")
	}
}
