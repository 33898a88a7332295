package inspect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/internal/cfmt"
	"github.com/geodisaster/engine/raster"
)

// The gdalinfo form of inspect: what GDAL 3.6's gdalinfo reports for a
// GeoTIFF, built once (gdalInfo) and written as its text layout or its
// -json document.

// mdItem is one metadata item.
type mdItem struct{ key, value string }

// gdalInfo is what gdalinfo reports about a dataset.
type gdalInfo struct {
	description   string
	width, height int
	crsText       string // gdalinfo's WKT2:2019, or "" when the keys give none
	crsName       string // the CRS's identifier, for the text form when there is no WKT
	epsg          int
	geoKeys       *crs.GeoKeyDirectory
	axisMapping   []int
	geoTransform  *[6]float64 // GDAL order
	metadata      []mdItem    // default domain, sorted
	imageStruct   []mdItem    // IMAGE_STRUCTURE, sorted
	corners       []gdalCorner
	lonLatWGS84   bool // the corners' geographic coordinates are WGS84 (wgs84Extent)
	hasCRS        bool
	bands         []*gdalBand
}

// gdalCorner is one corner (or the centre) in georeferenced coordinates
// and, when the CRS converts, in longitude/latitude.
type gdalCorner struct {
	name, jsonName string
	x, y           float64
	lon, lat       float64 // WGS 84 (gdalinfo -json's wgs84Extent)
	hasLonLat      bool
	// geoLon, geoLat are in the CRS's own geographic CRS (its datum, prime
	// meridian and angular unit), which gdalinfo's text prints.
	geoLon, geoLat float64
	hasGeo         bool
}

// gdalBand is what gdalinfo reports about one band.
type gdalBand struct {
	band          int
	block         [2]int
	typeName      string
	stacType      string
	colorInterp   string
	description   string
	storedMin     *float64
	storedMax     *float64
	stats         *raster.Statistics
	checksum      *int
	nodata        *float64
	float32Band   bool
	overviews     [][2]int
	ovChecksums   []int
	maskFlags     []string
	maskOverviews [][2]int
	unit          string
	offset, scale float64
	metadata      []mdItem
	imageStruct   []mdItem
	colorTable    [][4]uint8
}

// gdalTypeName is GDAL 3.6's name of a band type (signed bytes are Byte
// with PIXELTYPE=SIGNEDBYTE there).
func gdalTypeName(t raster.DataType) string {
	switch t {
	case raster.Uint8, raster.Int8:
		return "Byte"
	case raster.Uint16:
		return "UInt16"
	case raster.Int16:
		return "Int16"
	case raster.Uint32:
		return "UInt32"
	case raster.Int32:
		return "Int32"
	case raster.Float32:
		return "Float32"
	case raster.Float64:
		return "Float64"
	}
	return "Unknown"
}

// coordinateSystemOf returns the raster's CRS, gdalinfo's WKT2:2019 text of
// it and GDAL's data axis to CRS axis mapping, all from the GeoKey
// directory as GDAL reads it (crs.GeoKeyDirectory.GDALCoordinateSystem);
// c is nil for a raster without a CRS. A CRS the crs package describes but
// cannot convert keeps its WKT and mapping, with c nil (no corners in
// longitude/latitude).
func coordinateSystemOf(d *raster.Dataset) (c crs.CRS, wkt string, mapping []int) {
	g := d.GeoKeys()
	if g == nil {
		return nil, "", nil
	}
	wkt, mapping, err := g.GDALCoordinateSystem()
	if err != nil {
		wkt, mapping = "", nil
	}
	if cc, err := g.CRS(); err == nil {
		c = cc
	}
	if c == nil && d.EPSG() != 0 {
		if cc, err := crs.FromEPSG(d.EPSG()); err == nil {
			c = cc
		}
	}
	if c != nil && mapping == nil {
		mapping = []int{1, 2}
		if crs.AuthorityOrderSwapped(c) {
			mapping = []int{2, 1}
		}
	}
	return c, wkt, mapping
}

// gdalInfoOf builds the report of d (opened from name): statistics with
// stats (stored ones first, as gdalinfo -stats), GDAL checksums of every
// band and overview with checksum. Stored statistics are reported without
// stats too, as gdalinfo does.
func gdalInfoOf(ctx context.Context, name string, d *raster.Dataset, stats, checksum, recompute bool) (*gdalInfo, error) {
	gi := &gdalInfo{description: name, width: d.Width(), height: d.Height(), epsg: d.EPSG(), geoKeys: d.GeoKeys()}
	c, wkt, mapping := coordinateSystemOf(d)
	if c != nil || wkt != "" {
		gi.hasCRS = true
		if c != nil {
			gi.crsName = c.String()
		}
		gi.crsText = wkt
		gi.axisMapping = mapping
	}
	t, hasT := d.Transform()
	if hasT {
		g := t.GDAL()
		gi.geoTransform = &g
	}
	gi.metadata = gdalDatasetMetadata(d)
	gi.imageStruct = gdalImageStructure(d)
	gi.corners = gdalCorners(d, c)
	gi.lonLatWGS84 = c != nil // every CRS the engine serves is on an Earth-sized ellipsoid
	st := d.Structure()
	nd, hasND := d.NoData()
	for b := 1; b <= d.Count(); b++ {
		gb := &gdalBand{band: b, block: [2]int{st.BlockWidth, st.BlockHeight}, typeName: gdalTypeName(d.DataType()),
			colorInterp: d.ColorInterpretation(b), description: d.BandDescription(b), unit: d.Unit(b),
			float32Band: d.DataType() == raster.Float32}
		gb.stacType = d.DataType().String()
		if d.DataType() == raster.Int8 {
			gb.stacType = "uint8"
		}
		gb.offset, gb.scale = d.OffsetScale(b)
		if hasND {
			v := nd
			gb.nodata = &v
		}
		md := d.BandMetadata(b)
		if v, ok := md["STATISTICS_MINIMUM"]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				gb.storedMin = &f
			}
		}
		if v, ok := md["STATISTICS_MAXIMUM"]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				gb.storedMax = &f
			}
		}
		gb.metadata = sortedItems(md)
		if st.BitsPerSample != 8*d.DataType().Size() {
			gb.imageStruct = append(gb.imageStruct, mdItem{"NBITS", strconv.Itoa(st.BitsPerSample)})
		}
		if d.DataType() == raster.Int8 {
			gb.imageStruct = append(gb.imageStruct, mdItem{"PIXELTYPE", "SIGNEDBYTE"})
		}
		if gb.colorInterp == "Palette" {
			gb.colorTable = d.ColorTable()
		}
		switch {
		case d.HasMask():
			gb.maskFlags = []string{"PER_DATASET"}
		case d.AlphaBand() != 0 && d.AlphaBand() != b:
			gb.maskFlags = []string{"PER_DATASET", "ALPHA"}
		}
		gi.bands = append(gi.bands, gb)
	}
	if d.HasMask() {
		m, err := d.Mask()
		if err != nil {
			return nil, err
		}
		var sizes [][2]int
		for i := 0; i < m.OverviewCount(); i++ {
			o, err := m.Overview(i)
			if err != nil {
				return nil, err
			}
			sizes = append(sizes, [2]int{o.Width(), o.Height()})
		}
		for _, gb := range gi.bands {
			gb.maskOverviews = sizes
		}
	}
	var ovs []*raster.Dataset
	for i := 0; i < d.OverviewCount(); i++ {
		o, err := d.Overview(i)
		if err != nil {
			return nil, err
		}
		ovs = append(ovs, o)
		for _, gb := range gi.bands {
			gb.overviews = append(gb.overviews, [2]int{o.Width(), o.Height()})
		}
	}
	for b, gb := range gi.bands {
		var pixels *raster.Band
		if checksum {
			band, err := d.ReadBand(ctx, b+1)
			if err != nil {
				return nil, err
			}
			pixels = band
			sum, err := gdalChecksum(band)
			if err != nil {
				return nil, err
			}
			gb.checksum = &sum
			for _, o := range ovs {
				ob, err := o.ReadBand(ctx, b+1)
				if err != nil {
					return nil, err
				}
				s, err := gdalChecksum(ob)
				if err != nil {
					return nil, err
				}
				gb.ovChecksums = append(gb.ovChecksums, s)
			}
		}
		// Stored statistics are reported with or without -stats; -stats
		// computes the missing ones.
		var opts []raster.StatisticsOption
		if !recompute {
			opts = append(opts, raster.UseStored())
		}
		if pixels != nil {
			opts = append(opts, raster.FromPixels(pixels))
		}
		if !stats {
			if hasStoredStatistics(d.BandMetadata(b + 1)) {
				if s, err := d.Statistics(ctx, b+1, raster.UseStored()); err == nil && s.Stored {
					gb.stats = &s
				}
			}
			continue
		}
		s, err := d.Statistics(ctx, b+1, opts...)
		switch {
		case err == nil:
			gb.stats = &s
			if !s.Stored {
				gb.metadata = mergeItems(gb.metadata, s.Metadata())
			}
		case errors.Is(err, raster.ErrNoValidPixels):
			// GDAL records the valid percentage and reports no statistics.
			gb.metadata = mergeItems(gb.metadata, map[string]string{"STATISTICS_VALID_PERCENT": cfmt.FormatG(s.ValidPercent, 4)})
		default:
			return nil, err
		}
	}
	return gi, nil
}

// hasStoredStatistics reports whether band metadata md holds complete,
// exact statistics (those gdalinfo reports without computing).
func hasStoredStatistics(md map[string]string) bool {
	for _, k := range []string{"STATISTICS_MINIMUM", "STATISTICS_MAXIMUM", "STATISTICS_MEAN", "STATISTICS_STDDEV"} {
		if _, ok := md[k]; !ok {
			return false
		}
	}
	a := md["STATISTICS_APPROXIMATE"]
	return a != "YES" && a != "yes"
}

// gdalChecksum is GDAL 3.6's checksum of a band (signed bytes are
// unsigned Byte samples there).
func gdalChecksum(b *raster.Band) (int, error) {
	if s, ok := b.Data.([]int8); ok {
		u := make([]uint8, len(s))
		for i, v := range s {
			u[i] = uint8(v)
		}
		b = &raster.Band{Width: b.Width, Height: b.Height, Type: raster.Uint8, Data: u}
	}
	return raster.Checksum(b)
}

// gdalDatasetMetadata is the dataset's default metadata domain as GDAL's
// GeoTIFF driver reports it: AREA_OR_POINT, the TIFFTAG_* items and
// GDAL_METADATA's dataset items, sorted by key.
func gdalDatasetMetadata(d *raster.Dataset) []mdItem {
	m := d.Metadata()
	for k, v := range d.TIFFTags() {
		m[k] = v
	}
	if g := d.GeoKeys(); g != nil {
		if rt, ok := g.Shorts[1025]; ok { // GTRasterTypeGeoKey
			m["AREA_OR_POINT"] = "Area"
			if rt == 2 {
				m["AREA_OR_POINT"] = "Point"
			}
		}
	}
	return sortedItems(m)
}

// gdalImageStructure is the dataset's IMAGE_STRUCTURE domain: the
// compression, the interleaving, the predictor and the COG layout. (GDAL's
// guesses of JPEG and WebP quality levels are not reported.)
func gdalImageStructure(d *raster.Dataset) []mdItem {
	st := d.Structure()
	m := map[string]string{"INTERLEAVE": st.Interleave}
	switch {
	case st.Compression == "JPEG" && st.Photometric == 6:
		m["COMPRESSION"] = "YCbCr JPEG"
		m["SOURCE_COLOR_SPACE"] = "YCbCr"
	case st.Compression != "NONE":
		m["COMPRESSION"] = st.Compression
	}
	if st.Predictor > 1 {
		m["PREDICTOR"] = strconv.Itoa(st.Predictor)
	}
	if d.COGLayout() {
		m["LAYOUT"] = "COG"
	}
	return sortedItems(m)
}

// gdalCorners returns the four corners and the centre, with their
// longitude/latitude when c converts them.
func gdalCorners(d *raster.Dataset, c crs.CRS) []gdalCorner {
	w, h := float64(d.Width()), float64(d.Height())
	pts := []gdalCorner{
		{name: "Upper Left", jsonName: "upperLeft", x: 0, y: 0},
		{name: "Lower Left", jsonName: "lowerLeft", x: 0, y: h},
		{name: "Upper Right", jsonName: "upperRight", x: w, y: 0},
		{name: "Lower Right", jsonName: "lowerRight", x: w, y: h},
		{name: "Center", jsonName: "center", x: w / 2, y: h / 2},
	}
	t, ok := d.Transform()
	if !ok {
		return pts
	}
	g := t.GDAL()
	base := crs.BaseGeographic(c)
	for i := range pts {
		px, py := pts[i].x, pts[i].y
		// float64(): no fused multiply-add (arm64), as GDAL's C on amd64.
		pts[i].x = g[0] + float64(g[1]*px) + float64(g[2]*py)
		pts[i].y = g[3] + float64(g[4]*px) + float64(g[5]*py)
		if c != nil {
			if lon, lat, err := c.ToLonLat(pts[i].x, pts[i].y); err == nil {
				pts[i].lon, pts[i].lat, pts[i].hasLonLat = lon, lat, true
			}
			if lon, lat, err := crs.Transform(c, base, pts[i].x, pts[i].y); err == nil {
				pts[i].geoLon, pts[i].geoLat, pts[i].hasGeo = lon, lat, true
			}
		}
	}
	return pts
}

// sortedItems returns m's items sorted by key.
func sortedItems(m map[string]string) []mdItem {
	out := make([]mdItem, 0, len(m))
	for k, v := range m {
		out = append(out, mdItem{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// mergeItems sets m's items in a sorted list.
func mergeItems(items []mdItem, m map[string]string) []mdItem {
	all := map[string]string{}
	for _, it := range items {
		all[it.key] = it.value
	}
	for k, v := range m {
		all[k] = v
	}
	return sortedItems(all)
}

// json builds gdalinfo -json's document.
func (gi *gdalInfo) json() *jsonObject {
	doc := &jsonObject{}
	stac := &jsonObject{}
	doc.set("description", jsonString(gi.description))
	doc.set("driverShortName", jsonString("GTiff"))
	doc.set("driverLongName", jsonString("GeoTIFF"))
	doc.set("files", jsonArray{jsonString(gi.description)})
	doc.set("size", jsonArray{jsonInt(gi.width), jsonInt(gi.height)})
	stac.set("proj:shape", jsonArray{jsonInt(gi.width), jsonInt(gi.height)})
	if gi.hasCRS {
		cs := &jsonObject{}
		if gi.crsText != "" {
			cs.set("wkt", jsonString(gi.crsText))
			stac.set("proj:wkt2", jsonString(gi.crsText))
		}
		if code := stacEPSG(gi.geoKeys, gi.crsText, gi.epsg); code != 0 {
			stac.set("proj:epsg", jsonInt(code))
		}
		var am jsonArray
		for _, a := range gi.axisMapping {
			am = append(am, jsonInt(a))
		}
		cs.set("dataAxisToSRSAxisMapping", am)
		doc.set("coordinateSystem", cs)
	}
	if gi.geoTransform != nil {
		var gt, sgt jsonArray
		for _, v := range gi.geoTransform {
			gt = append(gt, gdalJSONNumber(v, 16))
			sgt = append(sgt, gdalJSONNumber(v, 16))
		}
		doc.set("geoTransform", gt)
		stac.set("proj:transform", sgt)
	}
	doc.set("metadata", metadataObject(gi.metadata, gi.imageStruct))
	cc := &jsonObject{}
	ring := jsonArray{}
	byName := map[string]gdalCorner{}
	for _, c := range gi.corners {
		byName[c.jsonName] = c
	}
	for _, n := range []string{"upperLeft", "lowerLeft", "lowerRight", "upperRight", "center"} {
		c := byName[n]
		prec := 1
		if gi.geoTransform != nil {
			prec = 3
			if math.Abs(c.x) < 181 && math.Abs(c.y) < 91 {
				prec = 7
			}
		}
		cc.set(n, jsonArray{gdalJSONNumber(c.x, prec), gdalJSONNumber(c.y, prec)})
		if n != "center" && c.hasLonLat {
			ring = append(ring, jsonArray{gdalJSONNumber(c.lon, 7), gdalJSONNumber(c.lat, 7)})
		}
	}
	if ul := byName["upperLeft"]; ul.hasLonLat {
		ring = append(ring, jsonArray{gdalJSONNumber(ul.lon, 7), gdalJSONNumber(ul.lat, 7)})
	}
	doc.set("cornerCoordinates", cc)
	ext := &jsonObject{}
	ext.set("type", jsonString("Polygon"))
	ext.set("coordinates", jsonArray{ring})
	if gi.lonLatWGS84 {
		doc.set("wgs84Extent", ext)
	} else {
		doc.set("extent", ext)
	}
	var bands, rasterBands, eoBands jsonArray
	for _, b := range gi.bands {
		jb, rb, eb := b.json()
		bands = append(bands, jb)
		rasterBands = append(rasterBands, rb)
		eoBands = append(eoBands, eb)
	}
	doc.set("bands", bands)
	stac.set("raster:bands", rasterBands)
	stac.set("eo:bands", eoBands)
	doc.set("stac", stac)
	return doc
}

// stacEPSG is the stac block's proj:epsg: as GDAL, the EPSG code of the
// CRS itself, the ID of the WKT's root (none for a user-defined CRS, even
// when identification finds a code, nor for an ESRI PE-string citation,
// which GDAL reads without one); without WKT, the engine's code.
func stacEPSG(g *crs.GeoKeyDirectory, wkt string, engineCode int) int {
	if g != nil {
		if pcs := g.Shorts[crs.ProjectedCSTypeGeoKey]; (pcs == 0 || pcs == 32767) && strings.Contains(g.ASCII[crs.PCSCitationGeoKey], "ESRI PE String = ") {
			return 0
		}
	}
	if wkt == "" {
		return engineCode
	}
	const prefix = "\n    ID[\"EPSG\","
	i := strings.LastIndex(wkt, prefix)
	if i < 0 || !strings.HasSuffix(wkt, "]]") {
		return 0
	}
	code, err := strconv.Atoi(wkt[i+len(prefix) : len(wkt)-2])
	if err != nil {
		return 0
	}
	return code
}

// stacCopy is what GDAL 3.6 puts in the stac block for a number it copies
// from the bands[] member: json-c cannot copy a double that carries GDAL's
// custom formatting and writes null, except for strings ("NaN") and a
// nodata value formatted with no significant digit (such as 0).
func stacCopy(v jsonNode, plain bool) jsonNode {
	if _, isString := v.(jsonString); isString || plain {
		return v
	}
	return jsonRaw("null")
}

// metadataObject is the "metadata" member: the default domain (key "")
// and IMAGE_STRUCTURE, each when it has items.
func metadataObject(def, imageStruct []mdItem) *jsonObject {
	md := &jsonObject{}
	if len(def) > 0 {
		md.set("", itemsObject(def))
	}
	if len(imageStruct) > 0 {
		md.set("IMAGE_STRUCTURE", itemsObject(imageStruct))
	}
	return md
}

// itemsObject is a metadata domain as a JSON object.
func itemsObject(items []mdItem) *jsonObject {
	o := &jsonObject{}
	for _, it := range items {
		o.set(it.key, jsonString(it.value))
	}
	return o
}

// json builds a band's members of bands[], stac raster:bands[] and
// eo:bands[].
func (b *gdalBand) json() (band, rasterBand, eoBand *jsonObject) {
	band, rasterBand, eoBand = &jsonObject{}, &jsonObject{}, &jsonObject{}
	band.set("band", jsonInt(b.band))
	band.set("block", jsonArray{jsonInt(b.block[0]), jsonInt(b.block[1])})
	band.set("type", jsonString(b.typeName))
	band.set("colorInterpretation", jsonString(b.colorInterp))
	rasterBand.set("data_type", jsonString(b.stacType))
	eoBand.set("name", jsonString("b"+strconv.Itoa(b.band)))
	if b.description != "" {
		band.set("description", jsonString(b.description))
		eoBand.set("description", jsonString(b.description))
	} else {
		eoBand.set("description", jsonString(b.colorInterp))
	}
	if b.storedMin != nil {
		band.set("min", gdalJSONNumber(*b.storedMin, 3))
	}
	if b.storedMax != nil {
		band.set("max", gdalJSONNumber(*b.storedMax, 3))
	}
	if s := b.stats; s != nil {
		ss := &jsonObject{}
		for _, kv := range []struct {
			key, stacKey string
			v            float64
		}{{"minimum", "minimum", s.Min}, {"maximum", "maximum", s.Max}, {"mean", "mean", s.Mean}, {"stdDev", "stddev", s.StdDev}} {
			band.set(kv.key, gdalJSONNumber(kv.v, 3))
			ss.set(kv.stacKey, gdalJSONNumber(kv.v, 3))
		}
		rasterBand.set("stats", ss)
	}
	if b.checksum != nil {
		band.set("checksum", jsonInt(*b.checksum))
	}
	if b.nodata != nil {
		_, n := gdalNoData(*b.nodata, b.float32Band)
		band.set("noDataValue", gdalJSONNoData(*b.nodata, n))
		rasterBand.set("nodata", stacCopy(gdalJSONNoData(*b.nodata, n), n == 0))
	}
	if len(b.overviews) > 0 {
		var ovs jsonArray
		for i, o := range b.overviews {
			ov := &jsonObject{}
			ov.set("size", jsonArray{jsonInt(o[0]), jsonInt(o[1])})
			if i < len(b.ovChecksums) {
				ov.set("checksum", jsonInt(b.ovChecksums[i]))
			}
			ovs = append(ovs, ov)
		}
		band.set("overviews", ovs)
	}
	if len(b.maskFlags) > 0 {
		m := &jsonObject{}
		var flags jsonArray
		for _, f := range b.maskFlags {
			flags = append(flags, jsonString(f))
		}
		m.set("flags", flags)
		ovs := jsonArray{}
		for _, o := range b.maskOverviews {
			ov := &jsonObject{}
			ov.set("size", jsonArray{jsonInt(o[0]), jsonInt(o[1])})
			ovs = append(ovs, ov)
		}
		m.set("overviews", ovs)
		band.set("mask", m)
	}
	if b.unit != "" {
		rasterBand.set("unit", jsonString(b.unit))
		band.set("unit", jsonString(b.unit))
	}
	if b.offset != 0 || b.scale != 1 {
		rasterBand.set("scale", stacCopy(gdalJSONNumber(b.scale, 15), false))
		rasterBand.set("offset", stacCopy(gdalJSONNumber(b.offset, 15), false))
		band.set("offset", gdalJSONNumber(b.offset, 15))
		band.set("scale", gdalJSONNumber(b.scale, 15))
	}
	band.set("metadata", metadataObject(b.metadata, b.imageStruct))
	if b.colorTable != nil {
		ct := &jsonObject{}
		ct.set("palette", jsonString("RGB"))
		ct.set("count", jsonInt(len(b.colorTable)))
		var entries jsonArray
		for _, e := range b.colorTable {
			entries = append(entries, jsonArray{jsonInt(int(e[0])), jsonInt(int(e[1])), jsonInt(int(e[2])), jsonInt(int(e[3]))})
		}
		ct.set("entries", entries)
		band.set("colorTable", ct)
	}
	return band, rasterBand, eoBand
}

// writeText writes gdalinfo's text layout.
func (gi *gdalInfo) writeText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Driver: GTiff/GeoTIFF\nFiles: %s\nSize is %d, %d\n", gi.description, gi.width, gi.height)
	if gi.hasCRS {
		if gi.crsText != "" {
			fmt.Fprintf(&b, "Coordinate System is:\n%s\n", gi.crsText)
		} else {
			fmt.Fprintf(&b, "Coordinate System is:\n%s\n", gi.crsName)
		}
		var am []string
		for _, a := range gi.axisMapping {
			am = append(am, strconv.Itoa(a))
		}
		fmt.Fprintf(&b, "Data axis to CRS axis mapping: %s\n", strings.Join(am, ","))
	}
	if g := gi.geoTransform; g != nil {
		if g[2] == 0 && g[4] == 0 {
			fmt.Fprintf(&b, "Origin = (%.15f,%.15f)\nPixel Size = (%.15f,%.15f)\n", g[0], g[3], g[1], g[5])
		} else {
			fmt.Fprintf(&b, "GeoTransform =\n  %s, %s, %s\n  %s, %s, %s\n", formatCg(g[0], 16), formatCg(g[1], 16), formatCg(g[2], 16),
				formatCg(g[3], 16), formatCg(g[4], 16), formatCg(g[5], 16))
		}
	}
	writeItems(&b, "", "Metadata", gi.metadata)
	writeItems(&b, "", "Image Structure Metadata", gi.imageStruct)
	b.WriteString("Corner Coordinates:\n")
	for _, c := range gi.corners {
		fmt.Fprintf(&b, "%-11s ", c.name)
		switch {
		case gi.geoTransform == nil:
			fmt.Fprintf(&b, "(%7.1f,%7.1f)\n", c.x, c.y)
			continue
		case math.Abs(c.x) < 181 && math.Abs(c.y) < 91:
			fmt.Fprintf(&b, "(%12.7f,%12.7f) ", c.x, c.y)
		default:
			fmt.Fprintf(&b, "(%12.3f,%12.3f) ", c.x, c.y)
		}
		if c.hasGeo {
			fmt.Fprintf(&b, "(%s,%s)", decToDMS(c.geoLon, "Long", 2), decToDMS(c.geoLat, "Lat", 2))
		}
		b.WriteByte('\n')
	}
	for _, bd := range gi.bands {
		bd.writeText(&b)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeText writes a band's part of gdalinfo's text layout.
func (bd *gdalBand) writeText(b *strings.Builder) {
	fmt.Fprintf(b, "Band %d Block=%dx%d Type=%s, ColorInterp=%s\n", bd.band, bd.block[0], bd.block[1], bd.typeName, bd.colorInterp)
	if bd.description != "" {
		fmt.Fprintf(b, "  Description = %s\n", bd.description)
	}
	if bd.storedMin != nil || bd.storedMax != nil {
		b.WriteString("  ")
		if bd.storedMin != nil {
			fmt.Fprintf(b, "Min=%.3f ", *bd.storedMin)
		}
		if bd.storedMax != nil {
			fmt.Fprintf(b, "Max=%.3f ", *bd.storedMax)
		}
		b.WriteByte('\n')
	}
	if s := bd.stats; s != nil {
		fmt.Fprintf(b, "  Minimum=%.3f, Maximum=%.3f, Mean=%.3f, StdDev=%.3f\n", s.Min, s.Max, s.Mean, s.StdDev)
	}
	if bd.checksum != nil {
		fmt.Fprintf(b, "  Checksum=%d\n", *bd.checksum)
	}
	if bd.nodata != nil {
		if math.IsNaN(*bd.nodata) {
			b.WriteString("  NoData Value=nan\n")
		} else {
			text, _ := gdalNoData(*bd.nodata, bd.float32Band)
			fmt.Fprintf(b, "  NoData Value=%s\n", text)
		}
	}
	if len(bd.overviews) > 0 {
		var s []string
		for _, o := range bd.overviews {
			s = append(s, fmt.Sprintf("%dx%d", o[0], o[1]))
		}
		fmt.Fprintf(b, "  Overviews: %s\n", strings.Join(s, ", "))
		if len(bd.ovChecksums) > 0 {
			var cs []string
			for _, c := range bd.ovChecksums {
				cs = append(cs, strconv.Itoa(c))
			}
			fmt.Fprintf(b, "  Overviews checksum: %s\n", strings.Join(cs, ", "))
		}
	}
	if len(bd.maskFlags) > 0 {
		fmt.Fprintf(b, "  Mask Flags: %s \n", strings.Join(bd.maskFlags, " "))
		if len(bd.maskOverviews) > 0 {
			var s []string
			for _, o := range bd.maskOverviews {
				s = append(s, fmt.Sprintf("%dx%d", o[0], o[1]))
			}
			fmt.Fprintf(b, "  Overviews of mask band: %s\n", strings.Join(s, ", "))
		}
	}
	if bd.unit != "" {
		fmt.Fprintf(b, "  Unit Type: %s\n", bd.unit)
	}
	if bd.offset != 0 || bd.scale != 1 {
		fmt.Fprintf(b, "  Offset: %s,   Scale:%s\n", formatCg(bd.offset, 15), formatCg(bd.scale, 15))
	}
	writeItems(b, "  ", "Metadata", bd.metadata)
	writeItems(b, "  ", "Image Structure Metadata", bd.imageStruct)
	if bd.colorTable != nil {
		fmt.Fprintf(b, "  Color Table (RGB with %d entries)\n", len(bd.colorTable))
		for i, e := range bd.colorTable {
			fmt.Fprintf(b, "  %3d: %d,%d,%d,%d\n", i, e[0], e[1], e[2], e[3])
		}
	}
}

// writeItems writes a metadata domain ("Metadata:" and its items).
func writeItems(b *strings.Builder, indent, title string, items []mdItem) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(b, "%s%s:\n", indent, title)
	for _, it := range items {
		fmt.Fprintf(b, "%s  %s=%s\n", indent, it.key, it.value)
	}
}

// decToDMS formats an angle as GDAL's GDALDecToDMS: " 78d57'31.14\"W".
func decToDMS(angle float64, axis string, prec int) string {
	if math.IsNaN(angle) {
		return "Invalid angle"
	}
	eps := float64(float64(0.5/3600.0) * math.Pow(0.1, float64(prec))) // float64(): no fused multiply-add (arm64)
	abs := math.Abs(angle) + eps
	if abs > 361 {
		return "Invalid angle"
	}
	deg := int(abs)
	minutes := int(float64(abs-float64(deg)) * 60)
	sec := float64(abs*3600) - float64(deg*3600) - float64(minutes*60)
	if sec > float64(eps*3600) {
		sec -= float64(eps * 3600)
	}
	hemi := "N"
	switch {
	case axis == "Long" && angle < 0:
		hemi = "W"
	case axis == "Long":
		hemi = "E"
	case angle < 0:
		hemi = "S"
	}
	return fmt.Sprintf("%3dd%2d'%*.*f\"%s", deg, minutes, prec+3, prec, sec, hemi)
}
