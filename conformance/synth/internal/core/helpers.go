package core

import (
	"math"

	"github.com/geodisaster/engine/crs"
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
