package workers

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/geodisaster/engine/raster"
)

// Render geometry and palette of RenderMap(style=flood_diagnostic).
const (
	sen1RenderSize = 512
	sen1MinDB      = -25.0
	sen1MaxDB      = 0.0
	sen1Alpha      = 115 // of 255
)

var (
	sen1PredictionRGB = [3]uint8{0, 112, 255}
	sen1BoundaryRGB   = [3]uint8{255, 221, 0}
	sen1GridRGB       = [3]uint8{255, 255, 255}
	sen1WaterRGB      = [3]uint8{0, 230, 230}
)

// FloodRender is RenderMap(style=flood_diagnostic)'s payload.
type FloodRender struct {
	// Compare is the comparison the render consumed (the current handle).
	Compare *FloodComparison
	// Input is the consumed handle's name.
	Input string
	// Requested and Rendered are the layer names, sorted.
	Requested, Rendered []string
	// PNG and Manifest are the written artifacts.
	PNG, Manifest Artifact
	// Width and Height are the image size in pixels.
	Width, Height int
	// ChangedPixels counts image pixels that differ from the SAR base;
	// BoundaryPixels those drawn as component boundary.
	ChangedPixels, BoundaryPixels int
	// PreparedOverlayUsed is always false: the image is drawn fresh.
	PreparedOverlayUsed bool
}

// renderFloodDiagnostic implements RenderMap(style=flood_diagnostic) (spec
// type 43): a fresh 512x512 PNG of the requested layers (SAR VV backscatter
// as grey, the prediction as a blue tint, 8-neighbour component boundaries
// in yellow, the 4x4 grid in white; JRC known water in cyan only when its
// layer is enabled) plus a JSON manifest, both run-scoped. It consumes
// compare_n, checks the prediction's mask hash and requires a non-empty,
// changed image.
func renderFloodDiagnostic(env Env, a Args) (*Result, error) {
	cmp, h, err := OpenResult[*FloodComparison](env, a, "input", "compare (CompareSources criterion=overlap_vs_outside_reference)")
	if err != nil {
		return nil, err
	}
	var requested []string
	layers := map[string]bool{}
	for k, v := range a.Object("layers") {
		if on, _ := v.(bool); on {
			requested = append(requested, k)
			layers[k] = true
		}
	}
	sort.Strings(requested)
	if len(requested) == 0 {
		return nil, a.Errorf("layers", "no layer is enabled")
	}
	m := cmp.Mask
	if got := sha256Hex(m.Mask); got != m.MaskSHA256 {
		return nil, fmt.Errorf("RenderMap: the prediction mask changed since MapFlood (%s != %s)", got, m.MaskSHA256)
	}
	w, hgt := m.Info.Width, m.Info.Height
	vvBand, _, err := env.Band(m.Source, 1)
	if err != nil {
		return nil, err
	}
	vv, err := sen1Float32(vvBand, m.Source, 1)
	if err != nil {
		return nil, err
	}
	var labels []int32
	if layers["component_boundaries"] {
		if cmp.Ranking != nil && cmp.Ranking.Report.Objects != nil {
			labels = cmp.Ranking.Report.Objects.Labels
		} else {
			labels, _, err = raster.LabelValue(m.Mask, MaskFlood, w, hgt, raster.Connect8)
			if err != nil {
				return nil, err
			}
		}
	}
	var water []bool
	if layers["known_water"] {
		band, _, err := env.Band(cmp.Reference, 1)
		if err != nil {
			return nil, err
		}
		water = make([]bool, w*hgt)
		if d, ok := band.Data.([]uint8); ok && len(d) == len(water) {
			for i, v := range d {
				water[i] = v == 1
			}
		} else {
			for i := range water {
				water[i] = band.At(i) == 1
			}
		}
	}
	// The image is drawn straight into PNG scanlines (filter byte 0, then
	// RGB); a pixel counts as changed when it differs from the SAR base.
	S := sen1RenderSize
	stride := 1 + 3*S
	rp := sen1RawPool.Get().(*[]uint8)
	defer sen1RawPool.Put(rp)
	if cap(*rp) < S*stride {
		*rp = make([]uint8, S*stride)
	}
	raw := (*rp)[:S*stride]
	colOf := make([]int, S)
	for x := range colOf {
		colOf[x] = x * w / S
	}
	drawSAR, drawPred, drawGrid := layers["sar"], layers["prediction"], layers["grid"]
	var didSAR, didWater, didPred, didBoundary, didGrid bool
	boundary, changed := 0, 0
	mask := m.Mask
	for y := 0; y < S; y++ {
		row := y * hgt / S
		raw[y*stride] = 0 // filter: none
		line := raw[y*stride+1 : (y+1)*stride]
		gridRow := drawGrid && y%(S/4) == 0 && y > 0
		for x, col := range colOf {
			i := row*w + col
			var px [3]uint8
			if drawSAR {
				g := sen1Grey(vv[i], mask[i] == MaskNoData)
				px = [3]uint8{g, g, g}
				didSAR = true
			}
			base := px
			if water != nil && water[i] {
				px = sen1Blend(px, sen1WaterRGB, sen1Alpha)
				didWater = true
			}
			if drawPred && mask[i] == MaskFlood {
				px = sen1Blend(px, sen1PredictionRGB, sen1Alpha)
				didPred = true
			}
			if labels != nil && labels[i] != 0 && sen1IsBoundary(labels, w, hgt, col, row) {
				px = sen1BoundaryRGB
				boundary++
				didBoundary = true
			}
			if gridRow || drawGrid && x%(S/4) == 0 && x > 0 {
				px = sen1GridRGB
				didGrid = true
			}
			if px != base {
				changed++
			}
			line[3*x], line[3*x+1], line[3*x+2] = px[0], px[1], px[2]
		}
	}
	rendered := map[string]bool{"sar": didSAR, "known_water": didWater, "prediction": didPred,
		"component_boundaries": didBoundary, "grid": didGrid}
	pngBytes := sen1EncodePNG(raw, S, S)
	pngName := "flood_diagnostic_" + sha256Hex(pngBytes)[:12]
	var renderedList []string
	for k, on := range rendered {
		if on {
			renderedList = append(renderedList, k)
		}
	}
	sort.Strings(renderedList)
	pngArt, err := env.WriteArtifact(pngName+".png", pngBytes)
	if err != nil {
		return nil, err
	}
	manifest := map[string]any{
		"style": "flood_diagnostic", "input_handle": h.Name, "width": S, "height": S,
		"requested_layers": requested, "rendered_layers": renderedList,
		"known_water_drawn": rendered["known_water"], "prepared_overlay_used": false,
		"mask_sha256": m.MaskSHA256, "mask": m.Artifact.Locator, "png": pngArt.Locator, "png_sha256": pngArt.SHA256,
		"png_bytes": pngArt.Size, "changed_pixels": changed, "component_boundary_pixels": boundary,
		"source": m.Source,
	}
	mb, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return nil, err
	}
	manArt, err := env.WriteArtifact(pngName+".json", append(mb, '\n'))
	if err != nil {
		return nil, err
	}
	if changed == 0 && len(requested) > 1 {
		return nil, fmt.Errorf("RenderMap: no pixel changed from the SAR base although %v were requested", requested)
	}
	manifest["manifest"] = manArt.Locator
	return &Result{
		Evidence:  manifest,
		Artifacts: []Artifact{pngArt, manArt},
		Payload: &FloodRender{Compare: cmp, Input: h.Name, Requested: requested, Rendered: renderedList,
			PNG: pngArt, Manifest: manArt, Width: S, Height: S, ChangedPixels: changed, BoundaryPixels: boundary},
	}, nil
}

// sen1RawPool recycles the render's scanline buffer (copied into the PNG,
// never retained).
var sen1RawPool = sync.Pool{New: func() any { return new([]uint8) }}

// sen1Grey maps VV dB linearly from [-25, 0] to 0..255 (nodata black):
// round-half-away-from-zero of (v+25)/25*255 in float64, clamped. For
// 0.5 <= x < 254.5, x+0.5 is exact or rounds within the same integer, so
// truncating it equals math.Round; x < 0.5 (including values just below
// 0.5, where x+0.5 would round up to 1) is 0.
func sen1Grey(v float32, nodata bool) uint8 {
	f := float64(v)
	if nodata || f != f {
		return 0
	}
	x := (f - sen1MinDB) / (sen1MaxDB - sen1MinDB) * 255
	switch {
	case x < 0.5:
		return 0
	case x >= 254.5:
		return 255
	}
	return uint8(int(x + 0.5))
}

// blend mixes c over p with alpha/255 opacity in integer arithmetic.
func sen1Blend(p, c [3]uint8, alpha int) [3]uint8 {
	var out [3]uint8
	for k := range out {
		out[k] = uint8((int(p[k])*(255-alpha) + int(c[k])*alpha + 127) / 255)
	}
	return out
}

// sen1IsBoundary reports whether a labelled pixel has a 4-neighbour outside
// its component (or lies on the chip edge).
func sen1IsBoundary(labels []int32, w, h, c, r int) bool {
	l := labels[r*w+c]
	return c == 0 || r == 0 || c == w-1 || r == h-1 ||
		labels[r*w+c-1] != l || labels[r*w+c+1] != l || labels[(r-1)*w+c] != l || labels[(r+1)*w+c] != l
}
