package regions

import (
	"testing"

	"github.com/geodisaster/engine/internal/golden"
)

// maskGoldens are the labelled masks of raster/testdata's native-stack
// goldens (conformance/raster/gen_sen1flood.py): scipy.ndimage.label with
// both connectivities and rasterio.features.shapes's polygons.
type maskGoldens struct {
	Masks []struct {
		Width    int         `json:"width"`
		Height   int         `json:"height"`
		Mask     string      `json:"mask"`
		Labels8  []int32     `json:"labels8"`
		N8       int         `json:"n8"`
		Labels4  []int32     `json:"labels4"`
		N4       int         `json:"n4"`
		Polygons [][][][]int `json:"polygons"`
	} `json:"masks"`
}

func loadAlgorithmGoldens(t *testing.T) *maskGoldens {
	t.Helper()
	var g maskGoldens
	golden.Load(t, "../testdata/sen1flood_algorithms.json", &g)
	return &g
}
