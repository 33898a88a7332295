package raster

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// rangeServer serves b with range support and counts requests and bytes.
func rangeServer(t *testing.T, b []byte) (*httptest.Server, *atomic.Int64, *atomic.Int64) {
	var reqs, sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reqs.Add(1)
		cw := &countingWriter{ResponseWriter: w, n: &sent}
		http.ServeContent(cw, r, "x.tif", time.Time{}, bytes.NewReader(b))
	}))
	t.Cleanup(srv.Close)
	return srv, &reqs, &sent
}

type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n.Add(int64(len(p)))
	return c.ResponseWriter.Write(p)
}

func TestHTTPRangeRead(t *testing.T) {
	band := testBand(t, 2048, 2048, Float32, 5)
	file := encodeTIFF(t, Write, []*Band{band}, WriteOptions{Compression: "none", TileSize: 256, EPSG: 4326,
		Transform: [6]float64{1, 0, 0, 0, -1, 0}})
	srv, reqs, sent := rangeServer(t, file)
	d, err := Open(srv.URL + "/x.tif")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Width() != 2048 || d.EPSG() != 4326 {
		t.Fatalf("got %dx%d EPSG %d", d.Width(), d.Height(), d.EPSG())
	}
	w := Window{Col: 1030, Row: 600, Width: 40, Height: 30}
	got, err := d.ReadWindow(context.Background(), 1, w)
	if err != nil {
		t.Fatal(err)
	}
	want := band.Data.([]float32)
	for r := 0; r < w.Height; r++ {
		for c := 0; c < w.Width; c++ {
			if g := got.Data.([]float32)[r*w.Width+c]; g != want[(w.Row+r)*2048+w.Col+c] && g == g {
				t.Fatalf("pixel (%d,%d) = %v", c, r, g)
			}
		}
	}
	// The window touches one 256 KiB tile; the header, IFD and offset
	// arrays are a few KiB. Nothing else may be fetched.
	if n := sent.Load(); n > 300<<10 || n > int64(len(file))/40 {
		t.Errorf("fetched %d bytes in %d requests of a %d-byte file", n, reqs.Load(), len(file))
	}
	t.Logf("window read fetched %d bytes in %d requests (file %d bytes)", sent.Load(), reqs.Load(), len(file))
}

func TestHTTPErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "norange.tif") {
			w.Write([]byte("II*\x00"))
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	for _, p := range []string{"/missing.tif", "/norange.tif"} {
		if _, err := Open(srv.URL + p); err == nil {
			t.Errorf("%s: opened", p)
		}
	}
	if _, err := Open("http://127.0.0.1:1/closed.tif"); err == nil {
		t.Error("closed port: opened")
	}
}
