package multihazard

import (
	"math"
	"strings"
	"testing"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"
)

// TestTypedLoadsMatchFloat64Reference: the typed mask and continuous loads
// give what a float64 conversion of the band followed by the per-pixel
// rules gives, for each sample type the fixtures write.
func TestTypedLoadsMatchFloat64Reference(t *testing.T) {
	vals := []float64{0, 1, 255, 1, 0, 1, 255, 0, 1}
	for _, dt := range []raster.DataType{raster.Uint8, raster.Uint16, raster.Float32} {
		env := workertest.NewEnv()
		s := &workers.Scene{Handle: "hazard_1"}
		s.Files = append(s.Files, env.PutTIFF(t, workers.FileCard{Path: "h/m.tif"}, 3, 3, dt, 4326, workertest.GeoT, workertest.NoData(255), vals))
		m, err := loadBinaryMask(env, s, "m.tif")
		if err != nil {
			t.Fatal(dt, err)
		}
		c, err := loadContinuous(env, s, "m.tif")
		if err != nil {
			t.Fatal(dt, err)
		}
		var ones, valid []int
		for i, v := range vals {
			ok := v != 255
			if m.OK[i] != ok || c.OK[i] != ok || m.IsSet[i] != (ok && v > 0) || c.F64[i] != v {
				t.Fatalf("%v pixel %d: mask ok %v set %v, continuous ok %v value %v", dt, i, m.OK[i], m.IsSet[i], c.OK[i], c.F64[i])
			}
			if ok {
				valid = append(valid, i)
				if v > 0 {
					ones = append(ones, i)
				}
			}
		}
		if m.Valid != len(valid) || len(m.Ones) != len(ones) || len(c.Valid) != len(valid) {
			t.Fatalf("%v: counts %d %d %d", dt, m.Valid, len(m.Ones), len(c.Valid))
		}
	}
	env := workertest.NewEnv()
	s := &workers.Scene{Handle: "hazard_1"}
	s.Files = append(s.Files, env.PutTIFF(t, workers.FileCard{Path: "h/m.tif"}, 3, 1, raster.Float32, 4326, workertest.GeoT, nil, []float64{0, math.NaN(), 0.5}))
	if _, err := loadBinaryMask(env, s, "m.tif"); err == nil || !strings.Contains(err.Error(), "pixel 2 has value 0.5") {
		t.Errorf("non-binary value: %v", err)
	}
}
