package hydrate

import (
	"bytes"
	"context"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster"
)

// realChip is the upstream sample chip (see ../shared/data/README.md).
const realChip = "../../../shared/data/sen1floods11/Spain_7370579/S1Hand.tif"

// fakeHand builds a small S1Hand-like chip with NaN nodata.
func fakeHand(t *testing.T) []byte {
	t.Helper()
	var bands []*raster.Band
	for k := 0; k < 2; k++ {
		b, _ := raster.NewBand(20, 12, raster.Float32)
		d := b.Data.([]float32)
		for i := range d {
			d[i] = float32(-10 - k*7 - (i%13)/3)
		}
		d[5+k] = float32(math.NaN())
		bands = append(bands, b)
	}
	nan := math.NaN()
	var buf bytes.Buffer
	err := raster.Write(&buf, bands, raster.WriteOptions{Compression: "deflate", TileSize: 16, NoData: &nan, EPSG: 4326,
		Transform: crs.Affine{0.0001, 0, -0.5, 0, -0.0001, 38.1}, BandDescriptions: []string{"VV", "VH"}})
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// fakeManifest pins a fake chip's source and derivative.
func fakeManifest(t *testing.T, hand []byte) *Manifest {
	t.Helper()
	p, err := Portable(hand)
	if err != nil {
		t.Fatal(err)
	}
	return &Manifest{Dataset: "sen1floods11", Chips: []Chip{{
		Name:     "Test_1",
		Source:   SourceFile{Layouts: []string{"S1Hand/Test_1_S1Hand.tif", "Test_1/S1Hand.tif"}, SHA256: sum(hand), Bytes: int64(len(hand))},
		Portable: DerivedFile{Path: "source_assets/sen1_flood/Test_1/S1Portable.tif", SHA256: sum(p)},
	}}}
}

func TestPortablePreservesPixels(t *testing.T) {
	hand := fakeHand(t)
	p, err := Portable(hand)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := raster.OpenReaderAt(bytes.NewReader(hand), int64(len(hand)))
	b, err := raster.OpenReaderAt(bytes.NewReader(p), int64(len(p)))
	if err != nil {
		t.Fatal(err)
	}
	if nd, ok := b.NoData(); !ok || nd != -9999 {
		t.Errorf("nodata %v %v", nd, ok)
	}
	ta, _ := a.Transform()
	tb, _ := b.Transform()
	if ta != tb || a.EPSG() != b.EPSG() || a.Width() != b.Width() || a.Height() != b.Height() || b.BandDescription(1) != "VV" || b.BandDescription(2) != "VH" {
		t.Errorf("georeferencing or names changed")
	}
	for k := 1; k <= 2; k++ {
		x, _ := a.ReadBand(context.Background(), k)
		y, _ := b.ReadBand(context.Background(), k)
		xs, ys := x.Data.([]float32), y.Data.([]float32)
		for i := range xs {
			if math.IsNaN(float64(xs[i])) {
				if ys[i] != -9999 {
					t.Errorf("band %d pixel %d: NaN became %v", k, i, ys[i])
				}
			} else if math.Float32bits(xs[i]) != math.Float32bits(ys[i]) {
				t.Errorf("band %d pixel %d: %v became %v", k, i, xs[i], ys[i])
			}
		}
	}
	again, _ := Portable(hand)
	if !bytes.Equal(p, again) {
		t.Error("derivation is not deterministic")
	}
}

func TestPortableRejectsAmbiguousNoData(t *testing.T) {
	b, _ := raster.NewBand(4, 4, raster.Float32)
	b.Data.([]float32)[3] = -9999
	var buf bytes.Buffer
	_ = raster.Write(&buf, []*raster.Band{b}, raster.WriteOptions{EPSG: 4326, Transform: crs.Affine{1, 0, 0, 0, -1, 0}})
	if _, err := Portable(buf.Bytes()); err == nil || !strings.Contains(err.Error(), "-9999") {
		t.Errorf("finite -9999 accepted: %v", err)
	}
}

func TestRunLocalAndVerify(t *testing.T) {
	hand := fakeHand(t)
	m := fakeManifest(t, hand)
	src, dst := t.TempDir(), t.TempDir()
	// Per-chip folder layout (the second declared layout).
	os.MkdirAll(filepath.Join(src, "Test_1"), 0o755)
	os.WriteFile(filepath.Join(src, "Test_1", "S1Hand.tif"), hand, 0o644)
	ctx := context.Background()
	if _, err := Run(ctx, m, Options{Dest: dst, VerifyOnly: true}); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("verify-only before hydration: %v", err)
	}
	st, err := Run(ctx, m, Options{Source: src, Dest: dst})
	if err != nil || len(st) != 1 || st[0].Status != "written" {
		t.Fatalf("hydrate: %+v %v", st, err)
	}
	st, err = Run(ctx, m, Options{Source: src, Dest: dst})
	if err != nil || st[0].Status != "present" {
		t.Errorf("second run: %+v %v", st, err)
	}
	if st, err := Run(ctx, m, Options{Dest: dst, VerifyOnly: true}); err != nil || st[0].Status != "verified" {
		t.Errorf("verify-only: %+v %v", st, err)
	}
	// A destination file with other bytes is never overwritten.
	out := filepath.Join(dst, filepath.FromSlash(m.Chips[0].Portable.Path))
	os.WriteFile(out, []byte("tampered"), 0o644)
	var ce *ChecksumError
	if _, err := Run(ctx, m, Options{Source: src, Dest: dst}); !errors.As(err, &ce) || !strings.Contains(err.Error(), "refusing to overwrite") {
		t.Errorf("tampered destination: %v", err)
	}
	if b, _ := os.ReadFile(out); string(b) != "tampered" {
		t.Error("tampered file was overwritten")
	}
	if _, err := Run(ctx, m, Options{Dest: dst, VerifyOnly: true}); !errors.As(err, &ce) {
		t.Errorf("verify-only on a tampered file: %v", err)
	}
}

func TestRunRejectsAlteredSource(t *testing.T) {
	hand := fakeHand(t)
	m := fakeManifest(t, hand)
	src, dst := t.TempDir(), t.TempDir()
	bad := append([]byte(nil), hand...)
	bad[len(bad)-1] ^= 0xff
	os.MkdirAll(filepath.Join(src, "S1Hand"), 0o755)
	os.WriteFile(filepath.Join(src, "S1Hand", "Test_1_S1Hand.tif"), bad, 0o644)
	var ce *ChecksumError
	if _, err := Run(context.Background(), m, Options{Source: src, Dest: dst}); !errors.As(err, &ce) {
		t.Errorf("altered source: %v", err)
	}
	assertEmpty(t, dst)
	if _, err := Run(context.Background(), m, Options{Source: t.TempDir(), Dest: dst}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing source: %v", err)
	}
}

// assertEmpty fails if dir holds any regular file.
func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			t.Errorf("left a file behind: %s", p)
		}
		return nil
	})
}

func TestRunHTTP(t *testing.T) {
	hand := fakeHand(t)
	m := fakeManifest(t, hand)
	mode := "ok"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1.1/HandLabeled/S1Hand/Test_1_S1Hand.tif" {
			http.NotFound(w, r)
			return
		}
		switch mode {
		case "partial":
			// Promise the whole file, send half, then drop the connection.
			w.Header().Set("Content-Length", strconv.Itoa(len(hand)))
			w.Write(hand[:len(hand)/2])
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					c.Close()
				}
			}
		case "error":
			http.Error(w, "boom", http.StatusInternalServerError)
		default:
			w.Write(hand)
		}
	}))
	defer srv.Close()
	base := srv.URL + "/v1.1/HandLabeled"
	ctx := context.Background()
	for _, mode = range []string{"partial", "error"} {
		dst := t.TempDir()
		if _, err := Run(ctx, m, Options{Source: base, Dest: dst, Client: srv.Client()}); err == nil {
			t.Errorf("%s download accepted", mode)
		}
		assertEmpty(t, dst)
	}
	mode = "ok"
	dst := t.TempDir()
	st, err := Run(ctx, m, Options{Source: base, Dest: dst, Client: srv.Client()})
	if err != nil || st[0].Status != "written" || !strings.HasPrefix(st[0].Source, srv.URL) {
		t.Fatalf("http hydrate: %+v %v", st, err)
	}
}

// TestPinnedManifestRealChip hydrates the real sample chip and checks the
// pinned SHA-256 of S1Hand and S1Portable.
func TestPinnedManifestRealChip(t *testing.T) {
	if _, err := os.Stat(realChip); err != nil {
		t.Skipf("corpus absent: %s", realChip)
	}
	m, err := PinnedManifest()
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	st, err := Run(context.Background(), m, Options{Source: filepath.Dir(filepath.Dir(realChip)), Dest: dst})
	if err != nil {
		t.Fatal(err)
	}
	if st[0].Status != "written" || st[0].SHA256 != m.Chips[0].Portable.SHA256 {
		t.Errorf("%+v", st)
	}
}
