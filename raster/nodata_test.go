package raster

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/geodisaster/engine/raster/geotiff"
)

// nodataTable is raster/testdata/gdal_nodata_text.json, written by
// conformance/raster/gen_nodata.py with GDAL 3.6.2.
const nodataTable = "testdata/gdal_nodata_text.json"

type nodataCase struct {
	BPS          int       `json:"bps"`
	SF           int       `json:"sf"`
	Text         string    `json:"text"`
	Data         string    `json:"data"`
	NoData       *string   `json:"nodata"`
	Stats        []*string `json:"stats"`
	ValidPercent float64   `json:"valid_percent"`
}

type nodataGolden struct {
	GDAL  string       `json:"gdal"`
	Cases []nodataCase `json:"cases"`
}

func loadNodataTable(t *testing.T, b []byte) nodataGolden {
	t.Helper()
	var g nodataGolden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) == 0 {
		t.Fatal("no cases")
	}
	return g
}

// parseGoldenFloat reads float.hex output, "nan", "inf" or "-inf".
func parseGoldenFloat(t *testing.T, s string) float64 {
	t.Helper()
	switch s {
	case "nan":
		return math.NaN()
	case "inf":
		return math.Inf(1)
	case "-inf":
		return math.Inf(-1)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("golden value %q: %v", s, err)
	}
	return v
}

// nodataTIFF rebuilds gen_nodata.py's file: a 10 x 1 uncompressed strip.
func nodataTIFF(t *testing.T, c nodataCase) []byte {
	data, err := hex.DecodeString(c.Data)
	if err != nil {
		t.Fatal(err)
	}
	es := stripEntries(10, 1, 1, 1, []uint32{8}, []uint32{uint32(len(data))})
	es[2] = geotiff.ShortsEntry(geotiff.TagBitsPerSample, uint16(c.BPS))
	es = withEntry(es, geotiff.ShortsEntry(geotiff.TagSamplesPerPixel, 1))
	es = withEntry(es, geotiff.ShortsEntry(geotiff.TagSampleFormat, uint16(c.SF)))
	es = withEntry(es, geotiff.ASCIIEntry(geotiff.TagGDALNoData, c.Text))
	return craftTIFF(es, data)
}

// TestNoDataAsGDALReadsIt requires the nodata value of every text x sample
// type of the GDAL table to be the one GDAL reports, bit for bit, and the
// statistics GDAL computes with it (which nodata they exclude) to match.
func TestNoDataAsGDALReadsIt(t *testing.T) {
	b, err := os.ReadFile(nodataTable)
	if err != nil {
		t.Fatal(err)
	}
	g := loadNodataTable(t, b)
	for _, c := range g.Cases {
		d, err := openBytes(nodataTIFF(t, c))
		if err != nil {
			t.Fatalf("%d-bit sf %d %q: %v", c.BPS, c.SF, c.Text, err)
		}
		v, ok := d.NoData()
		switch {
		case c.NoData == nil:
			if ok {
				t.Errorf("%d-bit sf %d %q: nodata %v, GDAL has none", c.BPS, c.SF, c.Text, v)
			}
		case !ok:
			t.Errorf("%d-bit sf %d %q: no nodata, GDAL %s", c.BPS, c.SF, c.Text, *c.NoData)
		default:
			w := parseGoldenFloat(t, *c.NoData)
			if !(math.IsNaN(w) && math.IsNaN(v)) && math.Float64bits(w) != math.Float64bits(v) {
				t.Errorf("%d-bit sf %d %q: nodata %v (%x), GDAL %v (%s)", c.BPS, c.SF, c.Text, v, math.Float64bits(v), w, *c.NoData)
			}
		}
		st, err := d.Statistics(context.Background(), 1)
		if c.Stats == nil {
			if err == nil {
				t.Errorf("%d-bit sf %d %q: statistics %+v, GDAL found no valid sample", c.BPS, c.SF, c.Text, st)
			}
			continue
		}
		if err != nil {
			t.Errorf("%d-bit sf %d %q: %v", c.BPS, c.SF, c.Text, err)
			continue
		}
		got := []float64{st.Min, st.Max, st.Mean, st.StdDev}
		for k := range got {
			if w := parseGoldenFloat(t, *c.Stats[k]); got[k] != w {
				t.Errorf("%d-bit sf %d %q: statistics %v, GDAL %s %s %s %s (valid %v%%)", c.BPS, c.SF, c.Text, got,
					*c.Stats[0], *c.Stats[1], *c.Stats[2], *c.Stats[3], c.ValidPercent)
				break
			}
		}
		if vp := 100 * float64(st.Valid) / 10; vp != c.ValidPercent {
			t.Errorf("%d-bit sf %d %q: valid %v%%, GDAL %v%%", c.BPS, c.SF, c.Text, vp, c.ValidPercent)
		}
	}
}

// TestNoDataTableIsGDALs regenerates the table with GDAL itself and
// requires it to equal the committed one.
func TestNoDataTableIsGDALs(t *testing.T) {
	requireGDALPython(t)
	want, err := os.ReadFile(nodataTable)
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile("../conformance/raster/gen_nodata.py")
	if err != nil {
		t.Fatal(err)
	}
	got := runGDALPython(t, string(script))
	if !bytes.Equal(got, want) {
		t.Errorf("GDAL reads nodata texts differently from %s; regenerate it with conformance/raster/gen_nodata.py", nodataTable)
	}
}

// TestFloat32NoData is the case: GDAL writes -3.39999999999999996e+38
// for SetNoDataValue(-3.4e38) on a Float32 band and reads back
// -3.3999999521443642e+38, which masks the samples equal to float32(-3.4e38).
func TestFloat32NoData(t *testing.T) {
	nd := -3.4e38
	b, err := NewBand(3, 1, Float32)
	if err != nil {
		t.Fatal(err)
	}
	copy(b.Data.([]float32), []float32{float32(nd), 1, 2})
	var buf bytes.Buffer
	if err := Write(&buf, []*Band{b}, WriteOptions{NoData: &nd}); err != nil {
		t.Fatal(err)
	}
	es := withEntry(stripEntries(3, 1, 1, 1, []uint32{8}, []uint32{12}), geotiff.ASCIIEntry(geotiff.TagGDALNoData, "-3.39999999999999996e+38"))
	es[2] = geotiff.ShortsEntry(geotiff.TagBitsPerSample, 32)
	es = withEntry(es, geotiff.ShortsEntry(geotiff.TagSampleFormat, 3))
	px := buf.Bytes() // any bytes: only the tag is read here
	gdalWritten := craftTIFF(es, make([]byte, 12))
	for name, f := range map[string][]byte{"engine-written": px, "GDAL-written": gdalWritten} {
		d, err := openBytes(f)
		if err != nil {
			t.Fatal(err)
		}
		v, ok := d.NoData()
		if !ok || v != -3.3999999521443642e+38 {
			t.Errorf("%s: nodata %v, GDAL reads -3.3999999521443642e+38", name, v)
		}
	}
	d, _ := openBytes(px)
	st, err := d.Statistics(context.Background(), 1)
	if err != nil || st.Valid != 2 || st.Min != 1 {
		t.Errorf("statistics %+v (%v): the float32(-3.4e38) sample must be masked", st, err)
	}
	if NoDataValue(Float32, nd) != -3.3999999521443642e+38 || NoDataValue(Int16, 2.5) != 2.5 {
		t.Error("NoDataValue")
	}
}
