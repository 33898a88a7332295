package geotiff

import (
	"fmt"
	"strconv"
	"strings"
)

// tiffTags holds the TIFF tags a dataset reports beyond its pixel layout.
type tiffTags struct {
	meta         map[string]string // TIFFTAG_* items, named as GDAL names them
	extraSamples []uint64
	colorMap     []uint64 // 3 * 2^bps red, green, blue 16-bit entries
	cog          bool     // the file starts with GDAL's COG layout header
}

// Baseline TIFF tags GDAL reports as TIFFTAG_* metadata.
var tiffTextTags = []struct {
	tag  uint16
	name string
}{
	{269, "TIFFTAG_DOCUMENTNAME"}, {TagImageDescription, "TIFFTAG_IMAGEDESCRIPTION"},
	{TagSoftware, "TIFFTAG_SOFTWARE"}, {306, "TIFFTAG_DATETIME"}, {315, "TIFFTAG_ARTIST"},
	{316, "TIFFTAG_HOSTCOMPUTER"}, {33432, "TIFFTAG_COPYRIGHT"},
}

// parseTIFFTags reads the text and resolution tags, the extra samples and
// the colour map of f.
func (d *Image) parseTIFFTags(f *IFD) {
	t := tiffTags{meta: map[string]string{}}
	for _, tt := range tiffTextTags {
		if f.Has(tt.tag) {
			t.meta[tt.name] = f.ASCII(tt.tag)
		}
	}
	for _, r := range []struct {
		tag  uint16
		name string
	}{{282, "TIFFTAG_XRESOLUTION"}, {283, "TIFFTAG_YRESOLUTION"}} {
		if v, err := f.Floats(r.tag); err == nil && len(v) > 0 {
			t.meta[r.name] = strconv.FormatFloat(v[0], 'g', 8, 64)
		}
	}
	if u, err := f.Uints(296); err == nil && len(u) > 0 {
		unit := map[uint64]string{1: "unitless", 2: "pixels/inch", 3: "pixels/cm"}[u[0]]
		if unit == "" {
			unit = "unknown"
		}
		t.meta["TIFFTAG_RESOLUTIONUNIT"] = fmt.Sprintf("%d (%s)", u[0], unit)
	}
	for _, r := range []struct {
		tag  uint16
		name string
	}{{280, "TIFFTAG_MINSAMPLEVALUE"}, {281, "TIFFTAG_MAXSAMPLEVALUE"}} {
		if u, err := f.Uints(r.tag); err == nil && len(u) > 0 {
			t.meta[r.name] = strconv.FormatUint(u[0], 10)
		}
	}
	t.extraSamples, _ = f.Uints(TagExtraSamples)
	if d.photometric == photoPalette {
		if cm, err := f.Uints(TagColorMap); err == nil && d.bps <= 16 && len(cm) == 3<<d.bps {
			t.colorMap = cm
		}
	}
	t.cog = d.hasCOGHeader()
	d.tiff = t
}

// hasCOGHeader reports whether the file starts with the
// GDAL_STRUCTURAL_METADATA block GDAL's COG driver writes after the
// header.
func (d *Image) hasCOGHeader() bool {
	off := uint64(ClassicHeaderSize)
	if d.hdr.Big {
		off = BigTIFFHeaderSize
	}
	const marker = "GDAL_STRUCTURAL_METADATA_SIZE="
	b := make([]byte, len(marker))
	return readFull(d.r, d.size, b, off, "COG header") == nil && string(b) == marker
}

// TIFFTags returns the baseline TIFF text and resolution tags of the image
// as GDAL reports them in its default metadata domain: TIFFTAG_SOFTWARE,
// TIFFTAG_DATETIME, TIFFTAG_XRESOLUTION ("72"), TIFFTAG_RESOLUTIONUNIT
// ("2 (pixels/inch)") and the others that are present.
func (d *Image) TIFFTags() map[string]string {
	m := make(map[string]string, len(d.tiff.meta))
	for k, v := range d.tiff.meta {
		m[k] = v
	}
	return m
}

// COGLayout reports whether the file carries the layout header of GDAL's
// Cloud Optimized GeoTIFF driver (GDAL reports it as LAYOUT=COG).
func (d *Image) COGLayout() bool { return d.tiff.cog }

// ColorInterpretation returns GDAL's colour interpretation name of band
// (1-based): Gray, Red, Green, Blue, Alpha, Palette, Cyan, Magenta, Yellow,
// Black or Undefined, derived from the photometric interpretation and the
// extra samples as GDAL's GeoTIFF driver derives them.
func (d *Image) ColorInterpretation(band int) string {
	if band < 1 || band > d.spp {
		return "Undefined"
	}
	if v := d.bandRoles[band-1].colorInterp; v != "" {
		return v
	}
	if d.defaultBilevelTable() != nil {
		return "Palette"
	}
	i := band - 1
	base := 0 // samples given by the photometric interpretation
	var names []string
	switch d.photometric {
	case photoMinIsBlack, photoMinIsWhite:
		names, base = []string{"Gray"}, 1
	case photoRGB, photoYCbCr:
		names, base = []string{"Red", "Green", "Blue"}, 3
	case photoPalette:
		names, base = []string{"Palette"}, 1
	case photoSeparated:
		names, base = []string{"Cyan", "Magenta", "Yellow", "Black"}, 4
	}
	if i < len(names) && d.spp >= base {
		return names[i]
	}
	if e := i - base; e >= 0 && e < len(d.tiff.extraSamples) {
		if x := d.tiff.extraSamples[e]; x == 1 || x == 2 {
			return "Alpha"
		}
	}
	return "Undefined"
}

// AlphaBand returns the band (1-based) that is an alpha channel, or 0.
func (d *Image) AlphaBand() int {
	for b := 1; b <= d.spp; b++ {
		if d.ColorInterpretation(b) == "Alpha" {
			return b
		}
	}
	return 0
}

// ColorTable returns the palette of a paletted image as RGBA entries of 0
// to 255, as GDAL reports them (the 16-bit TIFF colour map divided by 257,
// or taken as is when every entry fits 8 bits); nil when there is none.
func (d *Image) ColorTable() [][4]uint8 {
	if t := d.defaultBilevelTable(); t != nil {
		return t
	}
	cm := d.tiff.colorMap
	if cm == nil {
		return nil
	}
	n := len(cm) / 3
	div := uint64(257)
	small := true
	for _, v := range cm {
		small = small && v < 256
	}
	if small {
		div = 1
	}
	out := make([][4]uint8, n)
	for i := range out {
		out[i] = [4]uint8{uint8(cm[i] / div), uint8(cm[n+i] / div), uint8(cm[2*n+i] / div), 255}
	}
	return out
}

// defaultBilevelTable is the black and white palette GDAL gives a one-band
// 1-bit image without a colour map (white first for MinIsWhite), or nil.
func (d *Image) defaultBilevelTable() [][4]uint8 {
	if d.bps != 1 || d.spp != 1 || d.tiff.colorMap != nil || (d.photometric != photoMinIsBlack && d.photometric != photoMinIsWhite) {
		return nil
	}
	black, white := [4]uint8{0, 0, 0, 255}, [4]uint8{255, 255, 255, 255}
	if d.photometric == photoMinIsWhite {
		return [][4]uint8{white, black}
	}
	return [][4]uint8{black, white}
}

// bandRoles are the per-band GDAL_METADATA items GDAL reads as band
// properties rather than metadata.
type bandRoles struct {
	offset, scale       float64
	hasOffset, hasScale bool
	unit                string
	colorInterp         string
}

// set records item role with value; it reports whether role is one of
// the properties.
func (r *bandRoles) set(role, value string) bool {
	switch role {
	case "offset":
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		r.offset, r.hasOffset = v, err == nil
	case "scale":
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		r.scale, r.hasScale = v, err == nil
	case "unittype":
		r.unit = value
	case "colorinterp":
		r.colorInterp = value
	default:
		return false
	}
	return true
}

// OffsetScale returns band's (1-based) offset and scale from GDAL_METADATA
// (a physical value is raw*scale + offset); 0 and 1 when absent.
func (d *Image) OffsetScale(band int) (offset, scale float64) {
	if band < 1 || band > d.spp {
		return 0, 1
	}
	r := d.bandRoles[band-1]
	offset, scale = 0, 1
	if r.hasOffset {
		offset = r.offset
	}
	if r.hasScale {
		scale = r.scale
	}
	return offset, scale
}

// Unit returns band's (1-based) unit of measure from GDAL_METADATA, or "".
func (d *Image) Unit(band int) string {
	if band < 1 || band > d.spp {
		return ""
	}
	return d.bandRoles[band-1].unit
}
