package geotiff_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster/geotiff"
)

// Example writes a small georeferenced float32 GeoTIFF from a typed slice,
// then parses it and reads its tile back into a typed buffer.
func Example() {
	const w, h = 20, 10
	elev := make([]float32, w*h)
	for i := range elev {
		elev[i] = float32(i) / 4
	}
	nodata := -9999.0
	var file bytes.Buffer
	err := geotiff.Write(&file, geotiff.PlanesOf(w, h, elev), geotiff.WriteOptions{
		Compression: "deflate",
		Predictor:   3,
		TileSize:    16,
		EPSG:        32633,
		Transform:   crs.Affine{30, 0, 500000, 0, -30, 4100000},
		NoData:      &nodata,
	})
	if err != nil {
		log.Fatal(err)
	}

	r, err := geotiff.NewReader(bytes.NewReader(file.Bytes()), int64(file.Len()))
	if err != nil {
		log.Fatal(err)
	}
	img, err := r.Image()
	if err != nil {
		log.Fatal(err)
	}
	s := img.Structure()
	bw, bh := img.BlockSize()
	across, down := img.Blocks()
	nd, _ := img.NoData()
	tr, _ := img.Transform()
	fmt.Println(img.Width(), img.Height(), img.DataType(), s.Compression, s.Predictor)
	fmt.Printf("tiles %dx%d, %d across, %d down\n", bw, bh, across, down)
	fmt.Println("EPSG", img.EPSG(), "nodata", nd, "origin", tr[2], tr[5])

	br := img.NewBlockReader(geotiff.Limits{})
	defer br.Close()
	tile := make([]float32, bw*img.BlockRows(0))
	if err := geotiff.ReadBlock(br, 0, 1, 0, tile); err != nil {
		log.Fatal(err)
	}
	// Tile (1, 0) starts at column 16; its columns past the image's right
	// edge hold zeros.
	fmt.Println(tile[0], tile[3], tile[4], tile[bw+1])
	// Output:
	// 20 10 float32 DEFLATE 3
	// tiles 16x16, 2 across, 1 down
	// EPSG 32633 nodata -9999 origin 500000 4.1e+06
	// 4 4.75 0 9.25
}
