package main

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/geodisaster/engine/cmd/geodisaster/internal/pointlines"
	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/geodesy"
	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/raster"
)

func init() {
	register(kit.Command{
		Name:    "area",
		Summary: "ellipsoidal area (m²) of a GeoTIFF's pixels equal to a value (WGS84 cells, or projected pixel area)",
		Run:     runArea,
	})
}

// areaResult is the --json output of the area command.
type areaResult struct {
	File    string   `json:"file"`
	CRS     string   `json:"crs"`
	Method  string   `json:"method"`
	Value   *float64 `json:"value"`
	Pixels  int64    `json:"pixels"`
	AreaM2  float64  `json:"area_m2"`
	AreaKm2 float64  `json:"area_km2"`
}

// runArea implements "geodisaster area [--value V] [--method quadrangle|geodesic]
// [--json] FILE": the area in m² of band 1's pixels equal to V (all valid
// pixels without --value). NoData and NaN pixels never count. Comparison
// happens in the band's type, as NumPy compares an array with a Python
// float (a float32 band equals 0.1 where it holds float32(0.1)).
//
// EPSG:4326 rasters sum exact WGS84 cell areas per row: "quadrangle"
// (default) bounds cells by parallels and meridians, "geodesic" by
// geodesics through the corners. Projected rasters use the planar pixel
// area |a·e − b·d| in the CRS's unit squared ("projected"; --method is
// then ignored). Rasters without a transform or a known CRS are errors.
func runArea(ctx context.Context, cio kit.IO, args []string) error {
	fs := kit.NewFlagSet("area", "[--value V] [--method quadrangle|geodesic] [--json] FILE")
	fs.Description = `Prints the area in m² of band 1's pixels equal to V (every valid pixel
without --value): exact WGS84 cell areas for EPSG:4326 rasters, the
planar pixel area for projected ones. NoData and NaN pixels never count.`
	fs.Example("geodisaster area --value 1 flood_mask.tif", "")
	fs.Example("geodisaster area --method geodesic --json mask.tif", "")
	valueStr := fs.String("value", "", "count pixels equal to this value (default: every valid pixel)")
	method := fs.String("method", "quadrangle", "cell area for EPSG:4326: quadrangle (parallels/meridians) or geodesic (geodesic edges)")
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return kit.Usagef("area: want one FILE, got %d arguments", fs.NArg())
	}
	if *method != "quadrangle" && *method != "geodesic" {
		return kit.Usagef("area: --method %q: want quadrangle or geodesic", *method)
	}
	var value *float64
	if fs.IsSet("value") {
		v, err := strconv.ParseFloat(*valueStr, 64)
		if err != nil {
			return kit.Usagef("area: --value %q is not a number", *valueStr)
		}
		value = &v
	}
	path := fs.Arg(0)
	res, err := rasterArea(ctx, path, value, *method)
	if err != nil {
		return fmt.Errorf("area: %w", err)
	}
	if *asJSON {
		return kit.WriteJSON(cio.Stdout, res)
	}
	fmt.Fprintf(cio.Stdout, "%s m2 (%d pixels, %s, %s)\n", pointlines.FormatFloat(res.AreaM2), res.Pixels, res.CRS, res.Method)
	return nil
}

// rasterArea opens path and measures the selected pixels of band 1.
func rasterArea(ctx context.Context, path string, value *float64, method string) (*areaResult, error) {
	d, err := raster.Open(path)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	t, ok := d.Transform()
	if !ok {
		return nil, fmt.Errorf("%s: no geotransform", path)
	}
	code := d.EPSG()
	if code == 0 {
		return nil, fmt.Errorf("%s: CRS not identified (no EPSG code)", path)
	}
	c, err := crs.FromEPSG(code)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	w, h := d.Width(), d.Height()
	var rowArea []float64
	switch {
	case code == 4326 && method == "geodesic":
		rowArea, err = geodesy.CellAreasGeodesic(t, h)
	case code == 4326:
		rowArea, err = geodesy.CellAreas(t, h)
	case c.Geographic():
		return nil, fmt.Errorf("%s: geographic %s is not on WGS84; only EPSG:4326 cell areas are supported", path, c)
	default:
		method = "projected"
		var px float64
		px, err = crs.PixelAreaM2(t, c)
		rowArea = make([]float64, h)
		for i := range rowArea {
			rowArea[i] = px
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	band, err := d.ReadBand(ctx, 1)
	if err != nil {
		return nil, err
	}
	match, err := pixelMatcher(d, band, value)
	if err != nil {
		return nil, err
	}
	var total float64
	var pixels int64
	for r := range h {
		n := 0
		for i := r * w; i < (r+1)*w; i++ {
			if match(i) {
				n++
			}
		}
		pixels += int64(n)
		total += float64(float64(n) * rowArea[r]) // float64(): no fused multiply-add (arm64)
	}
	return &areaResult{
		File: path, CRS: c.String(), Method: method, Value: value,
		Pixels: pixels, AreaM2: total, AreaKm2: total / 1e6,
	}, nil
}

// pixelMatcher returns a predicate on sample indexes: valid (not NoData,
// not NaN) and, with a value, equal to it in the band's sample type.
func pixelMatcher(d *raster.Dataset, band *raster.Band, value *float64) (func(int) bool, error) {
	nodata, hasNoData := d.NoData()
	_, isF32 := band.Data.([]float32)
	if hasNoData && isF32 {
		nodata = float64(float32(nodata))
	}
	valid := func(v float64) bool { return !math.IsNaN(v) && !(hasNoData && v == nodata) }
	if value == nil {
		return func(i int) bool { return valid(band.At(i)) }, nil
	}
	want := *value
	if math.IsNaN(want) {
		return nil, fmt.Errorf("--value NaN never matches; omit --value to count all valid pixels")
	}
	if isF32 {
		want = float64(float32(want))
	}
	return func(i int) bool {
		v := band.At(i)
		return v == want && valid(v)
	}, nil
}
