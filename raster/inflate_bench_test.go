package raster

import (
	"bytes"
	"compress/zlib"
	"context"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/geodisaster/engine/raster/geotiff"

	"github.com/geodisaster/engine/raster/internal/codec/deflate"
	"github.com/geodisaster/engine/raster/internal/tiff"
)

// benchTile is one compressed TIFF block and its decoded size.
type benchTile struct {
	raw []byte
	n   int
}

// s1Tiles returns the DEFLATE/predictor-3 tiles of the real Sentinel-1
// chip as the portable S1 input stores them (256x256 float32 tiles, NaN
// replaced by -9999), or nil when the shared data is absent.
var s1Tiles = sync.OnceValue(func() []benchTile {
	b, err := os.ReadFile(filepath.Join(sharedData, "sen1floods11", "Spain_7370579", "S1Hand.tif"))
	if err != nil {
		return nil
	}
	ds, err := OpenReaderAt(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil
	}
	var bands []*Band
	for i := 1; i <= ds.Count(); i++ {
		band, err := ds.ReadBand(context.Background(), i)
		if err != nil {
			return nil
		}
		s := band.Data.([]float32)
		for k, v := range s {
			if math.IsNaN(float64(v)) {
				s[k] = -9999
			}
		}
		bands = append(bands, band)
	}
	return tilesOf(bands, 3)
})

// tilesOf writes bands as a DEFLATE GeoTIFF with 256x256 tiles and the
// given predictor and returns its raw tiles.
func tilesOf(bands []*Band, pred int) []benchTile {
	nd := -9999.0
	var buf bytes.Buffer
	if err := Write(&buf, bands, WriteOptions{Compression: "deflate", Predictor: pred, TileSize: 256, NoData: &nd}); err != nil {
		return nil
	}
	d, err := OpenReaderAt(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		return nil
	}
	bw, bh := d.img.BlockSize()
	n := bw * bh * d.img.BlockSamples() * d.DataType().Size()
	offsets, counts := storedBlocks(d)
	var out []benchTile
	for i := range offsets {
		out = append(out, benchTile{raw: buf.Bytes()[offsets[i] : offsets[i]+counts[i]], n: n})
	}
	return out
}

// synthFloatTiles returns predictor-3 tiles of smooth float32 data with
// noise, a stand-in for radar backscatter when the real chip is absent.
func synthFloatTiles() []benchTile {
	return synthTiles(7, Float32, 3, func(x, y float64, r *rand.Rand) float64 {
		return 0.05 + 0.02*math.Sin(x/40)*math.Cos(y/30) + 0.01*r.NormFloat64()
	})
}

// synthIntTiles returns predictor-2 tiles of uint16 data (a DEM-like
// surface).
func synthIntTiles() []benchTile {
	return synthTiles(8, Uint16, 2, func(x, y float64, r *rand.Rand) float64 {
		return 1000 + 300*math.Sin(x/50)*math.Cos(y/70) + float64(r.Intn(4))
	})
}

// synthTiles returns the tiles, written with predictor pred, of a 512x512
// band of type t whose sample at (x, y) is at(x, y, r) converted to t,
// with r seeded by seed.
func synthTiles(seed int64, t DataType, pred int, at func(x, y float64, r *rand.Rand) float64) []benchTile {
	r := rand.New(rand.NewSource(seed))
	band, _ := NewBand(512, 512, t)
	for i := 0; i < band.Len(); i++ {
		band.Set(i, at(float64(i%512), float64(i/512), r))
	}
	return tilesOf([]*Band{band}, pred)
}

func benchInflate(b *testing.B, tiles []benchTile, std bool) {
	if len(tiles) == 0 {
		b.Skip("no tiles (shared data absent)")
	}
	total := 0
	maxN := 0
	for _, t := range tiles {
		total += t.n
		maxN = max(maxN, t.n)
	}
	dst := make([]byte, maxN)
	b.SetBytes(int64(total))
	b.ReportAllocs()
	f := deflate.Codec(geotiff.CompressionDeflate).NewDecoder()
	var zr io.ReadCloser
	var br bytes.Reader
	b.ResetTimer()
	start := cpuTime()
	defer func() { reportCPU(b, start) }()
	for i := 0; i < b.N; i++ {
		for _, t := range tiles {
			if !std {
				if err := f.Decode(t.raw, dst[:t.n]); err != nil {
					b.Fatal(err)
				}
				continue
			}
			br.Reset(t.raw)
			var err error
			if zr == nil {
				zr, err = zlib.NewReader(&br)
			} else {
				err = zr.(zlib.Resetter).Reset(&br, nil)
			}
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.ReadFull(zr, dst[:t.n]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkInflateS1 decodes every tile of the real S1 chip with our
// inflater; BenchmarkInflateS1Stdlib does the same with compress/zlib.
func BenchmarkInflateS1(b *testing.B)          { benchInflate(b, s1Tiles(), false) }
func BenchmarkInflateS1Stdlib(b *testing.B)    { benchInflate(b, s1Tiles(), true) }
func BenchmarkInflateFloat(b *testing.B)       { benchInflate(b, synthFloatTiles(), false) }
func BenchmarkInflateFloatStdlib(b *testing.B) { benchInflate(b, synthFloatTiles(), true) }
func BenchmarkInflateInt(b *testing.B)         { benchInflate(b, synthIntTiles(), false) }
func BenchmarkInflateIntStdlib(b *testing.B)   { benchInflate(b, synthIntTiles(), true) }

// BenchmarkInflateS1Tile decodes and un-predicts the S1 tiles as a read
// does (inflate, then predictor 3 row by row).
func BenchmarkInflateS1Tile(b *testing.B) {
	tiles := s1Tiles()
	if len(tiles) == 0 {
		b.Skip("shared data absent")
	}
	total := 0
	for _, t := range tiles {
		total += t.n
	}
	dst := make([]byte, tiles[0].n)
	out := make([]byte, tiles[0].n)
	b.SetBytes(int64(total))
	f := deflate.Codec(geotiff.CompressionDeflate).NewDecoder()
	rowLen := 256 * 4
	b.ResetTimer()
	start := cpuTime()
	defer func() { reportCPU(b, start) }()
	for i := 0; i < b.N; i++ {
		for _, t := range tiles {
			if err := f.Decode(t.raw, dst[:t.n]); err != nil {
				b.Fatal(err)
			}
			for r := 0; r+rowLen <= t.n; r += rowLen {
				tiff.UndoFloatRow(dst[r:r+rowLen], out[r:r+rowLen], 0, 4)
			}
		}
	}
}

// BenchmarkUndoFloatRow undoes predictor 3 on the S1 chip's rows (or
// synthetic ones): the floating-point predictor's share of a tile read.
func BenchmarkUndoFloatRow(b *testing.B) {
	tiles := s1Tiles()
	if len(tiles) == 0 {
		tiles = synthFloatTiles()
	}
	f := deflate.Codec(geotiff.CompressionDeflate).NewDecoder()
	raw := make([]byte, tiles[0].n)
	if err := f.Decode(tiles[0].raw, raw); err != nil {
		b.Fatal(err)
	}
	rowLen := 256 * 4
	row := make([]byte, len(raw))
	out := make([]byte, len(raw))
	b.SetBytes(int64(len(raw)))
	start := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copy(row, raw)
		for r := 0; r+rowLen <= len(row); r += rowLen {
			tiff.UndoFloatRow(row[r:r+rowLen], out[r:r+rowLen], 0, 4)
		}
	}
	reportCPU(b, start)
}

// BenchmarkUndoHorizontal undoes predictor 2 on uint8 and uint16 rows.
func BenchmarkUndoHorizontal(b *testing.B) {
	for _, size := range []int{1, 2} {
		b.Run(strconv.Itoa(8*size)+"bit", func(b *testing.B) {
			buf := make([]byte, 256*256*size)
			rand.New(rand.NewSource(1)).Read(buf)
			b.SetBytes(int64(len(buf)))
			for i := 0; i < b.N; i++ {
				tiff.UndoHorizontal(buf, 256*size, 256, 1, size)
			}
		})
	}
}

// BenchmarkUndoHorizontalRow undoes predictor 2 on uint8 and uint16 rows
// straight into an output buffer, as a tile read into a band does.
func BenchmarkUndoHorizontalRow(b *testing.B) {
	for _, size := range []int{1, 2} {
		b.Run(strconv.Itoa(8*size)+"bit", func(b *testing.B) {
			buf := make([]byte, 256*256*size)
			rand.New(rand.NewSource(1)).Read(buf)
			out := make([]byte, len(buf))
			rowLen := 256 * size
			b.SetBytes(int64(len(buf)))
			for i := 0; i < b.N; i++ {
				for r := 0; r < len(buf); r += rowLen {
					tiff.UndoHorizontalRow(buf[r:r+rowLen], out[r:r+rowLen], 0, size)
				}
			}
		})
	}
}

// storedBlocks returns the offsets and byte counts of the image's strips
// or tiles as the file's directory lists them.
func storedBlocks(d *Dataset) (offsets, counts []uint64) {
	f := d.img.IFD()
	offsets, _ = f.Uints(geotiff.TagTileOffsets)
	counts, _ = f.Uints(geotiff.TagTileByteCounts)
	if offsets == nil {
		offsets, _ = f.Uints(geotiff.TagStripOffsets)
		counts, _ = f.Uints(geotiff.TagStripByteCounts)
	}
	return offsets, counts
}

// corpusBenchEnv names a synthesized corpus root (geodisaster synth
// --full) whose GeoTIFFs the corpus benchmarks decode; they skip when it
// is unset.
const corpusBenchEnv = "GEODISASTER_BENCH_CORPUS"

// corpusFile is one GeoTIFF of the corpus, its bytes in memory.
type corpusFile struct {
	name string
	data []byte
}

// corpusFiles returns the first perName GeoTIFFs (in path order) of each
// file name under the corpus root: the mix of band types, predictors and
// sizes a replay decodes.
var corpusFiles = sync.OnceValues(func() ([]corpusFile, error) {
	root := os.Getenv(corpusBenchEnv)
	if root == "" {
		return nil, nil
	}
	const perName = 4
	seen := map[string]int{}
	var out []corpusFile
	err := filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || filepath.Ext(p) != ".tif" || seen[e.Name()] >= perName {
			return err
		}
		seen[e.Name()]++
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out = append(out, corpusFile{p, b})
		return nil
	})
	return out, err
})

func corpusOrSkip(b *testing.B) []corpusFile {
	files, err := corpusFiles()
	if err != nil {
		b.Fatal(err)
	}
	if len(files) == 0 {
		b.Skipf("no corpus (set %s to a synth --full root)", corpusBenchEnv)
	}
	return files
}

// BenchmarkInflateCorpus inflates every stored block of the corpus
// sample, one inflater for all (the codec's share of a replay's reads).
func BenchmarkInflateCorpus(b *testing.B) {
	var tiles []benchTile
	for _, f := range corpusOrSkip(b) {
		d, err := OpenReaderAt(bytes.NewReader(f.data), int64(len(f.data)))
		if err != nil {
			b.Fatal(err)
		}
		if c := d.img.Compression(); c != geotiff.CompressionDeflate {
			continue
		}
		bw, _ := d.img.BlockSize()
		across, down := d.img.Blocks()
		offsets, counts := storedBlocks(d)
		for i := range offsets {
			rows := d.img.BlockRows(i % (across * down) / across)
			n := bw * rows * d.img.BlockSamples() * d.DataType().Size()
			tiles = append(tiles, benchTile{raw: f.data[offsets[i] : offsets[i]+counts[i]], n: n})
		}
	}
	benchInflate(b, tiles, false)
}

// BenchmarkReadCorpus reads every band of each corpus sample file held in
// memory, as a replay's records do (inflate, predictor, copy into the
// bands), opened with OpenReaderAt on a bytes.Reader and with OpenBytes.
func BenchmarkReadCorpus(b *testing.B) {
	files := corpusOrSkip(b)
	for _, c := range []struct {
		name string
		open func([]byte) (*Dataset, error)
	}{{"ReaderAt", openBytes}, {"Bytes", OpenBytes}} {
		b.Run(c.name, func(b *testing.B) {
			var ds []*Dataset
			total := 0
			for _, f := range files {
				d, err := c.open(f.data)
				if err != nil {
					b.Fatal(err)
				}
				ds = append(ds, d)
				total += d.Width() * d.Height() * d.Count() * d.DataType().Size()
			}
			b.SetBytes(int64(total))
			b.ResetTimer()
			start := cpuTime()
			for i := 0; i < b.N; i++ {
				for _, d := range ds {
					if _, err := d.ReadAll(context.Background()); err != nil {
						b.Fatal(err)
					}
				}
			}
			reportCPU(b, start)
		})
	}
}
