package multihazard

import (
	"math"
	"testing"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"
)

// Benchmarks of the family's per-pixel raster loads on a 512 x 512 grid:
// a uint8 binary mask with nodata 255 and a float32 continuous raster
// with NaN and a declared nodata. Each band is decoded once, before the
// timer, as a session's band cache does: what is measured is the kernels.

const benchW, benchH = 512, 512

// bandCache is workertest.Env with each band decoded once.
type bandCache struct {
	*workertest.Env
	bands map[string]*raster.Band
	infos map[string]workers.RasterInfo
}

func (c *bandCache) Band(p string, band int) (*raster.Band, workers.RasterInfo, error) {
	if b, ok := c.bands[p]; ok && band == 1 {
		return b, c.infos[p], nil
	}
	b, info, err := c.Env.Band(p, band)
	if err == nil && band == 1 {
		c.bands[p], c.infos[p] = b, info
	}
	return b, info, err
}

// benchScene declares mask.tif and value.tif on the bench grid.
func benchScene(b *testing.B) (*bandCache, *workers.Scene) {
	c := &bandCache{Env: workertest.NewEnv(), bands: map[string]*raster.Band{}, infos: map[string]workers.RasterInfo{}}
	n := benchW * benchH
	mask, vals := make([]float64, n), make([]float64, n)
	for i := range mask {
		mask[i] = float64(i % 3 % 2)
		vals[i] = math.Sin(float64(i)) * 40
		switch {
		case i%101 == 0:
			mask[i], vals[i] = 255, -9999
		case i%211 == 0:
			vals[i] = math.NaN()
		}
	}
	s := &workers.Scene{Handle: "hazard_1"}
	s.Files = append(s.Files,
		c.PutTIFF(b, workers.FileCard{Path: "h/mask.tif"}, benchW, benchH, raster.Uint8, 4326, workertest.GeoT, workertest.NoData(255), mask),
		c.PutTIFF(b, workers.FileCard{Path: "h/value.tif"}, benchW, benchH, raster.Float32, 4326, workertest.GeoT, workertest.NoData(-9999), vals))
	for _, f := range s.Files {
		if _, _, err := c.Band(f.Path, 1); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	return c, s
}

// BenchmarkLoad times the binary-mask and continuous-raster loads.
func BenchmarkLoad(b *testing.B) {
	for _, bc := range []struct {
		name string
		load func(*bandCache, *workers.Scene) error
	}{
		{"binary_mask", func(c *bandCache, s *workers.Scene) error { _, err := loadBinaryMask(c, s, "mask.tif"); return err }},
		{"continuous", func(c *bandCache, s *workers.Scene) error { _, err := loadContinuous(c, s, "value.tif"); return err }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			c, s := benchScene(b)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := bc.load(c, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
