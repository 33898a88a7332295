package sen1flood

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/geodisaster/engine/internal/adler32"
	"github.com/geodisaster/engine/workers"
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
	PNG, Manifest workers.Artifact
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
func renderFloodDiagnostic(env workers.Env, a workers.Args) (*workers.Result, error) {
	cmp, h, err := workers.OpenResult[*FloodComparison](env, a, "input", "compare (CompareSources criterion=overlap_vs_outside_reference)")
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
	job := &sen1RenderJob{S: S, w: w, h: hgt, vv: vv, mask: m.Mask, water: water,
		sar: layers["sar"], pred: layers["prediction"], bound: layers["component_boundaries"], grid: layers["grid"]}
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
	tm, release := workers.TeamFor(env)
	defer release()
	tm.Both(func() {
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
	pngArt, err := env.WriteArtifact(pngName+".png", pngBytes, func() [32]byte { return pngSum })
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
	manArt, err := env.WriteArtifact(pngName+".json", append(mb, '\n'), nil)
	if err != nil {
		return nil, err
	}
	if changed == 0 && len(requested) > 1 {
		return nil, fmt.Errorf("RenderMap: no pixel changed from the SAR base although %v were requested", requested)
	}
	manifest["manifest"] = manArt.Locator
	return &workers.Result{
		Evidence:  manifest,
		Artifacts: []workers.Artifact{pngArt, manArt},
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
	S, w, h                int
	vv                     []float32
	mask                   []uint8
	water                  []bool // nil: no known water
	sar, pred, bound, grid bool
}

// sen1RenderPart is what one band of image rows drew.
type sen1RenderPart struct {
	boundary, changed      int
	sar, water, pred, grid bool
	adler                  uint32 // of the band's scanlines
}

// The layers covering an image pixel, as bits of its index into
// sen1Paint.
const (
	sen1PaintPred   = 1 << iota // predicted flood (prediction layer)
	sen1PaintBound              // component boundary
	sen1PaintGrid               // 4x4 grid line
	sen1PaintWater              // JRC known water
	sen1PaintLayers = 1 << iota
)

// sen1Paint[f][v] is the colour of a pixel of grey v under the layers f
// (bits sen1Paint*) as the little-endian bytes r, g, b and, in the fourth
// byte, 1 when that differs from the grey. Known water tints first, the prediction tints over it, and a
// boundary, then a grid line, replace the colour: the drawing order of
// the layers.
var sen1Paint = func() *[sen1PaintLayers][256]uint32 {
	var t [sen1PaintLayers][256]uint32
	for f := range t {
		for v := range 256 {
			r, g, b := uint8(v), uint8(v), uint8(v)
			if f&sen1PaintWater != 0 {
				r, g, b = sen1WaterTab[0][r], sen1WaterTab[1][g], sen1WaterTab[2][b]
			}
			if f&sen1PaintPred != 0 {
				r, g, b = sen1PredTab[0][r], sen1PredTab[1][g], sen1PredTab[2][b]
			}
			if f&sen1PaintBound != 0 {
				r, g, b = sen1BoundaryRGB[0], sen1BoundaryRGB[1], sen1BoundaryRGB[2]
			}
			if f&sen1PaintGrid != 0 {
				r, g, b = sen1GridRGB[0], sen1GridRGB[1], sen1GridRGB[2]
			}
			var changed uint8
			if r != uint8(v) || g != uint8(v) || b != uint8(v) {
				changed = 1
			}
			t[f][v] = uint32(r) | uint32(g)<<8 | uint32(b)<<16 | uint32(changed)<<24
		}
	}
	return &t
}()

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

// rowLayers sets layers[c] to the sen1Paint bits of chip pixel (c, row)
// for the prediction, boundary and known-water layers. A boundary pixel
// is a predicted-flood pixel on the chip's edge or with a 4-neighbour
// outside the prediction: in an 8-connected labelling, exactly a labelled
// pixel with a 4-neighbour of another label (a 4-neighbour in the
// prediction belongs to the same component).
func (j *sen1RenderJob) rowLayers(layers []uint8, row int) {
	w, h, mask := j.w, j.h, j.mask
	mrow := mask[row*w : (row+1)*w]
	var pred, bound uint8
	if j.pred {
		pred = sen1PaintPred
	}
	if j.bound {
		bound = sen1PaintBound
	}
	edgeRow := row == 0 || row == h-1
	c := 0
	if !edgeRow && w >= 10 {
		// Eight interior pixels at a time: flood bytes are 1 where the
		// mask byte is MaskFlood, and a flood pixel is a boundary when
		// any of its four neighbours' bytes is not.
		up, down := mask[(row-1)*w:row*w], mask[(row+1)*w:(row+2)*w]
		flood := func(b []uint8, i int) uint64 {
			return sen1ZeroBytes(binary.LittleEndian.Uint64(b[i:])^sen1Lanes*uint64(MaskFlood)) >> 7
		}
		layers[0] = sen1EdgeLayers(mrow[0], pred, bound)
		for c = 1; c+9 <= w; c += 8 {
			f := flood(mrow, c)
			all := flood(mrow, c-1) & flood(mrow, c+1) & flood(up, c) & flood(down, c)
			binary.LittleEndian.PutUint64(layers[c:], f*uint64(pred)|(f&^all)*uint64(bound))
		}
	}
	for ; c < w; c++ {
		v := mrow[c]
		switch {
		case v != MaskFlood:
			layers[c] = 0
		case edgeRow || c == 0 || c == w-1:
			layers[c] = sen1EdgeLayers(v, pred, bound)
		case (mrow[c-1]^MaskFlood)|(mrow[c+1]^MaskFlood)|(mask[(row-1)*w+c]^MaskFlood)|(mask[(row+1)*w+c]^MaskFlood) != 0:
			layers[c] = pred | bound
		default:
			layers[c] = pred
		}
	}
	if j.water != nil {
		for c, wet := range j.water[row*w : (row+1)*w] {
			if wet {
				layers[c] |= sen1PaintWater
			}
		}
	}
}

// sen1EdgeLayers returns the layers of a chip pixel of mask value v on
// the chip's edge, where every predicted-flood pixel is a boundary.
func sen1EdgeLayers(v, pred, bound uint8) uint8 {
	if v == MaskFlood {
		return pred | bound
	}
	return 0
}

// draw renders image rows [y0, y1) into png.
func (j *sen1RenderJob) draw(png *sen1PNG, y0, y1 int) sen1RenderPart {
	S, w, h := j.S, j.w, j.h
	stride := 1 + 3*S
	// One spare byte: each pixel is stored as a 4-byte word whose last
	// byte the next pixel overwrites.
	line := make([]byte, stride+1)
	colOf := make([]int, S)
	gridCol := make([]uint8, S)
	for x := range colOf {
		colOf[x] = x * w / S
		if j.grid && x%(S/4) == 0 && x > 0 {
			gridCol[x] = sen1PaintGrid
		}
	}
	layers := make([]uint8, w)
	// A chip of the image's width is drawn straight from its rows; any
	// other width has its sampled columns gathered first, so that one
	// loop over image columns, without an index table, paints both.
	identity := w == S
	var vs []float32
	var ms, ls []uint8
	if !identity {
		vs, ms, ls = make([]float32, S), make([]uint8, S), make([]uint8, S)
	}
	var p sen1RenderPart
	var seen uint8  // the layers of all pixels drawn
	ad := uint32(1) // Adler-32 of nothing
	mask, vv := j.mask, j.vv
	paint := sen1Paint
	for y := y0; y < y1; y++ {
		row := y * h / S
		line[0] = 0 // filter: none
		px := line[1:]
		var gridRow uint8
		if j.grid && y%(S/4) == 0 && y > 0 {
			gridRow = sen1PaintGrid
		}
		j.rowLayers(layers, row)
		mrow := mask[row*w : (row+1)*w]
		vrow := vv[row*w : (row+1)*w]
		if identity {
			vs, ms, ls = vrow, mrow, layers
		} else {
			for x, col := range colOf {
				vs[x], ms[x], ls[x] = vrow[col], mrow[col], layers[col]
			}
		}
		vs, ms, ls, gc := vs[:S], ms[:S], ls[:S], gridCol[:S]
		px = px[:3*S+1]
		changed, boundary := 0, 0
		for x := range S {
			var v uint8
			if j.sar {
				v = sen1Grey(vs[x], ms[x] == MaskNoData)
			}
			f := (ls[x] | gc[x] | gridRow) & (sen1PaintLayers - 1)
			seen |= f
			c := paint[f][v]
			binary.LittleEndian.PutUint32(px[3*x:], c)
			changed += int(c >> 24)
			boundary += int(f >> 1 & 1)
		}
		p.changed += changed
		p.boundary += boundary
		ad = adler32.Update(ad, line[:stride])
		png.put(y*stride, line[:stride])
	}
	p.sar = j.sar && y1 > y0
	p.pred = seen&sen1PaintPred != 0
	p.grid = seen&sen1PaintGrid != 0
	p.water = seen&sen1PaintWater != 0
	p.adler = ad
	return p
}

// sen1Grey maps VV dB linearly from [-25, 0] to 0..255 (nodata black):
// round-half-away-from-zero of x = (v+25)/25*255 in float64, clamped. For
// 0.5 <= x < 254.5, x+0.5 is exact or rounds within the same integer, so
// truncating it equals math.Round; x < 0.5 (including values just below
// 0.5, where x+0.5 would round up to 1) is 0.
func sen1Grey(v float32, nodata bool) uint8 {
	f := float64(v)
	if nodata || f != f {
		return 0
	}
	x := float64((f - sen1MinDB) / (sen1MaxDB - sen1MinDB) * 255) // rounded: not fused with x + 0.5 (arm64)
	// Without branches (dark flood water falls below the range at random):
	// x clamped to [0, 255] rounds as above, 254.5 and up to 255, and
	// x < 0.5 selects 0.
	g := int(min(max(x, 0), 255) + 0.5)
	if x < 0.5 {
		g = 0
	}
	return uint8(g)
}

// blend mixes c over p with alpha/255 opacity in integer arithmetic.
func sen1Blend(p, c [3]uint8, alpha int) [3]uint8 {
	var out [3]uint8
	for k := range out {
		out[k] = uint8((int(p[k])*(255-alpha) + int(c[k])*alpha + 127) / 255)
	}
	return out
}
