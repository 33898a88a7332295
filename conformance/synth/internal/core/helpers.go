package core

import (
	"math"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// GeoGrid is a north-up EPSG:4326 grid derived from an AOI.
type GeoGrid struct {
	W, H int
	T    crs.Affine
}

// AOIGrid returns a grid whose upper-left corner lies in the given
// longitude/latitude box, snapped to the pixel size.
func (g *Gen) AOIGrid(w, h int, pixelDeg, lonMin, lonMax, latMin, latMax float64) GeoGrid {
	lon := lonMin + float64(g.Rng.Float64()*(lonMax-lonMin))
	lat := latMin + float64(g.Rng.Float64()*(latMax-latMin))
	lon = math.Round(lon/pixelDeg) * pixelDeg
	lat = math.Round(lat/pixelDeg) * pixelDeg
	return GeoGrid{W: w, H: h, T: crs.Affine{pixelDeg, 0, lon, 0, -pixelDeg, lat}}
}

// Blob reports whether (col,row) lies inside an ellipse.
func Blob(col, row int, cx, cy, rx, ry float64) bool {
	dx := (float64(col) + 0.5 - cx) / rx
	dy := (float64(row) + 0.5 - cy) / ry
	return float64(dx*dx)+float64(dy*dy) <= 1
}

// F64 returns a pointer to v (a declared nodata).
func F64(v float64) *float64 { return &v }

// SetAt stores v at index i of a band of any numeric type, converted as
// Go converts a float64 to the band's type.
func SetAt(b *raster.Band, i int, v float64) {
	switch d := b.Data.(type) {
	case []uint8:
		d[i] = uint8(v)
	case []int8:
		d[i] = int8(v)
	case []uint16:
		d[i] = uint16(v)
	case []int16:
		d[i] = int16(v)
	case []uint32:
		d[i] = uint32(v)
	case []int32:
		d[i] = int32(v)
	case []float32:
		d[i] = float32(v)
	case []float64:
		d[i] = v
	}
}

// Step builds one chain step.
func Step(tool string, args map[string]any, out string) workers.Step {
	return workers.Step{Tool: tool, Args: args, Output: out}
}

// Read is ReadData(question=question_1, handle, role) into out.
func Read(handle, role, out string) workers.Step {
	return Step("ReadData", map[string]any{"question": "question_1", "handle": handle, "role": role}, out)
}

// TaskComplete returns the closing step of every chain (a fresh value per
// record: chains never share argument maps).
func TaskComplete() workers.Step {
	return workers.Step{Tool: "TaskComplete", Args: map[string]any{"status": "TASK_COMPLETE"}}
}

// Flags returns {name: true} for each name (a metrics or layers object).
func Flags(names ...string) map[string]any {
	m := map[string]any{}
	for _, n := range names {
		m[n] = true
	}
	return m
}
