// Package cfmt formats numbers the way C's printf does and parses them the
// way GDAL's CPLAtofM does, for text that must match what GDAL prints and
// reads.
package cfmt

import (
	"math"
	"strconv"
)

// FormatG formats v like C's printf("%.<prec>g"), with NaN and the
// infinities spelled "nan", "inf" and "-inf"; a negative prec gives the
// shortest text that reads back as v.
func FormatG(v float64, prec int) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'g', prec, 64)
}
