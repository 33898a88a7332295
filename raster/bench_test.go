package raster

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/geodisaster/engine/raster/geotiff"

	"github.com/geodisaster/engine/raster/internal/codec/codectest"
)

// cpuTime returns the process's user+system CPU time: on a shared machine
// it is a steadier measure than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds a cpu-s/op metric measured since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric((cpuTime()-start).Seconds()/float64(b.N), "cpu-s/op")
}

// bigBenchEnv names the 8192x8192 float32 DEFLATE/predictor-3 GeoTIFF used
// by the decode benchmarks (conformance/raster/perf.sh builds it); the benchmarks skip
// when it is absent.
const bigBenchEnv = "GEODISASTER_BENCH_TIFF"

func benchFile(b *testing.B) string {
	p := os.Getenv(bigBenchEnv)
	if p == "" {
		p = "/tmp/geodisaster-raster-perf/big_deflate_p3.tif"
	}
	if _, err := os.Stat(p); err != nil {
		b.Skipf("corpus absent: %s (set %s)", p, bigBenchEnv)
	}
	return p
}

// BenchmarkReadBandBig decodes a whole large band (GDAL ReadAsArray's job).
func BenchmarkReadBandBig(b *testing.B) {
	benchBig(b, func(d *Dataset) error {
		_, err := d.ReadBand(context.Background(), 1)
		return err
	})
}

// BenchmarkStatisticsBig decodes a large band and computes GDAL's exact
// statistics (gdalinfo -stats' job).
func BenchmarkStatisticsBig(b *testing.B) {
	benchBig(b, func(d *Dataset) error {
		_, err := d.Statistics(context.Background(), 1)
		return err
	})
}

// benchBig runs op on the large benchmark file's dataset, reporting its
// band's bytes per second and CPU time.
func benchBig(b *testing.B, op func(d *Dataset) error) {
	d, err := Open(benchFile(b))
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	b.SetBytes(int64(d.Width() * d.Height() * d.DataType().Size()))
	b.ResetTimer()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		if err := op(d); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

// benchSmall returns an in-memory GeoTIFF of the given compression for
// codec micro-benchmarks.
func benchSmall(b *testing.B, comp string, pred int) *Dataset {
	band, err := NewBand(1024, 1024, Float32)
	if err != nil {
		b.Fatal(err)
	}
	s := band.Data.([]float32)
	for i := range s {
		s[i] = float32((i*7919)%1000)/10 + float32(i%1024)*0.01
	}
	return openTIFF(b, Write, []*Band{band}, WriteOptions{Compression: comp, Predictor: pred, TileSize: 256})
}

func benchDecode(b *testing.B, comp string, pred int) {
	d := benchSmall(b, comp, pred)
	b.SetBytes(1024 * 1024 * 4)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := d.ReadBand(context.Background(), 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeDeflateP3(b *testing.B) { benchDecode(b, "deflate", 3) }
func BenchmarkDecodeDeflateP2(b *testing.B) { benchDecode(b, "deflate", 2) }
func BenchmarkDecodeZstdP3(b *testing.B)    { benchDecode(b, "zstd", 3) }
func BenchmarkDecodeNone(b *testing.B)      { benchDecode(b, "none", 1) }

func BenchmarkStatisticsFloat32(b *testing.B) {
	band, _ := NewBand(2048, 2048, Float32)
	s := band.Data.([]float32)
	for i := range s {
		s[i] = float32(i%1000) / 7
	}
	b.SetBytes(int64(len(s) * 4))
	for i := 0; i < b.N; i++ {
		if _, err := computeBandStatistics(band, 512, 512, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHugeStrip reads a 4160 x 4160 uint8 image stored as one strip
// (16.5 MiB, over the streaming threshold), uncompressed and DEFLATE,
// streamed (the default) and decoded whole (the path of smaller blocks),
// side by side.
func BenchmarkHugeStrip(b *testing.B) {
	const n = 4160
	px := make([]byte, n*n)
	for i := range px {
		px[i] = byte(i%n*3 + i/n*5)
	}
	for _, c := range []struct {
		name string
		comp uint16
		data []byte
	}{{"none", geotiff.CompressionNone, px}, {"deflate", geotiff.CompressionDeflate, codectest.ZlibCompress(b, px, 6)}} {
		file := craftTIFF(stripEntries(n, n, n, c.comp, []uint32{8}, []uint32{uint32(len(c.data))}), c.data)
		for _, mode := range []struct {
			name  string
			above int64
		}{{"streamed", 0}, {"whole", 1 << 40}} {
			b.Run(c.name+"/"+mode.name, func(b *testing.B) {
				d, err := openBytes(file)
				if err != nil {
					b.Fatal(err)
				}
				d.SetLimits(Limits{streamAbove: mode.above})
				b.SetBytes(n * n)
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if _, err := d.ReadBand(context.Background(), 1); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkDecodeLZW decodes rasterio's world.byte.tif (2880 x 1200
// uint8, LZW, tiled) from ../shared/data.
func BenchmarkDecodeLZW(b *testing.B) {
	p := "../../shared/data/rasterio/world.byte.tif"
	if _, err := os.Stat(p); err != nil {
		b.Skipf("corpus absent: %s", p)
	}
	d, err := Open(p)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	b.SetBytes(int64(d.Width() * d.Height()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.ReadBand(context.Background(), 1); err != nil {
			b.Fatal(err)
		}
	}
}
