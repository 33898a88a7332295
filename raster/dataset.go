package raster

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/raster/geotiff"
)

// Dataset is an open GeoTIFF: the first image of the file with its
// georeferencing, read through raster/geotiff. Its methods are safe for
// concurrent use.
type Dataset struct {
	img    *geotiff.Image
	closer io.Closer
	limits atomic.Pointer[Limits]
}

// Open opens a GeoTIFF from a local path or, for "http://" and "https://"
// names, from a web server with HTTP range requests (like GDAL's
// /vsicurl/): the header and directories are read in small cached chunks,
// each block the reads need with one request of its own. Options set the
// context of every request, the HTTP client, extra headers, a per-request
// timeout and retries with backoff (see OpenOption); for local files only
// the context applies (it is checked before opening).
func Open(name string, opts ...OpenOption) (*Dataset, error) {
	c := openConfig{ctx: context.Background()}
	for _, o := range opts {
		o(&c)
	}
	if err := c.ctx.Err(); err != nil {
		return nil, fmt.Errorf("raster: %w", err)
	}
	if strings.HasPrefix(name, "http://") || strings.HasPrefix(name, "https://") {
		hr, err := newHTTPReader(name, c)
		if err != nil {
			return nil, err
		}
		d, err := OpenReaderAt(hr, hr.Size())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return d, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("raster: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("raster: %w", err)
	}
	d, err := OpenReaderAt(f, st.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	d.closer = f
	return d, nil
}

// OpenReaderAt opens a GeoTIFF held by r, which is size bytes long. Only the
// header, the first IFD and its tag values are read; pixel data is read on
// demand.
func OpenReaderAt(r io.ReaderAt, size int64) (*Dataset, error) {
	return openFirstImage(geotiff.NewReader(r, size))
}

// OpenBytes opens a GeoTIFF held in memory, as OpenReaderAt does with a
// bytes.Reader, except that blocks are decompressed straight from b
// instead of being copied out first. b must not change while the dataset
// is in use.
func OpenBytes(b []byte) (*Dataset, error) {
	return openFirstImage(geotiff.NewBytesReader(b))
}

// openFirstImage returns the dataset of tr's first image.
func openFirstImage(tr *geotiff.Reader, err error) (*Dataset, error) {
	if err != nil {
		return nil, err
	}
	img, err := tr.Image()
	if err != nil {
		return nil, err
	}
	return &Dataset{img: img}, nil
}

// Close releases the file opened by Open; it is a no-op for datasets opened
// with OpenReaderAt.
func (d *Dataset) Close() error {
	if d.closer != nil {
		err := d.closer.Close()
		d.closer = nil
		return err
	}
	return nil
}

// Width returns the raster width in pixels.
func (d *Dataset) Width() int { return d.img.Width() }

// Height returns the raster height in pixels.
func (d *Dataset) Height() int { return d.img.Height() }

// Count returns the number of bands (samples per pixel).
func (d *Dataset) Count() int { return d.img.Count() }

// DataType returns the sample type every band is read as.
func (d *Dataset) DataType() DataType { return d.img.DataType() }

// Transform returns the affine geotransform in rasterio order and whether
// the file has one (ModelPixelScale+ModelTiepoint or ModelTransformation).
// PixelIsPoint rasters are shifted by half a pixel, as GDAL does.
func (d *Dataset) Transform() (crs.Affine, bool) { return d.img.Transform() }

// EPSG returns the EPSG code of the raster's CRS, or 0 when it has none or
// it cannot be identified.
func (d *Dataset) EPSG() int { return d.img.EPSG() }

// GeoKeys returns the parsed GeoKey directory, or nil when absent.
func (d *Dataset) GeoKeys() *crs.GeoKeyDirectory { return d.img.GeoKeys() }

// NoData returns the GDAL_NODATA value and whether it is set.
func (d *Dataset) NoData() (float64, bool) { return d.img.NoData() }

// BandDescription returns the description of band (1-based) from the
// GDAL_METADATA tag, or "" when it has none or band is out of range.
func (d *Dataset) BandDescription(band int) string { return d.img.BandDescription(band) }

// Metadata returns a copy of the dataset-level items of GDAL_METADATA.
func (d *Dataset) Metadata() map[string]string { return d.img.Metadata() }

// BandMetadata returns a copy of band's (1-based) GDAL_METADATA items other
// than its description (for example SCALE, OFFSET, STATISTICS_*).
func (d *Dataset) BandMetadata(band int) map[string]string { return d.img.BandMetadata(band) }

// Structure describes how the pixels are stored in the file.
type Structure = geotiff.Structure

// Structure returns the file's storage layout.
func (d *Dataset) Structure() Structure { return d.img.Structure() }

// TIFFTags returns the baseline TIFF text and resolution tags of the image
// as GDAL reports them in its default metadata domain: TIFFTAG_SOFTWARE,
// TIFFTAG_DATETIME, TIFFTAG_XRESOLUTION ("72"), TIFFTAG_RESOLUTIONUNIT
// ("2 (pixels/inch)") and the others that are present.
func (d *Dataset) TIFFTags() map[string]string { return d.img.TIFFTags() }

// COGLayout reports whether the file carries the layout header of GDAL's
// Cloud Optimized GeoTIFF driver (GDAL reports it as LAYOUT=COG).
func (d *Dataset) COGLayout() bool { return d.img.COGLayout() }

// ColorInterpretation returns GDAL's colour interpretation name of band
// (1-based): Gray, Red, Green, Blue, Alpha, Palette, Cyan, Magenta, Yellow,
// Black or Undefined, derived from the photometric interpretation and the
// extra samples as GDAL's GeoTIFF driver derives them.
func (d *Dataset) ColorInterpretation(band int) string { return d.img.ColorInterpretation(band) }

// AlphaBand returns the band (1-based) that is an alpha channel, or 0.
func (d *Dataset) AlphaBand() int { return d.img.AlphaBand() }

// ColorTable returns the palette of a paletted image as RGBA entries of 0
// to 255, as GDAL reports them; nil when there is none.
func (d *Dataset) ColorTable() [][4]uint8 { return d.img.ColorTable() }

// OffsetScale returns band's (1-based) offset and scale from GDAL_METADATA
// (a physical value is raw*scale + offset); 0 and 1 when absent.
func (d *Dataset) OffsetScale(band int) (offset, scale float64) { return d.img.OffsetScale(band) }

// Unit returns band's (1-based) unit of measure from GDAL_METADATA, or "".
func (d *Dataset) Unit(band int) string { return d.img.Unit(band) }

// OverviewCount returns the number of reduced-resolution images
// (overviews) stored in the file after the main image, as GDAL lists them.
func (d *Dataset) OverviewCount() int { return d.img.OverviewCount() }

// Overview returns overview i (0 for the largest, in file order) as a
// dataset of its own: its pixels are read like the main image's, its
// geotransform is the main one scaled to the overview's size, and it
// shares the main image's CRS and nodata. It shares the file with d: it
// needs no Close and must not be used after d is closed. It reads with d's
// limits at the time of the call (SetLimits changes them).
func (d *Dataset) Overview(i int) (*Dataset, error) { return d.sub(d.img.Overview(i)) }

// HasMask reports whether the file holds an internal mask (a
// transparency subfile, as GDAL writes with GDAL_TIFF_INTERNAL_MASK).
func (d *Dataset) HasMask() bool { return d.img.HasMask() }

// Mask returns the internal mask as a one-band dataset (255 valid, 0
// invalid) whose overviews are the mask's reduced-resolution images; it is
// an error when the file has none (see HasMask). Like Overview, it shares
// d's file.
func (d *Dataset) Mask() (*Dataset, error) { return d.sub(d.img.Mask()) }

// sub wraps a reduced image of d's file with d's limits.
func (d *Dataset) sub(img *geotiff.Image, err error) (*Dataset, error) {
	if err != nil {
		return nil, err
	}
	s := &Dataset{img: img}
	if l := d.limits.Load(); l != nil {
		s.limits.Store(l)
	}
	return s, nil
}
