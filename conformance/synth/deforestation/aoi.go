package deforestation

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"

	"github.com/geodisaster/engine/conformance/synth/internal/core"
	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/geodesy"
	"github.com/geodisaster/engine/internal/numpy"
	"github.com/geodisaster/engine/raster"
	"github.com/geodisaster/engine/workers"
	worker "github.com/geodisaster/engine/workers/deforestation"
)

// Synthetic deforestation AOIs (spec types 1-4, 6-8): six-band Sentinel-2
// epochs, five dated Sentinel-1 acquisitions with declared temporal roles,
// and the Hansen annual mask, lossyear.tif and treecover2000.tif, at the
// spec's relative paths under source_assets/deforestation/<aoi>/. The
// generator keeps the arrays it writes so that gold answers are computed
// from them directly.

// dfIdx is a per-epoch (background, loss-region) index target.
type dfIdx struct{ bg, loss float64 }

// forestSpec steers one synthetic AOI.
type forestSpec struct {
	year int
	// projected puts the AOI on a 10 m UTM 21S grid (affine-determinant
	// areas); otherwise a 0.00025 degree EPSG:4326 grid.
	projected bool
	// Hansen annual mask: lossBlock>0 marks exactly that many cells (a
	// block filled in scan order); lossBlob marks a random ellipse;
	// neither gives a valid mask without loss. annualNoData writes an
	// all-nodata annual mask (the lossyear.tif fallback applies) and
	// fallbackLoss then puts the event code in lossyear.tif.
	lossBlock    int
	lossBlob     bool
	annualNoData bool
	fallbackLoss bool
	// otherYears adds blobs of other loss-year codes (type 6); tieYears
	// adds two equal blocks in the same rows (equal areas).
	otherYears []int
	tieYears   [2]int
	// canopy is the target tree-cover mean; canopy50 writes an exact 50.
	canopy   float64
	canopy50 bool
	// Optical: declared epochs; per-epoch NDVI/NBR targets; exactS2 writes
	// noise-free dyadic reflectances; floatS2 float32 reflectance with NaN
	// and -9999 nodata (otherwise uint16 DN with nodata 0); cloudy is the
	// fraction of masked pixels; emptyEpoch has no valid pixel.
	epochs     []string
	ndvi, nbr  map[string]dfIdx
	exactS2    bool
	floatS2    bool
	cloudy     float64
	emptyEpoch string
	// SAR: group targets in dB; exactS1 writes exact dyadic values whose
	// group means equal the targets.
	vhPre, vhPost, vvPre, vvPost float64
	exactS1                      bool
}

// forestAOI is a written AOI with its arrays.
type forestAOI struct {
	spec      forestSpec
	w, h      int
	t         crs.Affine
	epsg      int
	annual    []float32
	lossyear  []float32
	treecover []float32
	// s2 maps an epoch to its six bands (B2, B3, B4, B8, B11, B12).
	s2     map[string][][]float32
	s2ND   float64 // declared S2 nodata
	s1     []forestS1Acq
	cards  map[string][]workers.FileCard
	sample string
}

type forestS1Acq struct {
	date, role string
	vv, vh     []float32
}

const forestHansenND = 255

// forestEpochs is the canonical epoch order, the worker's.
var forestEpochs = worker.CanonicalEpochs()

// forestPrePost returns per-epoch targets: pre epochs get pre, post epochs post.
func forestPrePost(pre, post dfIdx) map[string]dfIdx {
	m := map[string]dfIdx{}
	for _, e := range forestEpochs {
		if e[:3] == "pre" {
			m[e] = pre
		} else {
			m[e] = post
		}
	}
	return m
}

// buildForestAOI generates and writes an AOI's files; groups selects which
// handles to write: "optical", "sar", "forest" (annual, lossyear,
// treecover) and "history" (lossyear only).
func buildForestAOI(g *core.Gen, sample string, sp forestSpec, groups ...string) (*forestAOI, error) {
	a := &forestAOI{spec: sp, sample: sample, cards: map[string][]workers.FileCard{}}
	a.w, a.h = 40+g.Rng.IntN(16), 32+g.Rng.IntN(12)
	if g.Full {
		a.w, a.h = 220+g.Rng.IntN(60), 200+g.Rng.IntN(50)
	}
	if sp.projected {
		x0 := 300000 + float64(10*float64(g.Rng.IntN(20000)))
		y0 := 8600000 + float64(10*float64(g.Rng.IntN(20000)))
		a.t, a.epsg = crs.Affine{10, 0, x0, 0, -10, y0}, 32721
	} else {
		gr := g.AOIGrid(a.w, a.h, 0.00025, -66, -50, -14, -2)
		a.t, a.epsg = gr.T, 4326
	}
	n := a.w * a.h
	// Event-year loss cells.
	loss := make([]bool, n)
	switch {
	case sp.lossBlock > 0:
		c0, r0 := 3+g.Rng.IntN(a.w/3), 3+g.Rng.IntN(a.h/3)
		bw := 10
		for k := 0; k < sp.lossBlock; k++ {
			loss[(r0+k/bw)*a.w+c0+k%bw] = true
		}
	case sp.lossBlob:
		cx, cy := float64(float64(a.w)*(0.3+float64(0.4*g.Rng.Float64()))), float64(float64(a.h)*(0.3+float64(0.4*g.Rng.Float64())))
		rx, ry := 3+float64(float64(a.w)*0.15*g.Rng.Float64()), 3+float64(float64(a.h)*0.15*g.Rng.Float64())
		for r := 0; r < a.h; r++ {
			for c := 0; c < a.w; c++ {
				loss[r*a.w+c] = core.Blob(c, r, cx, cy, rx, ry)
			}
		}
	}
	ndRows := 1 + g.Rng.IntN(3) // bottom rows of Hansen nodata
	isND := func(i int) bool { return i/a.w >= a.h-ndRows }
	code := float32(sp.year - 2000)
	a.annual = make([]float32, n)
	a.lossyear = make([]float32, n)
	a.treecover = make([]float32, n)
	other := make([]float32, n)
	for _, y := range sp.otherYears {
		cx, cy := float64(float64(a.w)*g.Rng.Float64()), float64(float64(a.h)*g.Rng.Float64())
		rx, ry := 2+float64(float64(a.w)*0.12*g.Rng.Float64()), 2+float64(float64(a.h)*0.12*g.Rng.Float64())
		for r := 0; r < a.h; r++ {
			for c := 0; c < a.w; c++ {
				if core.Blob(c, r, cx, cy, rx, ry) {
					other[r*a.w+c] = float32(y - 2000)
				}
			}
		}
	}
	if sp.tieYears[0] != 0 {
		r0, c0 := 2+g.Rng.IntN(a.h/3), 2+g.Rng.IntN(a.w-24)
		for r := r0; r < r0+6; r++ {
			for c := 0; c < 8; c++ {
				other[r*a.w+c0+c] = float32(sp.tieYears[0] - 2000)
				other[r*a.w+c0+12+c] = float32(sp.tieYears[1] - 2000)
			}
		}
	}
	for i := 0; i < n; i++ {
		switch {
		case sp.annualNoData || isND(i):
			a.annual[i] = forestHansenND
		case loss[i]:
			a.annual[i] = 1
		}
		switch {
		case isND(i):
			a.lossyear[i] = forestHansenND
		case loss[i] && (!sp.annualNoData || sp.fallbackLoss):
			a.lossyear[i] = code
		case sp.annualNoData && sp.fallbackLoss && other[i] == 0 && i%97 == 5:
			a.lossyear[i] = code // scattered fallback cells
		default:
			a.lossyear[i] = other[i]
		}
		switch {
		case isND(i):
			a.treecover[i] = forestHansenND
		case sp.canopy50:
			a.treecover[i] = float32(40 + 20*(i%2))
		default:
			v := math.Round(sp.canopy + float64(25*(float64(g.Rng.Float64())-0.5)))
			a.treecover[i] = float32(math.Max(0, math.Min(100, v)))
		}
	}
	if sp.canopy50 {
		// An odd number of valid cells: the last valid one takes exactly 50.
		valid := n - ndRows*a.w
		if valid%2 == 1 {
			a.treecover[valid-1] = 50
		}
	}
	lossMask := a.goldLossMask()
	for _, grp := range groups {
		var err error
		switch grp {
		case "optical":
			err = writeOptical(g, a, lossMask)
		case "sar":
			err = writeSAR(g, a)
		case "forest":
			err = writeHansen(g, a, true)
		case "history":
			err = writeHansen(g, a, false)
		default:
			err = fmt.Errorf("unknown file group %q", grp)
		}
		if err != nil {
			return nil, err
		}
	}
	return a, nil
}

func (a *forestAOI) dir() string { return "source_assets/deforestation/" + a.sample + "/" }

func (a *forestAOI) opts(nodata *float64, float bool, desc []string) raster.WriteOptions {
	o := raster.WriteOptions{Compression: "deflate", Predictor: 2, TileSize: 256, EPSG: a.epsg, Transform: a.t, NoData: nodata, BandDescriptions: desc}
	if float {
		o.Predictor = 3
	}
	return o
}

// forestBand32 wraps float32 values as a band of type t.
func forestBand32(w, h int, vals []float32, t raster.DataType) (*raster.Band, error) {
	b, err := raster.NewBand(w, h, t)
	if err != nil {
		return nil, err
	}
	for i, v := range vals {
		b.Set(i, float64(v))
	}
	return b, nil
}

func writeHansen(g *core.Gen, a *forestAOI, full bool) error {
	nd := core.F64(forestHansenND)
	add := func(name string, vals []float32) error {
		b, err := forestBand32(a.w, a.h, vals, raster.Uint8)
		if err != nil {
			return err
		}
		card, err := g.WriteTIFF(a.dir()+"masks/"+name, a.opts(nd, false, nil), b)
		if err != nil {
			return err
		}
		key := "forest"
		if !full {
			key = "history"
		}
		a.cards[key] = append(a.cards[key], card)
		return nil
	}
	if full {
		if err := add(fmt.Sprintf("loss_year_%d.tif", a.spec.year), a.annual); err != nil {
			return err
		}
	}
	if err := add("lossyear.tif", a.lossyear); err != nil {
		return err
	}
	if full {
		return add("treecover2000.tif", a.treecover)
	}
	return nil
}

// reflect returns B8, B4, B12 for an NDVI/NBR target: exact dyadic values
// (B8+B4 = 0.5) or a random NIR level.
func reflect(g *core.Gen, ndvi, nbr float64, exact bool) (b8, b4, b12 float64) {
	if exact {
		// Dyadic targets give exact float32 indices: B8+B4 = 0.5, and
		// B12 = B4 when the NBR target equals the NDVI target.
		b8, b4 = 0.25*(1+ndvi), 0.25*(1-ndvi)
		b12 = b4
		if nbr != ndvi {
			b12 = b8 * (1 - nbr) / (1 + nbr)
		}
		return b8, b4, b12
	}
	nir := 0.2 + float64(0.2*g.Rng.Float64())
	ndvi += float64(0.02 * (float64(g.Rng.Float64()) - 0.5))
	nbr += float64(0.02 * (float64(g.Rng.Float64()) - 0.5))
	b4 = nir * (1 - ndvi) / (1 + ndvi)
	b12 = nir * (1 - nbr) / (1 + nbr)
	return nir, b4, b12
}

func writeOptical(g *core.Gen, a *forestAOI, loss []bool) error {
	sp := a.spec
	n := a.w * a.h
	a.s2 = map[string][][]float32{}
	a.s2ND = 0
	dt := raster.Uint16
	if sp.floatS2 {
		a.s2ND, dt = -9999, raster.Float32
	}
	for _, e := range sp.epochs {
		bands := make([][]float32, 6)
		for k := range bands {
			bands[k] = make([]float32, n)
		}
		t := sp.ndvi[e]
		u := sp.nbr[e]
		for i := 0; i < n; i++ {
			nd, nb := t.bg, u.bg
			if loss[i] {
				nd, nb = t.loss, u.loss
			}
			b8, b4, b12 := reflect(g, nd, nb, sp.exactS2)
			vals := []float64{b4 * 0.7, b4 * 0.9, b4, b8, (b8 + b12) / 2, b12}
			masked := e == sp.emptyEpoch || (sp.cloudy > 0 && g.Rng.Float64() < sp.cloudy)
			for k, v := range vals {
				switch {
				case masked && sp.floatS2 && (i+k)%3 == 0:
					bands[k][i] = float32(math.NaN())
				case masked:
					bands[k][i] = float32(a.s2ND)
				case sp.floatS2:
					bands[k][i] = float32(v)
				default:
					bands[k][i] = float32(math.Max(1, math.Round(v*10000)))
				}
			}
		}
		a.s2[e] = bands
		var bs []*raster.Band
		for _, vals := range bands {
			b, err := forestBand32(a.w, a.h, vals, dt)
			if err != nil {
				return err
			}
			bs = append(bs, b)
		}
		card, err := g.WriteTIFF(a.dir()+"cache/s2/"+e+".tif", a.opts(core.F64(a.s2ND), sp.floatS2, []string{"B2", "B3", "B4", "B8", "B11", "B12"}), bs...)
		if err != nil {
			return err
		}
		card.Epoch, card.BandNames = e, []string{"B2", "B3", "B4", "B8", "B11", "B12"}
		a.cards["optical"] = append(a.cards["optical"], card)
		pcard, err := g.Write(a.dir()+"visible/s2_rgb/"+e+".png", forestRGBPNG(a.w, a.h, bands, a.s2ND))
		if err != nil {
			return err
		}
		a.cards["optical"] = append(a.cards["optical"], pcard)
	}
	return nil
}

// forestRGBPNG renders B4/B3/B2 as an 8-bit true-colour panel (deterministic).
func forestRGBPNG(w, h int, bands [][]float32, nd float64) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	scale := 1.0
	if bands[2][0] > 2 {
		scale = 1.0 / 10000
	}
	c8 := func(v float32) uint8 {
		f := float64(v) * scale * 3 * 255
		if math.IsNaN(f) || float64(v) == nd {
			return 0
		}
		return uint8(math.Max(0, math.Min(255, f)))
	}
	for i := 0; i < w*h; i++ {
		img.SetNRGBA(i%w, i/w, color.NRGBA{c8(bands[2][i]), c8(bands[1][i]), c8(bands[0][i]), 255})
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}

// s1Values returns one acquisition's values: exact dyadic offsets around
// the target (mean exactly target) or noisy ones, with NaN holes.
func s1Values(g *core.Gen, n int, target, offset float64, exact bool) []float32 {
	out := make([]float32, n)
	for i := range out {
		switch {
		case exact:
			out[i] = float32(target + offset)
		case i%53 == 7:
			out[i] = float32(math.NaN())
		default:
			out[i] = float32(target + offset + float64(1.2*(float64(g.Rng.Float64())-0.5)))
		}
	}
	if exact {
		// NaN holes in pairs keep the valid count and sum exact.
		for i := 11; i+1 < n; i += 61 {
			out[i], out[i+1] = float32(math.NaN()), float32(math.NaN())
		}
	}
	return out
}

func writeSAR(g *core.Gen, a *forestAOI) error {
	sp := a.spec
	n := a.w * a.h
	y := sp.year
	acq := []struct {
		date, role string
		off        float64
	}{
		{fmt.Sprintf("%d-08-14", y), "post", -0.25},
		{fmt.Sprintf("%d-06-17", y-1), "pre", -0.5},
		{fmt.Sprintf("%d-11-03", y), "post", 0},
		{fmt.Sprintf("%d-09-22", y-1), "pre", 0.5},
		{fmt.Sprintf("%d-02-09", y+1), "post", 0.25},
	}
	for _, q := range acq {
		vh, vv := sp.vhPre, sp.vvPre
		if q.role == "post" {
			vh, vv = sp.vhPost, sp.vvPost
		}
		s := forestS1Acq{date: q.date, role: q.role, vh: s1Values(g, n, vh, q.off, sp.exactS1), vv: s1Values(g, n, vv, q.off, sp.exactS1)}
		a.s1 = append(a.s1, s)
		bv, err := forestBand32(a.w, a.h, s.vv, raster.Float32)
		if err != nil {
			return err
		}
		bh, err := forestBand32(a.w, a.h, s.vh, raster.Float32)
		if err != nil {
			return err
		}
		card, err := g.WriteTIFF(a.dir()+"cache/s1_grd/s1_"+q.date+".tif", a.opts(nil, true, []string{"VV", "VH"}), bv, bh)
		if err != nil {
			return err
		}
		card.Date, card.TemporalRole, card.BandNames = q.date, q.role, []string{"VV", "VH"}
		a.cards["sar"] = append(a.cards["sar"], card)
	}
	return nil
}

// ---- gold, computed from the arrays ----

// goldLossMask returns the event-year loss cells: positive valid annual
// cells, or lossyear == year-2000 when the annual mask has no valid cell.
func (a *forestAOI) goldLossMask() []bool {
	n := a.w * a.h
	m := make([]bool, n)
	valid := 0
	for i, v := range a.annual {
		if v != forestHansenND {
			valid++
			m[i] = v > 0
		}
	}
	if valid == 0 {
		code := float32(a.spec.year - 2000)
		for i, v := range a.lossyear {
			m[i] = v == code
		}
	}
	return m
}

// areaHa sums the cell areas of the marked cells in hectares, rounded to
// six decimals.
func (a *forestAOI) areaHa(mark func(i int) bool) (float64, error) {
	var cells []float64
	var rows []float64
	if a.epsg == 4326 {
		var err error
		rows, err = geodesy.CellAreas(a.t, a.h)
		if err != nil {
			return 0, err
		}
	}
	count := 0
	for i := 0; i < a.w*a.h; i++ {
		if mark(i) {
			count++
			if rows != nil {
				cells = append(cells, rows[i/a.w])
			}
		}
	}
	m2 := float64(count) * math.Abs(float64(a.t[0]*a.t[4])-float64(a.t[1]*a.t[3]))
	if rows != nil {
		m2 = numpy.SumFloat64(cells)
	}
	return workers.RoundHalfEven(m2/10000, 6), nil
}

func (a *forestAOI) goldLossHa() (float64, []bool, error) {
	m := a.goldLossMask()
	ha, err := a.areaHa(func(i int) bool { return m[i] })
	return ha, m, err
}

// goldEpoch returns an epoch's NDVI and NBR float32 means over region.
func (a *forestAOI) goldEpoch(e string, region []bool) (float32, float32) {
	b := a.s2[e]
	ok := func(v float32) bool {
		f := float64(v)
		return !math.IsNaN(f) && f != a.s2ND
	}
	nd := func(x, y []float32) float32 {
		var vals []float32
		for i := range x {
			if region != nil && !region[i] {
				continue
			}
			if !ok(x[i]) || !ok(y[i]) {
				continue
			}
			v := (x[i] - y[i]) / (x[i] + y[i])
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				continue
			}
			vals = append(vals, v)
		}
		return numpy.MeanFloat32(vals)
	}
	return nd(b[3], b[2]), nd(b[3], b[5])
}

// mean64 is np.mean over per-file float32 means reported as Python floats.
func mean64(v []float32) float64 {
	w := make([]float64, len(v))
	for i, x := range v {
		w[i] = float64(x)
	}
	return numpy.MeanFloat64(w)
}

// goldDrops returns the whole-period NDVI and NBR drops (mean of pre epoch
// means minus mean of post epoch means) over the loss region when it has
// cells, else over the AOI.
func (a *forestAOI) goldDrops(loss []bool) (float64, float64) {
	any := false
	for _, v := range loss {
		any = any || v
	}
	if !any {
		loss = nil
	}
	var pn, qn, pb, qb []float32
	for _, e := range forestEpochs {
		if _, ok := a.s2[e]; !ok {
			continue
		}
		n, b := a.goldEpoch(e, loss)
		fin := !math.IsNaN(float64(n))
		finb := !math.IsNaN(float64(b))
		if e[:3] == "pre" {
			if fin {
				pn = append(pn, n)
			}
			if finb {
				pb = append(pb, b)
			}
		} else {
			if fin {
				qn = append(qn, n)
			}
			if finb {
				qb = append(qb, b)
			}
		}
	}
	return mean64(pn) - mean64(qn), mean64(pb) - mean64(qb)
}

// goldSAR returns the VH delta and the post-event VV mean.
func (a *forestAOI) goldSAR() (float64, float64) {
	mean := func(v []float32) float32 {
		var ok []float32
		for _, x := range v {
			if !math.IsNaN(float64(x)) {
				ok = append(ok, x)
			}
		}
		return numpy.MeanFloat32(ok)
	}
	var preVH, postVH, postVV []float32
	for _, q := range a.s1 {
		if q.role == "pre" {
			preVH = append(preVH, mean(q.vh))
		} else {
			postVH = append(postVH, mean(q.vh))
			postVV = append(postVV, mean(q.vv))
		}
	}
	return mean64(postVH) - mean64(preVH), mean64(postVV)
}

// goldCanopy returns the valid tree-cover float32 mean.
func (a *forestAOI) goldCanopy() float32 {
	var v []float32
	for _, x := range a.treecover {
		if x != forestHansenND {
			v = append(v, x)
		}
	}
	return numpy.MeanFloat32(v)
}
