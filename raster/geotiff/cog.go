package geotiff

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/airbusgeo/cogger"
	"github.com/geodisaster/engine/internal/cfmt"
)

// WriteCOG encodes p as a Cloud Optimized GeoTIFF with e's compressors:
// the tiled image of Write plus overviews halving the size until the image fits one tile,
// laid out by github.com/airbusgeo/cogger (IFDs first, overviews' tiles
// before the full-resolution ones, GDAL's ghost-area hints). Overviews use
// nearest-neighbour sampling at pixel centres (GDAL's NEAREST), which
// keeps class and mask values intact. The output is deterministic.
func (e *Encoder) WriteCOG(w io.Writer, p Planes, opts WriteOptions) error {
	ctx := context.Background()
	main, err := encodeImage(ctx, e.codecs.reg, p, opts, 0)
	if err != nil {
		return err
	}
	var total uint64
	for _, t := range main.tiles {
		total += uint64(len(t))
	}
	root, err := main.coggerIFD(true)
	if err != nil {
		return err
	}
	level := p
	for lw, lh := main.width, main.height; lw > main.tile || lh > main.tile; {
		lw, lh = (lw+1)/2, (lh+1)/2
		level = level.decimate(lw, lh)
		ovOpts := opts
		ovOpts.BandDescriptions = nil
		ov, err := encodeImage(ctx, e.codecs.reg, level, ovOpts, 1)
		if err != nil {
			return err
		}
		for _, t := range ov.tiles {
			total += uint64(len(t))
		}
		ifd, err := ov.coggerIFD(false)
		if err != nil {
			return err
		}
		if err := root.AddOverview(ifd); err != nil {
			return fmt.Errorf("raster: COG overview: %w", err)
		}
	}
	cfg := cogger.DefaultConfig()
	cfg.BigTIFF = total > math.MaxUint32-(64<<20)
	if err := cfg.RewriteIFDTree(root, w); err != nil {
		return fmt.Errorf("raster: COG: %w", err)
	}
	return nil
}

// decimate resamples p to w x h by nearest neighbour at pixel centres.
func (p Planes) decimate(w, h int) Planes {
	out := Planes{Width: w, Height: h, Type: p.Type, Data: make([][]byte, len(p.Data))}
	size := p.Type.Size()
	sx := float64(p.Width) / float64(w)
	sy := float64(p.Height) / float64(h)
	for i, src := range p.Data {
		dst := make([]byte, w*h*size)
		for y := 0; y < h; y++ {
			yy := min(int((float64(y)+0.5)*sy), p.Height-1)
			for x := 0; x < w; x++ {
				xx := min(int((float64(x)+0.5)*sx), p.Width-1)
				copy(dst[(y*w+x)*size:(y*w+x+1)*size], src[(yy*p.Width+xx)*size:])
			}
		}
		out.Data[i] = dst
	}
	return out
}

// coggerIFD describes the encoded image for cogger.
func (img *encodedImage) coggerIFD(main bool) (*cogger.IFD, error) {
	bps := make([]uint16, img.spp)
	sf := make([]uint16, img.spp)
	for i := range bps {
		bps[i] = uint16(8 * img.dtype.Size())
		sf[i] = sampleFormat(img.dtype)
	}
	ifd := &cogger.IFD{
		ImageWidth:                uint64(img.width),
		ImageHeight:               uint64(img.height),
		BitsPerSample:             bps,
		Compression:               uint16(img.compression),
		PhotometricInterpretation: photoMinIsBlack,
		SamplesPerPixel:           uint16(img.spp),
		PlanarConfiguration:       1,
		TileWidth:                 uint16(img.tile),
		TileHeight:                uint16(img.tile),
		SampleFormat:              sf,
	}
	if img.spp > 1 {
		ifd.PlanarConfiguration = 2
		ifd.ExtraSamples = make([]uint16, img.spp-1)
	}
	if img.predictor != 1 {
		ifd.Predictor = uint16(img.predictor)
	}
	ifd.TileByteCounts = make([]uint64, len(img.tiles))
	ifd.TileOffsets = make([]uint64, len(img.tiles))
	for i, t := range img.tiles {
		ifd.TileByteCounts[i] = uint64(len(t))
	}
	tiles := img.tiles
	ifd.LoadTile = func(idx int, data []byte) error {
		if idx < 0 || idx >= len(tiles) || len(data) != len(tiles[idx]) {
			return fmt.Errorf("raster: COG tile %d out of range", idx)
		}
		copy(data, tiles[idx])
		return nil
	}
	if !main {
		if img.opts.NoData != nil {
			ifd.NoData = cfmt.FormatG(*img.opts.NoData, -1)
		}
		return ifd, nil
	}
	geo, err := img.geoEntries(true, 1)
	if err != nil {
		return nil, err
	}
	for _, e := range geo {
		switch e.Tag {
		case TagModelPixelScale:
			ifd.ModelPixelScaleTag = decodeDoubles(e.Data)
		case TagModelTiepoint:
			ifd.ModelTiePointTag = decodeDoubles(e.Data)
		case TagModelTransform:
			ifd.ModelTransformationTag = decodeDoubles(e.Data)
		case TagGeoKeyDirectory:
			ifd.GeoKeyDirectoryTag = decodeShorts(e.Data)
		case TagGDALMetadata:
			ifd.GDALMetaData = string(e.Data[:len(e.Data)-1])
		case TagGDALNoData:
			ifd.NoData = string(e.Data[:len(e.Data)-1])
		}
	}
	return ifd, nil
}

func decodeDoubles(b []byte) []float64 {
	out := make([]float64, len(b)/8)
	for i := range out {
		out[i] = math.Float64frombits(uint64(b[8*i]) | uint64(b[8*i+1])<<8 | uint64(b[8*i+2])<<16 | uint64(b[8*i+3])<<24 |
			uint64(b[8*i+4])<<32 | uint64(b[8*i+5])<<40 | uint64(b[8*i+6])<<48 | uint64(b[8*i+7])<<56)
	}
	return out
}

func decodeShorts(b []byte) []uint16 {
	out := make([]uint16, len(b)/2)
	for i := range out {
		out[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return out
}
