package raster_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/geodisaster/engine/raster"
)

// A window of a Cloud Optimized GeoTIFF read over HTTP: the header, the
// directories and the one tile the window touches are fetched with range
// requests, nothing else.
func ExampleOpen_http() {
	url := serveCOG() // https://... in real use
	ctx := context.Background()
	d, err := raster.Open(url, raster.WithContext(ctx), raster.WithTimeout(30*time.Second), raster.WithRetries(3, time.Second))
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	w, err := d.ReadWindow(ctx, 1, raster.Window{Col: 300, Row: 200, Width: 64, Height: 64})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Width(), d.Height(), d.EPSG(), d.OverviewCount(), w.Width, w.At(0))
	// Output: 1024 768 32633 2 64 33
}

// serveCOG serves a generated 1024x768 COG and returns its URL.
func serveCOG() string {
	b, _ := raster.NewBand(1024, 768, raster.Uint8)
	for i := range b.Data.([]uint8) {
		b.Data.([]uint8)[i] = uint8(i % 251)
	}
	var buf bytes.Buffer
	if err := raster.WriteCOG(&buf, []*raster.Band{b}, raster.WriteOptions{Compression: "deflate", TileSize: 256, EPSG: 32633,
		Transform: [6]float64{10, 0, 500000, 0, -10, 4000000}}); err != nil {
		log.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "scene.tif", time.Time{}, bytes.NewReader(buf.Bytes()))
	}))
	return srv.URL + "/scene.tif"
}
