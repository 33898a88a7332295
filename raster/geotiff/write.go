package geotiff

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/geodisaster/engine/crs"
	"github.com/geodisaster/engine/internal/cfmt"
	"github.com/geodisaster/engine/raster/internal/codec"
	"github.com/geodisaster/engine/raster/internal/tiff"
)

// WriteOptions controls how Write and WriteCOG encode a GeoTIFF.
type WriteOptions struct {
	// Compression is "none", "deflate" (the default when empty), "zstd"
	// or the name of a compressor registered with an Encoder.
	Compression string
	// Predictor is 1 (none, the default when 0), 2 (horizontal
	// differencing) or 3 (floating point; float bands only).
	Predictor int
	// TileSize is the tile width and height in pixels, a multiple of 16
	// (default 256).
	TileSize int
	// NoData, when set, is written as the GDAL_NODATA tag.
	NoData *float64
	// EPSG is the CRS code to declare in the GeoKeys (0 for none).
	EPSG int
	// Transform is the geotransform in rasterio order; the zero value
	// writes no georeferencing.
	Transform crs.Affine
	// BandDescriptions, when non-empty, sets each band's description in
	// the GDAL_METADATA tag.
	BandDescriptions []string
}

// Planes is an image held in memory to encode: Width x Height pixels of
// Type, one row-major slice of samples per band, in the host's byte order
// (PlanesOf builds one from typed slices).
type Planes struct {
	Width, Height int
	Type          DataType
	Data          [][]byte
}

// PlanesOf returns the Planes of bands of width x height samples of type
// T, sharing their memory.
func PlanesOf[T Sample](width, height int, bands ...[]T) Planes {
	p := Planes{Width: width, Height: height, Type: dataTypeOf[T](), Data: make([][]byte, len(bands))}
	for i, b := range bands {
		p.Data[i] = asBytes(b)
	}
	return p
}

// check validates that the planes are non-empty and consistent.
func (p Planes) check() error {
	if len(p.Data) == 0 {
		return fmt.Errorf("raster: no bands to write")
	}
	if len(p.Data) > 65535 {
		return fmt.Errorf("raster: %d bands is too many", len(p.Data))
	}
	if p.Width <= 0 || p.Height <= 0 || p.Type.Size() == 0 {
		return fmt.Errorf("raster: cannot write a %dx%d %v image", p.Width, p.Height, p.Type)
	}
	n := p.Width * p.Height * p.Type.Size()
	if n/p.Height/p.Type.Size() != p.Width {
		return fmt.Errorf("raster: image size %dx%d overflows", p.Width, p.Height)
	}
	for i, b := range p.Data {
		if len(b) != n {
			return fmt.Errorf("raster: band %d has %d bytes, want %d", i+1, len(b), n)
		}
	}
	return nil
}

// Write encodes p as a tiled, band-interleaved GeoTIFF with the package's
// compressors (see Encoder). Its output depends only on its inputs: the
// same planes and options give the same bytes on every run and platform.
// Files that would exceed 4 GiB are written as BigTIFF.
func Write(w io.Writer, p Planes, opts WriteOptions) error { return defaultEncoder.Write(w, p, opts) }

// WriteCOG encodes p as a Cloud Optimized GeoTIFF with the package's
// compressors (see Encoder.WriteCOG).
func WriteCOG(w io.Writer, p Planes, opts WriteOptions) error {
	return defaultEncoder.WriteCOG(w, p, opts)
}

// An Encoder writes GeoTIFFs with the package's compressors (none,
// DEFLATE, ZSTD) and those registered with its RegisterCompressor
// method; the zero value is not usable, NewEncoder returns one. It is
// safe for concurrent use once registration is done.
type Encoder struct {
	codecs codecTable
}

// defaultEncoder writes with the package's table.
var defaultEncoder = NewEncoder()

// NewEncoder returns an Encoder with the package's compressors.
func NewEncoder() *Encoder { return &Encoder{codecs: codecTable{reg: codecs}} }

// A BlockEncoder compresses whole blocks: Encode returns the compressed
// form of raw in a new slice, and Close releases the encoder's
// resources. It is used by one goroutine at a time.
type BlockEncoder = codec.Encoder

// A Compressor returns a new BlockEncoder; each goroutine encoding tiles
// gets its own.
type Compressor func() BlockEncoder

// RegisterCompressor makes e write WriteOptions.Compression name (matched
// ignoring case) as TIFF Compression tag value method with encoders from
// comp, replacing the package's compressor of that value, if any.
func (e *Encoder) RegisterCompressor(method int, name string, comp Compressor) {
	e.codecs.register(&codec.Codec{Code: method, Name: name, NewEncoder: func() codec.Encoder { return comp() }})
}

// Write encodes p as a tiled, band-interleaved GeoTIFF, like the
// package's Write, with e's compressors.
func (e *Encoder) Write(w io.Writer, p Planes, opts WriteOptions) error {
	img, err := encodeImage(context.Background(), e.codecs.reg, p, opts, 0)
	if err != nil {
		return err
	}
	return img.writeTIFF(w)
}

// encodedImage is one image's encoded tiles and tags, ready to be laid out.
type encodedImage struct {
	width, height int
	spp           int
	dtype         DataType
	tile          int
	compression   int
	predictor     int
	tiles         [][]byte // plane-major, then row-major tiles
	opts          WriteOptions
	subfileType   int
}

// encodeImage compresses bands into tiles, concurrently.
func encodeImage(ctx context.Context, codecs *codec.Registry, p Planes, opts WriteOptions, subfile int) (*encodedImage, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	img := &encodedImage{width: p.Width, height: p.Height, spp: len(p.Data), dtype: p.Type,
		tile: opts.TileSize, predictor: opts.Predictor, opts: opts, subfileType: subfile}
	if img.tile == 0 {
		img.tile = 256
	}
	if img.tile < 16 || img.tile%16 != 0 || img.tile > 1<<15 {
		return nil, fmt.Errorf("raster: tile size %d is not a multiple of 16 in [16, 32768]", img.tile)
	}
	name := opts.Compression
	if name == "" {
		name = "deflate"
	}
	c := codecs.Encoder(name)
	if c == nil {
		var names []string
		for _, e := range codecs.Encoders() {
			names = append(names, strings.ToLower(e.Name))
		}
		return nil, fmt.Errorf("raster: unsupported write compression %q (%s)", opts.Compression, strings.Join(names, ", "))
	}
	img.compression = c.Code
	switch img.predictor {
	case 0:
		img.predictor = 1
	case 1, 2:
	case 3:
		if !img.dtype.IsFloat() {
			return nil, fmt.Errorf("raster: predictor 3 needs float bands, not %v", img.dtype)
		}
	default:
		return nil, fmt.Errorf("raster: unsupported predictor %d", opts.Predictor)
	}
	if img.compression == CompressionNone {
		img.predictor = 1
	}
	tx, ty := (img.width+img.tile-1)/img.tile, (img.height+img.tile-1)/img.tile
	n := tx * ty * img.spp
	img.tiles = make([][]byte, n)
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	wg.Add(workers)
	for k := 0; k < workers; k++ {
		go func() {
			defer wg.Done()
			enc := &tileEncoder{codec: c.NewEncoder()}
			defer enc.codec.Close()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := ctx.Err(); err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
				plane, t := i/(tx*ty), i%(tx*ty)
				data, err := enc.encode(img, p.Data[plane], (t%tx)*img.tile, (t/tx)*img.tile)
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
				img.tiles[i] = data
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return img, nil
}

// tileEncoder holds one goroutine's reusable compression state.
type tileEncoder struct {
	raw   []byte
	tmp   []byte
	codec codec.Encoder
}

// encode extracts, predicts and compresses the tile whose top-left pixel
// is (x0, y0). Pixels outside the image are zero.
func (e *tileEncoder) encode(img *encodedImage, src []byte, x0, y0 int) ([]byte, error) {
	size := img.dtype.Size()
	rowLen := img.tile * size
	e.raw = grow(e.raw, rowLen*img.tile)
	raw := e.raw
	clear(raw)
	w := min(img.tile, img.width-x0)
	for r := 0; r < img.tile && y0+r < img.height; r++ {
		o := ((y0+r)*img.width + x0) * size
		copy(raw[r*rowLen:r*rowLen+w*size], src[o:o+w*size])
	}
	switch img.predictor {
	case 2:
		tiff.ApplyHorizontal(raw, rowLen, img.tile, size)
		if !tiff.NativeLE && size > 1 {
			tiff.SwapBytes(raw, size)
		}
	case 3:
		e.tmp = grow(e.tmp, rowLen)
		tiff.ApplyFloat(raw, rowLen, img.tile, size, e.tmp)
	default:
		if !tiff.NativeLE && size > 1 {
			tiff.SwapBytes(raw, size)
		}
	}
	return e.codec.Encode(raw)
}

// sampleFormat returns the TIFF SampleFormat of t.
func sampleFormat(t DataType) uint16 {
	switch t {
	case Int8, Int16, Int32:
		return 2
	case Float32, Float64:
		return 3
	}
	return 1
}

// escapeXML escapes text for XML content and attributes.
func escapeXML(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&apos;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// gdalMetadataXML returns the GDAL_METADATA value declaring band
// descriptions (escaped twice, as GDAL writes them), or "".
func gdalMetadataXML(desc []string) string {
	var b strings.Builder
	any := false
	for i, d := range desc {
		if d == "" {
			continue
		}
		if !any {
			b.WriteString("<GDALMetadata>\n")
			any = true
		}
		fmt.Fprintf(&b, "  <Item name=\"DESCRIPTION\" sample=\"%d\" role=\"description\">%s</Item>\n", i, escapeXML(escapeXML(d)))
	}
	if !any {
		return ""
	}
	b.WriteString("</GDALMetadata>\n")
	return b.String()
}

// geoEntries returns the georeferencing, nodata and metadata tags.
func (img *encodedImage) geoEntries(main bool, scale float64) ([]Entry, error) {
	var es []Entry
	t := img.opts.Transform
	if t != (crs.Affine{}) {
		if err := t.Validate(); err != nil {
			return nil, fmt.Errorf("raster: transform: %w", err)
		}
		if scale != 1 {
			t[0], t[1], t[3], t[4] = t[0]*scale, t[1]*scale, t[3]*scale, t[4]*scale
		}
		if t.IsRectilinear() && t[0] > 0 && t[4] < 0 {
			es = append(es, DoublesEntry(TagModelPixelScale, t[0], -t[4], 0),
				DoublesEntry(TagModelTiepoint, 0, 0, 0, t[2], t[5], 0))
		} else {
			es = append(es, DoublesEntry(TagModelTransform,
				t[0], t[1], 0, t[2], t[3], t[4], 0, t[5], 0, 0, 0, 0, 0, 0, 0, 1))
		}
	}
	if main && img.opts.EPSG != 0 {
		keys, err := crs.GeoKeysForEPSG(img.opts.EPSG)
		if err != nil {
			return nil, fmt.Errorf("raster: %w", err)
		}
		es = append(es, ShortsEntry(TagGeoKeyDirectory, keys...))
	}
	if main {
		if md := gdalMetadataXML(img.opts.BandDescriptions); md != "" {
			es = append(es, ASCIIEntry(TagGDALMetadata, md))
		}
	}
	if img.opts.NoData != nil {
		es = append(es, ASCIIEntry(TagGDALNoData, cfmt.FormatG(*img.opts.NoData, -1)))
	}
	return es, nil
}

// entries returns the image's IFD entries except the tile offsets, with
// the tile byte counts.
func (img *encodedImage) entries(big bool) ([]Entry, error) {
	bps := make([]uint16, img.spp)
	sf := make([]uint16, img.spp)
	for i := range bps {
		bps[i] = uint16(8 * img.dtype.Size())
		sf[i] = sampleFormat(img.dtype)
	}
	es := []Entry{
		LongEntry(TagImageWidth, uint32(img.width)),
		LongEntry(TagImageLength, uint32(img.height)),
		ShortsEntry(TagBitsPerSample, bps...),
		ShortsEntry(TagCompression, uint16(img.compression)),
		ShortsEntry(TagPhotometric, photoMinIsBlack),
		ShortsEntry(TagSamplesPerPixel, uint16(img.spp)),
		ShortsEntry(TagPlanarConfig, 2),
		ShortsEntry(TagTileWidth, uint16(img.tile)),
		ShortsEntry(TagTileLength, uint16(img.tile)),
		ShortsEntry(TagSampleFormat, sf...),
	}
	if img.spp == 1 {
		es[6] = ShortsEntry(TagPlanarConfig, 1)
	}
	if img.subfileType != 0 {
		es = append(es, LongEntry(TagNewSubfileType, uint32(img.subfileType)))
	}
	if img.predictor != 1 {
		es = append(es, ShortsEntry(TagPredictor, uint16(img.predictor)))
	}
	if img.spp > 1 {
		es = append(es, ShortsEntry(TagExtraSamples, make([]uint16, img.spp-1)...))
	}
	counts := make([]byte, 0, len(img.tiles)*8)
	for _, t := range img.tiles {
		if big {
			counts = binary.LittleEndian.AppendUint64(counts, uint64(len(t)))
		} else {
			counts = binary.LittleEndian.AppendUint32(counts, uint32(len(t)))
		}
	}
	typ := uint16(TypeLong)
	if big {
		typ = TypeLong8
	}
	es = append(es, Entry{Tag: TagTileByteCounts, Type: typ, Count: uint64(len(img.tiles)), Data: counts})
	geo, err := img.geoEntries(true, 1)
	if err != nil {
		return nil, err
	}
	return append(es, geo...), nil
}

// writeTIFF lays the image out as header, IFD, tag values, tile data.
func (img *encodedImage) writeTIFF(w io.Writer) error {
	var dataLen uint64
	for _, t := range img.tiles {
		dataLen += uint64(len(t))
	}
	big := dataLen > math.MaxUint32-(64<<20)
	es, err := img.entries(big)
	if err != nil {
		return err
	}
	offType, offSize := uint16(TypeLong), 4
	if big {
		offType, offSize = TypeLong8, 8
	}
	offsets := make([]byte, len(img.tiles)*offSize)
	es = append(es, Entry{Tag: TagTileOffsets, Type: offType, Count: uint64(len(img.tiles)), Data: offsets})
	sort.Slice(es, func(i, j int) bool { return es[i].Tag < es[j].Tag })
	hdrLen := uint64(8)
	if big {
		hdrLen = 16
	}
	// Size the IFD and its out-of-line values, then fill in tile offsets.
	ifdBytes := EncodeIFD(es, hdrLen, big)
	pos := hdrLen + uint64(len(ifdBytes))
	for i, t := range img.tiles {
		if big {
			binary.LittleEndian.PutUint64(offsets[8*i:], pos)
		} else {
			binary.LittleEndian.PutUint32(offsets[4*i:], uint32(pos))
		}
		pos += uint64(len(t))
	}
	ifdBytes = EncodeIFD(es, hdrLen, big)
	var hdr []byte
	if big {
		hdr = []byte{'I', 'I', 43, 0, 8, 0, 0, 0}
		hdr = binary.LittleEndian.AppendUint64(hdr, hdrLen)
	} else {
		hdr = []byte{'I', 'I', 42, 0}
		hdr = binary.LittleEndian.AppendUint32(hdr, uint32(hdrLen))
	}
	if _, err := w.Write(hdr); err != nil {
		return fmt.Errorf("raster: write: %w", err)
	}
	if _, err := w.Write(ifdBytes); err != nil {
		return fmt.Errorf("raster: write: %w", err)
	}
	for _, t := range img.tiles {
		if _, err := w.Write(t); err != nil {
			return fmt.Errorf("raster: write: %w", err)
		}
	}
	return nil
}
