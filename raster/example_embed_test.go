package raster_test

import (
	"bytes"
	"context"
	"fmt"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster"
)

// Example_readWindow writes a small georeferenced float32 GeoTIFF into
// memory, opens it and reads a window of its first band, as
// rasterio's src.read(1, window=Window(col, row, width, height)) does.
func Example_readWindow() {
	band, err := raster.NewBand(64, 32, raster.Float32)
	if err != nil {
		fmt.Println(err)
		return
	}
	px := band.Data.([]float32)
	for i := range px {
		px[i] = float32(i%64) + 100*float32(i/64) // col + 100*row
	}
	nodata := -9999.0
	var tif bytes.Buffer
	err = raster.Write(&tif, []*raster.Band{band}, raster.WriteOptions{
		EPSG:      4326,
		Transform: crs.Affine{0.001, 0, 10, 0, -0.001, 46}, // rasterio order: a, b, c, d, e, f
		NoData:    &nodata,
		TileSize:  16,
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	ds, err := raster.OpenReaderAt(bytes.NewReader(tif.Bytes()), int64(tif.Len()))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ds.Close()
	t, _ := ds.Transform()
	nd, _ := ds.NoData()
	fmt.Printf("%dx%d %s EPSG:%d nodata %g transform %v\n", ds.Width(), ds.Height(), ds.DataType(), ds.EPSG(), nd, t)

	w, err := ds.ReadWindow(context.Background(), 1, raster.Window{Col: 14, Row: 3, Width: 4, Height: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	vals := w.Data.([]float32)
	for r := 0; r < w.Height; r++ {
		fmt.Println(vals[r*w.Width : (r+1)*w.Width])
	}
	lon, lat := t.Apply(14, 3) // upper-left corner of the window
	fmt.Printf("window origin %.3f %.3f\n", lon, lat)
	// Output:
	// 64x32 float32 EPSG:4326 nodata -9999 transform [0.001 0 10 0 -0.001 46]
	// [314 315 316 317]
	// [414 415 416 417]
	// window origin 10.014 45.997
}
