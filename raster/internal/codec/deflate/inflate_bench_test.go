package deflate

import (
	"encoding/binary"
	"math"
	"math/rand"
	"testing"

	"github.com/geodisaster/engine/raster/internal/codec/codectest"
)

// A smallTile is a zlib stream and its decoded size.
type smallTile struct {
	z []byte
	n int
}

// smallTiles returns zlib streams shaped like the synthetic corpus's
// tiles (one 256x256 tile per band of a 240x221 raster): uint16 bands
// after predictor 2 (small differences of a smooth surface plus noise)
// and float32 bands after predictor 3 (byte planes of noisy backscatter,
// the low planes nearly random), at zlib level 6 as GDAL writes them.
func smallTiles(tb testing.TB) (tiles []smallTile) {
	r := rand.New(rand.NewSource(3))
	const n = 256 * 256
	for k := 0; k < 6; k++ {
		u := make([]byte, 2*n)
		var last uint16
		for i := 0; i < n; i++ {
			x, y := float64(i%256), float64(i/256)
			v := uint16(1200 + 400*math.Sin(x/37+float64(k))*math.Cos(y/23) + 30*r.NormFloat64())
			binary.LittleEndian.PutUint16(u[2*i:], v-last)
			last = v
		}
		tiles = append(tiles, smallTile{codectest.ZlibCompress(tb, u, 6), len(u)})
	}
	for k := 0; k < 2; k++ {
		f := make([]byte, 4*n)
		for i := 0; i < n; i++ {
			b := math.Float32bits(float32(-12 + 3*r.NormFloat64()))
			for p := 0; p < 4; p++ {
				f[p*n+i] = byte(b >> (24 - 8*p))
			}
		}
		for i := len(f) - 1; i > 0; i-- {
			f[i] -= f[i-1]
		}
		tiles = append(tiles, smallTile{codectest.ZlibCompress(tb, f, 6), len(f)})
	}
	return tiles
}

// BenchmarkInflateSmallTiles decodes corpus-like tiles one after another
// with one inflater, as a reader does: per-block table building counts as
// much as the symbol loop.
func BenchmarkInflateSmallTiles(b *testing.B) {
	tiles := smallTiles(b)
	dst := make([]byte, 4*256*256)
	var f inflater
	total := 0
	for _, t := range tiles {
		total += t.n
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range tiles {
			if err := f.Decode(t.z, dst[:t.n]); err != nil {
				b.Fatal(err)
			}
		}
	}
}
