package workers

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"sync"

	"github.com/geodisaster/engine/raster"
)

// FloodMask is MapFlood's payload: the run-scoped prediction on the SAR
// chip's grid.
type FloodMask struct {
	// Work is the PrepareScene context the prediction came from.
	Work *Work
	// Source is the SAR raster's path; Info its grid.
	Source string
	Info   RasterInfo
	// Method is the flood-mapping method.
	Method string
	// Threshold is the Otsu threshold of min(VV, VH) over valid pixels.
	Threshold float32
	// Mask holds 0 (valid, not flood), 1 (predicted flood) or 255
	// (nodata), row-major.
	Mask []uint8
	// Valid and Flood count the valid and predicted-flood pixels.
	Valid, Flood int
	// Areas are the grid's cell areas.
	Areas *GridAreas
	// MaskSHA256 is the SHA-256 of the mask samples (uint8, row-major),
	// comparable across implementations; Artifact is the written GeoTIFF.
	MaskSHA256 string
	Artifact   Artifact
}

// FloodIndices returns the row-major indices of the predicted-flood pixels.
func (m *FloodMask) FloodIndices() []int {
	out := make([]int, 0, m.Flood)
	for i, v := range m.Mask {
		if v == MaskFlood {
			out = append(out, i)
		}
	}
	return out
}

// sen1Float32 returns a band's samples as float32.
func sen1Float32(b *raster.Band, path string, band int) ([]float32, error) {
	d, ok := b.Data.([]float32)
	if !ok {
		return nil, fmt.Errorf("%s band %d is %s, expected float32", path, band, b.Type)
	}
	return d, nil
}

// mapFloodOtsu implements MapFlood(method=s1_min_backscatter_otsu_v1)
// (spec type 39): pixels finite and not nodata in both VV and VH are valid;
// the score is min(VV, VH); the threshold is
// skimage.filters.threshold_otsu(score[valid], nbins=256); valid pixels
// scoring at or below it are predicted flood. The uint8 mask (0 valid
// non-flood, 1 flood, 255 nodata) is written as a run-scoped GeoTIFF on the
// chip's grid. A chip without valid pixels is an error, not an empty
// prediction.
func mapFloodOtsu(env Env, a Args) (*Result, error) {
	w, h, err := OpenResult[*Work](env, a, "input", "work (PrepareScene mode=sar_flood*)")
	if err != nil {
		return nil, err
	}
	if _, ok := w.Scenes["sar"]; !ok {
		return nil, a.Errorf("input", "%s is a %s work context without a SAR scene", h.Name, w.Mode)
	}
	f, err := sen1Raster(w.Scenes["sar"])
	if err != nil {
		return nil, err
	}
	// The team's helper starts now, to be awake once the bands are
	// decoded: the steps after that are a few tenths of a millisecond.
	tm, done := teamFor(env)
	defer done()
	vvBand, info, err := env.Band(f.Path, 1)
	if err != nil {
		return nil, err
	}
	vhBand, _, err := env.Band(f.Path, 2)
	if err != nil {
		return nil, err
	}
	vv, err := sen1Float32(vvBand, f.Path, 1)
	if err != nil {
		return nil, err
	}
	vh, err := sen1Float32(vhBand, f.Path, 2)
	if err != nil {
		return nil, err
	}
	m, err := predictFlood(vv, vh, info, tm.Both)
	if err != nil {
		return nil, fmt.Errorf("MapFlood %s: %w", f.Path, err)
	}
	// The mask is hashed on another core while the cell areas are
	// computed and the GeoTIFF is encoded (both only read the mask).
	var maskSum [32]byte
	var tif []byte
	var terr error
	bp := sen1MaskTIFPool.Get().(*[]byte)
	defer sen1MaskTIFPool.Put(bp)
	m.Work, m.Source = w, f.Path
	tm.Both(func() { maskSum = sha256.Sum256(m.Mask) }, func() {
		if m.Areas, err = NewGridAreas(info); err == nil {
			tif, terr = sen1AppendFloodMask((*bp)[:0], m.Mask, info)
		}
	})
	m.MaskSHA256 = hex.EncodeToString(maskSum[:])
	if err != nil {
		return nil, fmt.Errorf("MapFlood %s: %w", f.Path, err)
	}
	if terr != nil {
		return nil, fmt.Errorf("MapFlood: encoding the mask: %w", terr)
	}
	*bp = tif[:0]
	m.Artifact, err = env.WriteArtifact("flood_mask_"+m.MaskSHA256[:12]+".tif", tif, nil)
	if err != nil {
		return nil, err
	}
	return &Result{
		Evidence: map[string]any{
			"method": Sen1FloodMethod, "source": f.Path, "score": "min(VV,VH)",
			"threshold_db": float64(m.Threshold), "otsu_bins": sen1OtsuBins, "rule": "score <= threshold",
			"valid_pixel_count": m.Valid, "flood_pixel_count": m.Flood,
			"flood_percentage": RoundHalfEven(sen1Percent(m.Flood, m.Valid), 6),
			"mask":             m.Artifact.Locator, "mask_file_sha256": m.Artifact.SHA256, "mask_sha256": m.MaskSHA256,
			"encoding": "uint8: 0 valid non-flood, 1 predicted flood, 255 nodata",
		},
		Payload:   m,
		Artifacts: []Artifact{m.Artifact},
	}, nil
}

// PredictFlood applies the s1_min_backscatter_otsu_v1 rule to the VV and VH
// bands of a chip described by info (its nodata, if any, applies to both).
// The returned mask has no Work, Source, Areas or Artifact.
func PredictFlood(vv, vh []float32, info RasterInfo) (*FloodMask, error) {
	m, err := predictFlood(vv, vh, info, sen1Both)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(m.Mask)
	m.MaskSHA256 = hex.EncodeToString(sum[:])
	return m, nil
}

// predictFlood is PredictFlood without the mask's SHA-256; both runs two
// functions concurrently (sen1Both or Team.Both).
func predictFlood(vv, vh []float32, info RasterInfo, both func(f, g func())) (*FloodMask, error) {
	n := info.Width * info.Height
	if len(vv) != n || len(vh) != n {
		return nil, fmt.Errorf("bands have %d and %d samples, the grid %dx%d", len(vv), len(vh), info.Width, info.Height)
	}
	// Valid: both samples finite (exponent bits not all ones) and, when a
	// non-NaN nodata is declared, neither equal to it. The chip is cut in
	// two halves of pixels, classified and thresholded on two goroutines;
	// each half compacts its scores at the start of its own range of the
	// score buffer, and the Otsu histogram adds the halves' counts.
	checkND := info.HasNoData && !math.IsNaN(info.NoData)
	nd := float32(info.NoData)
	mask := make([]uint8, n)
	sp := sen1ScorePool.Get().(*[]float32)
	defer sen1ScorePool.Put(sp)
	if cap(*sp) < n {
		*sp = make([]float32, n)
	}
	score := (*sp)[:n]
	type half struct {
		lo, hi, valid, flood int
		mn, mx               float32
	}
	halves := [2]half{{lo: 0, hi: n / 2}, {lo: n / 2, hi: n}}
	classify := func(h *half) {
		k := h.lo
		mn, mx := float32(math.Inf(1)), float32(math.Inf(-1))
		for i, a := range vv[h.lo:h.hi] {
			b := vh[h.lo+i]
			if math.Float32bits(a)&0x7f800000 == 0x7f800000 || math.Float32bits(b)&0x7f800000 == 0x7f800000 ||
				checkND && (a == nd || b == nd) {
				mask[h.lo+i] = MaskNoData
				continue
			}
			s := min(a, b)
			// Strict comparisons keep the first of equal values
			// (-0 and 0), as OtsuFloat32's scan does.
			if s < mn {
				mn = s
			}
			if s > mx {
				mx = s
			}
			score[k] = s
			k++
		}
		h.valid, h.mn, h.mx = k-h.lo, mn, mx
	}
	both(func() { classify(&halves[0]) }, func() { classify(&halves[1]) })
	valid := halves[0].valid + halves[1].valid
	if valid == 0 {
		return nil, fmt.Errorf("no pixel is finite and non-nodata in both VV and VH (all-nodata chip)")
	}
	var parts [][]float32
	var mn, mx float32
	for i := range halves {
		h := &halves[i]
		if h.valid == 0 {
			continue
		}
		if len(parts) == 0 {
			mn, mx = h.mn, h.mx
		} else {
			if h.mn < mn {
				mn = h.mn
			}
			if h.mx > mx {
				mx = h.mx
			}
		}
		parts = append(parts, score[h.lo:h.lo+h.valid])
	}
	t, err := raster.OtsuFloat32PartsRun(parts, mn, mx, sen1OtsuBins, func(fs []func()) {
		for len(fs) >= 2 {
			both(fs[0], fs[1])
			fs = fs[2:]
		}
		for _, f := range fs {
			f()
		}
	})
	if err != nil {
		return nil, err
	}
	threshold := func(h *half) {
		k, flood := h.lo, 0
		for i, v := range mask[h.lo:h.hi] {
			if v == MaskNoData {
				continue
			}
			var f uint8 // MaskDry or MaskFlood, without a branch
			if score[k] <= t {
				f = MaskFlood
			}
			mask[h.lo+i] = f
			flood += int(f)
			k++
		}
		h.flood = flood
	}
	both(func() { threshold(&halves[0]) }, func() { threshold(&halves[1]) })
	m := &FloodMask{Info: info, Method: Sen1FloodMethod, Threshold: t, Mask: mask, Valid: valid,
		Flood: halves[0].flood + halves[1].flood}
	return m, nil
}

// sen1Both runs f on a new goroutine and g on the caller's, and returns
// when both have; a panic in f is raised again on the caller's goroutine.
func sen1Both(f, g func()) {
	done := make(chan struct{})
	var fp any // f's panic, raised again here
	go func() {
		defer close(done)
		defer func() { fp = recover() }()
		f()
	}()
	defer func() { <-done }() // also when g panics
	g()
	<-done
	if fp != nil {
		panic(fp)
	}
}

// sen1ScorePool recycles PredictFlood's score buffer (one float32 per
// pixel, never retained).
var sen1ScorePool = sync.Pool{New: func() any { return new([]float32) }}

// EncodeFloodMask writes a prediction mask as a tiled, uncompressed uint8
// GeoTIFF with nodata 255 on the chip's grid; the bytes depend only on the
// mask and the grid. The tiles are stored rather than DEFLATE-compressed:
// a 512x512 mask is only 256 KiB stored, and level-6 DEFLATE was
// about a tenth of the type-E chain's CPU time.
func EncodeFloodMask(mask []uint8, info RasterInfo) ([]byte, error) {
	return sen1AppendFloodMask(nil, mask, info)
}

// sen1AppendFloodMask appends EncodeFloodMask's GeoTIFF to buf; the mask
// is encoded in place (raster.Write only reads band data).
func sen1AppendFloodMask(buf []byte, mask []uint8, info RasterInfo) ([]byte, error) {
	if info.Width < 0 || info.Height < 0 || len(mask) != info.Width*info.Height {
		return nil, fmt.Errorf("mask has %d values for a %dx%d grid", len(mask), info.Width, info.Height)
	}
	b := &raster.Band{Width: info.Width, Height: info.Height, Type: raster.Uint8, Data: mask}
	nd := float64(MaskNoData)
	w := bytes.NewBuffer(buf)
	w.Grow(len(mask) + 4096)
	err := raster.Write(w, []*raster.Band{b}, raster.WriteOptions{
		Compression: "none", TileSize: 256, NoData: &nd,
		EPSG: info.EPSG, Transform: info.Transform, BandDescriptions: []string{"flood_prediction"},
	})
	if err != nil {
		return nil, err
	}
	return w.Bytes(), nil
}

// sen1MaskTIFPool recycles the mask GeoTIFF's buffer (written as an
// artifact, never retained).
var sen1MaskTIFPool = sync.Pool{New: func() any { return new([]byte) }}

// sen1Percent is 100*flood/valid (0 when valid is 0), computed as the
// reference does: (100.0*flood)/valid.
func sen1Percent(flood, valid int) float64 {
	if valid == 0 {
		return 0
	}
	return float64(100*float64(flood)) / float64(valid)
}
