package geotiff

import (
	"strings"

	"github.com/geodisaster/engine/internal/cfmt"
)

// Nodata as GDAL reads it. The GDAL_NODATA tag holds text; GDAL 3.6
// parses it with CPLAtofM (strtod in the C locale, a comma accepted as
// the decimal separator, the Windows spellings of NaN and infinity) and,
// on a band of 32-bit IEEE floats, rounds the result to float32, so that
// the value it reports is the one the samples can hold: a Float32 band
// written with SetNoDataValue(-3.4e38) reads back as
// -3.3999999521443642e+38. Integer bands keep the parsed value: GDAL
// reports a Byte band's "2.5" as 2.5, which then matches no sample in its
// statistics (its mask band alone truncates it to 2). Every behaviour
// here was checked against GDAL 3.6.2 itself (conformance/raster and the
// table in testdata/gdal_nodata_text.json).

// NoDataValue returns the nodata value v as GDAL holds it for a band of
// type t: rounded to float32 for Float32 bands, unchanged otherwise. Use
// it to bring a nodata declared elsewhere (a JSON sidecar, an argument)
// to the value a band's samples are compared with.
func NoDataValue(t DataType, v float64) float64 {
	if t == Float32 {
		return float64(float32(v))
	}
	return v
}

// parseGDALNoData returns the nodata value GDAL 3.6 reads from the text of
// a GDAL_NODATA tag for samples of bps bits and SampleFormat sf, and false
// when the text is empty (GDAL then reports no nodata). The text ends at
// its first NUL, as libtiff reads ASCII tags. Half floats (16-bit IEEE)
// are not rounded: GDAL rounds only 32-bit float samples.
func parseGDALNoData(text string, bps, sf int) (float64, bool) {
	if i := strings.IndexByte(text, 0); i >= 0 {
		text = text[:i]
	}
	if text == "" {
		return 0, false
	}
	v := cfmt.AtofM(text)
	if bps == 32 && sf == 3 {
		// GDAL first snaps values within 1e-10 relative of ±FLT_MAX to
		// ±FLT_MAX; the float32 rounding below gives the same result.
		v = float64(float32(v))
	}
	return v, true
}
