package geotiff

import (
	"encoding/binary"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster/internal/codec"
)

// Photometric interpretations.
const (
	photoMinIsWhite = 0
	photoMinIsBlack = 1
	photoRGB        = 2
	photoPalette    = 3
	photoMask       = 4
	photoSeparated  = 5
	photoYCbCr      = 6
)

// Limits that bound the memory a hostile file can make the reader allocate.
const (
	maxDimension  = 1 << 24             // pixels per side
	maxBlockBytes = codec.MaxBlockBytes // decoded bytes per block
	maxBlocks     = 1 << 26             // strips or tiles per image
	maxSamples    = 1 << 14             // samples per pixel
)

// An Image is one parsed image of a TIFF file: its size, sample layout,
// strip or tile table, georeferencing, nodata and GDAL metadata, bound to
// the file it was read from. Its methods are safe for concurrent use;
// reading pixels goes through a BlockReader (NewBlockReader).
type Image struct {
	r      io.ReaderAt
	mem    []byte // the whole file when it is in memory (NewBytesReader)
	size   int64
	hdr    Header
	ifd    *IFD
	codecs *codec.Registry

	width, height int
	spp           int // samples per pixel (bands)
	bps           int // bits per sample
	sampleFormat  int
	dtype         DataType
	compression   int
	predictor     int
	photometric   int
	planar        bool
	tiled         bool
	blockW        int
	blockH        int
	blocksAcross  int
	blocksDown    int
	offsets       []uint64
	counts        []uint64
	jpegTables    []byte
	ycbcrSub      [2]int
	streamable    bool // large blocks can be decoded as a stream of rows (not JPEG, WebP, or a scheme registered without a streaming decoder)

	transform    crs.Affine
	hasTransform bool
	geoKeys      *crs.GeoKeyDirectory
	epsg         int
	nodata       float64
	hasNoData    bool
	metadata     map[string]string
	bandMeta     []map[string]string
	descriptions []string
	bandRoles    []bandRoles

	overviewIFDs []uint64 // reduced-resolution images, in file order
	maskIFD      uint64   // the full-resolution internal mask, or 0
	maskOvIFDs   []uint64 // reduced-resolution masks, in file order
	tiff         tiffTags
}

// scanSubfiles follows the IFD chain and records the reduced-resolution
// images (overviews) and internal masks. Errors in later IFDs end the scan
// without failing the open, as GDAL ignores them.
func (d *Image) scanSubfiles(h Header, first *IFD) {
	seen := map[uint64]bool{first.Offset: true}
	next := first.Next
	for i := 0; next != 0 && i < MaxIFDsFollowed && !seen[next]; i++ {
		seen[next] = true
		sub, err := ReadIFD(d.r, d.size, h, next)
		if err != nil {
			return
		}
		t, _ := sub.Uint(TagNewSubfileType, 0)
		switch {
		case t&1 != 0 && t&4 == 0:
			d.overviewIFDs = append(d.overviewIFDs, sub.Offset)
		case t&1 == 0 && t&4 != 0 && d.maskIFD == 0:
			d.maskIFD = sub.Offset
		case t&1 != 0 && t&4 != 0:
			d.maskOvIFDs = append(d.maskOvIFDs, sub.Offset)
		}
		next = sub.Next
	}
}

// parseImage reads the image structure tags of the first IFD.
func (d *Image) parseImage(f *IFD) error {
	get := func(tag uint16, def uint64) (int, error) {
		v, err := f.Uint(tag, def)
		if err != nil {
			return 0, err
		}
		if v > math.MaxInt32 {
			return 0, FormatError(fmt.Sprintf("tag %d: value %d out of range", tag, v))
		}
		return int(v), nil
	}
	var err error
	if !f.Has(TagImageWidth) || !f.Has(TagImageLength) {
		return FormatError("missing ImageWidth or ImageLength")
	}
	if d.width, err = get(TagImageWidth, 0); err != nil {
		return err
	}
	if d.height, err = get(TagImageLength, 0); err != nil {
		return err
	}
	if d.width <= 0 || d.height <= 0 || d.width > maxDimension || d.height > maxDimension {
		return FormatError(fmt.Sprintf("image size %dx%d out of range", d.width, d.height))
	}
	if d.spp, err = get(TagSamplesPerPixel, 1); err != nil {
		return err
	}
	if d.spp < 1 || d.spp > maxSamples {
		return FormatError(fmt.Sprintf("SamplesPerPixel %d out of range", d.spp))
	}
	if d.bps, err = sameForAll(f, TagBitsPerSample, 1, "BitsPerSample"); err != nil {
		return err
	}
	if d.sampleFormat, err = sameForAll(f, TagSampleFormat, 1, "SampleFormat"); err != nil {
		return err
	}
	if d.dtype, err = sampleType(d.bps, d.sampleFormat); err != nil {
		return err
	}
	if d.compression, err = get(TagCompression, CompressionNone); err != nil {
		return err
	}
	if d.predictor, err = get(TagPredictor, 1); err != nil {
		return err
	}
	if d.photometric, err = get(TagPhotometric, photoMinIsBlack); err != nil {
		return err
	}
	pc, err := get(TagPlanarConfig, 1)
	if err != nil {
		return err
	}
	if pc != 1 && pc != 2 {
		// libtiff refuses the directory ("Bad value for PlanarConfiguration").
		return FormatError(fmt.Sprintf("PlanarConfiguration %d (1 contiguous or 2 separate)", pc))
	}
	d.planar = pc == 2 && d.spp > 1
	if f.Has(TagTileWidth) || f.Has(TagTileOffsets) {
		d.tiled = true
		if d.blockW, err = get(TagTileWidth, 0); err != nil {
			return err
		}
		if d.blockH, err = get(TagTileLength, 0); err != nil {
			return err
		}
		if d.blockW <= 0 || d.blockH <= 0 || d.blockW > maxDimension || d.blockH > maxDimension {
			return FormatError(fmt.Sprintf("tile size %dx%d out of range", d.blockW, d.blockH))
		}
		if d.offsets, err = f.Uints(TagTileOffsets); err != nil {
			return err
		}
		if d.counts, err = f.Uints(TagTileByteCounts); err != nil {
			return err
		}
	} else {
		d.blockW = d.width
		rps, err := f.Uint(TagRowsPerStrip, math.MaxUint32)
		if err != nil {
			return err
		}
		if rps == 0 || rps > uint64(d.height) {
			rps = uint64(d.height)
		}
		d.blockH = int(rps)
		if d.offsets, err = f.Uints(TagStripOffsets); err != nil {
			return err
		}
		if d.counts, err = f.Uints(TagStripByteCounts); err != nil {
			return err
		}
	}
	d.blocksAcross = (d.width + d.blockW - 1) / d.blockW
	d.blocksDown = (d.height + d.blockH - 1) / d.blockH
	nb := uint64(d.blocksAcross) * uint64(d.blocksDown)
	if d.planar {
		nb *= uint64(d.spp)
	}
	if nb > maxBlocks {
		return FormatError(fmt.Sprintf("%d blocks (limit %d)", nb, maxBlocks))
	}
	if uint64(len(d.offsets)) < nb {
		return FormatError(fmt.Sprintf("%d block offsets for %d blocks", len(d.offsets), nb))
	}
	if uint64(len(d.counts)) < nb {
		if len(d.counts) == 0 && d.compression == CompressionNone {
			// libtiff estimates missing byte counts of uncompressed images.
			d.counts = make([]uint64, nb)
			for i := range d.counts {
				d.counts[i] = uint64(d.blockBytes())
			}
		} else {
			return FormatError(fmt.Sprintf("%d block byte counts for %d blocks", len(d.counts), nb))
		}
	}
	if err := d.checkBlocks(); err != nil {
		return err
	}
	c := d.codecs.Lookup(d.compression)
	if c == nil || !c.Decodes() {
		return UnsupportedError(fmt.Sprintf("compression %d (%s)", d.compression, d.codecs.Name(d.compression)))
	}
	d.streamable = d.compression == CompressionNone || c.NewReader != nil
	switch d.predictor {
	case 1:
	case 2:
		if d.bps != 8 && d.bps != 16 && d.bps != 32 && d.bps != 64 {
			return UnsupportedError(fmt.Sprintf("horizontal predictor with %d-bit samples", d.bps))
		}
	case 3:
		if d.sampleFormat != 3 {
			return FormatError("floating-point predictor on integer samples")
		}
	default:
		return UnsupportedError(fmt.Sprintf("predictor %d", d.predictor))
	}
	if d.photometric == photoYCbCr && d.compression != CompressionJPEG {
		return UnsupportedError("YCbCr photometric interpretation without JPEG compression")
	}
	if d.compression == CompressionJPEG || d.compression == CompressionWebP {
		if d.bps != 8 {
			return UnsupportedError(fmt.Sprintf("%s with %d-bit samples", d.codecs.Name(d.compression), d.bps))
		}
		if d.planar && d.compression == CompressionWebP {
			return UnsupportedError("WebP with planar configuration")
		}
	}
	d.jpegTables = f.Bytes(TagJPEGTables)
	d.ycbcrSub = [2]int{2, 2}
	if sub, _ := f.Uints(TagYCbCrSubsampling); len(sub) == 2 {
		d.ycbcrSub = [2]int{int(sub[0]), int(sub[1])}
	}
	return nil
}

// sameForAll returns the value of a per-sample tag, def when it is
// absent; bands with different values are unsupported.
func sameForAll(f *IFD, tag uint16, def int, name string) (int, error) {
	all, err := f.Uints(tag)
	if err != nil || len(all) == 0 {
		return def, err
	}
	for _, v := range all[1:] {
		if v != all[0] {
			return 0, UnsupportedError("bands with different " + name)
		}
	}
	return int(all[0]), nil
}

// sampleType maps BitsPerSample and SampleFormat to the DataType the
// reader returns.
func sampleType(bps, sf int) (DataType, error) {
	switch sf {
	case 1, 4: // unsigned, void
		switch {
		case bps >= 1 && bps <= 8:
			return Uint8, nil
		case bps > 8 && bps <= 16:
			return Uint16, nil
		case bps > 16 && bps <= 32:
			return Uint32, nil
		}
	case 2:
		switch bps {
		case 8:
			return Int8, nil
		case 16:
			return Int16, nil
		case 32:
			return Int32, nil
		}
	case 3:
		switch bps {
		case 16, 32:
			return Float32, nil
		case 64:
			return Float64, nil
		}
	case 5, 6:
		return Unknown, UnsupportedError("complex samples")
	default:
		return Unknown, FormatError(fmt.Sprintf("SampleFormat %d", sf))
	}
	return Unknown, UnsupportedError(fmt.Sprintf("%d-bit samples with SampleFormat %d", bps, sf))
}

// blockSamples returns the number of samples per pixel stored in one block.
func (d *Image) blockSamples() int {
	if d.planar {
		return 1
	}
	return d.spp
}

// rowBytes returns the byte length of one block row of n pixels.
func (d *Image) rowBytes(n int) int {
	return (n*d.blockSamples()*d.bps + 7) / 8
}

// blockBytes returns the decoded size of a full block in bytes.
func (d *Image) blockBytes() int {
	return d.rowBytes(d.blockW) * d.blockH
}

// parseGeo reads the georeferencing, nodata and GDAL metadata tags.
func (d *Image) parseGeo(f *IFD) error {
	if dir, err := f.Uints(TagGeoKeyDirectory); err == nil && len(dir) >= 4 {
		d16 := make([]uint16, len(dir))
		for i, v := range dir {
			d16[i] = uint16(v)
		}
		doubles, _ := f.Floats(TagGeoDoubleParams)
		g, err := crs.ParseGeoKeyDirectory(d16, doubles, f.ASCII(TagGeoASCIIParams))
		if err == nil {
			d.geoKeys = g
			d.epsg = g.EPSG()
		}
	}
	scale, _ := f.Floats(TagModelPixelScale)
	tie, _ := f.Floats(TagModelTiepoint)
	mt, _ := f.Floats(TagModelTransform)
	switch {
	case len(scale) >= 2 && scale[0] != 0 && scale[1] != 0 && len(tie) >= 6:
		a, e := scale[0], -scale[1]
		d.transform = crs.Affine{a, 0, tie[3] - float64(tie[0]*a), 0, e, tie[4] - float64(tie[1]*e)} // float64(): no fused multiply-add (arm64)
		d.hasTransform = true
	case len(mt) == 16:
		d.transform = crs.Affine{mt[0], mt[1], mt[3], mt[4], mt[5], mt[7]}
		d.hasTransform = true
	}
	if d.hasTransform && d.geoKeys.PixelIsPoint() {
		t := &d.transform
		// float64() keeps each product rounded (no fused multiply-add on arm64).
		t[2] -= float64(t[0]*0.5) + float64(t[1]*0.5)
		t[5] -= float64(t[3]*0.5) + float64(t[4]*0.5)
	}
	if f.Has(TagGDALNoData) {
		d.nodata, d.hasNoData = parseGDALNoData(string(f.Bytes(TagGDALNoData)), d.bps, d.sampleFormat)
	}
	d.metadata = map[string]string{}
	d.bandMeta = make([]map[string]string, d.spp)
	d.descriptions = make([]string, d.spp)
	d.bandRoles = make([]bandRoles, d.spp)
	if f.Has(TagGDALMetadata) {
		d.parseGDALMetadata(f.ASCII(TagGDALMetadata))
	}
	return nil
}

// parseGDALMetadata reads the XML of the GDAL_METADATA tag; malformed XML is
// ignored (GDAL only warns).
func (d *Image) parseGDALMetadata(s string) {
	var doc struct {
		Items []struct {
			Name   string `xml:"name,attr"`
			Sample *int   `xml:"sample,attr"`
			Role   string `xml:"role,attr"`
			Domain string `xml:"domain,attr"`
			Value  string `xml:",chardata"`
		} `xml:"Item"`
	}
	if err := xml.Unmarshal([]byte(s), &doc); err != nil {
		return
	}
	for _, it := range doc.Items {
		if it.Domain != "" {
			continue
		}
		if it.Sample == nil {
			d.metadata[unescapeXML(it.Name)] = unescapeXML(it.Value)
			continue
		}
		b := *it.Sample
		if b < 0 || b >= d.spp {
			continue
		}
		if it.Role == "description" {
			d.descriptions[b] = unescapeXML(it.Value)
			continue
		}
		if d.bandRoles[b].set(it.Role, unescapeXML(it.Value)) {
			continue
		}
		if d.bandMeta[b] == nil {
			d.bandMeta[b] = map[string]string{}
		}
		d.bandMeta[b][unescapeXML(it.Name)] = unescapeXML(it.Value)
	}
}

// IFD returns the image's directory, for tags the Image does not
// interpret.
func (d *Image) IFD() *IFD { return d.ifd }

// Width returns the raster width in pixels.
func (d *Image) Width() int { return d.width }

// Height returns the raster height in pixels.
func (d *Image) Height() int { return d.height }

// Count returns the number of bands (samples per pixel).
func (d *Image) Count() int { return d.spp }

// Compression returns the TIFF Compression tag value.
func (d *Image) Compression() int { return d.compression }

// Planar reports whether bands are stored in planes of their own
// (PlanarConfiguration 2 with more than one band): block plane p holds
// band p+1. Otherwise samples are pixel-interleaved and there is one
// plane.
func (d *Image) Planar() bool { return d.planar }

// BlockSize returns the width and height of a strip or tile in pixels
// (a strip is as wide as the image).
func (d *Image) BlockSize() (width, height int) { return d.blockW, d.blockH }

// Blocks returns the number of block columns and rows of one plane.
func (d *Image) Blocks() (across, down int) { return d.blocksAcross, d.blocksDown }

// BlockSamples returns the number of samples per pixel stored in one
// block: 1 for planar images, Count otherwise.
func (d *Image) BlockSamples() int { return d.blockSamples() }

// BlockRows returns the number of image rows block row by holds: the
// block height, less for the last row of strips.
func (d *Image) BlockRows(by int) int { return d.blockRows(by) }

// DataType returns the sample type every band is read as.
func (d *Image) DataType() DataType { return d.dtype }

// Transform returns the affine geotransform in rasterio order and whether
// the file has one (ModelPixelScale+ModelTiepoint or ModelTransformation).
// PixelIsPoint rasters are shifted by half a pixel, as GDAL does.
func (d *Image) Transform() (crs.Affine, bool) { return d.transform, d.hasTransform }

// EPSG returns the EPSG code of the raster's CRS, or 0 when it has none or
// it cannot be identified.
func (d *Image) EPSG() int { return d.epsg }

// GeoKeys returns the parsed GeoKey directory, or nil when absent.
func (d *Image) GeoKeys() *crs.GeoKeyDirectory { return d.geoKeys }

// NoData returns the GDAL_NODATA value and whether it is set.
func (d *Image) NoData() (float64, bool) { return d.nodata, d.hasNoData }

// BandDescription returns the description of band (1-based) from the
// GDAL_METADATA tag, or "" when it has none or band is out of range.
func (d *Image) BandDescription(band int) string {
	if band < 1 || band > d.spp {
		return ""
	}
	return d.descriptions[band-1]
}

// Metadata returns a copy of the image-level items of GDAL_METADATA.
func (d *Image) Metadata() map[string]string {
	m := make(map[string]string, len(d.metadata))
	for k, v := range d.metadata {
		m[k] = v
	}
	return m
}

// BandMetadata returns a copy of band's (1-based) GDAL_METADATA items other
// than its description (for example SCALE, OFFSET, STATISTICS_*).
func (d *Image) BandMetadata(band int) map[string]string {
	m := map[string]string{}
	if band >= 1 && band <= d.spp {
		for k, v := range d.bandMeta[band-1] {
			m[k] = v
		}
	}
	return m
}

// Structure describes how the pixels are stored in the file.
type Structure struct {
	Compression   string // GDAL's name: NONE, LZW, DEFLATE, ...
	Predictor     int
	Tiled         bool
	BlockWidth    int
	BlockHeight   int
	Interleave    string // "PIXEL" or "BAND"
	BitsPerSample int
	BigTIFF       bool
	LittleEndian  bool
	Photometric   int
	Overviews     int
}

// Structure returns the file's storage layout.
func (d *Image) Structure() Structure {
	il := "PIXEL"
	if d.planar || d.spp == 1 {
		il = "BAND"
	}
	return Structure{
		Compression:   d.codecs.Name(d.compression),
		Predictor:     d.predictor,
		Tiled:         d.tiled,
		BlockWidth:    d.blockW,
		BlockHeight:   d.blockH,
		Interleave:    il,
		BitsPerSample: d.bps,
		BigTIFF:       d.hdr.Big,
		LittleEndian:  d.hdr.ByteOrder == binary.LittleEndian,
		Photometric:   d.photometric,
		Overviews:     len(d.overviewIFDs),
	}
}

// unescapeXML undoes the second level of XML escaping GDAL applies to
// GDAL_METADATA names and values (the XML parser undoes the first).
func unescapeXML(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '&' {
			b.WriteByte(s[i])
			continue
		}
		j := strings.IndexByte(s[i:], ';')
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		ent := s[i+1 : i+j]
		switch {
		case ent == "lt":
			b.WriteByte('<')
		case ent == "gt":
			b.WriteByte('>')
		case ent == "amp":
			b.WriteByte('&')
		case ent == "quot":
			b.WriteByte('"')
		case ent == "apos":
			b.WriteByte('\'')
		case strings.HasPrefix(ent, "#x") || strings.HasPrefix(ent, "#X"):
			v, err := strconv.ParseUint(ent[2:], 16, 32)
			if err != nil {
				b.WriteString(s[i : i+j+1])
			} else {
				b.WriteRune(rune(v))
			}
		case strings.HasPrefix(ent, "#"):
			v, err := strconv.ParseUint(ent[1:], 10, 32)
			if err != nil {
				b.WriteString(s[i : i+j+1])
			} else {
				b.WriteRune(rune(v))
			}
		default:
			b.WriteString(s[i : i+j+1])
		}
		i += j
	}
	return b.String()
}
