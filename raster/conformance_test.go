package raster

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	goldens "github.com/geodisaster/engine/internal/golden"
)

// compactCorpus is the committed conformance corpus built by
// conformance/raster/gen.py from small windows of ../shared/data.
const compactCorpus = "../conformance/raster/testdata"

// fullCorpusEnv names an optional directory holding the full generated
// corpus (gen.py --full); defaultFullCorpus is used when it is unset.
const (
	fullCorpusEnv     = "GEODISASTER_RASTER_FULL"
	defaultFullCorpus = "/tmp/geodisaster-raster-full"
)

// golden is one file's record in goldens.json.
type golden struct {
	Width        int          `json:"width"`
	Height       int          `json:"height"`
	Count        int          `json:"count"`
	DType        string       `json:"dtype"`
	Transform    []float64    `json:"transform"`
	EPSG         int          `json:"epsg"`
	NoData       *string      `json:"nodata"`
	Descriptions []string     `json:"descriptions"`
	BandSHA256   []string     `json:"band_sha256"`
	Compression  string       `json:"compression"`
	Lossy        bool         `json:"lossy"`
	Ref          string       `json:"ref"`
	Options      string       `json:"options"`
	Block        [2]int       `json:"block"`
	Stats        [][]*float64 `json:"stats"`
	// Overviews is GDAL's overview count (gen_realworld.py only).
	Overviews *int `json:"overviews"`
}

type goldenFile struct {
	GDAL  string            `json:"gdal"`
	Mode  string            `json:"mode"`
	Files map[string]golden `json:"files"`
}

func loadGoldens(t *testing.T, dir string) goldenFile {
	t.Helper()
	var g goldenFile
	goldens.Load(t, filepath.Join(dir, "goldens.json"), &g)
	if len(g.Files) == 0 {
		t.Fatalf("%s/goldens.json lists no files", dir)
	}
	return g
}

// lossyTolerance is the largest per-sample difference from GDAL's
// libjpeg/libwebp decode accepted for lossy variants: none, the JPEG and
// WebP decoders reproduce libjpeg's islow IDCT and upsampling and libwebp's
// conversion exactly.
const lossyTolerance = 0

func TestConformanceCompact(t *testing.T) {
	runConformance(t, compactCorpus)
}

// TestConformanceCompactStreamed decodes the compact corpus with every
// strip and tile streamed (the path of blocks over 16 MiB) and requires
// the same pixels and statistics as GDAL's.
func TestConformanceCompactStreamed(t *testing.T) {
	g := loadGoldens(t, compactCorpus)
	for _, name := range sortedNames(g) {
		want := g.Files[name]
		t.Run(name, func(t *testing.T) {
			checkGoldenWith(t, filepath.Join(compactCorpus, name), want, filepath.Join(compactCorpus, want.Ref),
				func(d *Dataset) { d.SetLimits(Limits{streamAbove: 1}) })
		})
	}
}

func sortedNames(g goldenFile) []string {
	names := make([]string, 0, len(g.Files))
	for n := range g.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func TestConformanceFull(t *testing.T) {
	dir := os.Getenv(fullCorpusEnv)
	if dir == "" {
		dir = defaultFullCorpus
	}
	if _, err := os.Stat(filepath.Join(dir, "goldens.json")); err != nil {
		t.Skipf("corpus absent: %s (build it with conformance/raster/gen.py --full --out %s)", dir, dir)
	}
	runConformance(t, dir)
}

func runConformance(t *testing.T, dir string) {
	g := loadGoldens(t, dir)
	names := make([]string, 0, len(g.Files))
	for n := range g.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		want := g.Files[name]
		t.Run(name, func(t *testing.T) {
			checkGolden(t, filepath.Join(dir, name), want, filepath.Join(dir, want.Ref))
		})
	}
}

func checkGolden(t *testing.T, path string, want golden, ref string) {
	checkGoldenWith(t, path, want, ref, nil)
}

// checkGoldenWith is checkGolden with setup applied to the dataset before
// it is read; the streaming statistics are checked as well.
func checkGoldenWith(t *testing.T, path string, want golden, ref string, setup func(*Dataset)) {
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if setup != nil {
		setup(d)
	}
	if d.Width() != want.Width || d.Height() != want.Height || d.Count() != want.Count || d.DataType().String() != want.DType {
		t.Fatalf("got %dx%d x%d %v, want %dx%d x%d %s", d.Width(), d.Height(), d.Count(), d.DataType(), want.Width, want.Height, want.Count, want.DType)
	}
	gt, ok := d.Transform()
	if (want.Transform != nil) != ok {
		t.Errorf("has transform %v, want %v", ok, want.Transform != nil)
	} else if ok {
		for i := range gt {
			if gt[i] != want.Transform[i] {
				t.Errorf("transform %v, want %v", gt, want.Transform)
				break
			}
		}
	}
	if d.EPSG() != want.EPSG {
		t.Errorf("EPSG %d, want %d", d.EPSG(), want.EPSG)
	}
	nd, hasND := d.NoData()
	if (want.NoData != nil) != hasND {
		t.Errorf("has nodata %v, want %v", hasND, want.NoData != nil)
	} else if hasND {
		w, err := strconv.ParseFloat(*want.NoData, 64)
		if err != nil {
			t.Fatal(err)
		}
		if !sameFloat(w, nd) {
			t.Errorf("nodata %v, want %v", nd, w)
		}
	}
	if want.Overviews != nil && want.Compression != "JPEG" { // GDAL adds implicit JPEG overviews
		if got := d.Structure().Overviews; got != *want.Overviews {
			t.Errorf("%d overviews, GDAL %d", got, *want.Overviews)
		}
	}
	for i, desc := range want.Descriptions {
		if got := d.BandDescription(i + 1); got != desc {
			t.Errorf("band %d description %q, want %q", i+1, got, desc)
		}
	}
	bands, err := d.ReadAll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want.Lossy {
		rd, err := Open(ref)
		if err != nil {
			t.Fatal(err)
		}
		defer rd.Close()
		refBands, err := rd.ReadAll(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		maxDiff, nDiff := 0.0, 0
		for i := range bands {
			for k := 0; k < bands[i].Len(); k++ {
				if df := math.Abs(bands[i].At(k) - refBands[i].At(k)); df > 0 {
					nDiff++
					maxDiff = math.Max(maxDiff, df)
				}
			}
		}
		t.Logf("lossy %s: max |Go-GDAL| = %v, %d of %d samples differ", want.Compression, maxDiff, nDiff, len(bands)*bands[0].Len())
		if maxDiff > lossyTolerance {
			t.Errorf("max difference %v exceeds %v", maxDiff, lossyTolerance)
		}
	}
	for i, b := range bands {
		if got := bandSHA256(b); got != want.BandSHA256[i] {
			t.Errorf("band %d sha256 %s, want %s", i+1, got, want.BandSHA256[i])
		}
		if i < len(want.Stats) {
			checkStats(t, d, b, i+1, want.Stats[i])
			if setup != nil {
				checkStreamStats(t, d, i+1, want.Stats[i])
			}
		}
	}
}

// checkStats compares our statistics with GDAL's ComputeStatistics,
// bit for bit; want is [min, max, mean, std, valid%] or nil.
func checkStats(t *testing.T, d *Dataset, b *Band, band int, want []*float64) {
	t.Helper()
	st, err := d.Statistics(context.Background(), band, FromPixels(b))
	compareStats(t, "statistics", st, err, band, want)
	if want != nil && want[4] != nil && err == nil {
		if vp, _ := strconv.ParseFloat(st.Metadata()["STATISTICS_VALID_PERCENT"], 64); vp != *want[4] {
			t.Errorf("band %d valid percent %v, GDAL %v", band, st.ValidPercent, *want[4])
		}
	}
}

// checkStreamStats compares Statistics (computed without holding the
// band) with GDAL's, like checkStats.
func checkStreamStats(t *testing.T, d *Dataset, band int, want []*float64) {
	t.Helper()
	st, err := d.Statistics(context.Background(), band)
	compareStats(t, "streaming statistics", st, err, band, want)
}

// compareStats requires st (or err) to be GDAL's [min, max, mean, std]
// (nil: GDAL found no valid pixel).
func compareStats(t *testing.T, what string, st Statistics, err error, band int, want []*float64) {
	t.Helper()
	if want == nil {
		if err == nil {
			t.Errorf("band %d: %s %+v, GDAL found no valid pixels", band, what, st)
		}
		return
	}
	if err != nil {
		t.Errorf("band %d: %s: %v", band, what, err)
		return
	}
	got := []float64{st.Min, st.Max, st.Mean, st.StdDev}
	for k, g := range got {
		if want[k] == nil || g != *want[k] {
			t.Errorf("band %d %s [min max mean std] = %v, GDAL %v %v %v %v", band, what, got, *want[0], *want[1], *want[2], *want[3])
			break
		}
	}
}

// TestStreamingStatistics checks that the streaming statistics equal the
// in-memory ones on every compact corpus file.
func TestStreamingStatistics(t *testing.T) {
	g := loadGoldens(t, compactCorpus)
	for name := range g.Files {
		d, err := Open(filepath.Join(compactCorpus, name))
		if err != nil {
			t.Fatal(err)
		}
		for b := 1; b <= d.Count(); b++ {
			band, err := d.ReadBand(context.Background(), b)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, werr := d.Statistics(context.Background(), b, FromPixels(band))
			got, gerr := d.Statistics(context.Background(), b)
			if (werr == nil) != (gerr == nil) || got.Min != want.Min || got.Max != want.Max || got.Mean != want.Mean || got.StdDev != want.StdDev || got.Valid != want.Valid {
				t.Errorf("%s band %d: streaming %+v (%v), in memory %+v (%v)", name, b, got, gerr, want, werr)
			}
		}
		d.Close()
	}
}

// realWorldEnv names a directory holding the corpus of
// conformance/raster/gen_realworld.py; without it the test builds the
// corpus with GDAL and rasterio in a temporary directory.
const realWorldEnv = "GEODISASTER_RASTER_REALWORLD"

// TestRealWorldCorpus decodes a held-out corpus of real-world-style
// GeoTIFFs written by rasterio, gdal_translate, gdalwarp, gdaladdo and the
// COG driver from ../shared/data (nodata as products carry it, overviews,
// masks, palettes, rotated and PixelIsPoint grids, BigTIFF, big-endian, a
// strip over the streaming threshold) and requires pixels, statistics,
// georeferencing, nodata and overview counts to equal GDAL's.
func TestRealWorldCorpus(t *testing.T) {
	dir := os.Getenv(realWorldEnv)
	if dir == "" {
		if _, err := os.Stat("../../shared/data/rasterio/RGB.byte.tif"); err != nil {
			t.Skipf("corpus absent: ../../shared/data (%v)", err)
		}
		requireGDALPython(t)
		if err := exec.Command(gdalPython, "-c", "import rasterio").Run(); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatal("CI=true but python3-rasterio is missing")
			}
			t.Skip("rasterio absent")
		}
		dir = t.TempDir()
		cmd := exec.Command(gdalPython, "../conformance/raster/gen_realworld.py", "--data", "../../shared/data", "--out", dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("gen_realworld.py: %v\n%s", err, out)
		}
	}
	g := loadGoldens(t, dir)
	for _, name := range sortedNames(g) {
		want := g.Files[name]
		t.Run(name, func(t *testing.T) {
			checkGolden(t, filepath.Join(dir, name), want, filepath.Join(dir, want.Ref))
		})
	}
	t.Logf("%d real-world-style files equal GDAL %s", len(g.Files), g.GDAL)
}
