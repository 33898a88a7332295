package geotiff

import "fmt"

// OverviewCount returns the number of reduced-resolution images
// (overviews) stored in the file after the main image, as GDAL lists them.
func (d *Image) OverviewCount() int { return len(d.overviewIFDs) }

// Overview parses overview i (0 for the largest, in file order): its
// geotransform is the main one scaled to the overview's size, and it
// shares the main image's CRS and nodata. An overview whose band count or
// sample type differs from the image's is a FormatError.
func (d *Image) Overview(i int) (*Image, error) {
	if i < 0 || i >= len(d.overviewIFDs) {
		return nil, fmt.Errorf("raster: overview %d out of range (the file has %d)", i, len(d.overviewIFDs))
	}
	o, err := d.subImage(d.overviewIFDs[i], "overview")
	if err != nil {
		return nil, err
	}
	if o.spp != d.spp || o.dtype != d.dtype {
		return nil, FormatError(fmt.Sprintf("overview %d has %d %s bands, the image %d %s bands", i, o.spp, o.dtype, d.spp, d.dtype))
	}
	o.inheritGeo(d)
	return o, nil
}

// HasMask reports whether the file holds an internal mask (a
// transparency subfile, as GDAL writes with GDAL_TIFF_INTERNAL_MASK).
func (d *Image) HasMask() bool { return d.maskIFD != 0 }

// Mask parses the internal mask as a one-band image (255 valid, 0
// invalid) whose overviews are the mask's reduced-resolution images; it is
// an error when the file has none (see HasMask).
func (d *Image) Mask() (*Image, error) {
	if d.maskIFD == 0 {
		return nil, fmt.Errorf("raster: the file has no internal mask")
	}
	m, err := d.subImage(d.maskIFD, "mask")
	if err != nil {
		return nil, err
	}
	m.inheritGeo(d)
	m.overviewIFDs = d.maskOvIFDs
	return m, nil
}

// subImage parses the image of the IFD at off.
func (d *Image) subImage(off uint64, what string) (s *Image, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, FormatError(fmt.Sprintf("internal error while parsing the %s: %v", what, p))
		}
	}()
	f, err := ReadIFD(d.r, d.size, d.hdr, off)
	if err != nil {
		return nil, err
	}
	s = &Image{r: d.r, mem: d.mem, size: d.size, hdr: d.hdr, ifd: f, codecs: d.codecs}
	if err := s.parseImage(f); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	s.metadata = map[string]string{}
	s.bandMeta = make([]map[string]string, s.spp)
	s.descriptions = make([]string, s.spp)
	s.bandRoles = make([]bandRoles, s.spp)
	s.parseTIFFTags(f)
	return s, nil
}

// inheritGeo gives a reduced image d's CRS, nodata and the geotransform of
// its full-resolution image p scaled to its size.
func (d *Image) inheritGeo(p *Image) {
	d.geoKeys, d.epsg = p.geoKeys, p.epsg
	d.nodata, d.hasNoData = p.nodata, p.hasNoData
	if p.hasTransform {
		sx := float64(p.width) / float64(d.width)
		sy := float64(p.height) / float64(d.height)
		t := p.transform
		d.transform = [6]float64{float64(t[0] * sx), float64(t[1] * sy), t[2], float64(t[3] * sx), float64(t[4] * sy), t[5]}
		d.hasTransform = true
	}
}
