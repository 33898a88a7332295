package deforestation

import (
	"fmt"
	"math"
	"testing"

	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// Benchmarks of the family's per-pixel kernels on release-sized rasters
// (512 x 512, six optical epochs of uint16 reflectances, five float32 SAR
// acquisitions, uint8 Hansen masks). Bands are decoded once, before the
// timer: what is measured is the kernels, not the DEFLATE decoder.

const benchW, benchH = 512, 512

// cachedEnv is memEnv with each band decoded once, as a session's band
// cache does.
type cachedEnv struct {
	*memEnv
	bands map[string]*raster.Band
	infos map[string]workers.RasterInfo
}

func newCachedEnv() *cachedEnv {
	return &cachedEnv{memEnv: newMemEnv(), bands: map[string]*raster.Band{}, infos: map[string]workers.RasterInfo{}}
}

func (c *cachedEnv) Band(p string, band int) (*raster.Band, workers.RasterInfo, error) {
	k := fmt.Sprintf("%s#%d", p, band)
	if b, ok := c.bands[k]; ok {
		return b, c.infos[k], nil
	}
	b, info, err := c.memEnv.Band(p, band)
	if err == nil {
		c.bands[k], c.infos[k] = b, info
	}
	return b, info, err
}

// benchValues returns n deterministic pseudo-random values in [lo, hi),
// with every 97th value replaced by nodata when nodata is not NaN.
func benchValues(n int, seed uint32, lo, hi float64, nodata float64) []float64 {
	out := make([]float64, n)
	x := seed*2654435761 + 1
	for i := range out {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		out[i] = lo + (hi-lo)*float64(x%100000)/100000
		if i%97 == 0 {
			out[i] = nodata
		}
	}
	return out
}

// benchOptical declares six uint16 epochs (nodata 0) on the bench grid.
func (c *cachedEnv) benchOptical(b *testing.B) *workers.Scene {
	s := &workers.Scene{Role: "pre_post", Handle: "optical_stack_1", Time: "event_window"}
	n := benchW * benchH
	for k, e := range canonicalEpochs {
		var bands [][]float64
		for j := range s2Bands {
			bands = append(bands, benchValues(n, uint32(10*k+j+1), 100, 6000, 0))
		}
		s.Files = append(s.Files, c.PutTIFF(b, workers.FileCard{Path: "s2/" + e + ".tif", Epoch: e}, benchW, benchH, raster.Uint16, 4326, geoT, nd(0), bands...))
	}
	return s
}

// benchSAR declares five float32 acquisitions with NaN nodata.
func (c *cachedEnv) benchSAR(b *testing.B) *workers.Scene {
	s := &workers.Scene{Role: "pre_post", Handle: "sar_stack_1", Time: "event_window"}
	n := benchW * benchH
	roles := []string{"pre", "pre", "post", "post", "post"}
	for k, r := range roles {
		card := workers.FileCard{Path: fmt.Sprintf("s1/s1_%d.tif", k), Date: fmt.Sprintf("202%d-05-01", k), TemporalRole: r, BandNames: []string{"VV", "VH"}}
		vv := benchValues(n, uint32(100+k), -12, -4, math.NaN())
		vh := benchValues(n, uint32(200+k), -20, -10, math.NaN())
		s.Files = append(s.Files, c.PutTIFF(b, card, benchW, benchH, raster.Float32, 4326, geoT, nil, vv, vh))
	}
	return s
}

// benchHansen declares the event-year mask (about 5% loss), lossyear and
// treecover on the bench grid.
func (c *cachedEnv) benchHansen(b *testing.B, year int) *workers.Scene {
	n := benchW * benchH
	annual, ly, tc := make([]float64, n), make([]float64, n), benchValues(n, 7, 0, 100, 255)
	for i := range annual {
		if i%20 == 3 {
			annual[i], ly[i] = 1, float64(year-2000)
		} else if i%20 == 9 {
			ly[i] = 5
		}
		if i%101 == 0 {
			annual[i], ly[i] = 255, 255
		}
	}
	return c.hansenSceneTB(b, year, annual, ly, tc)
}

func (c *cachedEnv) hansenSceneTB(b *testing.B, year int, annual, lossyear, canopy []float64) *workers.Scene {
	s := &workers.Scene{Role: "hansen", Handle: "forest_mask_1", Question: map[string]any{"parameters": map[string]any{"event_year": float64(year)}}}
	s.Files = append(s.Files,
		c.PutTIFF(b, workers.FileCard{Path: fmt.Sprintf("a/masks/loss_year_%d.tif", year)}, benchW, benchH, raster.Uint8, 4326, geoT, nd(255), annual),
		c.PutTIFF(b, workers.FileCard{Path: "a/masks/lossyear.tif"}, benchW, benchH, raster.Uint8, 4326, geoT, nd(255), lossyear),
		c.PutTIFF(b, workers.FileCard{Path: "a/masks/treecover2000.tif"}, benchW, benchH, raster.Uint8, 4326, geoT, nd(255), canopy))
	return s
}

// runBench checks run once, then times b.N runs of it.
func runBench(b *testing.B, run func() error) {
	if err := run(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := run(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOpticalDropsAOI(b *testing.B) {
	c := newCachedEnv()
	s := c.benchOptical(b)
	runBench(b, func() error { _, err := opticalDrops(c, s, nil); return err })
}

func BenchmarkOpticalDropsLossRegion(b *testing.B) {
	c := newCachedEnv()
	s := c.benchOptical(b)
	loss, err := eventYearLoss(c, c.benchHansen(b, 2021), 2021)
	if err != nil {
		b.Fatal(err)
	}
	runBench(b, func() error { _, err := opticalDrops(c, s, loss); return err })
}

func BenchmarkSARChange(b *testing.B) {
	c := newCachedEnv()
	s := c.benchSAR(b)
	runBench(b, func() error { _, err := sarChange(c, s); return err })
}

func BenchmarkEventYearLoss(b *testing.B) {
	c := newCachedEnv()
	s := c.benchHansen(b, 2021)
	runBench(b, func() error { _, err := eventYearLoss(c, s, 2021); return err })
}

func BenchmarkHansenQuality(b *testing.B) {
	c := newCachedEnv()
	s := c.benchHansen(b, 2021)
	af, err := annualMaskFile(s, 2021)
	if err != nil {
		b.Fatal(err)
	}
	runBench(b, func() error { _, err := hansenQuality(c, s, af); return err })
}

func BenchmarkCanopyMean(b *testing.B) {
	c := newCachedEnv()
	s := c.benchHansen(b, 2021)
	runBench(b, func() error { _, err := canopyMean(c, s); return err })
}

func BenchmarkLossYearCells(b *testing.B) {
	c := newCachedEnv()
	s := c.benchHansen(b, 2021)
	f, band, info, err := s.RequireBand(c, "lossyear.tif", 1)
	if err != nil {
		b.Fatal(err)
	}
	runBench(b, func() error { _, _, err := bandLossYearCells(band, info, f.Path); return err })
}

// BenchmarkGatherFloat32: the valid-sample gather of one float32 SAR band
// without a declared nodata (NaN every 97th sample), as declaredBandMean
// runs it.
func BenchmarkGatherFloat32(b *testing.B) {
	v := benchValues(benchW*benchH, 5, -20, -10, math.NaN())
	s := make([]float32, len(v))
	for i := range v {
		s[i] = float32(v[i])
	}
	var dst []float32
	b.Run("branchless", func(b *testing.B) {
		b.SetBytes(int64(4 * len(s)))
		for b.Loop() {
			dst = gatherBand(dst, bandView{f32: s}, nodata32{})
		}
	})
	b.Run("generic", func(b *testing.B) {
		b.SetBytes(int64(4 * len(s)))
		for b.Loop() {
			dst = gatherValid(dst, s, nodata32{})
		}
	})
}
