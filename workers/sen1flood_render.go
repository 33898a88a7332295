package workers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"

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
			fg := make([]bool, len(m.Mask))
			for i, v := range m.Mask {
				fg[i] = v == MaskFlood
			}
			labels, _, err = raster.Label(fg, w, hgt, raster.Connect8)
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
		for i := range water {
			water[i] = band.At(i) == 1
		}
	}
	S := sen1RenderSize
	img := make([]uint8, S*S*3)
	base := make([]uint8, S*S*3)
	drawSAR, drawPred, drawGrid := layers["sar"], layers["prediction"], layers["grid"]
	var didSAR, didWater, didPred, didBoundary, didGrid bool
	boundary := 0
	for y := 0; y < S; y++ {
		row := y * hgt / S
		for x := 0; x < S; x++ {
			col := x * w / S
			i := row*w + col
			var px [3]uint8
			if drawSAR {
				g := sen1Grey(vv[i], m.Mask[i] == MaskNoData)
				px = [3]uint8{g, g, g}
				didSAR = true
			}
			copy(base[(y*S+x)*3:], px[:])
			if water != nil && water[i] {
				px = sen1Blend(px, sen1WaterRGB, sen1Alpha)
				didWater = true
			}
			if drawPred && m.Mask[i] == MaskFlood {
				px = sen1Blend(px, sen1PredictionRGB, sen1Alpha)
				didPred = true
			}
			if labels != nil && labels[i] != 0 && sen1IsBoundary(labels, w, hgt, col, row) {
				px = sen1BoundaryRGB
				boundary++
				didBoundary = true
			}
			if drawGrid && (x%(S/4) == 0 && x > 0 || y%(S/4) == 0 && y > 0) {
				px = sen1GridRGB
				didGrid = true
			}
			copy(img[(y*S+x)*3:], px[:])
		}
	}
	rendered := map[string]bool{"sar": didSAR, "known_water": didWater, "prediction": didPred,
		"component_boundaries": didBoundary, "grid": didGrid}
	changed := 0
	for p := 0; p < S*S*3; p += 3 {
		if img[p] != base[p] || img[p+1] != base[p+1] || img[p+2] != base[p+2] {
			changed++
		}
	}
	pngBytes, err := sen1EncodePNG(img, S, S)
	if err != nil {
		return nil, fmt.Errorf("RenderMap: encoding PNG: %w", err)
	}
	buf := bytes.NewBuffer(pngBytes)
	if buf.Len() == 0 {
		return nil, fmt.Errorf("RenderMap: empty PNG")
	}
	var renderedList []string
	for k, on := range rendered {
		if on {
			renderedList = append(renderedList, k)
		}
	}
	sort.Strings(renderedList)
	pngArt, err := env.WriteArtifact("flood_diagnostic_"+sha256Hex(buf.Bytes())[:12]+".png", buf.Bytes())
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
	manArt, err := env.WriteArtifact("flood_diagnostic_"+sha256Hex(buf.Bytes())[:12]+".json", append(mb, '\n'))
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

// sen1Grey maps VV dB linearly from [-25, 0] to 0..255 (nodata black).
func sen1Grey(v float32, nodata bool) uint8 {
	f := float64(v)
	if nodata || math.IsNaN(f) {
		return 0
	}
	g := math.Round(float64((f - sen1MinDB) / (sen1MaxDB - sen1MinDB) * 255))
	return uint8(max(0, min(255, g)))
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
