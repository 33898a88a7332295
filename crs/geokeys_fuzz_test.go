package crs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// geoKeyCase is a GeoKey directory with whether libgeotiff refuses it (and
// so GDAL ignores the keys with "GeoTIFF tags apparently corrupt").
type geoKeyCase struct {
	name    string
	dir     []uint16
	doubles []float64
	ascii   string
	refused bool
	// unread: libgeotiff reads past the tag's values (its buffer is
	// reallocated to 1004 SHORTs), so what GDAL does depends on memory
	// contents; ParseGeoKeyDirectory refuses.
	unread bool
}

// ud is the user-defined LCC directory the cases below damage: two keys
// in GeoDoubleParams, one in GeoAsciiParams.
var udLCC = []uint16{1, 1, 0, 8,
	1024, 0, 1, 1,
	1026, 34737, 8, 0,
	2048, 0, 1, 4326,
	3072, 0, 1, 32767,
	3074, 0, 1, 32767,
	3075, 0, 1, 8,
	3078, 34736, 1, 0,
	3079, 34736, 1, 1,
}

// manyKeys is a directory of n keys stored in the directory itself.
func manyKeys(n int) []uint16 {
	d := []uint16{1, 1, 0, uint16(n)}
	for i := 0; i < n; i++ {
		d = append(d, uint16(5000+i), 0, 1, 0)
	}
	return d
}

func withEntry(dir []uint16, i int, loc, count, off uint16) []uint16 {
	d := append([]uint16(nil), dir...)
	d[4+4*i+1], d[4+4*i+2], d[4+4*i+3] = loc, count, off
	return d
}

var geoKeyCases = []geoKeyCase{
	{name: "projected code", dir: []uint16{1, 1, 0, 2, 1024, 0, 1, 1, 3072, 0, 1, 32633}},
	{name: "geographic code", dir: []uint16{1, 1, 0, 2, 1024, 0, 1, 2, 2048, 0, 1, 4326}},
	{name: "user-defined LCC", dir: udLCC, doubles: []float64{49, 44}, ascii: "LCC test|"},
	{name: "no keys", dir: []uint16{1, 1, 0, 0}},
	{name: "key revision 2", dir: []uint16{1, 2, 0, 1, 3072, 0, 1, 32633}},
	{name: "ASCII counting the NUL", dir: withEntry(udLCC, 1, 34737, 10, 0), doubles: []float64{49, 44}, ascii: "LCC test|"},
	{name: "ASCII overrunning from inside", dir: withEntry(udLCC, 1, 34737, 30, 4), doubles: []float64{49, 44}, ascii: "LCC test|"},
	{name: "SHORT value in the directory", dir: []uint16{1, 1, 0, 2, 1024, 0, 1, 1, 3072, 34735, 1, 12, 32633}},
	{name: "more values than keys", dir: []uint16{1, 1, 0, 1, 3072, 0, 1, 32633, 7, 7, 7}},

	{name: "250 keys", dir: manyKeys(250)},
	{name: "1000 doubles", dir: withEntry(udLCC, 7, 34736, 1, 999), doubles: make([]float64, 1000), ascii: "LCC test|"},

	{name: "three values", dir: []uint16{1, 1, 0}, refused: true, unread: true},
	{name: "251 keys", dir: manyKeys(251), refused: true},
	{name: "1001 doubles", dir: udLCC, doubles: make([]float64, 1001), ascii: "LCC test|", refused: true},
	{name: "version 2", dir: []uint16{2, 1, 0, 1, 3072, 0, 1, 32633}, refused: true},
	{name: "more keys than the tag holds", dir: []uint16{1, 1, 0, 3, 1024, 0, 1, 1, 3072, 0, 1, 32633}, refused: true, unread: true},
	{name: "in-directory key with count 2", dir: []uint16{1, 1, 0, 2, 1024, 0, 1, 1, 3072, 0, 2, 32633}, refused: true},
	{name: "double beyond GeoDoubleParams", dir: withEntry(udLCC, 7, 34736, 1, 2), doubles: []float64{49, 44}, ascii: "LCC test|", refused: true},
	{name: "doubles without GeoDoubleParams", dir: udLCC, ascii: "LCC test|", refused: true},
	{name: "ASCII without GeoAsciiParams", dir: udLCC, doubles: []float64{49, 44}, refused: true},
	{name: "ASCII beyond GeoAsciiParams", dir: withEntry(udLCC, 1, 34737, 4, 20), doubles: []float64{49, 44}, ascii: "LCC test|", refused: true},
	{name: "SHORT beyond the directory", dir: []uint16{1, 1, 0, 2, 1024, 0, 1, 1, 3072, 34735, 1, 12}, refused: true},
	{name: "unknown tag location", dir: []uint16{1, 1, 0, 2, 1024, 0, 1, 1, 3072, 33550, 1, 0}, refused: true},
}

// TestGeoKeyDirectoryRefusals checks which directories ParseGeoKeyDirectory
// refuses and that each refusal is a *GeoKeyError wrapping
// ErrGeoKeyDirectory with a reason; TestGeoKeyRefusalsMatchGDAL checks the
// same cases against GDAL.
func TestGeoKeyDirectoryRefusals(t *testing.T) {
	for _, c := range geoKeyCases {
		_, err := ParseGeoKeyDirectory(c.dir, c.doubles, c.ascii)
		if (err != nil) != c.refused {
			t.Errorf("%s: error %v, want refused=%v", c.name, err, c.refused)
			continue
		}
		if err == nil {
			continue
		}
		var ge *GeoKeyError
		if !errors.As(err, &ge) || !errors.Is(err, ErrGeoKeyDirectory) || ge.Reason == "" {
			t.Errorf("%s: error %#v is not a *GeoKeyError with a reason", c.name, err)
		}
	}
	c5, c6 := geoKeyCase{}, geoKeyCase{}
	for _, c := range geoKeyCases {
		switch c.name {
		case "ASCII counting the NUL":
			c5 = c
		case "ASCII overrunning from inside":
			c6 = c
		}
	}
	g, err := ParseGeoKeyDirectory(c5.dir, c5.doubles, c5.ascii)
	if err != nil || g.ASCII[GTCitationGeoKey] != "LCC test" {
		t.Errorf("ASCII counting the NUL: %v %q", err, g.ASCII[GTCitationGeoKey])
	}
	g, err = ParseGeoKeyDirectory(c6.dir, c6.doubles, c6.ascii)
	if err != nil || g.ASCII[GTCitationGeoKey] != "test" {
		t.Errorf("ASCII overrunning: %v %q", err, g.ASCII[GTCitationGeoKey])
	}
}

// TestGeoKeyRefusalsMatchGDAL writes each case as a 1×1 GeoTIFF and checks
// that GDAL's gdalinfo warns "GeoTIFF tags apparently corrupt" exactly for
// the directories ParseGeoKeyDirectory refuses.
func TestGeoKeyRefusalsMatchGDAL(t *testing.T) {
	gdalinfo := nativeTool(t, "gdalinfo")
	dir := t.TempDir()
	for i, c := range geoKeyCases {
		if c.unread {
			continue
		}
		p := filepath.Join(dir, fmt.Sprintf("case%d.tif", i))
		if err := os.WriteFile(p, tiffWithGeoKeys(c.dir, c.doubles, c.ascii), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(gdalinfo, p)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("%s: gdalinfo failed: %v\n%s", c.name, err, stderr.String())
			continue
		}
		corrupt := strings.Contains(stderr.String(), "apparently corrupt")
		if corrupt != c.refused {
			t.Errorf("%s: GDAL ignores the keys: %v, ParseGeoKeyDirectory refuses: %v\n%s", c.name, corrupt, c.refused, stderr.String())
		}
	}
}

// tiffWithGeoKeys is a little-endian 1×1 8-bit GeoTIFF holding the GeoKey
// tags as given (GeoDoubleParams and GeoAsciiParams omitted when empty).
func tiffWithGeoKeys(dir []uint16, doubles []float64, ascii string) []byte {
	type entry struct {
		tag, typ uint16
		count    uint32
		data     []byte
	}
	le := binary.LittleEndian
	short := func(v ...uint16) []byte { return fuzzShorts(v) }
	double := func(v ...float64) []byte { return fuzzDoubles(v) }
	long := func(v uint32) []byte { return le.AppendUint32(nil, v) }
	entries := []entry{
		{256, 3, 1, short(1)}, {257, 3, 1, short(1)}, {258, 3, 1, short(8)},
		{259, 3, 1, short(1)}, {262, 3, 1, short(1)}, {273, 4, 1, nil},
		{277, 3, 1, short(1)}, {278, 3, 1, short(1)}, {279, 4, 1, long(1)},
		{33550, 12, 3, double(1, 1, 0)}, {33922, 12, 6, double(0, 0, 0, 500000, 4500000, 0)},
		{34735, 3, uint32(len(dir)), short(dir...)},
	}
	if len(doubles) > 0 {
		entries = append(entries, entry{34736, 12, uint32(len(doubles)), double(doubles...)})
	}
	if ascii != "" {
		entries = append(entries, entry{34737, 2, uint32(len(ascii) + 1), append([]byte(ascii), 0)})
	}
	ifdSize := 2 + 12*len(entries) + 4
	extra := 8 + ifdSize
	var out []byte
	out = append(out, 'I', 'I', 42, 0)
	out = le.AppendUint32(out, 8)
	out = le.AppendUint16(out, uint16(len(entries)))
	var tail []byte
	pixel := uint32(extra)
	tail = append(tail, 0, 0) // the pixel, padded to an even offset
	for _, e := range entries {
		out = le.AppendUint16(out, e.tag)
		out = le.AppendUint16(out, e.typ)
		out = le.AppendUint32(out, e.count)
		switch {
		case e.tag == 273:
			out = le.AppendUint32(out, pixel)
		case len(e.data) <= 4:
			out = append(out, append(e.data, make([]byte, 4-len(e.data))...)...)
		default:
			out = le.AppendUint32(out, uint32(extra+len(tail)))
			tail = append(tail, e.data...)
			if len(tail)%2 == 1 {
				tail = append(tail, 0)
			}
		}
	}
	out = le.AppendUint32(out, 0)
	return append(out, tail...)
}

// FuzzParseGeoKeyDirectory feeds arbitrary directories (the bytes as
// little-endian SHORTs and DOUBLEs) to ParseGeoKeyDirectory and whatever
// reads a parsed directory: a refusal is a *GeoKeyError; nothing panics; a
// CRS the keys describe can be described in WKT2 and read back.
func FuzzParseGeoKeyDirectory(f *testing.F) {
	for _, c := range geoKeyCases {
		f.Add(fuzzShorts(c.dir), fuzzDoubles(c.doubles), c.ascii)
	}
	for _, code := range []int{4326, 32633, 3031, 2056, 27700} {
		dir, _ := GeoKeysForEPSG(code)
		f.Add(fuzzShorts(dir), []byte(nil), "")
	}
	f.Fuzz(func(t *testing.T, dirBytes, doubleBytes []byte, ascii string) {
		dir := make([]uint16, len(dirBytes)/2)
		for i := range dir {
			dir[i] = binary.LittleEndian.Uint16(dirBytes[2*i:])
		}
		doubles := make([]float64, len(doubleBytes)/8)
		for i := range doubles {
			doubles[i] = math.Float64frombits(binary.LittleEndian.Uint64(doubleBytes[8*i:]))
		}
		g, err := ParseGeoKeyDirectory(dir, doubles, ascii)
		if err != nil {
			var ge *GeoKeyError
			if !errors.As(err, &ge) || !errors.Is(err, ErrGeoKeyDirectory) || ge.Reason == "" {
				t.Fatalf("refusal %#v is not a *GeoKeyError with a reason", err)
			}
			return
		}
		_ = g.EPSG()
		_ = g.PixelIsPoint()
		_, _, _ = g.GDALCoordinateSystem()
		c, err := g.CRS()
		if err != nil || c == nil {
			return
		}
		_, _, _ = c.FromLonLat(10, 45)
		_, _, _ = c.ToLonLat(500000, 4500000)
		_, _ = PROJJSON(c)
		if w, err := WKT2(c); err == nil {
			if _, err := Parse(w); err != nil {
				t.Fatalf("WKT2 of %s does not parse back: %v\n%s", c, err, w)
			}
		}
	})
}

// FuzzParse feeds arbitrary CRS names (codes, PROJ strings, WKT) to Parse:
// nothing panics, and a parsed CRS converts, describes itself and is
// parsed back from its own PROJ string.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"EPSG:4326", "32633", "aeqd:45,10", "epsg:3031",
		"+proj=lcc +lat_1=49 +lat_2=44 +lat_0=46.5 +lon_0=3 +x_0=700000 +y_0=6600000 +ellps=GRS80 +units=m +no_defs",
		"+proj=stere +lat_0=90 +lat_ts=70 +lon_0=-45 +datum=WGS84",
		"+proj=tmerc +lat_0=0 +lon_0=9 +k=1 +x_0=3500000 +y_0=0 +ellps=bessel +towgs84=598.1,73.7,418.2,0.202,0.045,-2.455,6.7 +units=m",
		"+proj=longlat +ellps=clrk66 +pm=paris",
		"+proj=omerc +lat_0=4 +lonc=102.25 +alpha=323.025 +k=0.99984 +x_0=804671 +y_0=0 +no_uoff +gamma=323.13 +ellps=evrstSS",
		`GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]]`,
		`PROJCS["test",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Lambert_Azimuthal_Equal_Area"],PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",10.0],PARAMETER["Latitude_Of_Origin",52.0],UNIT["Meter",1.0]]`,
	} {
		f.Add(s)
	}
	for _, code := range []int{2056, 3035, 3413, 5514, 27700} {
		w, _ := WKT2FromEPSG(code)
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			return
		}
		_, _, _ = c.FromLonLat(10, 45)
		_, _, _ = c.ToLonLat(500000, 4500000)
		_ = Identify(c)
		_, _ = WKT2(c)
		_, _ = PROJJSON(c)
		if c.EPSG() == 0 && strings.HasPrefix(c.String(), "+proj=") {
			if _, err := Parse(c.String()); err != nil {
				t.Fatalf("%q parses to %q, which does not parse back: %v", s, c.String(), err)
			}
		}
	})
}

func fuzzShorts(v []uint16) []byte {
	b := make([]byte, 2*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[2*i:], x)
	}
	return b
}

func fuzzDoubles(v []float64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return b
}
