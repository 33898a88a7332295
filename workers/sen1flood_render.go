package workers

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/adler32"
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
	// The image is drawn straight into the PNG's stored blocks, the top
	// and bottom halves on two goroutines; each half counts its own
	// pixels and checksums its own scanlines, combined in a fixed order.
	// The prediction's hash is checked meanwhile.
	S := sen1RenderSize
	job := &sen1RenderJob{S: S, w: w, h: hgt, vv: vv, mask: m.Mask, labels: labels, water: water,
		sar: layers["sar"], pred: layers["prediction"], grid: layers["grid"]}
	bp := sen1PNGPool.Get().(*[]byte)
	defer sen1PNGPool.Put(bp)
	png := newSen1PNG(*bp, S, S)
	*bp = png.out[:0]
	// The top half's goroutine then hashes the file's bytes up to the
	// end of its scanlines (block headers are laid out already), the
	// caller's the mask; the rest of the file is hashed once finished.
	var top sen1RenderPart
	var maskSum [32]byte
	pngHash := sha256.New()
	prefix := png.fileOffset(S / 2 * (1 + 3*S))
	var bottom sen1RenderPart
	sen1Both(func() {
		top = job.draw(png, 0, S/2)
		pngHash.Write(png.out[:prefix])
	}, func() {
		bottom = job.draw(png, S/2, S)
		maskSum = sha256.Sum256(m.Mask)
	})
	if got := hex.EncodeToString(maskSum[:]); got != m.MaskSHA256 {
		return nil, fmt.Errorf("RenderMap: the prediction mask changed since MapFlood (%s != %s)", got, m.MaskSHA256)
	}
	boundary, changed := top.boundary+bottom.boundary, top.changed+bottom.changed
	rendered := map[string]bool{"sar": top.sar || bottom.sar, "known_water": top.water || bottom.water,
		"prediction": top.pred || bottom.pred, "component_boundaries": top.boundary+bottom.boundary > 0,
		"grid": top.grid || bottom.grid}
	pngBytes := png.finish(adler32Combine(top.adler, bottom.adler, (S-S/2)*(1+3*S)))
	pngHash.Write(pngBytes[prefix:])
	var pngSum [32]byte
	pngHash.Sum(pngSum[:0])
	pngName := "flood_diagnostic_" + hex.EncodeToString(pngSum[:6])
	var renderedList []string
	for k, on := range rendered {
		if on {
			renderedList = append(renderedList, k)
		}
	}
	sort.Strings(renderedList)
	pngArt, err := writeArtifactSum(env, pngName+".png", pngBytes, pngSum)
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

// sen1PNGPool recycles the render's PNG buffer (written as an artifact,
// never retained).
var sen1PNGPool = sync.Pool{New: func() any { return new([]byte) }}

// sen1RenderJob draws the flood_diagnostic layers into an S x S image of a
// w x h chip (nearest sample: image pixel (x, y) shows chip pixel
// (x*w/S, y*h/S)).
type sen1RenderJob struct {
	S, w, h         int
	vv              []float32
	mask            []uint8
	labels          []int32 // nil: no component boundaries
	water           []bool  // nil: no known water
	sar, pred, grid bool
}

// sen1RenderPart is what one band of image rows drew.
type sen1RenderPart struct {
	boundary, changed      int
	sar, water, pred, grid bool
	adler                  uint32 // of the band's scanlines
}

// sen1PredTab and sen1WaterTab are sen1Blend's channels: tab[k][v] is
// channel k of the colour blended over value v.
var sen1PredTab, sen1WaterTab = sen1BlendTable(sen1PredictionRGB), sen1BlendTable(sen1WaterRGB)

func sen1BlendTable(c [3]uint8) *[3][256]uint8 {
	var t [3][256]uint8
	for v := range 256 {
		p := sen1Blend([3]uint8{uint8(v), uint8(v), uint8(v)}, c, sen1Alpha)
		for k := range 3 {
			t[k][v] = p[k]
		}
	}
	return &t
}

// draw renders image rows [y0, y1) into png.
func (j *sen1RenderJob) draw(png *sen1PNG, y0, y1 int) sen1RenderPart {
	S, w, h := j.S, j.w, j.h
	stride := 1 + 3*S
	line := make([]byte, stride)
	colOf := make([]int, S)
	gridCol := make([]bool, S)
	for x := range colOf {
		colOf[x] = x * w / S
		gridCol[x] = j.grid && x%(S/4) == 0 && x > 0
	}
	var p sen1RenderPart
	ad := adler32.New()
	mask, vv, labels, water := j.mask, j.vv, j.labels, j.water
	for y := y0; y < y1; y++ {
		row := y * h / S
		line[0] = 0 // filter: none
		px := line[1:]
		gridRow := j.grid && y%(S/4) == 0 && y > 0
		mrow := mask[row*w : (row+1)*w]
		var lrow, lup, ldown []int32
		if labels != nil {
			lrow = labels[row*w : (row+1)*w]
			if row > 0 && row < h-1 {
				lup, ldown = labels[(row-1)*w:row*w], labels[(row+1)*w:(row+2)*w]
			}
		}
		vrow := vv[row*w : (row+1)*w]
		px = px[:3*len(colOf)]
		for x, col := range colOf {
			mv := mrow[col]
			var r, g, b uint8
			if j.sar {
				v := sen1Grey(vrow[col], mv == MaskNoData)
				r, g, b = v, v, v
			}
			br, bg, bb := r, g, b
			if water != nil && water[row*w+col] {
				r, g, b = sen1WaterTab[0][r], sen1WaterTab[1][g], sen1WaterTab[2][b]
				p.water = true
			}
			if j.pred && mv == MaskFlood {
				r, g, b = sen1PredTab[0][r], sen1PredTab[1][g], sen1PredTab[2][b]
				p.pred = true
			}
			if lrow != nil {
				if l := lrow[col]; l != 0 && (lup == nil || col == 0 || col == w-1 ||
					lrow[col-1] != l || lrow[col+1] != l || lup[col] != l || ldown[col] != l) {
					r, g, b = sen1BoundaryRGB[0], sen1BoundaryRGB[1], sen1BoundaryRGB[2]
					p.boundary++
				}
			}
			if gridRow || gridCol[x] {
				r, g, b = sen1GridRGB[0], sen1GridRGB[1], sen1GridRGB[2]
				p.grid = true
			}
			if r != br || g != bg || b != bb {
				p.changed++
			}
			px[3*x], px[3*x+1], px[3*x+2] = r, g, b
		}
		ad.Write(line)
		png.put(y*stride, line)
	}
	p.sar = j.sar && y1 > y0
	p.adler = ad.Sum32()
	return p
}

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
	x := float64((f - sen1MinDB) / (sen1MaxDB - sen1MinDB) * 255) // rounded: not fused with x + 0.5 (arm64)
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
