package deforestation

import (
	"fmt"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"

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

// bandFloat32 returns a band's samples as float32 (exact for the integer
// and float32 types the sources use): a float32 band's own samples,
// otherwise a converted copy.
func bandFloat32(b *raster.Band) []float32 { return bandFloat32Into(nil, b) }

// bandFloat32Into is bandFloat32 converting into dst's memory when it is
// large enough; callers reuse dst across bands.
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
	n := b.Width * b.Height
	dst = grow32(dst, n)
	for i := range dst {
		dst[i] = float32(b.At(i))
	}
	return dst
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

// validFloat32Sample reports whether a sample is finite and not the declared
// nodata.
func validFloat32Sample(v float32, info workers.RasterInfo) bool {
	f := float64(v)
	if !workers.Finite(f) {
		return false
	}
	return !(info.HasNoData && f == info.NoData)
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

// validMask32 sets mask[i] to validFloat32Sample(vals[i], info), reusing
// mask's memory.
func validMask32(mask []bool, vals []float32, info workers.RasterInfo) []bool {
	if cap(mask) < len(vals) {
		mask = make([]bool, len(vals))
	}
	mask = mask[:len(vals)]
	nd, hasND := float32NoData(info)
	for i, v := range vals {
		mask[i] = math.Float32bits(v)&0x7f800000 != 0x7f800000 && !(hasND && v == nd)
	}
	return mask
}

// EpochIndices are one optical epoch's NDVI and NBR means.
type EpochIndices struct {
	Epoch string
	Path  string
	// NDVI and NBR are NumPy float32 means over the region's pixels whose
	// bands are valid and whose index is finite; NaN when none is.
	NDVI, NBR             float32
	NDVIPixels, NBRPixels int
}

// normalizedDifference computes (a-b)/(a+b) in float32 for the pixels
// where region (nil: every pixel) holds and both samples are valid, and
// returns the finite values in row-major order.
func normalizedDifference(a, b []float32, ia, ib workers.RasterInfo, region []bool) []float32 {
	out, _ := normalizedDifferences(a, b, nil, validMask32(nil, a, ia), validMask32(nil, b, ib), nil, region, nil, nil)
	return out
}

// normalizedDifferences is normalizedDifference fused over a stack: in one
// pass over the pixels where region (nil: every pixel) holds and n is
// valid (mask mn) it appends the finite (n-a)/(n+a) where a is valid (ma)
// to outA and, when b is not nil, the finite (n-b)/(n+b) where b is valid
// (mb) to outB, in row-major order.
func normalizedDifferences(n, a, b []float32, mn, ma, mb, region []bool, outA, outB []float32) ([]float32, []float32) {
	outA, outB = outA[:0], outB[:0]
	a, ma = a[:len(n)], ma[:len(n)]
	mn = mn[:len(n)]
	if region != nil {
		region = region[:len(n)]
	}
	if b != nil {
		b, mb = b[:len(n)], mb[:len(n)]
	}
	for i, x := range n {
		if region != nil && !region[i] || !mn[i] {
			continue
		}
		if ma[i] {
			y := a[i]
			if v := (x - y) / (x + y); finiteBits32(v) {
				outA = append(outA, v)
			}
		}
		if b != nil && mb[i] {
			y := b[i]
			if v := (x - y) / (x + y); finiteBits32(v) {
				outB = append(outB, v)
			}
		}
	}
	return outA, outB
}

// opticalScratch holds an optical stack's reusable per-epoch buffers:
// converted bands, their validity masks and the index values.
type opticalScratch struct {
	b4, b8, b12 []float32
	m4, m8, m12 []bool
	ndvi, nbr   []float32
}

// epochIndices computes an epoch's NDVI = (B8-B4)/(B8+B4) and
// NBR = (B8-B12)/(B8+B12) means (spec type 1 step 1) over region (nil: the
// whole AOI), which must be on the epoch's grid. B8's validity mask is
// computed once for both indices, which one pass computes; sc's buffers
// are reused from epoch to epoch.
func epochIndices(env workers.Env, e opticalEpoch, region []bool, regionInfo *workers.RasterInfo, sc *opticalScratch) (EpochIndices, error) {
	out := EpochIndices{Epoch: e.Epoch, Path: e.File.Path}
	get := func(name string, conv *[]float32, mask *[]bool) ([]float32, workers.RasterInfo, error) {
		bi, err := declaredBand(e.File, name)
		if err != nil {
			if name == "B12" {
				return nil, workers.RasterInfo{}, fmt.Errorf("missing NBR input: %w", err)
			}
			return nil, workers.RasterInfo{}, err
		}
		b, info, err := env.Band(e.File.Path, bi)
		if err != nil {
			return nil, workers.RasterInfo{}, err
		}
		v := bandFloat32Into(*conv, b)
		if _, own := b.Data.([]float32); !own {
			// Keep the converted memory for the next epoch; a float32
			// band's own samples are shared and never written.
			*conv = v
		}
		*mask = validMask32(*mask, v, info)
		return v, info, nil
	}
	b4, i4, err := get("B4", &sc.b4, &sc.m4)
	if err != nil {
		return out, err
	}
	b8, i8, err := get("B8", &sc.b8, &sc.m8)
	if err != nil {
		return out, err
	}
	b12, i12, err := get("B12", &sc.b12, &sc.m12)
	if err != nil {
		return out, err
	}
	if region != nil {
		if err := workers.CheckSameGrid("the Hansen loss mask", *regionInfo, e.File.Path, i8); err != nil {
			return out, fmt.Errorf("optical epoch %s is not on the Hansen loss mask's grid: %w", e.File.Path, err)
		}
	}
	if len(b4) != len(b8) || len(b12) != len(b8) || i4.Width != i8.Width || i12.Width != i8.Width {
		return out, fmt.Errorf("optical epoch %s: bands B4, B8 and B12 differ in size", e.File.Path)
	}
	sc.ndvi, sc.nbr = normalizedDifferences(b8, b4, b12, sc.m8, sc.m4, sc.m12, region, sc.ndvi, sc.nbr)
	out.NDVI, out.NDVIPixels = numpy.MeanFloat32(sc.ndvi), len(sc.ndvi)
	out.NBR, out.NBRPixels = numpy.MeanFloat32(sc.nbr), len(sc.nbr)
	return out, nil
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
	var region []bool
	var rinfo *workers.RasterInfo
	od := &OpticalDrops{Region: "aoi"}
	if loss != nil && len(loss.Indices) > 0 {
		region, rinfo, od.Region = loss.Mask, &loss.Info, "event_year_loss"
	}
	var preNDVI, postNDVI, preNBR, postNBR []float32
	var sc opticalScratch
	for _, e := range eps {
		ei, err := epochIndices(env, e, region, rinfo, &sc)
		if err != nil {
			return nil, err
		}
		od.Epochs = append(od.Epochs, ei)
		if strings.HasPrefix(e.Epoch, "pre_") {
			preNDVI, preNBR = append(preNDVI, ei.NDVI), append(preNBR, ei.NBR)
			if workers.Finite(float64(ei.NDVI)) {
				od.PreEpochs = append(od.PreEpochs, e.Epoch)
			}
		} else {
			postNDVI, postNBR = append(postNDVI, ei.NDVI), append(postNBR, ei.NBR)
			if workers.Finite(float64(ei.NDVI)) {
				od.PostEps = append(od.PostEps, e.Epoch)
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
	vals := bandFloat32(b) // a SAR band's own float32 samples
	nd, hasND := float32NoData(info)
	valid := (*buf)[:0]
	for _, v := range vals {
		if math.Float32bits(v)&0x7f800000 != 0x7f800000 && !(hasND && v == nd) {
			valid = append(valid, v)
		}
	}
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
	var buf []float32
	for _, f := range sceneTIFFs(s) {
		vh, nvh, err := declaredBandMean(env, f, "VH", &buf)
		if err != nil {
			return nil, err
		}
		vv, nvv, err := declaredBandMean(env, f, "VV", &buf)
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

// lossYearCells checks the codes of a lossyear.tif band and lists, for
// each loss code 1..25, its valid cells in row-major order; valid counts
// every valid cell (code 0, no loss, included).
func lossYearCells(vals []float32, info workers.RasterInfo, path string) (byCode [26][]int, valid int, err error) {
	for i, v := range vals {
		if !hansenValid(v, info) {
			continue
		}
		c, err := hansenCode(v, path, i)
		if err != nil {
			return byCode, 0, err
		}
		valid++
		if c > 0 {
			byCode[c] = append(byCode[c], i)
		}
	}
	return byCode, valid, nil
}

// hansenValid reports whether a Hansen sample is valid: finite, not 255 and
// not the raster's declared nodata.
func hansenValid(v float32, info workers.RasterInfo) bool {
	return validFloat32Sample(v, info) && v != hansenNoData
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
	vals := bandFloat32(b)
	hl := &HansenLoss{EventYear: year, Source: "annual_mask", Path: af.Path, Info: info, Mask: make([]bool, len(vals))}
	for i, v := range vals {
		if !hansenValid(v, info) {
			continue
		}
		if v < 0 {
			return nil, fmt.Errorf("%s: pixel %d has negative loss value %v", af.Path, i, v)
		}
		hl.AnnualValid++
		if v > 0 {
			hl.Mask[i] = true
			hl.Indices = append(hl.Indices, i)
		}
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
		lvals := bandFloat32(lb)
		byCode, valid, err := lossYearCells(lvals, linfo, lf.Path)
		if err != nil {
			return nil, err
		}
		if year < 2001 || year > 2025 {
			return nil, fmt.Errorf("event year %d is outside Hansen's 2001..2025 code range", year)
		}
		hl = &HansenLoss{EventYear: year, Source: "lossyear_fallback", Path: lf.Path, Info: linfo, Mask: make([]bool, len(lvals)), Indices: byCode[year-2000]}
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
	valid, err := validCanopy(b, info, f.Path)
	if err != nil {
		return 0, err
	}
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
