package synth

import (
	"math"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster"
)

// geoGrid is a north-up EPSG:4326 grid derived from an AOI.
type geoGrid struct {
	W, H int
	T    crs.Affine
}

// aoiGrid returns a grid whose upper-left corner lies in the given
// longitude/latitude box, snapped to the pixel size.
func (g *gen) aoiGrid(w, h int, pixelDeg, lonMin, lonMax, latMin, latMax float64) geoGrid {
	lon := lonMin + float64(g.rng.Float64()*(lonMax-lonMin))
	lat := latMin + float64(g.rng.Float64()*(latMax-latMin))
	lon = math.Round(lon/pixelDeg) * pixelDeg
	lat = math.Round(lat/pixelDeg) * pixelDeg
	return geoGrid{W: w, H: h, T: crs.Affine{pixelDeg, 0, lon, 0, -pixelDeg, lat}}
}

// newBand allocates a band or reports why it cannot.
func newBand(w, h int, t raster.DataType) (*raster.Band, error) {
	return raster.NewBand(w, h, t)
}

// blob reports whether (col,row) lies inside an ellipse.
func blob(col, row int, cx, cy, rx, ry float64) bool {
	dx := (float64(col) + 0.5 - cx) / rx
	dy := (float64(row) + 0.5 - cy) / ry
	return float64(dx*dx)+float64(dy*dy) <= 1
}

func f64(v float64) *float64 { return &v }
