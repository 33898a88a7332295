package raster

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// hugeSide is the side of the single-strip test image: 17000 x 17000
// uint8 samples, 289 MB in one strip.
const hugeSide = 17000

// hugeChildEnv makes the test binary run TestHugeStripChild: "path mode".
const hugeChildEnv = "GEODISASTER_HUGE_STRIP_CHILD"

// hugeWriter writes the test image with GDAL, sample (col + 7*row) mod
// 256, as one strip, and prints GDAL's exact statistics.
const hugeWriter = `
import sys, json
import numpy as np
from osgeo import gdal
gdal.UseExceptions()
gdal.SetConfigOption("GDAL_PAM_ENABLED", "NO")
n = int(sys.argv[2])
ds = gdal.GetDriverByName("GTiff").Create(sys.argv[1], n, n, 1, gdal.GDT_Byte, options=["BLOCKYSIZE=%d" % n] + sys.argv[3:])
b = ds.GetRasterBand(1)
col = np.arange(n, dtype=np.uint32)
for y in range(0, n, 1000):
    h = min(1000, n - y)
    b.WriteArray(((col[None, :] + 7 * np.arange(y, y + h, dtype=np.uint32)[:, None]) % 256).astype(np.uint8), 0, y)
ds = None
ds = gdal.Open(sys.argv[1])
st = ds.GetRasterBand(1).ComputeStatistics(False)
print(json.dumps({"stats": st, "block": ds.GetRasterBand(1).GetBlockSize()}))
`

// TestHugeSingleStrip decodes a 17000 x 17000 uint8 image that GDAL
// writes as one 289 MB strip (uncompressed, and DEFLATE-compressed), in
// a child process whose peak RSS (VmHWM) must stay within the output band plus
// 24 MiB; its streaming statistics must equal GDAL's and stay within 24
// MiB without the band.
func TestHugeSingleStrip(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 289 MB file")
	}
	requireGDALPython(t)
	dir := t.TempDir()
	band := int64(hugeSide) * hugeSide
	const slack = 24 << 20
	for _, c := range []struct {
		name string
		opts []string
	}{{"none", nil}, {"deflate", []string{"COMPRESS=DEFLATE"}}} {
		path := filepath.Join(dir, "huge_"+c.name+".tif")
		out := runGDALPython(t, hugeWriter, append([]string{path, fmt.Sprint(hugeSide)}, c.opts...)...)
		var g struct {
			Stats []float64 `json:"stats"`
		}
		if err := json.Unmarshal(out, &g); err != nil {
			t.Fatal(err)
		}
		d, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if s := d.Structure(); s.Tiled || s.BlockHeight != hugeSide {
			t.Fatalf("%s: structure %+v, want one strip", c.name, s)
		}
		d.Close()
		for _, mode := range []string{"read", "stats"} {
			rss, msg := runHugeChild(t, path, mode)
			limit := int64(slack)
			if mode == "read" {
				limit += band
			}
			t.Logf("%s %s: peak RSS %.1f MiB (limit %.1f MiB; the band is %.1f MiB): %s", c.name, mode,
				float64(rss)/(1<<20), float64(limit)/(1<<20), float64(band)/(1<<20), msg)
			if rss > limit {
				t.Errorf("%s %s: peak RSS %d bytes, over %d", c.name, mode, rss, limit)
			}
			if mode == "stats" && msg != fmt.Sprintf("%v %v %v %v", g.Stats[0], g.Stats[1], g.Stats[2], g.Stats[3]) {
				t.Errorf("%s: statistics %s, GDAL %v", c.name, msg, g.Stats)
			}
		}
	}
}

// runHugeChild runs TestHugeStripChild in a new process and returns its
// peak RSS in bytes and its report line.
func runHugeChild(t *testing.T, path, mode string) (int64, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHugeStripChild$", "-test.v")
	cmd.Env = append(os.Environ(), hugeChildEnv+"="+path+" "+mode, "GOMAXPROCS=2")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child %s: %v\n%s", mode, err, out)
	}
	var msg string
	var hwm int64 = -1
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(l)
		if r, ok := strings.CutPrefix(l, "HUGE "); ok {
			msg = r
		}
		if r, ok := strings.CutPrefix(l, "VMHWM "); ok {
			hwm, _ = strconv.ParseInt(r, 10, 64)
		}
	}
	if msg == "" || hwm < 0 {
		t.Fatalf("child %s printed no report:\n%s", mode, out)
	}
	return hwm, msg
}

// peakRSS returns the process's peak resident set size (VmHWM) in bytes.
// Unlike getrusage's ru_maxrss, which Linux carries over exec from the
// process that forked, it counts only this program's memory.
func peakRSS(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if r, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(r), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb * 1024
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}

// TestHugeStripChild is the child of TestHugeSingleStrip: it reads the
// band and checks every sample ("read"), or computes the statistics
// without the band ("stats").
func TestHugeStripChild(t *testing.T) {
	arg := os.Getenv(hugeChildEnv)
	if arg == "" {
		t.Skip("run by TestHugeSingleStrip")
	}
	path, mode, _ := strings.Cut(arg, " ")
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	switch mode {
	case "read":
		b, err := d.ReadBand(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		px := b.Data.([]uint8)
		for r := 0; r < hugeSide; r++ {
			row := px[r*hugeSide : (r+1)*hugeSide]
			for c, v := range row {
				if v != uint8(c+7*r) {
					t.Fatalf("sample (%d, %d) = %d, want %d", r, c, v, uint8(c+7*r))
				}
			}
		}
		fmt.Printf("HUGE %d samples equal GDAL's pattern\n", len(px))
	case "stats":
		st, err := d.Statistics(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("HUGE %v %v %v %v\n", st.Min, st.Max, st.Mean, st.StdDev)
	}
	fmt.Printf("VMHWM %d\n", peakRSS(t))
}
