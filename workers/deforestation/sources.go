package deforestation

import (
	"fmt"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
)

// Shared source machinery of the deforestation family (spec types 1-4, 6-8):
// Sentinel-2 NDVI/NBR per epoch, Sentinel-1 VH/VV dB aggregation by declared
// temporal role, and Hansen event-year loss with the lossyear.tif fallback.
//
// Numerics follow a NumPy reference over float32 rasters (DESIGN.md
// "Numerics"), as type 5's published float32 means show: bands are read as
// float32, per-pixel indices are float32 and every per-file mean is NumPy's
// float32 mean of the valid values in row-major order. Each per-file mean
// is then reported as a Python float, so group means (np.mean over those
// floats), pre-minus-post differences and composite scores are float64, and
// thresholds compare float64 values with Python floats.

// canonicalEpochs is the spec's canonical optical epoch order (type 3,
// calculation step 2).
var canonicalEpochs = []string{"pre_3", "pre_2", "pre_1", "post_1", "post_2", "post_3"}

// CanonicalEpochs returns the spec's canonical optical epoch order (type
// 3, calculation step 2): pre_3, pre_2, pre_1, post_1, post_2, post_3.
func CanonicalEpochs() []string { return append([]string(nil), canonicalEpochs...) }

// s2Bands are the six Sentinel-2 bands of each optical epoch file.
var s2Bands = []string{"B2", "B3", "B4", "B8", "B11", "B12"}

var epochRE = regexp.MustCompile(`^(pre|post)_[123]$`)

// forestSceneSource tells which source an input handle carries, from its declared
// handle name: "optical", "sar", "hansen" or "loss_history".
func forestSceneSource(s *workers.Scene) string {
	switch workers.HandleStem(s.Handle) {
	case "optical_stack", "optical_timeseries":
		return "optical"
	case "sar_stack", "sar_timeseries":
		return "sar"
	case "forest_mask":
		return "hansen"
	case "forest_loss_history":
		return "loss_history"
	}
	return ""
}

// sceneTIFFs returns the scene's declared GeoTIFFs.
func sceneTIFFs(s *workers.Scene) []*workers.SceneFile {
	var out []*workers.SceneFile
	for i := range s.Files {
		if s.Files[i].Raster != nil {
			out = append(out, &s.Files[i])
		}
	}
	return out
}

// declaredBand returns the 1-based band of a declared file named name: from
// the file card's band_names when declared, otherwise from the raster's
// band descriptions.
func declaredBand(f *workers.SceneFile, name string) (int, error) {
	if len(f.BandNames) > 0 {
		if f.Raster != nil && len(f.BandNames) != f.Raster.Count {
			return 0, fmt.Errorf("%s: file card declares %d band names for %d bands", f.Path, len(f.BandNames), f.Raster.Count)
		}
		for i, b := range f.BandNames {
			if b == name {
				return i + 1, nil
			}
		}
		return 0, fmt.Errorf("%s: band %s is not among the declared band_names %v", f.Path, name, f.BandNames)
	}
	if f.Raster != nil {
		described := false
		for i, d := range f.Raster.Descriptions {
			if d == name {
				return i + 1, nil
			}
			described = described || d != ""
		}
		// Without names or descriptions, a raster with exactly the
		// product's band count is read in the product's declared order
		// (Sentinel-2: B2, B3, B4, B8, B11, B12; Sentinel-1: VV, VH, or
		// VV, VH, angle as Earth Engine's GRD collection orders them).
		for _, order := range [][]string{s2Bands, s1Bands, {"VV", "VH", "angle"}} {
			for i, b := range order {
				if b == name && !described && f.Raster.Count == len(order) {
					return i + 1, nil
				}
			}
		}
	}
	return 0, fmt.Errorf("%s: no band %s (the file card declares no band_names and no band description matches)", f.Path, name)
}

// s1Bands are the two Sentinel-1 bands of each acquisition file.
var s1Bands = []string{"VV", "VH"}

// opticalEpoch is one declared Sentinel-2 epoch file.
type opticalEpoch struct {
	Epoch string
	File  *workers.SceneFile
}

// epochName returns a file's declared epoch: the card's epoch when given,
// otherwise its file stem (pre_1.tif is epoch pre_1).
func epochName(f *workers.SceneFile) string {
	if f.Epoch != "" {
		return f.Epoch
	}
	return strings.TrimSuffix(f.Base(), path.Ext(f.Path))
}

// opticalEpochs returns the scene's declared optical epochs in canonical
// order. Unknown or duplicated epochs are errors; a missing epoch is simply
// absent (spec section 7: missing optional epochs are reported, never
// probed for).
func opticalEpochs(s *workers.Scene) ([]opticalEpoch, error) {
	byEpoch := map[string]*workers.SceneFile{}
	for _, f := range sceneTIFFs(s) {
		e := epochName(f)
		if !epochRE.MatchString(e) {
			return nil, fmt.Errorf("optical file %s has epoch %q (allowed: %s)", f.Path, e, strings.Join(canonicalEpochs, ", "))
		}
		if prev, dup := byEpoch[e]; dup {
			return nil, fmt.Errorf("optical epoch %s is declared twice (%s and %s)", e, prev.Path, f.Path)
		}
		byEpoch[e] = f
	}
	var out []opticalEpoch
	for _, e := range canonicalEpochs {
		if f, ok := byEpoch[e]; ok {
			out = append(out, opticalEpoch{Epoch: e, File: f})
		}
	}
	return out, nil
}

// checkOpticalScene validates an optical scene at ReadData: declared
// six-band epochs with at least one pre and one post epoch, each carrying
// B4, B8 and B12, all on one grid.
func checkOpticalScene(s *workers.Scene) error {
	eps, err := opticalEpochs(s)
	if err != nil {
		return err
	}
	var pre, post int
	for _, e := range eps {
		if strings.HasPrefix(e.Epoch, "pre_") {
			pre++
		} else {
			post++
		}
		for _, b := range []string{"B4", "B8", "B12"} {
			if _, err := declaredBand(e.File, b); err != nil {
				if b == "B12" {
					return fmt.Errorf("missing NBR input: %w", err)
				}
				return err
			}
		}
		if err := workers.CheckSameGrid(eps[0].File.Path, *eps[0].File.Raster, e.File.Path, *e.File.Raster); err != nil {
			return fmt.Errorf("optical epochs are not on one grid: %w", err)
		}
	}
	if pre == 0 || post == 0 {
		return fmt.Errorf("optical stack needs pre and post epochs, has %d pre and %d post", pre, post)
	}
	return nil
}

// checkSARScene validates a Sentinel-1 scene at ReadData: every declared
// acquisition carries a date and a temporal_role of pre or post, a VV and
// a VH band, all on one grid, and both groups are non-empty.
func checkSARScene(s *workers.Scene) error {
	files := sceneTIFFs(s)
	var pre, post int
	for _, f := range files {
		if f.Date == "" {
			return fmt.Errorf("SAR acquisition %s declares no acquisition date", f.Path)
		}
		switch f.TemporalRole {
		case "pre":
			pre++
		case "post":
			post++
		case "":
			return fmt.Errorf("SAR acquisition %s declares no temporal_role (pre or post)", f.Path)
		default:
			return fmt.Errorf("SAR acquisition %s has temporal_role %q (allowed: pre, post)", f.Path, f.TemporalRole)
		}
		for _, b := range []string{"VV", "VH"} {
			if _, err := declaredBand(f, b); err != nil {
				return err
			}
		}
		if err := workers.CheckSameGrid(files[0].Path, *files[0].Raster, f.Path, *f.Raster); err != nil {
			return fmt.Errorf("SAR acquisitions are not on one grid: %w", err)
		}
	}
	if pre == 0 || post == 0 {
		return fmt.Errorf("SAR stack needs pre and post acquisitions, has %d pre and %d post", pre, post)
	}
	return nil
}

// bandFloat32Into returns a band's samples as float32 (exact for the
// integer and float32 types the sources use): a float32 band's own
// samples, otherwise a conversion into dst's memory when it is large
// enough; callers reuse dst across bands.
func bandFloat32Into(dst []float32, b *raster.Band) []float32 {
	switch s := b.Data.(type) {
	case []float32:
		return s
	case []uint8:
		return toFloat32(dst, s)
	case []int8:
		return toFloat32(dst, s)
	case []uint16:
		return toFloat32(dst, s)
	case []int16:
		return toFloat32(dst, s)
	case []uint32:
		return toFloat32(dst, s)
	case []int32:
		return toFloat32(dst, s)
	case []float64:
		return toFloat32(dst, s)
	}
	return dst[:0] // not a sample slice (raster.Band.Validate rejects it): no samples
}

// toFloat32 converts samples to float32 into dst's memory. Each integer
// converts exactly to float64, so one rounding to float32 is what
// float32(b.At(i)) gives.
func toFloat32[T uint8 | int8 | uint16 | int16 | uint32 | int32 | float64](dst []float32, s []T) []float32 {
	dst = grow32(dst, len(s))
	for i, v := range s {
		dst[i] = float32(v)
	}
	return dst
}

// grow32 returns dst resized to n, reallocated only when too small.
func grow32(dst []float32, n int) []float32 {
	if cap(dst) < n {
		return make([]float32, n)
	}
	return dst[:n]
}

// float32NoData returns the declared nodata as the float32 a sample must
// equal to match it (float64(v) == NoData); ok is false when no float32
// can (no nodata, NaN, or a value float32 cannot hold exactly).
func float32NoData(info workers.RasterInfo) (nd float32, ok bool) {
	nd = float32(info.NoData)
	return nd, info.HasNoData && float64(nd) == info.NoData
}

// finiteBits32 reports whether v is finite from its exponent bits.
func finiteBits32(v float32) bool { return math.Float32bits(v)&0x7f800000 != 0x7f800000 }

// EpochIndices are one optical epoch's NDVI and NBR means.
type EpochIndices struct {
	Epoch string
	Path  string
	// NDVI and NBR are NumPy float32 means over the region's pixels whose
	// bands are valid and whose index is finite; NaN when none is.
	NDVI, NBR             float32
	NDVIPixels, NBRPixels int
}

// opticalScratch holds an optical stack's reusable per-epoch buffers:
// float32 conversions of bands that are neither uint8 nor uint16 nor
// float32 (or of mixed types) and the index values of the whole AOI and
// of the region.
type opticalScratch struct {
	c4, c8, c12 []float32
	aoi, reg    indexValues
}

// opticalScratchPool keeps optical scratch buffers from stack to stack
// (and record to record): an epoch's values are written before they are
// read, so no buffer needs clearing.
var opticalScratchPool = sync.Pool{New: func() any { return new(opticalScratch) }}

func getOpticalScratch() *opticalScratch { return opticalScratchPool.Get().(*opticalScratch) }

func putOpticalScratch(sc *opticalScratch) { opticalScratchPool.Put(sc) }

// epochMeans computes an epoch's NDVI = (B8-B4)/(B8+B4) and
// NBR = (B8-B12)/(B8+B12) means (spec type 1 step 1) over the whole AOI
// (when whole is true) and over region (when not nil; regionIdx are its
// true cells in row-major order, so its values come in the same order as
// a row-major scan of the mask gives). The region must be on the epoch's
// grid: when it is not, regionErr says so and only the AOI means are
// computed. sc's buffers are reused from epoch to epoch.
func epochMeans(env workers.Env, e opticalEpoch, whole bool, region []bool, regionIdx []int, regionInfo *workers.RasterInfo, sc *opticalScratch) (aoi, reg EpochIndices, regionErr, err error) {
	aoi = EpochIndices{Epoch: e.Epoch, Path: e.File.Path}
	reg = aoi
	get := func(name string, scratch *[]float32) (bandView, workers.RasterInfo, error) {
		bi, err := declaredBand(e.File, name)
		if err != nil {
			if name == "B12" {
				return bandView{}, workers.RasterInfo{}, fmt.Errorf("missing NBR input: %w", err)
			}
			return bandView{}, workers.RasterInfo{}, err
		}
		b, info, err := env.Band(e.File.Path, bi)
		if err != nil {
			return bandView{}, workers.RasterInfo{}, err
		}
		return viewOf(b, scratch), info, nil
	}
	v4, i4, err := get("B4", &sc.c4)
	if err != nil {
		return aoi, reg, nil, err
	}
	v8, i8, err := get("B8", &sc.c8)
	if err != nil {
		return aoi, reg, nil, err
	}
	v12, i12, err := get("B12", &sc.c12)
	if err != nil {
		return aoi, reg, nil, err
	}
	n := v8.len()
	if region != nil {
		if err := workers.CheckSameGrid("the Hansen loss mask", *regionInfo, e.File.Path, i8); err != nil {
			regionErr = fmt.Errorf("optical epoch %s is not on the Hansen loss mask's grid: %w", e.File.Path, err)
			region = nil
		} else if len(region) != n {
			regionErr = fmt.Errorf("optical epoch %s has %d pixels, the Hansen loss mask %d", e.File.Path, n, len(region))
			region = nil
		}
	}
	if v4.len() != n || v12.len() != n || i4.Width != i8.Width || i12.Width != i8.Width {
		return aoi, reg, regionErr, fmt.Errorf("optical epoch %s: bands B4, B8 and B12 differ in size", e.File.Path)
	}
	var wa, wr *indexValues
	if whole {
		wa = &sc.aoi
	}
	if region != nil {
		wr = &sc.reg
	}
	if wa == nil && wr == nil {
		return aoi, reg, regionErr, nil
	}
	indexStack(v8, v4, v12, nodataOf(i8), nodataOf(i4), nodataOf(i12), regionIdx, wa, wr, sc)
	if wa != nil {
		aoi.NDVI, aoi.NDVIPixels = numpy.MeanFloat32(wa.ndvi), len(wa.ndvi)
		aoi.NBR, aoi.NBRPixels = numpy.MeanFloat32(wa.nbr), len(wa.nbr)
	}
	if wr != nil {
		reg.NDVI, reg.NDVIPixels = numpy.MeanFloat32(wr.ndvi), len(wr.ndvi)
		reg.NBR, reg.NBRPixels = numpy.MeanFloat32(wr.nbr), len(wr.nbr)
	}
	return aoi, reg, regionErr, nil
}

// OpticalDrops is the whole-period optical change: mean of the available
// pre-epoch means minus mean of the available post-epoch means.
type OpticalDrops struct {
	// Region is "event_year_loss" when restricted to positive event-year
	// Hansen pixels, otherwise "aoi".
	Region             string
	Epochs             []EpochIndices
	PreNDVI, PostNDVI  float64
	PreNBR, PostNBR    float64
	NDVIDrop, NBRDrop  float64
	PreEpochs, PostEps []string
}

// finiteMean returns np.mean of the finite per-file means, widened to
// float64 (NaN if none).
func finiteMean(vals []float32) float64 {
	var ok []float64
	for _, v := range vals {
		if workers.Finite(float64(v)) {
			ok = append(ok, float64(v))
		}
	}
	return numpy.MeanFloat64(ok)
}

// opticalDrops computes per-epoch indices over region (nil: AOI) and the
// pre-minus-post drops. Epochs without a finite mean are left out of their
// group; an empty group is an error.
func opticalDrops(env workers.Env, s *workers.Scene, loss *HansenLoss) (*OpticalDrops, error) {
	eps, err := opticalEpochs(s)
	if err != nil {
		return nil, err
	}
	region, idx, rinfo, name := lossRegion(loss)
	sc := getOpticalScratch()
	defer putOpticalScratch(sc)
	var per []EpochIndices
	for _, e := range eps {
		aoi, reg, regionErr, err := epochMeans(env, e, region == nil, region, idx, rinfo, sc)
		if err == nil {
			err = regionErr
		}
		if err != nil {
			return nil, err
		}
		if region == nil {
			per = append(per, aoi)
		} else {
			per = append(per, reg)
		}
	}
	return dropsOf(s, per, name)
}

// opticalDropsWithAOI is opticalDrops together with the whole-AOI epoch
// means, both from one pass over each epoch's bands (spec type 3 needs
// the AOI means for the window and the loss-region drops). Its errors and
// their order are those of the AOI means computed first, then check (the
// caller's test of the AOI means), then opticalDrops.
func opticalDropsWithAOI(env workers.Env, s *workers.Scene, loss *HansenLoss, check func([]EpochIndices) error) ([]EpochIndices, *OpticalDrops, error) {
	eps, err := opticalEpochs(s)
	if err != nil {
		return nil, nil, err
	}
	region, idx, rinfo, name := lossRegion(loss)
	sc := getOpticalScratch()
	defer putOpticalScratch(sc)
	var aois, regs []EpochIndices
	var firstRegionErr error
	for _, e := range eps {
		aoi, reg, regionErr, err := epochMeans(env, e, true, region, idx, rinfo, sc)
		if err != nil {
			return nil, nil, err
		}
		if regionErr != nil && firstRegionErr == nil {
			firstRegionErr = regionErr
		}
		aois, regs = append(aois, aoi), append(regs, reg)
	}
	if err := check(aois); err != nil {
		return nil, nil, err
	}
	if firstRegionErr != nil {
		return nil, nil, firstRegionErr
	}
	if region == nil {
		regs = aois
	}
	od, err := dropsOf(s, regs, name)
	return aois, od, err
}

// lossRegion returns the Hansen event-year loss cells as a region (its
// mask and row-major cell indices) with its grid and name, or a nil
// region ("aoi") when there is none.
func lossRegion(loss *HansenLoss) ([]bool, []int, *workers.RasterInfo, string) {
	if loss != nil && len(loss.Indices) > 0 {
		return loss.Mask, loss.Indices, &loss.Info, "event_year_loss"
	}
	return nil, nil, nil, "aoi"
}

// dropsOf groups per-epoch means (in canonical order) by pre and post and
// computes the drops over the named region.
func dropsOf(s *workers.Scene, per []EpochIndices, region string) (*OpticalDrops, error) {
	od := &OpticalDrops{Region: region}
	var preNDVI, postNDVI, preNBR, postNBR []float32
	for _, ei := range per {
		od.Epochs = append(od.Epochs, ei)
		if strings.HasPrefix(ei.Epoch, "pre_") {
			preNDVI, preNBR = append(preNDVI, ei.NDVI), append(preNBR, ei.NBR)
			if workers.Finite(float64(ei.NDVI)) {
				od.PreEpochs = append(od.PreEpochs, ei.Epoch)
			}
		} else {
			postNDVI, postNBR = append(postNDVI, ei.NDVI), append(postNBR, ei.NBR)
			if workers.Finite(float64(ei.NDVI)) {
				od.PostEps = append(od.PostEps, ei.Epoch)
			}
		}
	}
	od.PreNDVI, od.PostNDVI = finiteMean(preNDVI), finiteMean(postNDVI)
	od.PreNBR, od.PostNBR = finiteMean(preNBR), finiteMean(postNBR)
	for _, v := range []struct {
		name string
		x    float64
	}{{"pre-event NDVI", od.PreNDVI}, {"post-event NDVI", od.PostNDVI}, {"pre-event NBR", od.PreNBR}, {"post-event NBR", od.PostNBR}} {
		if !workers.Finite(v.x) {
			return nil, fmt.Errorf("optical stack %s: no epoch gives a finite %s mean over the %s region", s.Handle, v.name, od.Region)
		}
	}
	od.NDVIDrop = od.PreNDVI - od.PostNDVI
	od.NBRDrop = od.PreNBR - od.PostNBR
	return od, nil
}

// SARAcquisition is one Sentinel-1 acquisition's AOI means in dB.
type SARAcquisition struct {
	Path, Date, Role   string
	VH, VV             float32
	VHPixels, VVPixels int
}

// SARChange is the role-grouped Sentinel-1 change (spec type 1 step 3,
// type 8 steps 1-3): per-acquisition valid-pixel mean VH (and VV) in dB,
// the mean of each declared temporal group, and post minus pre.
type SARChange struct {
	Acquisitions        []SARAcquisition
	PreVHdB, PostVHdB   float64
	VHDeltadB           float64
	PreVVdB, PostVVdB   float64
	PreCount, PostCount int
}

// float32BufPool keeps the gather buffers of band means from band to band
// and record to record; a gather writes before it reads.
var float32BufPool = sync.Pool{New: func() any { return new([]float32) }}

func getFloat32Buf() *[]float32 { return float32BufPool.Get().(*[]float32) }

func putFloat32Buf(b *[]float32) { float32BufPool.Put(b) }

// declaredBandMean returns NumPy's float32 mean of a band's valid samples,
// gathered into *buf, whose memory is reused from band to band.
func declaredBandMean(env workers.Env, f *workers.SceneFile, name string, buf *[]float32) (float32, int, error) {
	bi, err := declaredBand(f, name)
	if err != nil {
		return 0, 0, err
	}
	b, info, err := env.Band(f.Path, bi)
	if err != nil {
		return 0, 0, err
	}
	var scratch []float32
	valid := gatherBand(*buf, viewOf(b, &scratch), nodataOf(info))
	*buf = valid
	if len(valid) == 0 {
		return 0, 0, fmt.Errorf("%s: band %s has no valid pixel", f.Path, name)
	}
	return numpy.MeanFloat32(valid), len(valid), nil
}

// sarChange aggregates a SAR scene by each path's declared temporal role,
// never by file name or date order.
func sarChange(env workers.Env, s *workers.Scene) (*SARChange, error) {
	if err := checkSARScene(s); err != nil {
		return nil, err
	}
	sc := &SARChange{}
	var preVH, postVH, preVV, postVV []float32
	buf := getFloat32Buf()
	defer putFloat32Buf(buf)
	for _, f := range sceneTIFFs(s) {
		vh, nvh, err := declaredBandMean(env, f, "VH", buf)
		if err != nil {
			return nil, err
		}
		vv, nvv, err := declaredBandMean(env, f, "VV", buf)
		if err != nil {
			return nil, err
		}
		sc.Acquisitions = append(sc.Acquisitions, SARAcquisition{Path: f.Path, Date: f.Date, Role: f.TemporalRole, VH: vh, VV: vv, VHPixels: nvh, VVPixels: nvv})
		if f.TemporalRole == "pre" {
			preVH, preVV = append(preVH, vh), append(preVV, vv)
		} else {
			postVH, postVV = append(postVH, vh), append(postVV, vv)
		}
	}
	sc.PreCount, sc.PostCount = len(preVH), len(postVH)
	sc.PreVHdB, sc.PostVHdB = finiteMean(preVH), finiteMean(postVH)
	sc.PreVVdB, sc.PostVVdB = finiteMean(preVV), finiteMean(postVV)
	sc.VHDeltadB = sc.PostVHdB - sc.PreVHdB
	if !workers.Finite(sc.VHDeltadB) || !workers.Finite(sc.PostVVdB) {
		return nil, fmt.Errorf("SAR stack %s: the VH delta or post-event VV mean is not finite", s.Handle)
	}
	return sc, nil
}

// HansenLoss is the event-year Hansen loss of an AOI (spec type 2,
// calculation steps 2-4).
type HansenLoss struct {
	EventYear int
	// Source is "annual_mask" (loss_year_<year>.tif) or
	// "lossyear_fallback" (lossyear.tif code event_year-2000).
	Source string
	Path   string
	Info   workers.RasterInfo
	// Mask marks the positive valid loss cells, row-major.
	Mask []bool
	// Indices are the row-major indices of the loss cells.
	Indices []int
	// AnnualValid is the number of valid cells of the annual mask.
	AnnualValid int
	AreaM2      float64
	// AreaHa is AreaM2/10000 rounded to six decimals (Python round).
	AreaHa float64
	Method string
}

// questionEventYear returns the question's declared event_year parameter
// or, when the question declares none, the year of the handle's single
// declared loss_year_<year>.tif (declared handle metadata, never a probe).
func questionEventYear(s *workers.Scene) (int, error) {
	v, ok := s.Param("event_year")
	if !ok {
		var years []string
		for _, f := range sceneTIFFs(s) {
			if m := lossYearFileRE.FindStringSubmatch(f.Path); m != nil {
				years = append(years, m[2])
			}
		}
		if len(years) != 1 {
			return 0, fmt.Errorf("the question declares no event_year parameter and %s declares %d annual loss masks", s.Handle, len(years))
		}
		v = years[0]
	}
	var y float64
	switch x := v.(type) {
	case float64:
		y = x
	case string:
		p, err := strconv.Atoi(x)
		if err != nil {
			return 0, fmt.Errorf("question event_year %q is not a year", x)
		}
		y = float64(p)
	default:
		return 0, fmt.Errorf("question event_year %v is not a year", v)
	}
	if y != math.Trunc(y) || y < 2001 || y > 2025 {
		return 0, fmt.Errorf("question event_year %v is outside Hansen's 2001..2025 code range", v)
	}
	return int(y), nil
}

var lossYearFileRE = regexp.MustCompile(`(^|/)loss_year_([0-9]{4})\.tif$`)

// annualMaskFile returns the declared loss_year_<year>.tif; a declared
// mask of another year is a conflicting event year.
func annualMaskFile(s *workers.Scene, year int) (*workers.SceneFile, error) {
	var other []string
	for _, f := range sceneTIFFs(s) {
		if m := lossYearFileRE.FindStringSubmatch(f.Path); m != nil {
			if m[2] == strconv.Itoa(year) {
				return f, nil
			}
			other = append(other, f.Path)
		}
	}
	if len(other) > 0 {
		return nil, fmt.Errorf("conflicting event year: the question's event_year is %d but %s declares %s", year, s.Handle, strings.Join(other, ", "))
	}
	return nil, fmt.Errorf("%s declares no loss_year_%d.tif", s.Handle, year)
}

// hansenCode validates a lossyear.tif sample: an integer code 0..25.
func hansenCode(v float32, path string, i int) (int, error) {
	f := float64(v)
	if f != math.Trunc(f) || f < 0 || f > 25 {
		return 0, fmt.Errorf("%s: pixel %d has loss-year code %v (valid codes are integers 0..25, nodata 255)", path, i, f)
	}
	return int(f), nil
}

// eventYearLoss selects the event-year loss cells: the positive valid cells
// of loss_year_<year>.tif, or, when that mask has no valid cell, the cells
// of the declared lossyear.tif equal to year-2000 (spec type 2 steps 2-3),
// and sums their grid-cell areas (step 4).
func eventYearLoss(env workers.Env, s *workers.Scene, year int) (*HansenLoss, error) {
	af, err := annualMaskFile(s, year)
	if err != nil {
		return nil, err
	}
	b, info, err := env.Band(af.Path, 1)
	if err != nil {
		return nil, err
	}
	var scratch []float32
	v := viewOf(b, &scratch)
	hl := &HansenLoss{EventYear: year, Source: "annual_mask", Path: af.Path, Info: info, Mask: make([]bool, v.len())}
	var bad int
	var badV float32
	hl.Indices, hl.AnnualValid, bad, badV = bandAnnualLoss(v, nodataOf(info), hl.Mask)
	if bad >= 0 {
		return nil, fmt.Errorf("%s: pixel %d has negative loss value %v", af.Path, bad, badV)
	}
	if hl.AnnualValid == 0 {
		lf, err := s.Require("lossyear.tif")
		if err != nil {
			return nil, fmt.Errorf("%s has no valid cell and the lossyear.tif fallback is not declared: %w", af.Path, err)
		}
		lb, linfo, err := env.Band(lf.Path, 1)
		if err != nil {
			return nil, err
		}
		byCode, valid, err := bandLossYearCells(lb, linfo, lf.Path)
		if err != nil {
			return nil, err
		}
		if year < 2001 || year > 2025 {
			return nil, fmt.Errorf("event year %d is outside Hansen's 2001..2025 code range", year)
		}
		hl = &HansenLoss{EventYear: year, Source: "lossyear_fallback", Path: lf.Path, Info: linfo, Mask: make([]bool, lb.Width*lb.Height), Indices: byCode[year-2000]}
		for _, i := range hl.Indices {
			hl.Mask[i] = true
		}
		if valid == 0 {
			return nil, fmt.Errorf("neither %s nor the fallback %s has a valid cell", af.Path, lf.Path)
		}
	}
	ga, err := workers.NewGridAreas(hl.Info)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", hl.Path, err)
	}
	hl.AreaM2 = ga.Sum(hl.Indices)
	hl.AreaHa = workers.RoundHalfEven(hl.AreaM2/10000, 6)
	hl.Method = ga.Method
	if !(hl.AreaHa >= 0) || math.IsInf(hl.AreaHa, 0) {
		return nil, fmt.Errorf("%s: loss area %v ha is negative or not finite", hl.Path, hl.AreaHa)
	}
	return hl, nil
}

// lossEvidence describes a HansenLoss for the agent.
func lossEvidence(hl *HansenLoss) map[string]any {
	return map[string]any{
		"event_year": hl.EventYear, "source": hl.Source, "path": hl.Path,
		"loss_pixel_count": len(hl.Indices), "area_m2": hl.AreaM2,
		"hansen_loss_area_ha": hl.AreaHa, "area_method": hl.Method,
		"fallback_contract": "annual mask without valid cells -> lossyear.tif code event_year-2000; 0 = no loss; 255 = nodata",
	}
}

// canopyMean returns the valid-pixel float32 mean of treecover2000.tif.
func canopyMean(env workers.Env, s *workers.Scene) (float32, error) {
	f, b, info, err := s.RequireBand(env, "treecover2000.tif", 1)
	if err != nil {
		return 0, err
	}
	buf := getFloat32Buf()
	defer putFloat32Buf(buf)
	valid, err := validCanopy(*buf, b, info, f.Path)
	if err != nil {
		return 0, err
	}
	*buf = valid
	return numpy.MeanFloat32(valid), nil
}

// checkForestGrids requires the declared Hansen rasters to share one grid
// and, when given, the optical stack to be on that grid too (spec section
// 8: comparisons require shape, CRS and affine compatibility).
func checkForestGrids(forest, optical *workers.Scene) error {
	hs := sceneTIFFs(forest)
	if len(hs) == 0 {
		return fmt.Errorf("%s declares no Hansen raster", forest.Handle)
	}
	for _, f := range hs[1:] {
		if err := workers.CheckSameGrid(hs[0].Path, *hs[0].Raster, f.Path, *f.Raster); err != nil {
			return fmt.Errorf("Hansen rasters: %w", err)
		}
	}
	if optical != nil {
		for _, f := range sceneTIFFs(optical) {
			if err := workers.CheckSameGrid(hs[0].Path, *hs[0].Raster, f.Path, *f.Raster); err != nil {
				return fmt.Errorf("optical %s is not on the Hansen grid: %w", f.Path, err)
			}
		}
	}
	return nil
}
