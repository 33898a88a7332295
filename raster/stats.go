package raster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"

	"github.com/geodisaster/engine/internal/cfmt"
)

// Statistics are a band's exact summary statistics over its valid samples
// (not nodata, not NaN), computed as GDAL 3.6's
// GDALRasterBand::ComputeStatistics(bApproxOK=FALSE) computes them, so
// that the doubles are bit-identical to what gdalinfo -stats reports.
type Statistics struct {
	Min, Max, Mean, StdDev float64
	// ValidPercent is 100 * Valid / Total.
	ValidPercent float64
	Valid        int64
	Total        int64
	// Stored is true when the values were read from the file's
	// GDAL_METADATA STATISTICS_* items instead of computed.
	Stored bool
	// HasValidPercent is false for stored statistics without
	// STATISTICS_VALID_PERCENT.
	HasValidPercent bool
	// storedText holds stored STATISTICS_* items verbatim.
	storedText map[string]string
}

// ErrNoValidPixels is returned when a band has no valid sample.
var ErrNoValidPixels = errors.New("raster: no valid pixels, statistics undefined")

// Metadata returns the statistics as the STATISTICS_* metadata items GDAL
// writes: min, max, mean and stddev with C's "%.14g", valid percent "%.4g"
// (but "99.999" rather than "100" when a sample is invalid). Stored
// statistics are returned verbatim.
func (s Statistics) Metadata() map[string]string {
	m := map[string]string{
		"STATISTICS_MINIMUM": cfmt.FormatG(s.Min, 14),
		"STATISTICS_MAXIMUM": cfmt.FormatG(s.Max, 14),
		"STATISTICS_MEAN":    cfmt.FormatG(s.Mean, 14),
		"STATISTICS_STDDEV":  cfmt.FormatG(s.StdDev, 14),
	}
	if s.HasValidPercent {
		vp := cfmt.FormatG(s.ValidPercent, 4)
		if vp == "100" && s.Valid < s.Total {
			// GDAL never reports 100 when a sample is invalid.
			vp = "99.999"
		}
		m["STATISTICS_VALID_PERCENT"] = vp
	}
	for k, v := range s.storedText {
		m[k] = v
	}
	return m
}

// A StatisticsOption changes how Dataset.Statistics obtains a band's
// statistics.
type StatisticsOption func(*statsConfig)

type statsConfig struct {
	stored bool
	pixels *Band
}

// UseStored makes Statistics return the statistics recorded in the
// file's GDAL_METADATA when they are complete (STATISTICS_MINIMUM,
// _MAXIMUM, _MEAN and _STDDEV set, STATISTICS_APPROXIMATE not YES), as
// gdalinfo -stats reports them; Statistics.Stored then is true. Without
// stored values the statistics are computed.
func UseStored() StatisticsOption { return func(c *statsConfig) { c.stored = true } }

// FromPixels makes Statistics compute from b, the whole band already read
// from the dataset (ReadBand), instead of reading it again. The result is
// the same: samples are visited in the file's block order with its nodata.
func FromPixels(b *Band) StatisticsOption { return func(c *statsConfig) { c.pixels = b } }

// Statistics returns band's (1-based) exact statistics, computed as GDAL
// 3.6's ComputeStatistics(bApproxOK=FALSE) computes them so that the
// doubles are bit-identical to what gdalinfo -stats reports (see
// computeBandStatistics). By default the band is streamed from the file
// (blocks are decoded concurrently into a few buffers per core and folded
// in GDAL's block order, so the band is never held in memory); options
// accept stored values (UseStored) or use pixels already read
// (FromPixels). A band without a valid sample gives ErrNoValidPixels with
// the counts (Valid, Total, ValidPercent) filled in.
func (d *Dataset) Statistics(ctx context.Context, band int, opts ...StatisticsOption) (Statistics, error) {
	var c statsConfig
	for _, o := range opts {
		o(&c)
	}
	if band < 1 || band > d.Count() {
		return Statistics{}, fmt.Errorf("raster: band %d out of range 1..%d", band, d.Count())
	}
	if c.stored {
		if s, ok := d.storedStatistics(band); ok {
			return s, nil
		}
	}
	if c.pixels != nil {
		b := c.pixels
		if b.Width != d.Width() || b.Height != d.Height() || b.Type != d.DataType() {
			return Statistics{}, fmt.Errorf("raster: pixels are a %dx%d %s band, the dataset's %dx%d %s", b.Width, b.Height, b.Type, d.Width(), d.Height(), d.DataType())
		}
		blockW, blockH := d.img.BlockSize()
		return computeBandStatistics(b, blockW, blockH, d.nodataPtr())
	}
	return d.streamStatistics(ctx, band)
}

// nodataPtr returns the nodata value, or nil when there is none.
func (d *Dataset) nodataPtr() *float64 {
	v, ok := d.NoData()
	if !ok {
		return nil
	}
	return &v
}

// storedStatistics returns the complete STATISTICS_* items of band.
func (d *Dataset) storedStatistics(band int) (Statistics, bool) {
	m := d.BandMetadata(band)
	s := Statistics{storedText: map[string]string{}}
	vals := []*float64{&s.Min, &s.Max, &s.Mean, &s.StdDev}
	for i, k := range []string{"STATISTICS_MINIMUM", "STATISTICS_MAXIMUM", "STATISTICS_MEAN", "STATISTICS_STDDEV"} {
		v, ok := m[k]
		if !ok {
			return Statistics{}, false
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return Statistics{}, false
		}
		*vals[i] = f
		s.storedText[k] = v
	}
	if a := m["STATISTICS_APPROXIMATE"]; a == "YES" || a == "yes" {
		return Statistics{}, false
	}
	if v, ok := m["STATISTICS_VALID_PERCENT"]; ok {
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			s.ValidPercent, s.HasValidPercent = f, true
			s.storedText["STATISTICS_VALID_PERCENT"] = v
		}
	}
	s.Stored = true
	return s, true
}

// computeBandStatistics computes the statistics GDAL 3.6 computes for a
// band stored in blockW x blockH blocks with the given nodata value (nil for
// none). GDAL visits blocks row by row and samples within a block row by
// row; uint8 and uint16 bands are summed exactly in integers, every other
// type uses Welford's running mean and variance in that order, so the
// block size matters for the last bits of mean and std. Nodata matching
// follows GDAL: exact for uint8/uint16, otherwise within a relative
// tolerance of 2*FLT_EPSILON (ARE_REAL_EQUAL), in float32 for float32 bands.
func computeBandStatistics(b *Band, blockW, blockH int, nodata *float64) (Statistics, error) {
	if err := b.Validate(); err != nil {
		return Statistics{}, err
	}
	if blockW <= 0 || blockH <= 0 {
		blockW, blockH = b.Width, b.Height
	}
	c := newStatsCollector(b.Type, nodata)
	width, height := b.Width, b.Height
	for y0 := 0; y0 < height; y0 += blockH {
		y1 := min(y0+blockH, height)
		for x0 := 0; x0 < width; x0 += blockW {
			x1 := min(x0+blockW, width)
			if x0 == 0 && x1 == width {
				c.add(b.Data, y0*width, y1*width)
				continue
			}
			for y := y0; y < y1; y++ {
				c.add(b.Data, y*width+x0, y*width+x1)
			}
		}
	}
	return c.result(int64(width) * int64(height))
}

// statsCollector accumulates GDAL's statistics over segments of samples
// fed in GDAL's visiting order.
type statsCollector struct {
	acc    statAcc
	nodata *float64
	hist   []int64 // uint8/uint16 exact path
	typ    DataType
}

func newStatsCollector(t DataType, nodata *float64) *statsCollector {
	c := &statsCollector{nodata: nodata, typ: t}
	c.acc.init()
	switch t {
	case Uint8:
		c.hist = make([]int64, 256)
	case Uint16:
		c.hist = make([]int64, 65536)
	}
	return c
}

// add accumulates samples [lo, hi) of data (a typed sample slice).
func (c *statsCollector) add(data any, lo, hi int) {
	switch s := data.(type) {
	case []uint8:
		for _, v := range s[lo:hi] {
			c.hist[v]++
		}
	case []uint16:
		for _, v := range s[lo:hi] {
			c.hist[v]++
		}
	case []float32:
		welfordF32(&c.acc, s[lo:hi], c.nodata)
	case []float64:
		welfordGeneric(&c.acc, s[lo:hi], c.nodata)
	case []int8:
		welfordGeneric(&c.acc, s[lo:hi], c.nodata)
	case []int16:
		welfordGeneric(&c.acc, s[lo:hi], c.nodata)
	case []uint32:
		welfordGeneric(&c.acc, s[lo:hi], c.nodata)
	case []int32:
		welfordGeneric(&c.acc, s[lo:hi], c.nodata)
	}
}

// result finalises the statistics of total samples.
func (c *statsCollector) result(total int64) (Statistics, error) {
	acc := &c.acc
	if c.hist != nil {
		histStats(acc, c.hist, c.nodata)
	}
	st := Statistics{Valid: acc.n, Total: total, HasValidPercent: true}
	if total > 0 {
		st.ValidPercent = float64(acc.n) * 100 / float64(total)
	}
	if acc.n == 0 {
		return st, ErrNoValidPixels
	}
	st.Min, st.Max = acc.min, acc.max
	if acc.exact {
		st.Mean = float64(acc.sum) / float64(acc.n)
		st.StdDev = acc.exactStd()
	} else {
		st.Mean = acc.mean
		st.StdDev = math.Sqrt(acc.m2 / float64(acc.n))
	}
	return st, nil
}

// statAcc accumulates statistics.
type statAcc struct {
	n        int64
	min, max float64
	mean, m2 float64
	exact    bool
	sum      uint64
	sumSq    [2]uint64 // 128-bit: hi, lo
}

func (a *statAcc) init() {
	a.min, a.max = math.Inf(1), math.Inf(-1)
}

// exactStd returns sqrt(sumSq*n - sum*sum) / n with the difference taken in
// 128-bit integers and rounded once to double, as GDAL does.
func (a *statAcc) exactStd() float64 {
	n := uint64(a.n)
	// sumSq * n (sumSq is 128-bit, n 64-bit; the product fits 128 bits for
	// any image this package can read).
	hi1, lo1 := bits.Mul64(a.sumSq[1], n)
	hi1 += a.sumSq[0] * n
	hi2, lo2 := bits.Mul64(a.sum, a.sum)
	lo, borrow := bits.Sub64(lo1, lo2, 0)
	hi, _ := bits.Sub64(hi1, hi2, borrow)
	x := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
	x.Or(x, new(big.Int).SetUint64(lo))
	f, _ := new(big.Float).SetInt(x).Float64()
	return math.Sqrt(f) / float64(n)
}

// histStats is GDAL's exact integer path for uint8 and uint16 bands,
// from a histogram of the samples (counts are order-independent).
func histStats(a *statAcc, cnt []int64, nodata *float64) {
	a.exact = true
	maxv := float64(len(cnt) - 1)
	// GDAL 3.6 takes a nodata in range that lies within 1e-10 of an
	// integer as that integer, and ignores any other (checked against
	// GDAL: 1e-11 masks 0 and 254.9999999999999 masks 255, while 1e-10,
	// 0.5 and 255.0000000000001 mask nothing).
	if nodata != nil && *nodata >= 0 && *nodata <= maxv {
		if k := math.Round(*nodata); math.Abs(*nodata-k) < 1e-10 {
			cnt[int(k)] = 0
		}
	}
	var sumSqHi, sumSqLo uint64
	for v, c := range cnt {
		if c == 0 {
			continue
		}
		if a.n == 0 {
			a.min = float64(v)
		}
		a.max = float64(v)
		a.n += c
		a.sum += uint64(v) * uint64(c)
		hi, lo := bits.Mul64(uint64(v)*uint64(v), uint64(c))
		var carry uint64
		sumSqLo, carry = bits.Add64(sumSqLo, lo, 0)
		sumSqHi += hi + carry
	}
	a.sumSq = [2]uint64{sumSqHi, sumSqLo}
}

// areRealEqual64 is GDAL's ARE_REAL_EQUAL for doubles.
func areRealEqual64(a, b float64) bool {
	// float64(): the compiler turns x*2 into x+x, which arm64 would fuse
	// with the product.
	return a == b || math.Abs(a-b) < float64(epsilon32*math.Abs(a+b))*2
}

// epsilon32 is FLT_EPSILON.
const epsilon32 = 1.1920928955078125e-07

// areRealEqual32 is GDAL's ARE_REAL_EQUAL for floats, in float32
// arithmetic.
func areRealEqual32(a, b float32) bool {
	if a == b {
		return true
	}
	d := a - b
	if d < 0 {
		d = -d
	}
	s := a + b
	if s < 0 {
		s = -s
	}
	t := float32(float32(epsilon32) * s) // float32(): t*2 below is t+t, which arm64 would fuse with this product
	t *= 2
	return d < t
}

// welfordStep folds sample v into Welford's running count, mean and sum
// of squared deviations and the running minimum and maximum, in GDAL's
// order. It is small enough to be inlined into the typed loops, whose
// state stays in registers.
func welfordStep(v float64, n int64, mean, m2, mn, mx float64) (int64, float64, float64, float64, float64) {
	if v < mn {
		mn = v
	}
	if v > mx {
		mx = v
	}
	n++
	delta := v - mean
	mean += delta / float64(n)
	m2 += float64(delta * (v - mean)) // no fused multiply-add (arm64)
	return n, mean, m2, mn, mx
}

// welfordF32 is GDAL's generic path for float32 samples.
func welfordF32(a *statAcc, row []float32, nodata *float64) {
	hasND := false
	var nd32 float32
	if nodata != nil && !math.IsNaN(*nodata) && math.Abs(*nodata) <= math.MaxFloat32 {
		hasND, nd32 = true, float32(*nodata)
	} else if nodata != nil && math.IsInf(*nodata, 0) {
		hasND, nd32 = true, float32(*nodata)
	}
	n, mean, m2, mn, mx := a.n, a.mean, a.m2, a.min, a.max
	for _, f := range row {
		if f != f {
			continue
		}
		if hasND && areRealEqual32(f, nd32) {
			continue
		}
		v := float64(f)
		n, mean, m2, mn, mx = welfordStep(v, n, mean, m2, mn, mx)
	}
	a.n, a.mean, a.m2, a.min, a.max = n, mean, m2, mn, mx
}

// welfordGeneric is GDAL's generic path for every other type.
func welfordGeneric[T int8 | int16 | uint32 | int32 | float64](a *statAcc, row []T, nodata *float64) {
	hasND := nodata != nil && !math.IsNaN(*nodata)
	var nd float64
	if hasND {
		nd = *nodata
	}
	n, mean, m2, mn, mx := a.n, a.mean, a.m2, a.min, a.max
	for _, x := range row {
		v := float64(x)
		if v != v {
			continue
		}
		if hasND && areRealEqual64(v, nd) {
			continue
		}
		n, mean, m2, mn, mx = welfordStep(v, n, mean, m2, mn, mx)
	}
	a.n, a.mean, a.m2, a.min, a.max = n, mean, m2, mn, mx
}
