package htmlreport

import "fmt"

// barChart is the geometry of the per-type timing chart: one horizontal
// bar per type, its length the mean wall time per record.
type barChart struct {
	Width, Height int
	LabelWidth    int
	Bars          []bar
	Scale         string
}

type bar struct {
	Label      string
	Y, TextY   int
	X, W       int
	ValueX     int
	Value      string
	Title      string
	BarHeight  int
	LabelRight int
}

const (
	chartWidth  = 760
	chartLabelW = 190
	chartValueW = 110
	chartBarH   = 12
	chartRowH   = 16
)

// chart lays out the bars; the longest mean fills the plot width.
func chart(ts []Timing) barChart {
	c := barChart{Width: chartWidth, LabelWidth: chartLabelW, Height: chartRowH*len(ts) + 8}
	maxMean := 0.0
	for _, t := range ts {
		maxMean = max(maxMean, t.MeanMS)
	}
	plot := chartWidth - chartLabelW - chartValueW
	for i, t := range ts {
		w := 0
		if maxMean > 0 {
			w = int(float64(plot)*t.MeanMS/maxMean + 0.5)
		}
		if t.MeanMS > 0 && w < 1 {
			w = 1
		}
		y := 4 + i*chartRowH
		c.Bars = append(c.Bars, bar{
			Label: t.Name, Y: y, TextY: y + chartBarH - 2, X: chartLabelW, W: w, BarHeight: chartBarH,
			LabelRight: chartLabelW - 6, ValueX: chartLabelW + w + 4,
			Value: fmt.Sprintf("%.1f ms", t.MeanMS),
			Title: fmt.Sprintf("%s: mean %.1f ms, max %.1f ms over %d records", t.Name, t.MeanMS, t.MaxMS, t.Records),
		})
	}
	c.Scale = fmt.Sprintf("%.1f ms", maxMean)
	return c
}
