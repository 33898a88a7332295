package multihazard

import (
	"fmt"
	"math"
	"strconv"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/geodesy"
	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// Shared helpers of the multi-hazard generators (types 9-28). Gold answers
// are computed from the generated arrays; the decision rules the workers
// export (workers/multihazard's BinarySupport, Median3, Percentile, ...)
// are called, not written again, and no worker runs.

// mhLatBands are the AOI latitude bands records cycle through, so cell
// areas differ between records (tropics to sub-arctic, both hemispheres).
var mhLatBands = [][2]float64{{-38, -30}, {-5, 5}, {30, 40}, {44, 52}, {58, 63}}

// mhRec accumulates one multi-hazard record.
type mhRec struct {
	g       *core.Gen
	qt      string
	sample  string
	base    string
	grid    core.GeoGrid
	rows    []float64 // WGS84 cell area (m²) of each grid row
	handles map[string]workers.HandleDecl
}

// mhSize is the AOI grid's width and height: the spec's multi-hazard
// AOIs are 128 x 128 (16,384 pixels).
const mhSize = 128

// newMH starts record i of a multi-hazard type on a fresh 128 x 128
// EPSG:4326 AOI grid (~500 m pixels) in one of several latitude bands.
func newMH(g *core.Gen, qt string, i int) (*mhRec, error) {
	w, h := mhSize, mhSize
	band := mhLatBands[i%len(mhLatBands)]
	grid := g.AOIGrid(w, h, 0.0045, -120+float64(float64(i%7)*35), -110+float64(float64(i%7)*35), band[0], band[1])
	rows, err := geodesy.CellAreas(grid.T, h)
	if err != nil {
		return nil, err
	}
	sample := fmt.Sprintf("synth_%s_%03d", qt, i) // unique per type: records never share files
	return &mhRec{g: g, qt: qt, sample: sample, base: "source_assets/multi_hazard/" + sample + "/",
		grid: grid, rows: rows, handles: map[string]workers.HandleDecl{}}, nil
}

// n returns the number of pixels.
func (r *mhRec) n() int { return r.grid.W * r.grid.H }

// band allocates a band on the record's grid.
func (r *mhRec) band(t raster.DataType) (*raster.Band, error) {
	return raster.NewBand(r.grid.W, r.grid.H, t)
}

// areaHa sums the cell areas of the given row-major indices as NumPy sums
// areas[mask] (float64, in order) and converts to hectares (unrounded).
func (r *mhRec) areaHa(idx []int) float64 {
	v := make([]float64, len(idx))
	for k, i := range idx {
		v[k] = r.rows[i/r.grid.W]
	}
	return numpy.SumFloat64(v) / 10000
}

// raster writes rasters/<handle>.tif and its JSON sidecar (sha256, shape,
// dtype, CRS, transform, nodata when finite, plus extra) and returns both
// cards.
func (r *mhRec) raster(handle string, b *raster.Band, nodata *float64, extra map[string]any) ([]workers.FileCard, error) {
	opts := raster.WriteOptions{Compression: "deflate", TileSize: 256, EPSG: 4326, Transform: r.grid.T, NoData: nodata}
	tif, err := r.g.WriteTIFF(r.base+"rasters/"+handle+".tif", opts, b)
	if err != nil {
		return nil, err
	}
	side := map[string]any{"handle": handle, "shape": []int{r.grid.H, r.grid.W}, "dtype": b.Type.String(),
		"crs": "EPSG:4326", "transform": r.grid.T[:], "sha256": tif.SHA256}
	if nodata != nil && !math.IsNaN(*nodata) {
		side["nodata"] = *nodata
	}
	for k, v := range extra {
		side[k] = v
	}
	sc, err := r.g.WriteJSON(r.base+"rasters/"+handle+".json", side)
	if err != nil {
		return nil, err
	}
	return []workers.FileCard{tif, sc}, nil
}

// inventory writes available_handles.json.
func (r *mhRec) inventory(handles ...string) (workers.FileCard, error) {
	return r.g.WriteJSON(r.base+"available_handles.json", map[string]any{"handles": handles})
}

// input declares an input handle.
func (r *mhRec) input(name string, cards ...workers.FileCard) {
	r.handles[name] = core.Input(cards...)
}

// record assembles the record with its question sidecar, chain and gold.
func (r *mhRec) record(text string, chain []workers.Step, answer any) (workers.Record, error) {
	return r.g.Record(r.qt, r.sample, text, nil, r.handles, chain, answer)
}

// readHazard is ReadData(question_1, hazard_stack_1, role=R, time=event).
func readHazard(role string) workers.Step {
	s := core.Read("hazard_stack_1", role, "scene_1")
	s.Args["time"] = "event"
	return s
}

// blobs returns a random union of ellipses as a per-pixel mask.
func (r *mhRec) blobs(k int, scale float64) []bool {
	w, h := r.grid.W, r.grid.H
	type ell struct{ cx, cy, rx, ry float64 }
	var es []ell
	for j := 0; j < k; j++ {
		es = append(es, ell{
			cx: float64(float64(w) * (0.15 + float64(0.7*r.g.Rng.Float64()))), cy: float64(float64(h) * (0.15 + float64(0.7*r.g.Rng.Float64()))),
			rx: 1.5 + float64(float64(w)*scale*r.g.Rng.Float64()), ry: 1.5 + float64(float64(h)*scale*r.g.Rng.Float64()),
		})
	}
	out := make([]bool, w*h)
	for row := 0; row < h; row++ {
		for col := 0; col < w; col++ {
			for _, e := range es {
				if core.Blob(col, row, e.cx, e.cy, e.rx, e.ry) {
					out[row*w+col] = true
				}
			}
		}
	}
	return out
}

// binaryBand writes a 0/1 uint8 band from a mask; pixels in nodata get
// 255 (declared nodata) when nodata is non-nil.
func (r *mhRec) binaryBand(set, nodata []bool) (*raster.Band, []int, error) {
	b, err := r.band(raster.Uint8)
	if err != nil {
		return nil, nil, err
	}
	var ones []int
	for i := range set {
		switch {
		case nodata != nil && nodata[i]:
			b.Set(i, 255)
		case set[i]:
			b.Set(i, 1)
			ones = append(ones, i)
		}
	}
	return b, ones, nil
}

// stripe marks the last k columns (a nodata strip).
func (r *mhRec) stripe(k int) []bool {
	out := make([]bool, r.n())
	for i := range out {
		if i%r.grid.W >= r.grid.W-k {
			out[i] = true
		}
	}
	return out
}

// f32down returns the float32 just below float32(x): a boundary probe.
func f32down(x float64) float64 { return float64(math.Nextafter32(float32(x), float32(math.Inf(-1)))) }

// meanF32 is NumPy's float32 mean of the values at idx.
func meanF32(b *raster.Band, idx []int) float64 {
	d := b.Data.([]float32)
	v := make([]float32, len(idx))
	for k, i := range idx {
		v[k] = d[i]
	}
	return float64(numpy.MeanFloat32(v))
}

// fmtF formats a float as Python's repr would (shortest round-trip).
func fmtF(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// nanTo replaces every NaN sample of a float band with a finite nodata.
func nanTo(b *raster.Band, v float64) {
	for i := 0; i < b.Len(); i++ {
		if math.IsNaN(b.At(i)) {
			b.Set(i, v)
		}
	}
}
