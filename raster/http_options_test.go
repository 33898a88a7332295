package raster

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// testGeoTIFF returns a small tiled GeoTIFF.
func testGeoTIFF(t *testing.T) []byte {
	t.Helper()
	return encodeTIFF(t, Write, []*Band{testBand(t, 300, 200, Uint16, 3)}, WriteOptions{Compression: "deflate", TileSize: 128, EPSG: 4326,
		Transform: [6]float64{0.01, 0, 10, 0, -0.01, 50}})
}

func TestOpenHTTPRetriesWithBackoff(t *testing.T) {
	file := testGeoTIFF(t)
	var reqs atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Every other request fails with 503 once.
		if reqs.Add(1)%2 == 1 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		if r.Header.Get("Authorization") != "Bearer t0k" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		http.ServeContent(w, r, "x.tif", time.Time{}, bytes.NewReader(file))
	}))
	defer srv.Close()
	if _, err := Open(srv.URL+"/x.tif", WithHeader("Authorization", "Bearer t0k")); err == nil {
		t.Fatal("opened without retries through a failing server")
	}
	reqs.Store(0)
	d, err := Open(srv.URL+"/x.tif", WithHeader("Authorization", "Bearer t0k"), WithRetries(2, time.Millisecond), WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.ReadBand(context.Background(), 1)
	if err != nil || b.Width != 300 {
		t.Fatalf("read through retries: %v", err)
	}
	// A missing token (401) is final: no retry hides it.
	reqs.Store(1)
	_, err = Open(srv.URL+"/x.tif", WithRetries(3, time.Millisecond))
	var se *StatusError
	if !errors.As(err, &se) || se.Status != http.StatusUnauthorized {
		t.Errorf("401: %v", err)
	}
}

func TestOpenHTTPTimeoutAndContext(t *testing.T) {
	file := testGeoTIFF(t)
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Range") != "bytes=0-0" {
			select { // hang on every read after the probe
			case <-block:
			case <-r.Context().Done():
			}
			return
		}
		http.ServeContent(w, r, "x.tif", time.Time{}, bytes.NewReader(file))
	}))
	defer srv.Close()
	defer close(block)
	start := time.Now()
	if _, err := Open(srv.URL+"/x.tif", WithTimeout(50*time.Millisecond)); err == nil || time.Since(start) > 5*time.Second {
		t.Errorf("a hanging server: %v after %v", err, time.Since(start))
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	if _, err := Open(srv.URL+"/x.tif", WithContext(ctx)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	if _, err := Open("testdata/none.tif", WithContext(ctx)); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context before a local open: %v", err)
	}
}
